"""`answer_type.type_ok` for where-questions: a locative phrase places a thing only when it does not time what it
names ("in a project that spanned most of the 2000s" answers when, not where)."""

from __future__ import annotations

from quotebound.agent.gate.answer_type import type_ok
from quotebound.agent.gate.question import read_question

WHERE = read_question("Where is the water shut-off valve located?")


def test_a_locative_phrase_that_times_an_event_is_no_place() -> None:
    assert not type_ok(WHERE, "The valve was replaced in a project that spanned most of the 2000s.", [])
    assert not type_ok(WHERE, "The valve was replaced in a repair done in March.", [])


def test_a_locative_phrase_that_places_a_thing_answers_where() -> None:
    assert type_ok(WHERE, "The valve is in the curb box at the entrance.", [])
    assert type_ok(WHERE, "The valve is in the curb box, replaced in 2005.", [])  # the time stands apart


ORIGIN = read_question("Where do the Group's water supply resources come from?")


def test_what_a_thing_comes_from_answers_where_it_comes_from() -> None:
    assert type_ok(ORIGIN, "The Group's water supply comes from the municipal water supply.", [])


def test_from_answers_only_a_question_that_asks_where_from() -> None:
    assert not type_ok(WHERE, "The valve is supplied from the municipal water supply.", [])
    assert not type_ok(ORIGIN, "The water supply resources come from the Group.", [])  # the question's own words
