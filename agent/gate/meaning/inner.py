"""Inner rivals: within the prose sentence that gives a claim's figure, another figure of its kind whose own
phrase matches the claim better ("Intel provided debt financing of $1.01 billion to IMFT in 2018 and IMFT repaid
$316 million to Intel in 2019" gives $316 million as repaid, not provided). A sentence is read as each figure's
phrase, cut at phrase marks and list links (`links.py`)."""

from __future__ import annotations

from functools import lru_cache

from quotebound.agent.gate.meaning.lexicon import is_weighed, stem
from quotebound.agent.gate.meaning.links import ITEM_LINKS, PHRASE_MARKS, is_link, last_link
from quotebound.agent.gate.meaning.model import Sentence, Value
from quotebound.agent.gate.meaning.periods import follows
from quotebound.agent.gate.meaning.roots import BETTER_BY, overlap
from quotebound.agent.gate.meaning.units import kind_class
from quotebound.agent.gate.tokens import Key


@lru_cache(maxsize=2048)
def _segments(s: Sentence) -> tuple[tuple[Value, frozenset[str]], ...]:
    """Each figure of a sentence with the content words of its own phrase: back to the figure before it and on to
    the figure after it, stopping at a comma, a semicolon, a bracket or a dash between ("its total
    population is 14,719 (out of which the population of Gniewkowo amounts to 7,254, ..."); the words from the
    figure before it to the figure after it when its phrase has none of its own. A period label after a figure
    ("$62.6 million in FY18", "1,066 at the 2010 census") belongs to it; any other year stands as a figure
    ("founded in 1856, ... completed in 1951")."""
    figures: list[Value] = []
    compared: list[Value] = []
    for v in s.values:
        attached = v.label and any(not q.label and follows(s, q, v) for q in s.values)
        if _comparative(s, v):
            compared.append(v)
        elif not attached:
            figures.append(v)
    out: list[tuple[Value, frozenset[str]]] = []
    for n, v in enumerate(figures):
        lo = figures[n - 1].pos + 1 if n else 0
        hi = figures[n + 1].pos if n + 1 < len(figures) else len(s.toks)
        start, end = v.pos, v.pos + 1
        while start > lo and not is_link(s.toks[start - 1], PHRASE_MARKS):
            start -= 1
        while end < hi and (not is_link(s.toks[end], PHRASE_MARKS) or _skips(s, end)):
            end += 3 if _skips(s, end) else 1
        end = min(end, hi)
        words = {stem(t.low) for t in s.toks[start:end] if t.value < 0 and is_weighed(t.low)}
        if not words:
            words = {stem(t.low) for t in s.toks[lo:hi] if t.value < 0 and is_weighed(t.low)}
        out.append((v, frozenset(words)))
    for v in compared:  # the figure it is compared with speaks of the same thing
        out.append((v, next((w for q, w in out if q.pos == v.pos - 2), frozenset())))
    return tuple(sorted(out, key=lambda x: x[0].pos))


def _comparative(s: Sentence, v: Value) -> bool:
    """`v` stands alone in brackets right after another figure: the same measure for a period compared with ("49%
    (53%) of the total trade receivables", "$5.2 million ($4.8 million)"), whose phrase is that figure's."""
    p = v.pos
    if p < 2 or p + 1 >= len(s.toks) or s.toks[p - 1].low != "(" or s.toks[p + 1].low != ")":
        return False
    before = s.toks[p - 2]
    return before.value >= 0 and not s.values[before.value].label and not v.label


def _skips(s: Sentence, i: int) -> bool:
    """Token `i` opens the brackets of a comparative figure (`_comparative`): the phrase reads on past them."""
    t = s.toks[i]
    if t.low != "(" or i + 1 >= len(s.toks):
        return False
    inner = s.toks[i + 1]
    return inner.value >= 0 and _comparative(s, s.values[inner.value])


def inner_rival(s: Sentence, v: Value, weights: dict[str, float], said: frozenset[Key]) -> str | None:
    """Within the prose sentence that gives `v`, the words just before `v` say something the claim does not, and
    the words around another figure of its kind (one the claim does not give) match the claim better: "Intel
    provided debt financing of $1.01 billion to IMFT in 2018 and IMFT repaid $316 million to Intel in 2019" gives
    $316 million as repaid, not provided."""
    if s.row:
        return None  # a row's figures are told apart by their columns (`label_problems`)
    segments = _segments(s)
    own = [(words, overlap(weights, words)) for q, words in segments if q.key == v.key]
    if not own or len(segments) < 2:
        return None
    mine = next(q for q, _ in segments if q.key == v.key)
    if not own_words(s, mine) - weights.keys():
        return None  # nothing of its own beside it ("from $62.6 million to $85.1 million")
    best_own = max(score for _, score in own)
    for q, words in segments:
        rival = q.key != v.key and q.key not in said and kind_class(q) == kind_class(v) and not _one_range(s, q, v)
        if rival and overlap(weights, words) > best_own + BETTER_BY:
            return s.text
    return None


def _one_range(s: Sentence, a: Value, b: Value) -> bool:
    """`a` and `b` are the two ends of one range of `s` ("a 2017–2018 series"): one span, not two figures."""
    return (a.key, b.key) in s.ranges or (b.key, a.key) in s.ranges


def own_words(s: Sentence, v: Value) -> frozenset[str]:
    """The content words (names aside) that are figure `v`'s own: those between it and the figure before it, from
    the last list link on when the words before the link follow that figure ("2,202 students and 160 classroom
    teachers": "students" is 2,202's), and those after it up to the next list link or phrase mark ("160 classroom
    teachers (on an FTE basis)"), unless they run on into the next figure, which they may lead."""
    figures = [q.pos for q, _ in _segments(s)]
    previous = max((p for p in figures if p < v.pos), default=-1)
    following = min((p for p in figures if p > v.pos), default=len(s.toks))
    lo = previous + 1
    if previous >= 0:
        link = last_link(s.toks, previous + 1, v.pos, ITEM_LINKS)
        lo = link + 1 if link >= 0 else lo
    hi = v.pos + 1
    while hi < following and not is_link(s.toks[hi]):
        hi += 1
    if hi == following < len(s.toks):
        hi = v.pos + 1  # words running on into the next figure may lead it ("fiscal 2019 compared to fiscal 2018")
    return frozenset(
        stem(t.low)
        for i, t in enumerate(s.toks[lo:hi], start=lo)
        if i != v.pos and t.value < 0 and not t.cap and is_weighed(t.low)
    )
