"""What a claim's quotes can support, read once per set of quotes: their words (with their tables' headers), their
acronyms, whether they speak in the first person, the scales and figures they state, the axes of meaning they
state, and the plain words a paraphrase may be measured against. Also the content words of any text, each marked
as a name or not.

Only the quotes count here, never the rest of a cited source: a word from another paragraph of the same document
("boats" beside "pets") is exactly what a model carries in by mistake, or what an instruction there tells it to add.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.claims import QuoteSpan, sentences
from quotebound.agent.gate.meaning import NEGATORS, parse
from quotebound.agent.gate.source_readings import source_reading
from quotebound.agent.gate.tokens import quote_keys
from quotebound.agent.gate.vocabulary import (
    EVIDENCE_WORDS,
    FIRST_PERSON_PLURAL,
    LIGHT_VERBS,
    ORDINALS,
    SCALES,
    STOPWORDS,
    STRICT_WORDS,
    WORD,
    Vocabulary,
    fold,
    in_category,
    is_content,
    stem,
    vocabulary_of,
)

_CACHED: Final = 128
_SENTENCE_START: Final = re.compile(r"(?:^|[.:;!?\"“(]\s*)$")
# A name of two capitals ("UK", "US", "EU") is too short for a content word, but names a place or body all the same.
_SHORT_ACRONYM: Final = re.compile(r"[A-Z]{2}")
# A figure written as digits joined to a word ("3-year"): a number word may spell it; and an ordinal in digits
# ("2nd"): an ordinal word may.
_DIGITS_IN_WORD: Final = re.compile(r"(?<![\d.,])(\d{1,3})-[A-Za-z]")
_ORDINAL_DIGITS: Final = re.compile(r"(?<![\d.,])(\d{1,3})(?:st|nd|rd|th)\b")


@dataclass(frozen=True)
class Word:
    text: str
    start: int
    name: bool  # capitalized where a sentence does not start, or mixed case / all capitals: a name


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[Word, ...]:
    """The content words of `text`, each marked as a name or not (cached: quotes and questions recur)."""
    out: list[Word] = []
    for m in WORD.finditer(text):
        w = m.group()
        if not (is_content(w) or _SHORT_ACRONYM.fullmatch(w)):
            continue
        inner_caps = any(c.isupper() for c in w[1:])
        capitalized = w[0].isupper() and not _SENTENCE_START.search(text[max(0, m.start() - 3) : m.start()])
        out.append(Word(w, m.start(), inner_caps or capitalized))
    return tuple(out)


def strict(word: str) -> bool:
    """A word whose meaning closeness must never decide (polarity, modality, direction, months, number words)."""
    return in_category(word, STRICT_WORDS)


@dataclass(frozen=True)
class Evidence:
    """What a claim's quotes can support: their words (with their tables' headers), their acronyms, whether they
    speak in the first person, the scales they state, and the words a paraphrase may be measured against."""

    vocab: Vocabulary
    initials: frozenset[str]
    first_person: bool
    scales: frozenset[str]
    plain: tuple[str, ...]
    figures: frozenset[Decimal]  # every number the quotes write (a date's or a time's parts, "3" of "3-year")
    ranks: frozenset[int]  # every ordinal the quotes write in digits ("2nd")
    axes: frozenset[str]  # the meaning rule's axes the quotes state: "deontic", "phase", "change", "magnitude" ...
    negated: bool  # a quote states a negation ("no quorum is present", "not paid")
    ordinal: bool  # a quote ranks something itself with an ordinal word ("the first notice")
    _said: dict[str, bool] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def says(self, word: str) -> bool:
        """The quotes have `word` (up to inflection), or it is a free word: remembered, words recur across claims."""
        known = self._said.get(word)
        if known is None:
            known = self._said[word] = (
                self.vocab.covers(word) or in_category(word, EVIDENCE_WORDS) or fold(word) in LIGHT_VERBS
            )
        return known


@lru_cache(maxsize=4096)  # a quote's initials, for every set of quotes it is in
def initials(text: str) -> frozenset[str]:
    """Every run of initials of consecutive content words of `text` ("value added tax" gives "va", "vat", "at")."""
    letters = [fold(w)[0] for w in WORD.findall(text) if fold(w) not in STOPWORDS]
    return frozenset(
        "".join(letters[i:j]) for i in range(len(letters)) for j in range(i + 2, min(len(letters), i + 7) + 1)
    )


_evidences: OrderedDict[int, tuple[tuple[QuoteSpan, ...], Evidence]] = OrderedDict()


def evidence_of(quotes: tuple[QuoteSpan, ...]) -> Evidence:
    """`_evidence(quotes)`, looked up by the tuple's identity first: the claims of a draft share a few tuples (a
    fact's quotes, every quote), and hashing them whole for each claim would cost more than the check."""
    hit = _evidences.get(id(quotes))
    if hit is not None and hit[0] is quotes:
        return hit[1]
    found = _evidence(quotes)
    _evidences[id(quotes)] = (quotes, found)  # the tuple is held, so its id cannot be reused while cached
    while len(_evidences) > _CACHED:
        _evidences.popitem(last=False)
    return found


