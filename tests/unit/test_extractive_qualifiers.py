"""The qualifiers a question puts on the figure it asks for: a line that leaves them out does not answer it."""

from __future__ import annotations

from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_qualifiers import change_figure, labels_only, row_labels, unstated
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_rank import rank
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_values import line_value

TABLE = [
    "Quarterly results were as follows.",
    "The net income in the fiscal 2019 third quarter included a gain of $2.5 million.",
    "",
    "| | 2019 | 2018 |",
    "| --- | --- | --- |",
    "| Revenue | 88,495 | 93,669 |",
    "| Net income | 4,100 | 5,200 |",
]


def _ranked(question: str, texts: list[str]) -> list[str]:
    asked = analyze(question)
    pool = LinePool.from_texts("report.md", texts)
    return [s.line.text for s in rank(asked, build_index(asked, pool), pool, Thresholds())]


def test_a_sentence_without_the_row_word_the_question_names_does_not_answer_it() -> None:
    ranked = _ranked("What was the revenue in the fiscal 2019 third quarter?", TABLE)
    assert not any(text.startswith("The net income") for text in ranked)
    # the same sentence answers a question about what it does say
    assert any(t.startswith("The net income") for t in _ranked("What was the net income in fiscal 2019?", TABLE))


def test_a_year_the_line_does_not_name_where_it_names_another() -> None:
    asked = analyze("What were the monetary assets as at 31 December 2018?")
    line = "As at 31 December 2019, the monetary assets were $20 million."
    assert unstated(asked, {}, {}, line, "", frozenset(), 1.0) == {"2018"}
    assert not unstated(asked, {}, {}, line.replace("2019", "2018"), "", frozenset(), 1.0)
    assert not unstated(asked, {}, {}, "The monetary assets were $20 million.", "", frozenset(), 1.0)
    # the prior year in parentheses is a comparison beside the figure, which the line leaves unpinned
    aside = "The monetary assets amounted to US$261,518 (2017: US$283,752)."
    assert not unstated(asked, {}, {}, aside, "", frozenset(), 1.0)


def test_a_missing_word_counts_only_when_it_labels_a_row_and_a_year_is_asked() -> None:
    line = "| Non-vested at December 31, 2019 | 1,283,281 |"
    labels = row_labels(["| Granted | 473,550 |", line])
    asked = analyze("What is the number of shares granted in 2019?")
    assert unstated(asked, {"granted": 1.0, "shares": 1.0}, {}, line, "| Shares |", labels, 1.0) == {"granted"}
    assert not unstated(asked, {"granted": 1.0}, {}, line, "", frozenset(), 1.0)  # no row is named "granted"
    no_year = analyze("What is the number of shares granted?")
    assert not unstated(no_year, {"granted": 1.0}, {}, line, "", labels, 1.0)


def test_a_row_of_a_label_alone_states_no_figure() -> None:
    assert labels_only("| Basic earnings per share (1) |  |  |")
    assert not labels_only("| Basic earnings per share | 206.2 | 132.3 |")
    assert not labels_only("Basic earnings per share were 206.2 cents.")
    assert row_labels(["| Revenue | 1 |", "Revenue grew."]) == {"revenue"}


def test_the_size_of_a_change_answers_only_a_question_about_the_change() -> None:
    line = "General and administrative expenses increased $273 million or 6%."
    asked = analyze("How much were the general and administrative expenses in 2017?")
    assert change_figure(asked, line, line_value(asked, line))
    for question in ("How much did general and administrative expenses increase?", "What was the expense growth?"):
        about_change = analyze(question)
        assert not change_figure(about_change, line, line_value(about_change, line))
    for reached in (
        "General and administrative expenses increased to $4,277 million.",
        "General and administrative expenses increased $273 million to $4,277 million.",
    ):
        assert not change_figure(asked, reached, line_value(asked, reached))  # the line states the level too
