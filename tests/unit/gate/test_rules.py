"""The rule list: every rule module is listed once, in the order the findings appear; and `judge` runs them
all and scores the draft without a store."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import CalcDerivation, Draft, Fact, Support
from quotebound.agent.gate import judge
from quotebound.agent.gate import rules as rules_package
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import RULES, run_rules
from quotebound.agent.gate.verification import Status, Verification

ORDER = [
    "clarify",
    "schema",
    "support_present",
    "citations",
    "quote_size",
    "quote_clause",
    "instructional",
    "calc",
    "span_alignment",
    "meaning",
    "negating_prefix",
    "listed_conflicts",
    "conflicts_reported",
    "conflicts_in_bundles",
    "claim_support",
    "answerhood",
    "secondary_only",
]
QUOTE = "The monthly assessment is $325.00 per unit."
SUPPORT = Support(source_id="budget.md", locator="p.1 L3-L3", quote=QUOTE)


def test_the_rules_run_in_order() -> None:
    assert [rule.name for rule in RULES] == ORDER


def test_every_rule_module_is_listed_with_its_check() -> None:
    modules = {m.name for m in pkgutil.iter_modules(rules_package.__path__)}
    assert modules == {rule.name for rule in RULES}
    for rule in RULES:
        assert rule.check is importlib.import_module(f"{rules_package.__name__}.{rule.name}").check


def test_findings_come_in_rule_order(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    bare = Fact(text="The pool opens in May.")
    wrong = Fact(text=QUOTE, support=[SUPPORT], calc=CalcDerivation(expr="325 * 12", value="3800"))
    draft = make_draft(bare, wrong, level1="It is $999.")
    codes = [f.code for f in run_rules(make_inputs(draft, gate="clarify"))]
    assert codes == [
        FindingCode.CLARIFY_REQUIRED,  # clarify
        FindingCode.NO_SUPPORT,  # support_present
        FindingCode.CALC_MISMATCH,  # calc
        FindingCode.UNSUPPORTED_TOKEN,  # span_alignment: level1's $999
    ]


def test_judge_passes_an_honest_draft_with_full_confidence(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    report = judge(make_inputs(make_draft(Fact(text=QUOTE, support=[SUPPORT]), level1="It is $325.00 a month.")))
    assert report.ok and report.findings == []
    assert report.citation_confidence == [[1.0]] and report.fact_confidence == [1.0]
    assert report.answer_confidence == 1.0


def test_judge_blocks_a_fabricated_quote_and_scores_it_zero(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    forged = {(0, 0): Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail="something else")}
    report = judge(make_inputs(make_draft(Fact(text=QUOTE, support=[SUPPORT])), checks=forged))
    assert not report.ok
    assert FindingCode.QUOTE_NOT_VERBATIM in report.codes()
    assert report.citation_confidence == [[0.0]] and report.answer_confidence == 0.0


def test_judge_scores_calc_and_secondary_facts_lower(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], ok: Callable[..., Verification]
) -> None:
    yearly = Fact(text="That is $3,900 a year.", support=[SUPPORT], calc=CalcDerivation(expr="325 * 12", value="3900"))
    plain = Fact(text=QUOTE, support=[SUPPORT, SUPPORT])
    draft = make_draft(yearly, plain, level1="It is $325.00 a month, $3,900 a year.")
    secondary = {(1, 0): ok("p.1 L3-L3", "secondary"), (1, 1): ok("p.1 L3-L3", "secondary")}
    report = judge(make_inputs(draft, checks=secondary))
    assert report.ok, report.findings
    assert report.fact_confidence == [0.9, 0.8]
    assert report.secondary_only == [1]
    assert report.answer_confidence == pytest.approx((0.9 * 1 + 0.8 * 2) / 3)
    assert [(f.code, f.blocking) for f in report.findings] == [(FindingCode.SECONDARY_ONLY, False)]


def test_inputs_must_verify_every_cited_quote(make_draft: Callable[..., Draft]) -> None:
    with pytest.raises(ValueError, match="one verification per cited quote"):
        GateInputs(draft=make_draft(Fact(text=QUOTE, support=[SUPPORT])))
