"""`gate/answer_when.py`: a when-question answered with a condition while the quote about it gives the date is no
answer; a condition is one when the quotes give no date, and a dated answer always is."""

from __future__ import annotations

from quotebound.agent.gate.answer_text import Quoted
from quotebound.agent.gate.answer_when import undated_problem
from quotebound.agent.gate.question import read_question

DATED = (
    "By January 31, 2019, the personnel and facilities related actions of the restructuring plan were "
    "substantially complete."
)
UNDATED = "Fines apply once the Board has held a hearing on the violation."


def quote(sentence: str) -> list[Quoted]:
    return [Quoted(0, "note.md", sentence, (sentence,))]


def problem(question: str, answer: str, sentence: str) -> str | None:
    return undated_problem(read_question(question), answer, quote(sentence), ())


def test_a_condition_where_the_quote_gives_the_date_is_no_answer() -> None:
    found = problem(
        "When was the restructuring plan substantially complete?",
        "The restructuring plan was substantially complete once its personnel and facilities actions were done.",
        DATED,
    )
    assert found is not None and "January 31, 2019" in found


def test_the_date_the_quote_gives_answers_when() -> None:
    answer = "The restructuring plan was substantially complete by January 31, 2019."
    assert problem("When was the restructuring plan substantially complete?", answer, DATED) is None


def test_a_condition_answers_when_the_quotes_give_no_date() -> None:
    answer = "Fines apply once the Board has held a hearing."
    assert problem("When do fines apply?", answer, UNDATED) is None


def test_a_dated_quote_about_something_else_asks_for_no_date() -> None:
    other = "The pool opened on May 1, 2024."
    assert problem("When do fines apply?", "Fines apply once the Board has held a hearing.", other) is None


def test_a_span_of_time_or_a_month_places_it_in_time() -> None:
    question = "When was the restructuring plan substantially complete?"
    assert problem(question, "Within 30 days of the plan's start it was substantially complete.", DATED) is None
    assert problem(question, "The plan was substantially complete in January.", DATED) is None


def test_only_when_questions_ask_for_a_date() -> None:
    question = "What did the restructuring plan include?"
    assert problem(question, "Personnel and facilities related actions.", DATED) is None


PRONOUN = "On 4 Jul 1612 , he was appointed during the papacy of Pope Paul V as Bishop of Rieti ."


def test_a_quote_naming_the_person_by_a_pronoun_is_about_them() -> None:
    question = "When was Pier Paolo Crescenzi appointed Bishop of Rieti?"
    found = problem(question, "During the papacy of Pope Paul V.", PRONOUN)
    assert found is not None and "4 Jul 1612" in found
    assert problem(question, "On 4 Jul 1612.", PRONOUN) is None


def test_a_pronoun_stands_for_names_only_not_for_what_is_asked_of_them() -> None:
    other = "On 4 Jul 1612 , he was ordained a priest in Florence ."
    question = "When was Pier Paolo Crescenzi appointed Bishop of Rieti?"
    assert problem(question, "During the papacy of Pope Paul V.", other) is None
