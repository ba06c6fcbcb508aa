"""`gate/meaning/links.py`: the one reader of list links and phrase marks that value binding, joined statements
and swapped figures share. A figure's stretch ends at the next link; an aside is told apart from the next item;
a figure never counts as a link, whatever it reads."""

from __future__ import annotations

from quotebound.agent.gate.meaning.links import (
    ITEM_LINKS,
    PHRASE_MARKS,
    Stretch,
    first_link,
    is_link,
    last_link,
    stretch_at,
    stretches,
)
from quotebound.agent.gate.meaning.model import Tok
from quotebound.agent.gate.meaning.reading import parse


def words(text: str) -> list[Tok]:
    return list(parse(text).toks)


def lows(toks: list[Tok], lo: int, hi: int) -> list[str]:
    return [t.low for t in toks[lo:hi]]


def test_a_comma_and_a_conjunction_are_links_a_word_is_not() -> None:
    toks = words("rent, and fees")
    assert [is_link(t) for t in toks] == [False, True, True, False]


def test_a_figure_is_never_a_link() -> None:
    assert not is_link(Tok(low=",", value=0))
    assert is_link(Tok(low=","))


def test_a_bracket_ends_a_phrase_but_opens_no_list_item() -> None:
    bracket = Tok(low="(")
    assert is_link(bracket, PHRASE_MARKS)
    assert not is_link(bracket, ITEM_LINKS)


def test_last_and_first_link_find_the_nearest_break_either_side() -> None:
    toks = words("the balance was $184,250.00 and a planned expenditure of $22,000.00")
    figure = next(i for i, t in enumerate(toks) if t.value == 1)
    link = last_link(toks, 0, figure)
    assert toks[link].low == "and"
    assert first_link(toks, 0, link) == -1  # no break before the list link
    assert last_link(toks, 0, 2) == -1


def test_stretches_split_an_aside_from_the_main_statement() -> None:
    toks = words("the meeting, called to order at 7:00 p.m., was adjourned")
    spans = stretches(toks, 0, len(toks))
    assert [lows(toks, s.lo, s.hi)[0] for s in spans] == ["the", "called", "was"]
    assert spans[0].opener == "" and spans[1].opener == "," and spans[1].closer == ","
    assert spans[-1].closer == ""


def test_stretches_skip_empty_stretches_between_two_breaks() -> None:
    toks = words("rent, and fees")
    assert stretches(toks, 0, len(toks)) == [Stretch(0, 1, "", ","), Stretch(3, 4, "and", "")]


def test_the_stretch_at_a_figure_runs_from_the_link_before_to_the_link_after() -> None:
    toks = words("rent was $325.00 and the late charge was $25.00, payable monthly")
    second = next(i for i, t in enumerate(toks) if t.value == 1)
    lo, hi = stretch_at(toks, 0, len(toks), second)
    assert lows(toks, lo, hi)[0] == "the" and toks[hi].low == ","
    first = next(i for i, t in enumerate(toks) if t.value == 0)
    assert stretch_at(toks, 0, len(toks), first)[0] == 0  # no link before: from the start
