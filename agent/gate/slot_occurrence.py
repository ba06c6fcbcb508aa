"""`Occurrence`: one value read in its sentence, with everything its slot is read from (`slots.py` compares two)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.conflicts import Value
from quotebound.agent.gate.slot_clause import (
    descriptions,
    heads,
    is_label,
    period_mark,
    read_bound,
    read_lead,
    read_period,
    read_side,
    read_unit,
)
from quotebound.agent.gate.slot_items import Item, read_items, value_items
from quotebound.agent.gate.slot_words import PAST, PREPOSITIONS, TIME_UNITS, Bound, Family

_AGENT: Final = "by"  # the preposition marking a passive's agent ("published by the Acme Company")


@dataclass(frozen=True)
class Occurrence:
    """One value in one sentence, with what its slot is read from."""

    value: Value
    family: Family
    sentence: str
    start: int
    end: int
    context: Mapping[str, float]  # word key -> closeness to the value (1, 1/2, 1/3 ...)
    nearest: frozenset[str]  # the keys of the nearest content word on each side
    words: frozenset[str]  # the keys of every word of the sentence
    modifiers: frozenset[tuple[str, str]]  # (modifier, modified) keys of adjacent content words
    bound: Bound
    period: str
    unit: str  # the key of the word an amount is counted in ("day", "unit"), or ""
    capitalized: frozenset[str]  # the keys of the context words written only with a capital (parts of names)
    clause: frozenset[str]  # the keys of every word of the value's clause, names included
    lead: str  # the preposition governing the value ("in", "by"), or ""
    name_words: frozenset[str]  # the keys of the value's own words, for a name
    marks: frozenset[str]  # identifiers ("#3a") and, for an amount, the years and dates of its clause ("@2019")
    frame: str  # its clause with every figure masked ("vote : # in favor"): the row of a list it may belong to
    anchors: frozenset[str] = frozenset()  # `nearest`, words of time skipped ("held each year at ...": "held")
    stems: frozenset[str] = frozenset()  # the whole stems of its context's words and of its unit ("establish")
    range_end: bool = False  # the later value of a range ("1865 - 1920", "from 10 to 50"): its end, not its start
    described: frozenset[str] = frozenset()  # keys of the words its sentence says a name is ("X is the seventh album")
    heads: frozenset[tuple[str, str]] = frozenset()  # (name word, the noun governing it): "edition of X", "X's reissue"

    @property
    def text(self) -> str:
        return self.sentence[self.start : self.end]


def _past_sibling(left: list[Item], sentence: str, start: int) -> list[Item]:
    """The left words of a figure with a named place or party before its own phrase set aside: in "died at the
    Chateau de Rambouillet on 1 December 1737" the place and the date both say where and when of "died", so the
    date's anchor is the verb the two phrases hang on, not the place's name. Only a name (capitalized words) right
    before the figure's preposition and itself after a preposition is set aside; otherwise the words stay as they
    are ("Established: 1850", "was built in 1902", "Population of Kensett: 2,500")."""
    if not left or not _ends_with_preposition(sentence[left[0].end : start]):
        return left
    for n in range(1, len(left)):
        if not left[n - 1].text[:1].isupper():
            return left  # the nearest words are no name: the value's own phrase follows its word ("built in 1902")
        if _ends_with_preposition(sentence[left[n].end : left[n - 1].start]):
            return left[n:]
    return left


def _ends_with_preposition(gap: str) -> bool:
    """The words between two items hold a preposition (articles and determiners may follow it)."""
    return any(w.casefold() in PREPOSITIONS for w in gap.split())


def _valued(items: list[Item], at: int, sentence: str) -> bool:
    """Item `at` is a value `occurrences` reads: a figure, date or name with a family, not a name labelling the
    figure after it ("Unit 3A")."""
    item = items[at]
    return item.kind == "value" and item.family is not None and not is_label(items, at, sentence)


@lru_cache(maxsize=4096)
def stated_in(sentence: str, with_names: bool = True) -> tuple[tuple[str, Family, frozenset[str]], ...]:
    """(text, family, name words) of each value `occurrences(sentence, with_names)` reads, in order, without
    reading their slots or their words: what a caller that lists a draft sentence's values needs. `_valued` reads
    an item alone (its family, and what follows it in the sentence), so it judges the same without the words."""
    items = value_items(sentence, with_names)
    return tuple(
        (sentence[i.start : i.end], i.family, i.keys)
        for at, i in enumerate(items)
        if i.family is not None and _valued(items, at, sentence)
    )


@lru_cache(maxsize=4096)
def occurrences(
    sentence: str, with_names: bool = True, forced: tuple[int, int] | None = None
) -> tuple[Occurrence, ...]:
    """Every value of `sentence` (figures, dates, times, number words, and with `with_names` capitalized names),
    each with the context its slot is read from; `forced` is a span to read as a value whatever it is."""
    items = read_items(sentence, with_names, forced)
    words = frozenset(k for i in items if i.kind != "code" for k in i.keys)
    modifiers = frozenset(
        (next(iter(a.keys)), next(iter(b.keys)))
        for a, b in itertools.pairwise(items)
        if a.kind == b.kind == "word"
        and a.keys
        and b.keys
        and (
            sentence[a.end : b.start] == "-"  # "odd-numbered": one compound modifier
            # "the manager reported" is a subject and its verb, not a modifier and a noun
            or (not sentence[a.end : b.start].strip() and not PAST.search(b.text))
        )
    )
    described, governing = descriptions(items), heads(items)
    found: list[Occurrence] = []
    for at, item in enumerate(items):
        if item.family is None or not _valued(items, at, sentence):
            continue
        unit = read_unit(items, at, sentence)
        left, first = read_side(items, at, -1, item.family, unit)
        right, last = read_side(items, at, 1, item.family, unit)
        lead = read_lead(items, at)
        if item.family == "name" and lead == _AGENT and right and sentence[item.end : right[0].start].strip():
            # "The album X by The Beatles is a unique blend ...": the credit's phrase ended at the name, and what
            # follows is said of the album. A word right after the name is still its phrase ("by English girl
            # group Bananarama": "English" is read by "girl group").
            right = []
        clause = frozenset(k for i in (*items[first:at], *items[at + 1 : last + 1]) for k in i.keys)
        frame = " ".join(
            "#" if i.kind == "value" and i.family != "name" else i.text.casefold() for i in items[first : last + 1]
        )
        around = (*items[first:at], *items[at + 1 : last + 2])  # and the value the clause stops at, if one
        marks = frozenset(
            k for i in around for k in (i.keys if i.kind == "code" else period_mark(i) if item.family != "date" else ())
        )
        context: dict[str, float] = {}
        capitalized: set[str] = set()
        common: set[str] = set()  # keys also written in lower case ("was a house in ...": a word, not the name)
        for side in (left, right):
            for distance, word in enumerate(side):
                for key in word.keys:
                    context[key] = max(context.get(key, 0.0), 1 / (1 + distance))
                    (capitalized if word.text[0].isupper() else common).add(key)
        nearest = frozenset(k for side in (left, right) if side for k in side[0].keys)
        # the nearest word on each side once words of time are set aside ("held each year at the Clubhouse")
        anchors = frozenset(
            k
            for side in (_past_sibling(left, sentence, item.start) if item.family != "name" else left, right)
            for i in [w for w in side if w.text.casefold() not in TIME_UNITS][:1]
            for k in i.keys
        )
        stems = frozenset(st for i in (*left, *right, *([items[unit]] if unit is not None else [])) for st in i.stems)
        value = Value(item.text, item.token.kind, item.token) if item.token is not None else Value(item.text, "string")
        found.append(
            Occurrence(
                value=value,
                family=item.family,
                sentence=sentence,
                start=item.start,
                end=item.end,
                context=context,
                nearest=nearest,
                anchors=anchors,
                words=words,
                modifiers=modifiers,
                bound=read_bound(sentence, item.start, item.end),
                period=read_period(items, at, left[:4]),
                unit=min(items[unit].keys) if unit is not None else "",
                capitalized=frozenset(capitalized - common),
                clause=clause,
                lead=lead,
                name_words=item.keys,
                marks=marks,
                frame=frame,
                stems=stems,
                range_end=item.family != "name"
                and any(i.kind == "value" and i.family == item.family for i in items[first:at]),
                described=described,
                heads=governing,
            )
        )
    return tuple(found)
