"""A copied frame: another document's sentence that repeats, word for word, the words on both sides of a value and
gives another value in its place.

"Free Your Mind is the fourth studio album by Australian electronic music band Cut Copy, released on 1 November 2013
by Modular Recordings." and "The electronic music band The Beatles, released on 1 November 2013 by Modular
Recordings." make one statement with the value swapped: the second has lost the subject's name, so the subject
check of `slots.same_slot` (both clauses name the question's subject, or neither) parts them, yet a run of words
this long, on both sides of the value, is no coincidence of wording: the second sentence says of the same thing what
the first says, with another value. Template sentences of two documents about two things ("The population was 428
at the 2000 census") share a few words only, and their other figures break the run ("there were 428 people, 160
households": the run stops at 160), so they stay apart.

`swapped` finds where two such copies differ when the swapped words are no value the slots read (lowercase words:
"the yellow lantern banksia" / "the red lantern banksia"); `copied.py` holds a draft's answer to one side.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.slot_occurrence import Occurrence

COPIED_SIDE: Final = 3  # words a copy repeats at least on each side of the value
COPIED_WORDS: Final = 10  # words it repeats in all, both sides together
_WORD: Final = re.compile(r"\w+")


@lru_cache(maxsize=16384)
def words(text: str) -> tuple[str, ...]:
    """A sentence's words, casefolded; cached, since every draft reads the same bundle lines."""
    return tuple(w.casefold() for w in _WORD.findall(text))


def _common_prefix(x: Sequence[str], y: Sequence[str]) -> int:
    n = 0
    for a, b in zip(x, y, strict=False):
        if a != b:
            break
        n += 1
    return n


def _left(o: Occurrence) -> list[str]:
    """The words before `o`, without the capitalized words right before a name ("The" of "The Beatles" is read as
    part of the name, whose text may leave it out)."""
    words = _WORD.findall(o.sentence[: o.start])
    while o.family == "name" and words and words[-1][:1].isupper():
        words.pop()
    return [w.casefold() for w in words]


def shared_around(a: Occurrence, b: Occurrence) -> tuple[int, int]:
    """The words `a`'s and `b`'s sentences repeat right before their values (counted back from them) and right after
    (counted on from them), word for word, casefolded; punctuation between words is not compared."""
    left_a, left_b = _left(a), _left(b)
    right_a, right_b = words(a.sentence[a.end :]), words(b.sentence[b.end :])
    return _common_prefix(left_a[::-1], left_b[::-1]), _common_prefix(right_a, right_b)


def copied_frame(a: Occurrence, b: Occurrence) -> bool:
    """`b` stands where `a` stands in a copy of `a`'s words (see the module docstring): two values of one family, each
    with at least `COPIED_SIDE` words repeated on each side and `COPIED_WORDS` in all."""
    if a.family != b.family or a.sentence == b.sentence:
        return False
    left, right = shared_around(a, b)
    return min(left, right) >= COPIED_SIDE and left + right >= COPIED_WORDS


SWAP_WORDS: Final = 4  # words at most on each side of a swap ("yellow" / "red", "Cut Copy" / "The Beatles")


def swapped(a: str, b: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where two sentences, copies of each other, swap a few words: the character spans of `a`'s words and of `b`'s
    that stand between a run of at least `COPIED_SIDE` words repeated before them and one repeated after,
    `COPIED_WORDS` in all ("commonly known as the yellow lantern banksia or Lemann's banksia, is a species ..." /
    "... the red lantern ..."). None when they are no such copy, or when the two sides share a word (an insertion,
    not a swap). A word repeated before may follow other words in one of them ("Banksia lemanniana Banksia
    lemanniana, commonly known as ..."): the runs are counted back from the swap."""
    ta, tb = list(_WORD.finditer(a)), list(_WORD.finditer(b))
    wa, wb = [m.group().casefold() for m in ta], [m.group().casefold() for m in tb]
    right = _common_prefix(wa[::-1], wb[::-1])
    if right < COPIED_SIDE:
        return None
    end_a, end_b = len(wa) - right, len(wb) - right
    best: tuple[int, int, int] | None = None
    for i in range(1, SWAP_WORDS + 1):
        for j in range(1, SWAP_WORDS + 1):
            if end_a - i < 0 or end_b - j < 0:
                continue
            left = _common_prefix(wa[: end_a - i][::-1], wb[: end_b - j][::-1])
            if best is None or left > best[0]:
                best = (left, i, j)
    if best is None or best[0] < COPIED_SIDE or best[0] + right < COPIED_WORDS:
        return None
    _, i, j = best
    first_a, last_a = ta[len(wa) - right - i], ta[len(wa) - right - 1]
    first_b, last_b = tb[len(wb) - right - j], tb[len(wb) - right - 1]
    if set(wa[len(wa) - right - i : len(wa) - right]) & set(wb[len(wb) - right - j : len(wb) - right]):
        return None  # a word kept is no swap: "census" / "census [5]" adds a mark, it changes nothing
    return (first_a.start(), last_a.end()), (first_b.start(), last_b.end())


__all__ = ["COPIED_SIDE", "COPIED_WORDS", "SWAP_WORDS", "copied_frame", "shared_around", "swapped", "words"]
