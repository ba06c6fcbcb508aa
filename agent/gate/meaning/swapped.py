"""Swapped figures: each figure of a claim is said of what its own quote says it of. When a claim states two
figures from two quotes, the words it says of one (its own stretch: an aside, a clause or a list item) must not be
words only the other figure's quote says ("the meeting, called to order at 8:42 p.m. ..., was adjourned at 7:00
p.m." from "called the meeting to order at 7:00 p.m." and "was adjourned at 8:42 p.m.")."""

from __future__ import annotations

from collections.abc import Sequence

from quotebound.agent.gate.meaning.lexicon import is_weighed, stem
from quotebound.agent.gate.meaning.links import stretch_at
from quotebound.agent.gate.meaning.model import Clause, QuoteSentence, Sentence, Value


def _said_of(c: Clause, v: Value, claim: Sentence, exempt: frozenset[str]) -> tuple[int, int, frozenset[str]]:
    """The stretch of clause `c` holding `v` (from the link before it to the one after it) and what the claim
    says of `v` there: its content words, names and the documents' ids (`exempt`) aside."""
    lo, hi = stretch_at(claim.toks, c.start, c.end, v.pos)
    words = {stem(t.low) for t in claim.toks[lo:hi] if t.value < 0 and not t.cap and is_weighed(t.low)}
    return lo, hi, frozenset(words - exempt)


def _only(words: frozenset[str], mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Some of `words` only the other quote says (`theirs`), and none only the figure's own quote says (`mine`)."""
    return bool(words & theirs - mine) and not words & mine - theirs


def swapped(
    c: Clause,
    v: Value,
    claim: Sentence,
    holder: QuoteSentence,
    holder_stems: frozenset[str],
    bodies: Sequence[QuoteSentence],
    exempt: frozenset[str],
) -> str | None:
    """Another figure of clause `c`, in a stretch of its own, comes from another quote sentence (one that does not
    give `v`, while `v`'s does not give it), and each figure is said with words only the other's quote has and
    none only its own has: the two figures trade what their quotes say of them. The other quote sentence, or
    None. Both ways, not one: two quotes giving two figures for one thing (a conflict) may word it either way."""
    lo, hi, words = _said_of(c, v, claim, exempt)
    if not words:
        return None
    for x in claim.values:
        if lo <= x.pos < hi or not c.start <= x.pos < c.end or x.key == v.key or x.label:
            continue
        if x.key in holder.sentence.keys:
            continue
        _, _, theirs_words = _said_of(c, x, claim, exempt)
        for qs in bodies:
            if qs is holder or v.key in qs.sentence.keys or x.key not in qs.sentence.keys:
                continue
            if _only(words, holder_stems, qs.sentence.stems) and _only(theirs_words, qs.sentence.stems, holder_stems):
                return qs.sentence.text
    return None
