"""Copies of the answering line that disagree on another value of the asked kind are both listed
(`extractive_swapped`)."""

from __future__ import annotations

from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_swapped import swapped_sides, swapped_values
from quotebound.agent.models.extractive_values import Value

MINE = "Born in Lisbon in 1961, Ana Rocha first sailed for Portugal in the 1984 Atlantic Cup in Spain."
THEIRS = MINE.replace("1984", "1990")


def _scored(source_id: str, text: str, value: str) -> Scored:
    return Scored(Line(source_id, 1, 1, text), 1.0, 1.0, Value(value, "year", text.index(value)), None, True, None)


def _pool(*lines: tuple[str, str]) -> LinePool:
    found = LinePool()
    for n, (source_id, text) in enumerate(lines, start=1):
        found.add(Line(source_id, 1, n, text))
    return found


def test_a_copy_swapping_another_year_gives_both_years() -> None:
    like = Value("1961", "year", 0)
    found = swapped_values(MINE, THEIRS, like, 1.0)
    assert found is not None
    assert (found[0].text, found[1].text) == ("1984", "1990")


def test_copies_agreeing_or_swapping_words_or_cut_short_give_none() -> None:
    like = Value("1961", "year", 0)
    assert swapped_values(MINE, MINE, like, 1.0) is None
    assert swapped_values(MINE, MINE.replace("Spain", "France"), like, 1.0) is None  # no value at stake
    assert swapped_values(MINE, MINE.replace("Atlantic Cup in Spain.", ""), like, 1.0) is None
    short = "Ana Rocha sailed in the 1990 Atlantic Cup."
    assert swapped_values(MINE, short, like, 1.0) is None  # too few words alike to be a copy


def test_the_best_line_and_its_copy_are_listed_each_with_its_swapped_year() -> None:
    top = _scored("a.txt", MINE, "1961")
    lines = _pool(("a.txt", MINE), ("b.txt", THEIRS))
    sides = swapped_sides([top, _scored("b.txt", THEIRS, "1961")], lines, 1.0)
    assert [(s.line.source_id, s.value.text if s.value else None) for s in sides] == [
        ("a.txt", "1984"),
        ("b.txt", "1990"),
    ]
    assert swapped_sides([top], _pool(("a.txt", MINE), ("b.txt", MINE)), 1.0) == []
    listed = [top, _scored("c.txt", "Ana Rocha was born in 1962.", "1962")]  # a disagreement is listed already
    assert swapped_sides(listed, lines, 1.0) == []
