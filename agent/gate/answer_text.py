"""What an answer and its quotes say, read for the answerhood rule (`rules/answerhood.py`): the draft's verified
quotes in their whole sentences, the figures and words of a text, and the texts of the answer the user sees.

Only verified quotes are read: an unverified one answers nothing (the citation rules report it). A quote is read
in the sentences of the text at its locator that it overlaps (`stated.quote_sentences`), so what a figure is about
is never cut to the words a model chose to quote.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.claims import claims
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.layout import column_unit_cells
from quotebound.agent.gate.question import MONTHS, WEEKDAYS, Question, number_words
from quotebound.agent.gate.source_readings import source_reading
from quotebound.agent.gate.stated import source_quote_sentences
from quotebound.agent.gate.tokens import Key, extract_tokens, quote_keys
from quotebound.agent.gate.vocabulary import WORD, fold, stem
from quotebound.tools.calc import recompute

PREFIX: Final = 6  # two words whose stems share their first six letters match ("preauthorized"/"preauthorization")


# --- what the draft quotes -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quoted:
    """One verified quote of the draft: whose fact it supports, its source, the sentences it covers, and for a
    table row its table's headings composed per column (`layout.py`)."""

    fact: int | None
    source_id: str
    quote: str
    sentences: tuple[str, ...]
    headings: str = ""


def quoted(inputs: GateInputs) -> list[Quoted]:
    """Every verified quote of the draft (supports and listed conflict values); an unverified one answers nothing."""
    evidence = inputs.draft.evidence
    out: list[Quoted] = []
    for i, (fact, checks) in enumerate(zip(evidence.facts, inputs.support_checks, strict=True)):
        for support, check in zip(fact.support, checks, strict=True):
            if check.ok:
                covered = source_quote_sentences(support.quote, check.context or support.quote) or (support.quote,)
                out.append(Quoted(i, support.source_id, support.quote, covered, check.headings))
    for conflict, checks in zip(evidence.conflicts, inputs.conflict_checks, strict=True):
        for value, check in zip(conflict.values, checks, strict=True):
            if check.ok:
                covered = source_quote_sentences(value.quote, check.context or value.quote) or (value.quote,)
                out.append(Quoted(None, value.source_id, value.quote, covered, check.headings))
    return out


def calc_values(inputs: GateInputs) -> list[Decimal]:
    """The results of the draft's calcs, as the gate recomputes them. Whether each operand is quoted, and whether
    the fact states the result to full precision, is the calc rule's to report (it blocks an unquoted operand and a
    mismatched value); here what matters is that the answer's figure is a computed one, so a rounded "11.45%" of a
    calc giving 11.4525... is computed, and a quoted figure beside it is not."""
    values: list[Decimal] = []
    for fact in inputs.draft.evidence.facts:
        if fact.calc is not None:
            got = recompute(fact.calc.expr)
            if got is not None:
                values.append(Decimal(got))
    return values


def asked_values(q: Question, inputs: GateInputs) -> tuple[str, ...]:
    """The values of facts with a verified quote whose key's slot (after its last "•") shares a word of the
    question: what the draft itself says answers what is asked ("Khentkaus I•husband" -> "Shepseskaf and
    Userkaf")."""
    out: list[str] = []
    for fact, checks in zip(inputs.draft.evidence.facts, inputs.support_checks, strict=True):
        if fact.value and fact.key and any(check.ok for check in checks):
            slot = fact.key.rsplit("•", 1)[-1]
            if any(stem(w) in q.words for w in WORD.findall(slot)):
                out.append(fact.value)
    return tuple(out)


def answer_texts(inputs: GateInputs) -> list[tuple[str, str]]:
    """(where, text) of the answer the user sees: level1 and the answer field, citations blanked out, each once."""
    by_field: dict[str, list[str]] = {"level1": [], "answer": []}
    for claim in claims(inputs):
        if claim.field in by_field:
            by_field[claim.field].append(claim.text)
    texts = [("level1", " ".join(by_field["level1"])), ("evidence.answer", " ".join(by_field["answer"]))]
    out: list[tuple[str, str]] = []
    for where, text in texts:
        if text and all(text != seen for _, seen in out):
            out.append((where, text))
    return out


# --- figures and words of a text -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A value written in a text: its token key, its kind, how it is written and where it ends."""

    key: Key
    kind: str  # a token kind, or "word" for a number in words
    text: str
    end: int  # where it ends in its text

    @property
    def number(self) -> Decimal | None:
        return self.key[1] if self.key[0] in ("num", "pct") and isinstance(self.key[1], Decimal) else None

    @property
    def start(self) -> int:
        return self.end - len(self.text)


_DIGITS_RE: Final = re.compile(
    r"(?<![\w.])[$€£¥₹]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.,])[$€£¥₹]?\d+(?:\.\d+)?(?!\w)"
    r"|(?<=\b[A-Z]{3})\d[\d,]*(?:\.\d+)?(?!\w)"  # after a currency code: "USD500"
)
NUMERIC: Final = frozenset({"money", "number", "percent", "date", "time"})
VALUE_KINDS: Final = NUMERIC | {"word"}  # what answers "how much", "when" ...: not a section or a code


