"""`gate/answer_figure.py`: "what was the <measure> in <year>?" is not answered by a description when the quote
about it states the measure as an amount; a figure answers it, and questions that name no period, or quotes that
give no amount, ask for none."""

from __future__ import annotations

from quotebound.agent.gate.answer_figure import figureless_problem
from quotebound.agent.gate.answer_text import Quoted
from quotebound.agent.gate.question import read_question

CASH = (
    "The company has consistently generated strong cash flow from operations, providing a source of funds ranging "
    "between $14.8 billion and $16.7 billion per year over the past three years."
)
DESCRIBED = "Strong and consistent: the company has consistently generated strong cash flow from operations."


def problem(question: str, answer: str, sentence: str = CASH) -> str | None:
    return figureless_problem(read_question(question), answer, [Quoted(0, "10k.md", sentence, (sentence,))], ())


def test_a_description_for_a_measure_at_a_time_is_no_answer() -> None:
    found = problem("What is the cash flow from operations in 2019?", DESCRIBED)
    assert found is not None and "$14.8 billion" in found


def test_a_figure_answers_it() -> None:
    assert problem("What is the cash flow from operations in 2019?", "Between $14.8 billion and $16.7 billion.") is None


def test_a_question_naming_no_period_asks_for_no_figure() -> None:
    assert problem("What is the source of the company's funds?", DESCRIBED) is None


def test_a_quote_stating_no_amount_asks_for_none() -> None:
    line = "The company has consistently generated strong cash flow from operations."
    assert problem("What is the cash flow from operations in 2019?", DESCRIBED, line) is None
