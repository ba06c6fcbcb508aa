"""`gate/answer_agent.py`: a who-question is answered by the doer its quote sentence opens with ("Only the gas
utility."), not by a phrase that places or times the verb, nor by a long sentence, nor from a quote about
something else."""

from __future__ import annotations

from quotebound.agent.gate.answer_agent import quoted_agent
from quotebound.agent.gate.answer_text import Quoted
from quotebound.agent.gate.answer_type import type_ok
from quotebound.agent.gate.question import read_question

GAS = "Only the gas utility may turn the gas back on."
QUESTION = "Who is allowed to turn the gas back on after it has been shut off?"


def agent(answer: str, sentence: str = GAS, question: str = QUESTION) -> bool:
    return quoted_agent(read_question(question), answer, [Quoted(0, "shutoffs.md", sentence, (sentence,))])


def test_the_doer_the_quote_opens_with_answers_who() -> None:
    assert agent("Only the gas utility.")
    q = read_question(QUESTION)
    assert type_ok(q, "Only the gas utility.", [Quoted(0, "shutoffs.md", GAS, (GAS,))])


def test_a_phrase_that_places_or_times_the_verb_is_no_doer() -> None:
    line = "In an emergency, the gas may be turned back on."
    assert not agent("In an emergency.", line)
    q = read_question(QUESTION)
    assert not type_ok(q, "In an emergency.", [Quoted(0, "shutoffs.md", line, (line,))])


def test_words_the_quote_does_not_give_as_its_doer_answer_nothing() -> None:
    assert not agent("After a leak is repaired.")
    assert not agent("The gas.")  # nothing of its own: only the question's words


def test_a_quote_about_something_else_answers_nothing() -> None:
    other = "The pool manager may close the pool for cleaning."
    assert not agent("The pool manager.", other)
