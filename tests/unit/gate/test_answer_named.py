"""`gate/answer_named.py`: a quote sentence that writes the derived quantity's own name before its figure ("Net
average selling price ... to $1.265 per dozen for fiscal 2019") states it; a quote that does not, a question about
two periods, or a derivation word that names no quantity ("the change in revenue") leaves it to be computed."""

from __future__ import annotations

from quotebound.agent.gate.answer_named import named_derived
from quotebound.agent.gate.answer_text import figures
from quotebound.agent.gate.question import read_question

EGGS = (
    "Net average selling price of shell eggs decreased from $1.397 per dozen for fiscal 2018 to $1.265 per dozen "
    "for fiscal 2019, a decrease of $0.132 per dozen, or 9.4%."
)


def named(question: str, sentence: str, value: str) -> bool:
    q = read_question(question)
    figure = next(f for f in figures(sentence) if f.text == value)
    return any(named_derived(q, d, sentence, figure) for d in q.derived)


def test_a_quote_naming_the_average_states_it() -> None:
    question = "What was the net average selling price of shell eggs per dozen for fiscal 2019?"
    assert named(question, EGGS, "$1.265")


def test_a_quote_that_does_not_name_the_average_leaves_it_computed() -> None:
    question = "What was the net average selling price of shell eggs per dozen for fiscal 2019?"
    plain = "Net selling price of shell eggs decreased from $1.397 per dozen for fiscal 2018 to $1.265 per dozen."
    assert not named(question, plain, "$1.265")


def test_an_average_over_two_periods_is_computed_even_from_quoted_averages() -> None:
    question = "What was the net average selling price of shell eggs per dozen for fiscal 2018 and 2019?"
    assert not named(question, EGGS, "$1.265")


def test_a_change_in_something_is_no_name_of_a_quantity() -> None:
    sentence = "The change in revenue recognition raised revenue to $5.2 million in 2019."
    assert not named("What was the change in revenue in 2019?", sentence, "$5.2 million")
