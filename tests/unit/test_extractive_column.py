"""A table row read with its header (`extractive_column`): the asked column's cell is the row's value, and the
header words of the cells the question asks about count as said by the row; rows no question word picks, or a
question that names no column, keep the row's own reading."""

from __future__ import annotations

from quotebound.agent.models.extractive import quote_fact
from quotebound.agent.models.extractive_column import asked_column, read_row
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_rank import rank
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_thresholds import Thresholds

HEADER = "| Floor plan | Bedrooms | Bathrooms | Square feet | Number of Units |"
TABLE = (
    "## Floor plans",
    HEADER,
    "| --- | --- | --- | --- | --- |",
    "| Douglas | 1 | 1 | 820 | 6 |",
    "| Fir | 2 | 2 | 1,180 | 12 |",
)


def test_the_column_the_question_names_gives_the_value_at_its_place_in_the_row() -> None:
    question = analyze("How many square feet is a Douglas floor plan unit?")
    row = TABLE[3]
    reading = read_row(question, row, HEADER)
    assert reading is not None and reading.value is not None
    assert reading.value.text == "820"
    assert row[reading.value.start : reading.value.start + 3] == "820"
    # the asked column and the column whose cell the question names are said in full; the others frame the row
    assert {"square", "feet", "floor", "plan"} <= reading.said
    assert "bedroom" not in reading.said


def test_a_column_whose_cell_names_the_row_is_not_the_asked_one() -> None:
    names = ["Floor plan", "Bedrooms", "Square feet"]
    question = analyze("How many square feet is a Douglas floor plan unit?")
    assert asked_column(question, names, ["Douglas", "1", "820"]) == 2
    # two columns the question names alike, neither picking the row: which is asked is not said
    assert asked_column(question, names, ["Fir", "1", "820"]) is None
    assert asked_column(analyze("How many bathrooms are there?"), names, ["Fir", "1", "820"]) is None


def test_a_row_under_a_header_that_does_not_line_up_is_not_read() -> None:
    question = analyze("How many square feet is a Douglas floor plan unit?")
    assert read_row(question, "| Douglas | 820 |", HEADER) is None


def test_the_row_the_question_names_answers_with_the_asked_cell() -> None:
    question = analyze("How many square feet is a Douglas floor plan unit?")
    pool = LinePool.from_texts("schedule.md", TABLE)
    ranked = rank(question, build_index(question, pool), pool, Thresholds())
    assert ranked and ranked[0].line.text == TABLE[3]
    assert ranked[0].value is not None and ranked[0].value.text == "820"
    assert all(s.line.text != TABLE[4] for s in ranked)  # the Fir row names no Douglas


def test_a_row_the_question_does_not_name_is_not_lifted_by_its_header_alone() -> None:
    question = analyze("How many square feet is a Hemlock floor plan unit?")
    pool = LinePool.from_texts("schedule.md", TABLE)
    assert rank(question, build_index(question, pool), pool, Thresholds()) == []


def test_a_row_answered_as_column_cell_pairs_quotes_its_header_too() -> None:
    question = analyze("How many square feet is a Douglas floor plan unit?")
    pool = LinePool.from_texts("schedule.md", TABLE)
    top = rank(question, build_index(question, pool), pool, Thresholds())[0]
    fact = quote_fact(question, top, pool)
    assert fact.text.startswith("Square feet: 820")
    # the column names the answer shows are the header's words: the header row is quoted beside the row
    assert [(s.locator, s.quote) for s in fact.support] == [("p.1 L4-L4", TABLE[3]), ("p.1 L2-L2", HEADER)]


def test_an_identifier_the_header_names_is_named_by_each_row() -> None:
    question = analyze("What is the FY2025 budget for snow removal?")
    pool = LinePool.from_texts(
        "budget.md",
        [
            "| Line | Item | FY2025 budget |",
            "| --- | --- | --- |",
            "| 1 | Landscaping | $18,600 |",
            "| 2 | Snow removal | $4,800 |",
        ],
    )
    ranked = rank(question, build_index(question, pool), pool, Thresholds())
    assert ranked and ranked[0].line.line_no == 4
    assert ranked[0].value is not None and ranked[0].value.text == "$4,800"
