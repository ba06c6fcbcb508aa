"""The entry point: every meaning check of a claim sentence against the sentences of its quotes, once per claim
and set of quotes. A claim that is its quote word for word is not read further; a bare "Yes" or "No" is read as
the question's clause, affirmed or reversed."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.claims import QuoteSpan
from quotebound.agent.gate.layout import Frame
from quotebound.agent.gate.meaning.binding import binding_problems, in_name
from quotebound.agent.gate.meaning.clauses import CLAUSE_OPENERS, INTRO_OPENERS
from quotebound.agent.gate.meaning.direction import (
    extreme_problems,
    range_end_problems,
    range_order_problems,
    trend_problems,
)
from quotebound.agent.gate.meaning.joined import joined_frame_problems
from quotebound.agent.gate.meaning.lexicon import ATTRIBUTION, OPPOSITE, stem
from quotebound.agent.gate.meaning.model import Problem, QuoteSentence, Sentence
from quotebound.agent.gate.meaning.names import name_problems
from quotebound.agent.gate.meaning.periods import label_problems
from quotebound.agent.gate.meaning.polarity import NEGATED_CLASS, polarity_problems
from quotebound.agent.gate.meaning.quotes import read_quotes
from quotebound.agent.gate.meaning.reading import parse
from quotebound.agent.gate.meaning.restriction import restriction_problems
from quotebound.agent.gate.meaning.symbols import symbol_problems
from quotebound.agent.gate.meaning.titles import asked_titles, unnamed
from quotebound.agent.gate.meaning.units import unit_problems
from quotebound.agent.gate.tokens import Key
from quotebound.agent.gate.vocabulary import STOPWORDS, fold

_YES_NO_QUESTION: Final = re.compile(
    r"^\s*(?:is|are|was|were|am|can|could|may|might|must|shall|should|will|would|do|does|did|has|have|had)\b", re.I
)


def _answered(question: str, particle: str) -> Sentence | None:
    """The clauses a bare "Yes" / "No" states: the question's own, affirmed, or with their modality, direction or
    polarity reversed ("Are pets allowed?" "No." states a prohibition). A plain "No" denies the clause as a whole,
    so its focus is every content word of it (`polarity.polarity_problems`, lenient). A subordinate clause ("... if
    it brings clients?") is a condition of the question and is not reversed."""
    if not _YES_NO_QUESTION.match(question):
        return None
    asked = unnamed(parse(question.strip().rstrip("?")), asked_titles(question))
    if particle == "yes":
        return asked
    clauses = []
    for c in asked.clauses:
        first = asked.toks[c.start].low
        if first in CLAUSE_OPENERS or first in INTRO_OPENERS:
            clauses.append(c)
        elif c.modality:
            clauses.append(replace(c, modality=frozenset(NEGATED_CLASS[m] for m in c.modality)))
        elif c.directions:
            clauses.append(replace(c, directions=frozenset((a, OPPOSITE[p]) for a, p in c.directions)))
        else:  # "No" denies the whole clause: it contradicts only a quote clause that states all of it
            clauses.append(replace(c, negative=not c.negative, focus=c.stems | c.names))
    return replace(asked, clauses=tuple(clauses))


def problems(
    claim: str,
    quotes: Sequence[QuoteSpan],
    question: str | None = None,
    names: Iterable[str] = (),
    documents: Iterable[str] = (),
    frames: Sequence[tuple[Frame, ...]] = (),
) -> list[Problem]:
    """What `claim` (one sentence) says otherwise than the quote sentences it rests on; empty when it keeps their
    meaning. `question` gives a bare "Yes" / "No" (or a bare figure) its clause. `names` may stand anywhere (they
    name a document or the question's subject: a cited source's title and id words, the question's capitalized
    words); `documents` are the words of the cited sources' ids, which refer to a document ("$325.00 (budget)"),
    not to a subject. `frames[i]` frames the lines of `quotes[i]` in its page (`layout.frames`)."""
    read = read_quotes(quotes, frames)
    return list(problems_read(claim, read, question, stems_of(names), stems_of(documents)))


@lru_cache(maxsize=64)
def _asked_names(question: str | None) -> frozenset[str]:
    """The stems of the names the question asks about (its capitalized words past the first): they say which
    subject the answer is about, not which of its quotes a figure comes from."""
    if not question:
        return frozenset()
    words = re.findall(r"[^\W\d_]+", question)[1:]
    return frozenset(stem(w) for w in words if w[0].isupper())


def _named_figures(question: Sentence | None) -> frozenset[Key]:
    """The figures of the question that are part of a name (`binding.in_name`: "24th Rifle Division")."""
    return frozenset(v.key for v in question.values if in_name(question, v)) if question is not None else frozenset()


def stems_of(words: Iterable[str]) -> frozenset[str]:
    """The stems of `words`, as `problems_read` takes names and documents."""
    return _stems(frozenset(words))


@lru_cache(maxsize=64)
def _stems(words: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w) for w in words)


