"""Whether two lines make their claim about the same thing: a differing value from a line about something else
(another fee, another date) is not a conflict."""

from __future__ import annotations

from collections.abc import Iterable

from quotebound.agent.models.extractive_values import extract_values, is_number_word
from quotebound.agent.models.extractive_words import STOPWORDS, token_forms


def _subject(text: str, asked: set[str]) -> tuple[frozenset[str], frozenset[str]]:
    """(the question's words a line states, the other words of the stretch that states them, with the one
    modifier before it). Numbers are left out: a year or amount qualifies a claim from anywhere in a line."""
    seq = token_forms(text)
    plain = {w for w in asked if not any(c.isdigit() for c in w)}
    hits = [i for i, forms in enumerate(seq) if forms & plain]
    if not hits:
        return frozenset(), frozenset()
    first = hits[0] - 1
    while first >= 0 and seq[first] <= STOPWORDS:
        first -= 1
    if first < 0 or any(c.isdigit() or is_number_word(f) for f in seq[first] for c in f):
        first = hits[0]
    stated = frozenset(f for i in hits for f in seq[i] & plain)
    extras = frozenset(
        f
        for forms in seq[first : hits[-1] + 1]
        for f in forms
        if f not in asked and f not in STOPWORDS and len(f) > 1 and not any(c.isdigit() for c in f)
    )
    return stated, extras


def same_subject(a: str, b: str, asked: Iterable[str]) -> bool:
    """Do two lines make their claim about the same thing? "Monthly service fee" and "the monthly service fee"
    do; "Total annual cost" and "Total operating cost" (a word swapped) do not."""
    stated_a, extra_a = _subject(a, set(asked))
    stated_b, extra_b = _subject(b, set(asked))
    if extra_a == extra_b:
        return True
    return stated_a == stated_b and (extra_a <= extra_b or extra_b <= extra_a)


def dated_apart(a: str, b: str) -> bool:
    """Both lines are pinned to dates, and to different ones: two points in time, not two claims."""
    x = {v.normalized() for v in extract_values(a) if v.kind == "date"}
    y = {v.normalized() for v in extract_values(b) if v.kind == "date"}
    return bool(x and y and not x & y)
