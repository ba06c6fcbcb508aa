"""`gate/meaning/binding.py` with `direction.range_roles`: a span written as a range ("1981–1995", "from 2003 to
2010", "1981–present") says which of its figures starts it and which ends it, so a claim that gives a figure with
the phase word of its end ("began in 1981") is bound to the range's quote, not to another quote that writes the
phase word beside another figure. An end given the other phase word stays blocked."""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from quotebound.agent.gate.meaning.direction import range_roles
from quotebound.agent.gate.meaning.reading import parse
from tests.unit.gate.conftest import quotes

MAYOR = "John Smith served as mayor of Springfield (1981–1995)."
TEACHER = "Smith started his career as a teacher in 1975."
SHOW = "The show aired from 2003 to 2010 on NBC."
PILOT = "The pilot was filmed in 2002, and production began in 2002."
ACTOR = "John Smith (born 1960) is an English actor. Years active 1981–present."
SCHOOL = "He started school in 1966."


def codes(claim: str, *lines: str) -> list[str]:
    return [p.code for p in meaning.problems(claim, quotes(*lines), "When did it start?")]


@pytest.mark.parametrize(
    ("text", "roles"),
    [
        (SHOW, {2003: "start", 2010: "end"}),
        ("Years active 1981–present.", {1981: "start"}),
        ("He played (1981– ) for the club.", {1981: "start"}),
        ("Career: 1981– Springfield FC", {1981: "start"}),
        ("Revenue was 5 – 7 million.", {5: "start", 7: "end"}),
        ("He served as mayor 1981-1995.", {1981: "start", 1995: "end"}),  # a hyphen between rising figures
        ("Revenue in 2018-19 rose.", {}),  # a fiscal year's short form
        ("Instrument No. 2003-118842.", {}),  # a number, not a span
        ("Revenue was $5 million – a record.", {}),  # a dash after an amount before words opens no span
    ],
)
def test_the_ends_of_a_range_are_its_start_and_end(text: str, roles: dict[int, str]) -> None:
    assert {int(k[1]): r for k, r in range_roles(parse(text)).items()} == roles  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("claim", "lines"),
    [
        ("His term as mayor started in 1981 and ended in 1995.", (MAYOR, TEACHER)),
        ("His term as mayor started in 1981.", (MAYOR, TEACHER)),
        ("His term as mayor started in 1981.", (MAYOR.replace("(1981–1995)", "1981-1995"), TEACHER)),
        ("The show's run began in 2003 and ended in 2010.", (SHOW, PILOT)),
        ("His acting career started in 1981.", (ACTOR, SCHOOL)),
    ],
)
def test_a_phase_word_for_an_end_of_a_range_is_what_the_range_says(claim: str, lines: tuple[str, ...]) -> None:
    assert "unbound" not in codes(claim, *lines)


@pytest.mark.parametrize(
    ("claim", "lines"),
    [
        ("His term as mayor ended in 1981.", (MAYOR, TEACHER)),  # the start given as the end
        ("His term as mayor started in 1995.", (MAYOR, TEACHER)),  # the end given as the start
        ("His term as mayor ended in 1981.", (MAYOR.replace("(1981–1995)", "1981-1995"), TEACHER)),
        ("The show's run began in 2010.", (SHOW, PILOT)),
        ("His career as a teacher started in 1981.", (MAYOR, TEACHER)),  # the teaching career's start moved
    ],
)
def test_an_end_given_the_other_phase_or_another_subject_stays_unbound(claim: str, lines: tuple[str, ...]) -> None:
    assert "unbound" in codes(claim, *lines)