_QUOTED: Final = re.compile(r"[\"“”]([^\"“”]{12,})[\"“”]")
_SPACES: Final = re.compile(r"\s+")


def _verbatim(claim: str, read: tuple[QuoteSentence, ...], exempt: frozenset[str]) -> bool:
    """The claim says nothing of its own: it is one of its quote sentences word for word, or it quotes whole quote
    sentences and says only where they come from around them ('According to the Declaration, "..."'). Such a claim
    keeps its quote's meaning by construction and is not read further. (A part of a sentence is read: "pet may be
    kept for breeding" is word for word in "No pet may be kept for breeding".)"""
    whole = _whole_sentences(read)

    def found(part: str) -> bool:
        return _SPACES.sub(" ", part).strip(" .,;:") in whole

    if found(claim):
        return True
    quoted = _QUOTED.findall(claim)
    if not quoted or not all(found(q) for q in quoted):
        return False
    rest = _QUOTED.sub(" ", claim)
    return all(
        fold(w) in STOPWORDS or fold(w) in ATTRIBUTION or stem(w) in exempt for w in re.findall(r"[^\W\d_]+", rest)
    )


def _unquoted(claim: str, read: tuple[QuoteSentence, ...]) -> str:
    """The claim with each whole quote sentence it writes inside quotation marks blanked out: what stands between
    the marks is the quote's own, word for word, so its figures keep the quote's periods and subjects, and the words
    around them ("the table shows "..." with 2019 in the first column") are read alone."""
    if '"' not in claim and "“" not in claim:
        return claim
    whole = _whole_sentences(read)

    def blank(m: re.Match[str]) -> str:
        inner = _SPACES.sub(" ", m[1]).strip(" .,;:")
        return " " * len(m[0]) if inner in whole else m[0]

    return _QUOTED.sub(blank, claim)


@lru_cache(maxsize=512)
def _whole_sentences(read: tuple[QuoteSentence, ...]) -> frozenset[str]:
    return frozenset(qs.sentence.text.strip(" .,;:") for qs in read)


def _polarity(s: Sentence, read: tuple[QuoteSentence, ...], titles: tuple[tuple[str, ...], ...]) -> list[Problem]:
    """`polarity_problems`, with the words of the question's titles read as a name on both sides ("Never Ever was
    released ..." against "The EP was released ...")."""
    if not titles:
        return polarity_problems(s, read)
    return polarity_problems(
        unnamed(s, titles), tuple(qs._replace(sentence=unnamed(qs.sentence, titles)) for qs in read)
    )


@lru_cache(maxsize=1024)  # a draft repeats its sentences (level1, the answer, a fact's text), and repairs re-send them
def problems_read(
    claim: str, read: tuple[QuoteSentence, ...], question: str | None, exempt: frozenset[str], refs: frozenset[str]
) -> tuple[Problem, ...]:
    """`problems` over quotes already read (`read_quotes`), with the stems of the names and documents
    (`stems_of`): a rule reads a draft's quotes once for all its claims."""
    if not read or _verbatim(claim, read, exempt):
        return ()
    s = parse(claim)
    outside = parse(unquoted) if (unquoted := _unquoted(claim, read)) != claim else s  # figures keep quoted periods
    asked = parse(question) if question else None
    found = (
        _polarity(s, read, asked_titles(question))
        + restriction_problems(s, read)
        + range_order_problems(s, read)
        + range_end_problems(s, read, asked)
        + unit_problems(s, read)
        + symbol_problems(s, read)
    )
    found += (
        binding_problems(outside, read, refs, _asked_names(question), _named_figures(asked))
        + label_problems(outside, read)
        + trend_problems(s, read)
        + extreme_problems(s, read)
    )
    found += joined_frame_problems(s, read)
    found += name_problems(s, read, exempt)
    if s.particle is not None and question:
        answered = _answered(question, s.particle)
        if answered is not None:
            found += polarity_problems(answered, read, lenient=True)
    return tuple(dict.fromkeys(found))