@lru_cache(maxsize=4096)
def figures(text: str) -> tuple[Figure, ...]:
    """The figures of `text`: its tokens, numbers in words, and any written figure the tokens read as part of a
    code ("€4,411m" is 4,411 with a magnitude, not the code "411m")."""
    tokens = extract_tokens(text)
    found = [Figure(t.key, t.kind, t.text, t.end) for t in tokens]
    taken = bytearray(len(text) + 1)  # 1 where a token other than a code stands: one pass, not figures x tokens
    for t in tokens:
        if t.kind != "code":
            taken[t.start : t.end] = b"\x01" * (t.end - t.start)
    for m in _DIGITS_RE.finditer(text):
        if taken.find(1, m.start(), m.end()) < 0:
            value = Decimal(m.group().lstrip("$€£¥₹").replace(",", ""))
            found.append(Figure(("num", value), "money" if m.group()[0] in "$€£¥₹" else "number", m.group(), m.end()))
    found += [Figure(("num", value), "word", text[a:b], b) for value, a, b in number_words(text)]
    return tuple(found)


@source_reading  # only ever asked of a verified quote's sentences and cells: source text, once per version
def keys(text: str) -> frozenset[Key]:
    """Every value a quoted sentence states: its figures (read leniently), numbers in words, month/weekday names."""
    found = set(quote_keys(text))
    found |= {("num", value) for value, _, _ in number_words(text)}
    found |= {("name", fold(w)) for w in WORD.findall(text) if fold(w) in MONTHS | WEEKDAYS}
    return frozenset(found)


@lru_cache(maxsize=4096)
def stems(text: str) -> frozenset[str]:
    """The roots of `text`'s words (`root`)."""
    return frozenset(root(w) for w in WORD.findall(text))


def root(word: str) -> str:
    """A word's stem, stemmed again, so one suffix at a time still meets: "meetings" -> "meeting" -> "meet", as
    "meeting" -> "meet"."""
    return stem(stem(word))


def shares(subject: Iterable[str], text: str) -> bool:
    """`text` has one of the `subject` stems, up to inflection or a shared long prefix."""
    own = stems(text)
    prefixes = {s[:PREFIX] for s in own if len(s) >= PREFIX}
    lowered = fold(text)
    roots = [(root(s), s) for s in subject]
    return any(
        r in own or (len(r) >= PREFIX and r[:PREFIX] in prefixes) or (not s.isalpha() and s in lowered)
        for r, s in roots  # a code ("4b", "ho-6") is matched as written
    )


def next_word(text: str, end: int) -> str:
    """The word after position `end`, skipping one parenthesis ("twelve (12) months" -> "months")."""
    rest = re.sub(r"^\s*\([^)]{0,20}\)", "", text[end:])
    m = WORD.search(rest)
    return fold(m.group()) if m and not rest[: m.start()].strip(" \t'’") else ""


def answer_figures(q: Question, text: str) -> list[Figure]:
    """The figures of an answer that may answer the question: not the question's own (a value the question gives
    answers nothing), and a year only where a date or a year is asked ("In 2019, sales were $5 million": 2019
    says when, $5 million answers)."""
    given = {key for key, _ in q.values}
    found = [f for f in figures(text) if f.key not in given or (q.offers_choice and f.kind != "word")]
    if q.expects in ("date", "year", "open"):
        return found
    return [f for f in found if not is_year(f)]


def is_year(f: Figure) -> bool:
    """A year as written: four plain digits from 1000 to 2999 ("2019", not "2,019" or "2019.5"), or a decade
    ("1960s")."""
    return (f.kind == "number" and re.fullmatch(r"[12]\d{3}", f.text) is not None) or (
        f.kind == "code" and re.fullmatch(r"[12]\d{2}0s", f.text) is not None
    )


def era(text: str, f: Figure) -> bool:
    """A year with its era: "112 BC", "AD 79"."""
    return f.kind == "number" and (
        next_word(text, f.end) in ("bc", "bce", "ad", "ce")
        or re.search(r"\b(?:AD|CE)\s*$", text[: f.end - len(f.text)]) is not None
    )


def same_figure(said: Decimal, computed: Decimal) -> bool:
    """`said` is `computed` as an answer writes it: sign dropped, as a percentage, or rounded to its own places."""
    for candidate in (computed, -computed, computed * 100, -computed * 100):
        if said == candidate:
            return True
        exponent = said.as_tuple().exponent
        if isinstance(exponent, int):
            try:
                if candidate.quantize(Decimal(1).scaleb(exponent)) == said:
                    return True
            except InvalidOperation:
                continue
    return False


def sentences_with(key: Key, quotes: Sequence[Quoted]) -> list[tuple[Quoted, str]]:
    """Every (quote, sentence) pair whose sentence states `key`; a table row states a percentage its bare cell
    gives under a column headed in percent (`layout.column_unit_cells`)."""
    return [
        (qd, s)
        for qd in quotes
        for s in qd.sentences
        if key in keys(s) or (qd.headings and key in keys(column_unit_cells(s, qd.headings)))
    ]


def cells(sentence: str) -> list[str] | None:
    """The cells of a table row ("| Total sales | $1,496.5 |"), or None for prose."""
    line = sentence.strip()
    return [c.strip() for c in line.strip("|").split("|")] if line.startswith("|") else None


def short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


__all__ = [
    "NUMERIC",
    "PREFIX",
    "VALUE_KINDS",
    "Figure",
    "Quoted",
    "answer_figures",
    "answer_texts",
    "asked_values",
    "calc_values",
    "cells",
    "era",
    "figures",
    "is_year",
    "keys",
    "next_word",
    "quoted",
    "root",
    "same_figure",
    "sentences_with",
    "shares",
    "short",
    "stems",
]
