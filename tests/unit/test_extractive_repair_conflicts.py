"""Repair values a conflict's sides as the gate's conflict findings read them (`extractive_repair`)."""

from __future__ import annotations

from typing import cast

from quotebound.agent.core.contracts import Fact, Support
from quotebound.agent.models.extractive_calc import ToolBudget
from quotebound.agent.models.extractive_repair import conflict_values, with_conflict_values
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_write import find_conflicts

PAIR = (
    "fact 0 and fact 1 give different values for the same subject: 'Lakeport' (a.txt p.1 L3-L3) and "
    "'Port Ellis, Maine' (b.txt p.2 L1-L1); list both in evidence.conflicts with their quotes and locators"
)
STATES = (
    "c.txt p.1 L4-L4 states 'Dunmore' where fact 0 states 'Lakeport' (a.txt p.1 L3-L3), for the same subject; list "
    "both values in evidence.conflicts with their quotes and locators, or answer with both"
)


def test_each_named_place_gets_the_value_the_finding_reads_there() -> None:
    found = conflict_values([PAIR, STATES])
    assert found == {
        ("a.txt", "p.1 L3-L3"): "Lakeport",
        ("b.txt", "p.2 L1-L1"): "Port Ellis, Maine",
        ("c.txt", "p.1 L4-L4"): "Dunmore",
    }


def test_findings_about_other_things_name_no_values() -> None:
    other = "fact 0 support 0: the quote 'Lakeport' (a.txt p.1 L3-L3) is not verbatim at its locator"
    assert conflict_values([other]) == {}


def _fact(source_id: str, quote: str, value: str) -> Fact:
    return Fact(
        text=quote, support=[Support(source_id=source_id, locator="p.1 L3-L3", quote=quote)], key="k", value=value
    )


def test_a_fact_takes_the_named_value_only_when_its_quote_states_it() -> None:
    values = {("a.txt", "p.1 L3-L3"): "Lakeport"}
    stated = _fact("a.txt", "The Harbour Library, built by Irish masons, stands in Lakeport.", "Irish")
    assert with_conflict_values([stated], values)[0].value == "Lakeport"
    unstated = _fact("a.txt", "The Harbour Library was built by Irish masons.", "Irish")
    assert with_conflict_values([unstated], values)[0].value == "Irish"
    elsewhere = _fact("b.txt", "The Harbour Library stands in Lakeport.", "Harbour")
    assert with_conflict_values([elsewhere], values)[0].value == "Harbour"


def test_dates_listed_as_a_conflict_get_no_figure_delta() -> None:
    facts = [
        Fact(text="a", support=[Support(source_id="a.txt", locator="p.1 L1-L1", quote="Born 11 November 1993.")],
             key="born", value="11 November 1993"),
        Fact(text="b", support=[Support(source_id="b.txt", locator="p.1 L1-L1", quote="Born 13 June 1998.")],
             key="born", value="13 June 1998"),
    ]  # fmt: skip
    budget = cast(ToolBudget, None)  # never called: no delta is computed for dates
    [conflict] = find_conflicts(facts, budget, Thresholds())
    assert [v.value for v in conflict.values] == ["11 November 1993", "13 June 1998"] and conflict.delta == ""
