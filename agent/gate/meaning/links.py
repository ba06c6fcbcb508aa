"""List links: where one stretch of a sentence ends and the next begins. Value binding (`binding.py`,
`inner.py`), joined statements (`joined.py`) and swapped figures (`swapped.py`) all read a claim or quote sentence
as stretches set apart by these marks and links, so they share one reader: a figure's words are told apart from
the next item's ("$232 and trademarks 25") or an aside's ("the meeting, called to order at 7:00 p.m., was
adjourned") the same way everywhere.

Both sets are closed grammatical classes (punctuation and coordinating conjunctions), not words of any document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from quotebound.agent.gate.meaning.model import Tok

# Marks and words that open the next item of a list or a contrasted clause ("$232 and trademarks 25", "$5m, while
# services 3m").
ITEM_LINKS: Final = frozenset({",", ";", "and", "or", "while", "whereas", "but"})
# Marks that end the phrase a figure stands in: an aside between commas, dashes or brackets.
PHRASE_MARKS: Final = frozenset({",", ";", "(", ")", "[", "]", "—", "–"})
# Either: what sets one stretch of a clause apart from the next.
BREAKS: Final = ITEM_LINKS | PHRASE_MARKS
# The marks that may close an aside (a stretch set off on both sides).
CLOSERS: Final = frozenset({",", ";", ")", "]", "—", "–"})


def is_link(t: Tok, marks: frozenset[str] = BREAKS) -> bool:
    """Token `t` is one of `marks` (a figure never is, whatever it reads)."""
    return t.value < 0 and t.low in marks


def last_link(toks: Sequence[Tok], lo: int, hi: int, marks: frozenset[str] = BREAKS) -> int:
    """The index of the last of `marks` in token range [lo, hi), or -1."""
    return max((i for i in range(lo, hi) if is_link(toks[i], marks)), default=-1)


def first_link(toks: Sequence[Tok], lo: int, hi: int, marks: frozenset[str] = BREAKS) -> int:
    """The index of the first of `marks` in token range [lo, hi), or -1."""
    return min((i for i in range(lo, hi) if is_link(toks[i], marks)), default=-1)


class Stretch(NamedTuple):
    """Tokens [lo, hi) between two breaks, with the break before it ("" at the start) and after it ("" at the
    end)."""

    lo: int
    hi: int
    opener: str
    closer: str


def stretches(toks: Sequence[Tok], start: int, end: int) -> list[Stretch]:
    """The non-empty stretches of token range [start, end), split at every break (`BREAKS`)."""
    out: list[Stretch] = []
    lo, opener = start, ""
    for i in range(start, end + 1):
        mark = toks[i].low if i < end else ""
        if i == end or is_link(toks[i]):
            if i > lo:
                out.append(Stretch(lo, i, opener, mark))
            lo, opener = i + 1, mark
    return out


def stretch_at(toks: Sequence[Tok], start: int, end: int, pos: int) -> tuple[int, int]:
    """Token [lo, hi) of the stretch of range [start, end) that holds token `pos`: from the break before it to the
    one after it."""
    before = last_link(toks, start, pos)
    after = first_link(toks, pos + 1, end)
    return (before + 1 if before >= 0 else start), (after if after >= 0 else end)