@lru_cache(maxsize=1024)
def _evidence(quotes: tuple[QuoteSpan, ...]) -> Evidence:
    """The union of what each quote supports (each quote is read once, whatever sets of quotes it is in: a fact's
    own, and every quote of the draft)."""
    parts = [_quote_evidence(q.quote, q.header) for q in quotes]
    if len(parts) == 1:
        return parts[0]
    vocab = Vocabulary()
    for part in parts:
        vocab.merge(part.vocab)
    return Evidence(
        vocab,
        frozenset().union(*(p.initials for p in parts)),
        any(p.first_person for p in parts),
        frozenset().union(*(p.scales for p in parts)),
        tuple(dict.fromkeys(w for p in parts for w in p.plain)),
        frozenset().union(*(p.figures for p in parts)),
        frozenset().union(*(p.ranks for p in parts)),
        frozenset().union(*(p.axes for p in parts)),
        any(p.negated for p in parts),
        any(p.ordinal for p in parts),
    )


@source_reading  # a verified quote and its table's header are source text: read once per source version
def _quote_evidence(quote: str, header: str) -> Evidence:
    """What one quote (and its table's header, group row and caption) supports."""
    vocab = Vocabulary()
    texts = [t for t in (quote, header) if t]
    for text in texts:
        vocab.merge(vocabulary_of(text))
    spelled = initials(f"{quote} {header}")
    first = any(FIRST_PERSON_PLURAL.search(t) for t in texts)  # the quote, its table and caption
    scales = frozenset(scale for scale, pattern in SCALES.items() if any(pattern.search(t) for t in texts))
    plain = tuple(dict.fromkeys(fold(w.text) for w in words(quote) if not strict(w.text)))
    figures = {v for kind, v in quote_keys(quote) if kind == "num" and isinstance(v, Decimal)}
    figures |= {Decimal(m.group(1)) for m in _DIGITS_IN_WORD.finditer(quote)}
    axes = frozenset(a for sentence in sentences(quote) for a in text_axes(sentence))
    said = [fold(w) for w in WORD.findall(quote)]
    negated = any(w in NEGATORS or w.endswith("n't") for w in said)
    ordinal = any(w in ORDINALS for w in said)
    ranks = frozenset(int(m.group(1)) for m in _ORDINAL_DIGITS.finditer(quote))
    return Evidence(vocab, spelled, first, scales, plain, frozenset(figures), ranks, axes, negated, ordinal)


@lru_cache(maxsize=4096)
def text_axes(text: str) -> frozenset[str]:
    """The axes of meaning `text` states, as the meaning rule reads them: "deontic" for a permission, prohibition,
    obligation or exemption, and each axis of a direction (magnitude, order, change, phase, state, extreme)."""
    found: set[str] = set()
    for clause in parse(text).clauses:
        found.update(["deontic"] if clause.modality else [])
        found.update(axis for axis, _ in clause.directions)
    return frozenset(found)


def word_axes(word: str) -> frozenset[str]:
    """The axes a single word states (read as written, else as its stem: "starting" as "start")."""
    return text_axes(word) or text_axes(stem(word))


def states_pole(text: str) -> bool:
    """`text` negates, or states a modality or direction (a pole a "not" or a modal word could turn around)."""
    lowered = fold(text)
    return bool(text_axes(text)) or "n't" in lowered or any(fold(w) in NEGATORS for w in WORD.findall(text))


def meaning_word(word: str) -> bool:
    """`word` states polarity, modality or direction (a negator, or a word with an axis of meaning): such a word
    needs its quotes even where other words are read leniently (a key, a label)."""
    folded = fold(word)
    return folded in NEGATORS or folded.endswith("n't") or bool(word_axes(folded))


__all__ = [
    "Evidence",
    "Word",
    "evidence_of",
    "initials",
    "meaning_word",
    "states_pole",
    "strict",
    "text_axes",
    "word_axes",
    "words",
]
