"""What the meaning checks read: a sentence (or table row) as tokens, figures and clauses, each clause with its
content words, polarity, modality and directions; a quote's sentence with where it stands in its source; and a
problem found, worded for the drafting model."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, NamedTuple

from quotebound.agent.gate.tokens import Key, quote_keys


class Tok(NamedTuple):
    """One token: a word (folded), a mark, or a figure (`value` indexes `Sentence.values`)."""

    low: str
    cap: bool = False  # written with a capital or in capitals: part of a name
    value: int = -1
    cell: int = -1  # the table cell it sits in (-1: not a table row)


class Value(NamedTuple):
    """A figure of a sentence, with what is written around it."""

    key: Key
    kind: str
    text: str
    pos: int  # token index
    unit: str | None = None
    rate: str | None = None
    scale: str | None = None
    label: bool = False  # a period label (a year, "FY19"), not a quantity
    currency: str | None = None  # the unit its currency sign or code counts it in ("$18": "dollar")


@dataclass(frozen=True, eq=False)
class Clause:
    start: int
    end: int
    stems: frozenset[str]  # content words (names excluded), for pairing clauses
    names: frozenset[str]  # words of names
    negative: bool  # an odd number of negators not absorbed by a modality or a direction
    focus: frozenset[str]  # the first content word after each of those negators: what they deny
    modality: frozenset[str]
    directions: frozenset[tuple[str, str]]
    elliptical: bool  # "but not its interior finishes": the verb is the previous clause's
    words: tuple[tuple[str, int], ...]  # (stem, content index) of every content word, names included
    lexicon: frozenset[str]  # the stems of every word but the function words: what a negator may deny


@dataclass(frozen=True, eq=False)
class Sentence:
    text: str
    toks: tuple[Tok, ...]
    values: tuple[Value, ...]
    clauses: tuple[Clause, ...]
    stems: frozenset[str]  # every content stem, names included
    ranges: tuple[tuple[Key, Key], ...]
    row: bool = False  # a table row
    header: bool = False  # a table row of labels only (a column heading)
    particle: str | None = None  # "yes" / "no" leading the sentence

    @cached_property
    def keys(self) -> frozenset[Key]:
        """The figures it can support, read leniently (`tokens.quote_keys`): only a quote's sentence is asked. A
        table row's bare cell may also be a percentage: its column says so in a heading ("| | % | % |") the row
        does not carry."""
        keys = frozenset(quote_keys(digits_spaced(self.text) if self.row else self.text)) | frozenset(
            v.key for v in self.values
        )
        if self.row:
            keys |= frozenset(("pct", v.key[1]) for v in self.values if bare_cell(v))
        return keys


def bare_cell(v: Value) -> bool:
    """A table cell's figure written without a unit, currency or scale (its column's headings give those)."""
    return v.key[0] == "num" and not v.label and v.unit is None and v.currency is None and v.scale is None


def same_figure(q: Value, v: Value, row: bool) -> bool:
    """Quoted figure `q` is claim figure `v`: the same key, or, in a table row, a bare cell holding the number of a
    percentage (its column's heading gives the "%")."""
    return q.key == v.key or (row and v.key[0] == "pct" and bare_cell(q) and q.key[1] == v.key[1])


def digits_spaced(cell: str) -> str:
    """ "2 0 1 8" (a heading spaced out by the extraction) is "2018"."""
    return re.sub(r"\b(\d(?: \d){3})\b", lambda m: m.group().replace(" ", ""), cell)


class QuoteSentence(NamedTuple):
    """A sentence (or table row) a quote rests on, and where it stands in its source."""

    sentence: Sentence
    source_id: str
    line: int  # the line it starts on (orders a table's rows)
    page: int = 1
    block: int = -1  # the first line of its paragraph, list item or table (-1: not known)
    section: int = -1  # the line of the nearest heading above it (-1: none, or not known)
    heading: bool = False  # the sentence is a heading
    passage: int = -1  # the first line of the locator it was quoted at: sentences quoted together share it
    last: int = -1  # the line it ends on (-1: its first)

    @property
    def end(self) -> int:
        return self.last if self.last >= self.line else self.line

    def near(self, other: QuoteSentence) -> bool:
        """The two stand on one page of one source."""
        return self.source_id == other.source_id and self.page == other.page

    def same_block(self, other: QuoteSentence) -> bool:
        """The two stand in one paragraph, list item or table (when the layout is known; else on one page)."""
        return self.near(other) and (self.block < 0 or other.block < 0 or self.block == other.block)


class Problem(NamedTuple):
    code: Literal["meaning", "unbound"]
    detail: str  # what differs, worded for the drafting model
    quote: str  # the quote sentence it differs from


def words_of(c: Clause) -> frozenset[str]:
    return c.stems | c.names
