"""Words of a name are not polarity. A title the question names ("The Man Who Never Was", the "Never Ever" EP) may
hold a negator or a word of modality; where a sentence writes that name, its words deny or permit nothing. Only the
question's names count (a draft cannot make a name of its own by capitalizing "Not"), and only where the sentence
writes two or more of its words together, each capitalized (the sentence's first word may stand for a capital), so
"Never was it released" or a lone "No" is still a negator; a name between a verb before it and a verb after it ("was
Never Ever released") is read as words of the clause, not as the name."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.meaning.clauses import read_clause
from quotebound.agent.gate.meaning.lexicon import (
    EXEMPTION,
    NEGATORS,
    OBLIGATION_MODALS,
    OBLIGATION_WORDS,
    PERMISSION,
    PROHIBITION,
    VERB_GROUP,
    is_content,
)
from quotebound.agent.gate.meaning.model import Sentence, Tok
from quotebound.agent.gate.meaning.reading import parse

Run = tuple[str, ...]
_POLAR: Final = NEGATORS | PERMISSION | PROHIBITION | OBLIGATION_MODALS | OBLIGATION_WORDS | EXEMPTION


def _word(t: Tok) -> bool:
    return t.value < 0 and t.low[:1].isalpha()


def _title(run: Run) -> bool:
    """A run of two or more words with a word of polarity in it and a word of its own besides."""
    return len(run) >= 2 and any(w in _POLAR for w in run) and any(w not in _POLAR for w in run)


@lru_cache(maxsize=256)
def asked_titles(question: str | None) -> tuple[Run, ...]:
    """The names of the question that hold a word of polarity: its runs of capitalized words ("Who directed "The Man
    Who Never Was"?": the, man, who, never, was)."""
    if not question:
        return ()
    runs: list[Run] = []
    current: list[str] = []
    for t in (*parse(question).toks, Tok("")):
        if _word(t) and t.cap:
            current.append(t.low)
            continue
        if _title(tuple(current)):
            runs.append(tuple(current))
        current = []
    return tuple(runs)


def _capital(toks: tuple[Tok, ...], i: int, first: int) -> bool:
    return 0 <= i < len(toks) and _word(toks[i]) and (toks[i].cap or i == first)


def _span(toks: tuple[Tok, ...], i: int, first: int, run: Run, j: int) -> tuple[int, int]:
    """[a, b): the longest stretch around token i, each capitalized, that is `run` around its word j."""
    a = i
    while a > 0 and j - (i - a) > 0 and _capital(toks, a - 1, first) and toks[a - 1].low == run[j - (i - a) - 1]:
        a -= 1
    b = i + 1
    while j + (b - i) < len(run) and _capital(toks, b, first) and toks[b].low == run[j + (b - i)]:
        b += 1
    return a, b


def _verb_inside(toks: tuple[Tok, ...], a: int, b: int) -> bool:
    """ "was Never Ever released": a verb group before it and a lowercase content word after it."""
    before = toks[a - 1].low if a > 0 else ""
    after = toks[b] if b < len(toks) else Tok("")
    return before in VERB_GROUP and _word(after) and not after.cap and is_content(after.low)


def named_tokens(s: Sentence, titles: tuple[Run, ...]) -> frozenset[int]:
    """The indices of the words of polarity in `s` that are words of one of the question's `titles`."""
    toks = s.toks
    first = next((i for i, t in enumerate(toks) if _word(t)), -1)
    named: set[int] = set()
    for i, t in enumerate(toks):
        if t.low not in _POLAR or not _capital(toks, i, first):
            continue
        for run in titles:
            for j in (j for j, w in enumerate(run) if w == t.low):
                a, b = _span(toks, i, first, run, j)
                if _title(tuple(x.low for x in toks[a:b])) and not _verb_inside(toks, a, b):
                    named.update(k for k in range(a, b) if toks[k].low in _POLAR)
    return frozenset(named)


@lru_cache(maxsize=2048)
def unnamed(s: Sentence, titles: tuple[Run, ...]) -> Sentence:
    """`s` with each clause read again without the words of polarity that are words of the question's titles."""
    named = named_tokens(s, titles) if titles else frozenset()
    if not named:
        return s
    clauses = []
    for c in s.clauses:
        if not any(c.start <= i < c.end for i in named):
            clauses.append(c)
            continue
        fresh = read_clause(s.toks, c.start, c.end, named)
        modality = fresh.modality or (c.modality if c.elliptical else frozenset())
        clauses.append(
            replace(c, negative=fresh.negative, focus=fresh.focus, modality=modality, directions=fresh.directions)
        )
    return replace(s, clauses=tuple(clauses))
