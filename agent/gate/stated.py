"""What a draft states, and what the readable evidence states: the values the conflict rules compare, each with
the sentence it stands in (its slot is read from that sentence, `slots.py`).

- Stated values: each fact's (its `value`, else the figures of its text, and, when the question asks for a name,
  the names of its text) and the figures of the answer (`evidence.answer`, else level1). A value counts only
  where a verified quote of the draft states it: the quote's sentence, read in the text at its locator, gives it
  its slot. A value no verified quote states is the support rules' business, not a conflict. Calc facts are
  derived, not stated.
- Evidence values: every value of every sentence of every resolved bundle, line by line with a one-line locator.
  Lines flagged as instructional text are never read, and a Markdown heading states no value (it names a section).

Sentences are split as the claims are (`claims.sentences`), and `quote_sentences` is the one reading of a quote in
its whole sentences.

Nothing here reads a fact's `key`: a model may leave it out or word it to group what should not be grouped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from quotebound.agent.core.contracts import EvidenceBundle, Fact, Locator
from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.claims import sentences
from quotebound.agent.gate.conflicts import FlaggedLines
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.memo import per_draft
from quotebound.agent.gate.slots import (
    Occurrence,
    QuestionTerms,
    occurrences,
    question_terms,
    stated_in,
    values_differ,
    word_key,
)
from quotebound.agent.gate.source_readings import source_reading
from quotebound.agent.gate.verification import Verification

_NEEDLE = 4  # letters of a word's key a sentence must contain to be read ("polic" of "policies" is "polic")


@dataclass(frozen=True)
class Stated:
    """A value the draft states, where a verified quote states it."""

    where: str  # "fact 0", "the answer"
    fact_index: int | None
    occurrence: Occurrence
    source_id: str
    locator: str


@dataclass(frozen=True)
class Evidence:
    """A value a readable line of the resolved evidence states."""

    source_id: str
    page: int
    line: int
    occurrence: Occurrence

    @property
    def locator(self) -> str:
        return f"p.{self.page} L{self.line}-L{self.line}"


@lru_cache(maxsize=4096)
def split_sentences(text: str) -> tuple[str, ...]:
    """`text` split into sentences and lines as the claims are (`claims.sentences`), whitespace inside each
    collapsed; cached, since every rule reading slots splits the same lines."""
    return tuple(sentences(text))


@lru_cache(maxsize=4096)
def quote_sentences(quote: str, context: str) -> tuple[str, ...]:
    """The whole sentences of `context` (the text at the quote's locator, its hard-wrapped lines joined) that the
    quote overlaps: a quote read in its sentences, so what a value is the value of is never cut to the words a
    model chose to quote. A quote not found in `context` is read in its own sentences."""
    flat_quote, flat_context = " ".join(quote.split()), " ".join(context.split())
    at = flat_context.find(flat_quote) if flat_quote else -1
    if at < 0:
        return split_sentences(quote) or ((flat_quote,) if flat_quote else ())
    out: list[str] = []
    position = 0
    for sentence in split_sentences(flat_context):
        start = flat_context.find(sentence, position)
        if start < 0:
            continue
        position = start + len(sentence)
        if start < at + len(flat_quote) and at < position:
            out.append(sentence)
    return tuple(out) or (flat_quote,)


# The values of a sentence of a verified quote or of a resolved bundle's line: source text, read once per source
# version for every draft (a draft's own sentences go through `occurrences`).
_source_occurrences: Final = source_reading(occurrences.__wrapped__)
_source_sentences: Final = source_reading(split_sentences.__wrapped__)


# `quote_sentences` of a verified quote in the text at its locator: source text, read once per source version.
source_quote_sentences: Final = source_reading(quote_sentences.__wrapped__)


def _agrees(value_text: str, occurrence: Occurrence, tolerance_pct: float) -> bool:
    """`value_text` (a value as a draft writes it) names the value `occurrence` stands for."""
    return any(
        o.family == occurrence.family and not values_differ(o, occurrence, tolerance_pct)
        for o in value_occurrences(value_text)
    )


@lru_cache(maxsize=1024)
def value_occurrences(value_text: str) -> tuple[Occurrence, ...]:
    """A bare value ("$325.00", "five", "Ellen Marsh", "novel") read as occurrences: its figures, or itself as a
    name when it has none."""
    text = " ".join(value_text.split())
    found = tuple(o for o in occurrences(text, False))
    if found:
        return found
    return tuple(o for o in occurrences(text, True, (0, len(text))) if o.start == 0) if text else ()


def locate(
    value_text: str,
    sentences: Iterable[str],
    tolerance_pct: float,
    names: bool,
    whole: bool = False,
    source: bool = False,
) -> list[Occurrence]:
    """Where `value_text` stands in `sentences`: each occurrence there of the same value (a plain-word value the
    sentences do not read as a name is read where its words stand). `whole`: a name given verbatim from a quote is
    read where its words stand when the sentence's run of capitals went on past it (`_runs_on`). `source`: the
    sentences are a verified quote's (source text, read once per source version)."""
    read = _source_occurrences if source else occurrences
    wanted = value_occurrences(value_text)
    if not wanted:
        return []
    found: list[Occurrence] = []
    for sentence in sentences:
        hits = [
            o
            for o in read(sentence, names or wanted[0].family == "name")
            if any(o.family == w.family and not values_differ(o, w, tolerance_pct) for w in wanted)
        ]
        exact = [o for o in hits if o.family != "name" or any(o.name_words == w.name_words for w in wanted)]
        hits = exact or hits  # "Cloutierville, Louisiana" where it stands whole, not its "Louisiana"
        if whole and not exact and wanted[0].family == "name" and all(_runs_on(o, value_text, sentence) for o in hits):
            hits = []  # "Taylor Swift Released = ...": read at the name's own words, below
        if not hits and wanted[0].family == "name":
            at = sentence.casefold().find(" ".join(value_text.split()).casefold())
            if at >= 0:
                span = (at, at + len(" ".join(value_text.split())))
                hits = [o for o in occurrences(sentence, True, span) if (o.start, o.end) == span]
        found += hits
    return found


def _runs_on(found: Occurrence, value_text: str, sentence: str) -> bool:
    """`found` is a name that starts where the wanted name's words stand whole and goes on past them: a run of
    capitalized words that went on into the title-cased words after the name ("The Beatles Announce New Album
    ...", "Taylor Swift Released = ...")."""
    text = " ".join(value_text.split()).casefold()
    at = sentence.casefold().find(text, max(0, found.start - len(text)))
    return found.family == "name" and 0 <= at <= found.start < at + len(text) < found.end


def _figures_and_names(text: str, question: QuestionTerms, names: bool) -> list[str]:
    """The values a sentence of a draft states: its figures, dates and number words, and with `names` its names
    (a name of the question itself is its subject, not a value)."""
    values: list[str] = []
    for sentence in split_sentences(text):
        for value, family, name_words in stated_in(sentence, names):  # the values only: no slot is read here
            if family == "name" and (not name_words or name_words <= question.names):
                continue
            values.append(value)
    return list(dict.fromkeys(values))


def _fact_values(fact: Fact, question: QuestionTerms) -> list[str]:
    """A fact's `value`, else the values its text states. A `value` of another kind than the question asks for (the
    route number of an address, for "where") does not hide the names the text gives."""
    if fact.calc is not None:
        return []
    if fact.value is None or not fact.value.strip():
        return _figures_and_names(fact.text, question, question.asks_entity)
    given = value_occurrences(fact.value)
    answers = [o for o in given if not is_subject(o, question)]  # a `value` naming the question's subject is none
    if not question.asks_entity or any(o.family == "name" for o in answers):
        return [fact.value]
    return list(dict.fromkeys([fact.value, *_figures_and_names(fact.text, question, True)]))


@dataclass(frozen=True)
class _Quote:
    source_id: str
    locator: str
    sentences: tuple[str, ...]


def _verified(facts: Sequence[Fact], checks: Sequence[Sequence[Verification]]) -> list[list[_Quote]]:
    return [
        [
            _Quote(s.source_id, s.locator, source_quote_sentences(s.quote, c.context or s.quote))
            for s, c in zip(fact.support, fact_checks, strict=True)
            if c.ok
        ]
        for fact, fact_checks in zip(facts, checks, strict=True)
    ]


@per_draft
def stated_values(inputs: GateInputs) -> tuple[Stated, ...]:
    """Every value the draft states, at each verified quote that states it (see the module docstring); computed
    once per draft (three rules read them)."""
    return tuple(_stated_values(inputs))


def _stated_values(inputs: GateInputs) -> list[Stated]:
    question = question_terms(inputs.question)
    evidence = inputs.draft.evidence
    tolerance = inputs.tolerance_pct
    quotes = _verified(evidence.facts, inputs.support_checks)
    out: list[Stated] = []
    seen: set[tuple[str, int, str]] = set()

    def add(where: str, index: int | None, value: str, pool: Iterable[_Quote]) -> None:
        for quote in pool:
            for o in locate(value, quote.sentences, tolerance, question.asks_entity, source=True):
                mark = (o.sentence, o.start, where)
                if mark not in seen:
                    seen.add(mark)
                    out.append(Stated(where, index, o, quote.source_id, quote.locator))

    for i, fact in enumerate(evidence.facts):
        check_deadline()
        for value in _fact_values(fact, question):
            add(f"fact {i}", i, value, quotes[i])
    if any(f.calc is not None for f in evidence.facts):
        return out  # a derived answer states the calc's figure, not a source value
    answer = evidence.answer or inputs.draft.levels.level1
    every = [q for qs in quotes for q in qs]
    stated_by_facts = {(s.occurrence.sentence, s.occurrence.start) for s in out}
    # the figures of the quotes no fact states, read once: the answer's figures are looked for among these only
    # (names: the facts state them)
    unstated = [
        (quote, o)
        for quote in every
        for sentence in quote.sentences
        for o in _source_occurrences(sentence, question.asks_entity)
        if o.family != "name" and (o.sentence, o.start) not in stated_by_facts
    ]
    for value in _figures_and_names(answer, question, False) if unstated else ():
        check_deadline()
        wanted = [w for w in value_occurrences(value) if w.family != "name"]
        for quote, o in unstated:
            if (o.sentence, o.start, "the answer") in seen:
                continue
            if any(o.family == w.family and not values_differ(o, w, tolerance) for w in wanted):
                seen.add((o.sentence, o.start, "the answer"))
                out.append(Stated("the answer", None, o, quote.source_id, quote.locator))
    return out


def needles(stated: Iterable[Stated]) -> frozenset[str]:
    """Cheap tests for a sentence that may give a value for one of the stated values' slots: the first letters of
    every word of their contexts (`same_slot` needs a shared context word)."""
    return frozenset(k[:_NEEDLE] for s in stated for k in s.occurrence.context)


def evidence_values(
    bundles: Iterable[EvidenceBundle], flagged: FlaggedLines, names: bool, wanted: frozenset[str] | None = None
) -> Iterator[Evidence]:
    """Every value of every readable line of the resolved evidence, each distinct line once (with `wanted`, only
    in sentences containing one of those letter runs)."""
    for source_id, page, line, sentence in readable_sentences(bundles, flagged):
        if is_heading(sentence):
            continue  # "### Landscaping contract" titles a section: it states no value for any slot
        if wanted is not None:
            folded = sentence.casefold()
            if not any(n in folded for n in wanted):
                continue
        for o in _source_occurrences(sentence, names):
            yield Evidence(source_id, page, line, o)


# A Markdown (ATX) heading: up to three spaces, one to six '#', then a space or the line's end.
_HEADING: Final = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")


def is_heading(sentence: str) -> bool:
    """`sentence` is (the start of) a Markdown heading line: it names a section, it states no value."""
    return _HEADING.match(sentence) is not None


def readable_sentences(bundles: Iterable[EvidenceBundle], flagged: FlaggedLines) -> Iterator[tuple[str, int, int, str]]:
    """(source, page, line, sentence) of every sentence of every readable line of the resolved evidence: each
    distinct line once, none flagged as instructional, and none of a bundle whose locator cannot be read."""
    seen: set[tuple[str, int, int]] = set()
    for bundle in bundles:
        try:
            span = Locator.parse(bundle.locator)
        except ValueError:
            continue
        check_deadline()
        for offset, text in enumerate(bundle.text.split("\n")):
            where = (bundle.source_id, span.page, span.line_start + offset)
            if where in seen or where in flagged:
                continue
            seen.add(where)
            for sentence in _source_sentences(text):
                yield (*where, sentence)


def agrees(value_text: str, occurrence: Occurrence, tolerance_pct: float) -> bool:
    """A value as a draft writes it names the value `occurrence` stands for."""
    return _agrees(value_text, occurrence, tolerance_pct)


def is_subject(occurrence: Occurrence, question: QuestionTerms) -> bool:
    """A name made only of the question's own name words is what the question is about, not a competing value."""
    words = occurrence.name_words
    return occurrence.family == "name" and (not words or words <= question.names)


__all__ = [
    "Evidence",
    "Stated",
    "agrees",
    "evidence_values",
    "is_heading",
    "is_subject",
    "locate",
    "needles",
    "quote_sentences",
    "readable_sentences",
    "source_quote_sentences",
    "split_sentences",
    "stated_values",
    "value_occurrences",
    "word_key",
]
