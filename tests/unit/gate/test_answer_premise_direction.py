"""`gate/answer_premise.direction_problem`: a why-question that asserts a direction of change the quotes contradict
("Why did interest expense decrease?" where it increased) must not be answered by echoing that direction. An
answer that keeps the quote's direction, or denies the premise, passes; so does one the quotes agree with."""

from __future__ import annotations

from quotebound.agent.gate.answer_premise import direction_problem
from quotebound.agent.gate.answer_text import Quoted
from quotebound.agent.gate.question import read_question

ROSE = (
    "Interest expense increased in fiscal 2019 compared to fiscal 2018 primarily due to higher average borrowings, "
    "partially offset by a reduction in interest expense from the repayments of senior notes."
)
FELL = "Interest expense decreased in fiscal 2019 due to the repayments of senior notes."
QUESTION = "Why did interest expense decrease in fiscal 2019?"


def problem(question: str, answer: str, sentence: str) -> str | None:
    return direction_problem(read_question(question), answer, [Quoted(0, "10k.md", sentence, (sentence,))], ())


def test_an_answer_echoing_a_direction_the_quote_contradicts_is_blocked() -> None:
    answer = "Interest expense decreased in fiscal 2019 because of the repayments of senior notes."
    assert problem(QUESTION, answer, ROSE) is not None


def test_an_answer_that_denies_the_premise_passes() -> None:
    answer = "Interest expense did not decrease in fiscal 2019; it increased due to higher average borrowings."
    assert problem(QUESTION, answer, ROSE) is None


def test_an_answer_the_quote_agrees_with_passes() -> None:
    answer = "Interest expense decreased in fiscal 2019 because of the repayments of senior notes."
    assert problem(QUESTION, answer, FELL) is None


def test_a_quote_opening_with_another_subject_is_no_contradiction() -> None:
    other = "Revenue increased in fiscal 2019 as interest expense fell."
    answer = "Interest expense decreased in fiscal 2019 because of the repayments of senior notes."
    assert problem(QUESTION, answer, other) is None


def test_only_a_causal_question_asserts_a_premise() -> None:
    question = "Did interest expense decrease in fiscal 2019?"
    assert problem(question, "Interest expense decreased in fiscal 2019.", ROSE) is None
