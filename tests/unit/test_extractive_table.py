"""The extractive model's table reader, without a store: which questions it reads as a table question, and the
cell, change, percentage change it answers with, computed through calc over the cells of the row and years asked;
and where it gives nothing (two rows alike, a word no label or heading gives, a year no heading names). Also the key
a draft shows, cut to the words its quotes state."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from quotebound.agent.models.extractive_calc import ToolBudget
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_table import table_facts
from quotebound.agent.models.extractive_table_ask import TableAsk, may_ask, table_ask
from quotebound.agent.models.extractive_write import quoted_key
from quotebound.tools.calc import recompute

TABLE = [
    "The following table shows net sales by reportable segment:",
    "",
    "|  |  | Years Ended |  |  | Change |  |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    "| (Dollars in thousands) | 2019 | 2018 | 2017 | 2019 over 2018 |  | 2018 over 2017 |",
    "| Modules | $ 1,460,116 | $ 502,001 | $ 806,398 | $ 958,115 | 191% | (38)% |",
    "| Systems | 1,603,001 | 1,742,043 | — | (139,042) | (8)% | (18)% |",
    "| Net sales | $ 3,063,117 | $ 2,244,044 | $ 2,941,324 | $ 819,073 | 36% | (24)% |",
]


class _Tools:
    """A registry stand-in: calc recomputes, every other tool refuses."""

    max_calls = None
    calls: ClassVar[list[Any]] = []

    def invoke(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name == "calc":
            value = recompute(args["expr"])
            return {"ok": value is not None, "result": {"value": value}}
        return {"ok": False}


def _pool() -> LinePool:
    pool = LinePool()
    for n, text in enumerate(TABLE, 1):
        pool.add(Line("solar.md", 1, n, text))
    return pool


def _facts(question: str) -> list[Any]:
    return table_facts(analyze(question), _pool(), ToolBudget(_Tools(), 10))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("question", "op", "years"),
    [
        ("What was the Modules in 2019?", "value", ("2019",)),
        ("What was the change in Modules from 2018 to 2019?", "change", ("2018", "2019")),
        ("What was the percentage change in Modules from 2018 to 2019?", "pct_change", ("2018", "2019")),
        ("What is the difference between Modules in 2018 and 2019?", None, ()),  # which from which is not said
        ("What is the total of Modules in 2018 and 2019?", "total", ("2018", "2019")),
        ("What is the total of Modules in 2017 and 2019?", "total", ("2017", "2019")),  # listed, not a span
        ("What is the total of Modules from 2017 to 2019?", "total", ("2017", "2018", "2019")),
        ("What is the total of Modules in 2019?", None, ()),  # a total of one year is no sum asked of the row
        ("What was the average Modules?", "average", ()),  # every year the row has
        ("What was the 2019 average Modules?", "average", ("2018", "2019")),  # opening and closing
        ("What was the ratio of Modules in 2018 and 2019?", None, ()),
        ("What was the average Modules in 2019?", None, ()),  # one figure a year: what is averaged is not said
        ("What was the average Modules per share in 2018 and 2019?", None, ()),  # a ratio
        ("What was the average Modules across 2017, 2018 and 2019?", "average", ("2017", "2018", "2019")),
        ("What was the average Modules between 2017-2019?", "average", ("2017", "2018", "2019")),
        ("What was the change in Modules between 2017-2019?", None, ()),  # a span is no change's
        ("What was the change in Modules in 2019?", None, ()),  # a change a sentence may state for 2019
        ("What was the percentage change in Modules?", "pct_change", ()),  # the row's two years, if two
        ("What caused the change in Modules?", None, ()),
        ("What was the change in the Modules shares from 2018 to 2019?", "change", ("2018", "2019")),  # no "share of"
        ("What was the % change in Modules from 2018 to 2019?", "pct_change", ("2018", "2019")),
        ("What was the average Modules from 2017 to 2019?", "average", ("2017", "2018", "2019")),
        ("What was the average Modules for 2018 and 2019?", "average", ("2018", "2019")),
        ("What was the average change in Modules from 2017 to 2019?", None, ()),
        ("What was the change in Modules in 2018/2019?", None, ()),  # a fiscal year across two
        ("Who sells Modules?", None, ()),
    ],
)
def test_what_a_question_asks_of_a_table(question: str, op: str | None, years: tuple[str, ...]) -> None:
    asked = table_ask(analyze(question))
    assert (asked.op, asked.years) == (op, years) if asked is not None else op is None


def test_a_cell_of_the_year_asked() -> None:
    (fact,) = _facts("What was the Modules in 2019?")
    assert fact.text.startswith("$ 1,460,116 (Modules, 2019)") and fact.calc is None
    assert [s.locator for s in fact.support][-1] == "p.1 L6-L6"  # the row, after its headings


def test_a_change_and_a_percentage_change_are_computed_or_read_from_a_change_column() -> None:
    (change,) = _facts("What was the change in Systems from 2018 to 2019?")
    assert change.calc is not None and change.calc.expr == "1,603,001 - 1,742,043" and change.value == "-139042"
    (stated,) = _facts("What was the percentage change in Modules from 2018 to 2019?")
    assert stated.value == "191%" and stated.calc is None  # the column headed with both years states it
    (read,) = _facts("What was the percentage change in Net sales from 2017 to 2018?")
    assert read.value == "(24)%"
    (computed,) = _facts("What was the percentage change in Modules from 2017 to 2019?")  # no column for both
    assert computed.calc is not None and computed.calc.expr.startswith("round((1,460,116 - 806,398)")


def test_a_word_of_the_rows_label_asks_for_no_derived_figure() -> None:
    label = frozenset({"total", "sale"})
    change = table_ask(analyze("What was the change in total sales from 2018 to 2019?"), label)
    assert change == TableAsk("change", ("2018", "2019"))
    value = table_ask(analyze("What were the total sales in 2019?"), label)
    assert value == TableAsk("value", ("2019",))
    assert table_ask(analyze("What were the total sales in 2019?")) is None  # no row says "total": a sum of one year
    averaged = table_ask(analyze("What was the average total sales in 2019?"), frozenset({"average", "total", "sale"}))
    assert averaged == TableAsk("value", ("2019",))  # the row "Average total sales"


def test_only_a_year_or_an_average_can_ask_of_a_table() -> None:
    assert may_ask(analyze("What was the average Modules?")) and may_ask(analyze("What were the Modules in 2019?"))
    assert may_ask(analyze("What was the change in Modules?")) and not may_ask(analyze("Who sells Modules?"))


def test_a_change_with_no_year_needs_a_row_of_just_two_years() -> None:
    assert _facts("What was the change in Modules?") == []  # three years: between which is not said
    pool = LinePool()
    for n, text in enumerate(["|  | 2019 | 2018 |", "| --- | --- | --- |", "| Orders | 12,749 | 11,875 |"], 1):
        pool.add(Line("orders.md", 1, n, text))
    (fact,) = table_facts(analyze("What was the change in Orders?"), pool, ToolBudget(_Tools(), 10))  # type: ignore[arg-type]
    assert fact.calc is not None and fact.calc.expr == "12,749 - 11,875"


def test_of_two_rows_alike_the_one_whose_section_the_question_names() -> None:
    rows = ["|  | 2019 | 2018 |", "| --- | --- | --- |", "| RSUs |  |  |", "| Granted | 674 | 583 |", "| PSUs |  |  |"]
    pool = LinePool()
    for n, text in enumerate([*rows, "| Granted | 164 | 118 |"], 1):
        pool.add(Line("grants.md", 1, n, text))
    budget = ToolBudget(_Tools(), 10)  # type: ignore[arg-type]
    (fact,) = table_facts(analyze("What is the change in the PSUs granted from 2018 to 2019?"), pool, budget)
    assert fact.calc is not None and fact.calc.expr == "164 - 118"
    assert table_facts(analyze("What is the change in granted from 2018 to 2019?"), pool, budget) == []


def test_net_names_a_row_unless_it_names_the_form_of_a_change() -> None:
    rows = ["|  | 2019 | 2018 |", "| --- | --- | --- |", "| Revenue | 317 | 289 |", "| Net revenue | 175 | 124 |"]
    pool = LinePool()
    for n, text in enumerate(rows, 1):
        pool.add(Line("voyage.md", 1, n, text))
    budget = ToolBudget(_Tools(), 10)  # type: ignore[arg-type]
    (net,) = table_facts(analyze("What is the average net revenue in 2018 and 2019?"), pool, budget)
    assert net.calc is not None and net.calc.expr == "(124 + 175) / 2"
    (change,) = table_facts(analyze("What is the net change in revenue from 2018 to 2019?"), pool, budget)
    assert change.calc is not None and change.calc.expr == "317 - 289"


def test_a_sections_label_is_no_row_to_answer_from() -> None:
    rows = ["|  | 2019 | 2018 |", "| --- | --- | --- |", "| Net sales: |  |  |", "| Malaysia | 1,138 | 1,118 |"]
    pool = LinePool()
    for n, text in enumerate(rows, 1):
        pool.add(Line("sales.md", 1, n, text))
    (fact,) = table_facts(analyze("What was the net sales from Malaysia in 2018?"), pool, ToolBudget(_Tools(), 10))  # type: ignore[arg-type]
    assert fact.value == "1,118"


def test_of_a_section_label_and_a_row_alike_the_row_answers() -> None:
    rows = ["|  | 2019 | 2018 |", "| --- | --- | --- |", "| Adjusted EBITDA: |  |  |", "| Adjusted EBITDA | 108 | 93 |"]
    pool = LinePool()
    for n, text in enumerate(rows, 1):
        pool.add(Line("ebitda.md", 1, n, text))
    question = analyze("What was the change in Adjusted EBITDA from 2018 to 2019?")
    (fact,) = table_facts(question, pool, ToolBudget(_Tools(), 10))  # type: ignore[arg-type]
    assert fact.calc is not None and fact.calc.expr == "108 - 93"


def test_a_section_named_alone_is_answered_by_none_of_its_rows() -> None:
    rows = ["|  | 2019 | 2018 |", "| --- | --- | --- |", "| Deferred tax liabilities: |  |  |", "| Other | 16 | 29 |"]
    pool = LinePool()
    for n, text in enumerate([*rows, "| Total deferred tax liabilities | 104 | 89 |"], 1):
        pool.add(Line("taxes.md", 1, n, text))
    question = analyze("What was the change in Other deferred tax liabilities between 2018 and 2019?")
    assert table_facts(question, pool, ToolBudget(_Tools(), 10)) == []  # type: ignore[arg-type]


def test_a_total_and_an_average_over_every_year_of_the_row() -> None:
    (total,) = _facts("What is the total of Modules from 2017 to 2019?")
    assert total.calc is not None and total.calc.expr == "806,398 + 502,001 + 1,460,116"
    (mean,) = _facts("What was the average Modules?")
    assert mean.calc is not None and mean.calc.expr == "(806,398 + 502,001 + 1,460,116) / 3"
    (opening,) = _facts("What was the 2019 average Modules?")
    assert opening.calc is not None and opening.calc.expr == "(502,001 + 1,460,116) / 2"


def test_an_average_is_the_mean_of_the_years_asked_computed_by_calc() -> None:
    (mean,) = _facts("What was the average Modules from 2017 to 2019?")
    assert mean.calc is not None and mean.calc.expr == "(806,398 + 502,001 + 1,460,116) / 3"
    assert mean.value == recompute(mean.calc.expr) and mean.text.startswith("The average is")
    assert _facts("What was the average Systems from 2017 to 2019?") == []  # a dashed cell: no mean of two


@pytest.mark.parametrize(
    "question",
    [
        "What was the unrevised value of Modules in 2019?",  # a word no label, heading or caption gives
        "What was the change in Systems from 2017 to 2018?",  # a dashed cell
        "What was the Modules in 2016?",  # a year no heading names
        "What was the Widgets in 2019?",  # no row
    ],
)
def test_nothing_uncertain_is_answered(question: str) -> None:
    assert _facts(question) == []


def test_a_shown_key_keeps_only_the_words_its_quotes_state() -> None:
    quotes = ["Reserve fund balance, January 1, 2025: $184,250.00"]
    assert quoted_key("balance between fall fund january reserve", quotes) == "balance fund january reserve"
    assert quoted_key("fall", quotes) is None
    assert quoted_key(None, quotes) is None
