"""Roots: the verb a word's stem is a form of, so that value binding can tell that "paid", "payable" and
"payment" speak of one act ("The dividend is payable on 3 May" gives the date a claim says it "was paid" on).

A meaning stem (`lexicon.stem`) meets only its own inflections ("paying", "pays"). Its root reaches further, by
general English morphology only: the base of an irregular past form ("paid": "pay", `irregular.py`), and the verb a
noun or adjective is made from by "-ment", "-ance", "-ence", "-ion" or "-able" / "-ible" ("payment", "issuance",
"receivable"). A base left by "-able" must be a verb of four letters or more, or one the irregular table knows
("payable": "pay"), so "notable" and "capable" do not become "not" and "cap". Binding counts a match by root at
`ROOT_WEIGHT`: another form of the word says the same act but not in the same role ("payable" is owed, "paid" is
done), so where one quote writes the claim's own word and another only its root, the first still binds better.

Beside roots, one category of words that name one figure: a place's headcount ("population", "people",
"inhabitants", "residents": `HEADCOUNT`), which binding reads as one word."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from quotebound.agent.gate.irregular import IRREGULAR, irregular_base
from quotebound.agent.gate.meaning.lexicon import stem
from quotebound.agent.gate.vocabulary import nominal_bases

ROOT_WEIGHT: Final = 0.5  # the share of a word's weight that a match by root alone carries
BETTER_BY: Final = 0.2  # how much better another quote must match a figure's clause than the figure's own quote

# The count of the people living in a place, as a census states it: "a population of 3,559", "3,559 people", "3,559
# inhabitants", "3,559 residents" name one figure. A closed category of general English (the nouns that count a
# place's people), read as one word by binding, so a census sentence that counts "people" binds a claim about the
# "population" as well as another quote that writes "population".
HEADCOUNT: Final = frozenset(stem(w) for w in "population populations people persons inhabitants residents".split())

_VERBS: Final = frozenset(IRREGULAR.values())  # the irregular verbs' bases: verbs, whatever their length
_ABLE: Final = ("abl", "ibl")  # "-able" / "-ible" as a stem keeps them ("payable": "payabl")
_LEAST_ABLE_BASE: Final = 4


@lru_cache(maxsize=16384)
def roots(s: str) -> frozenset[str]:
    """The verb stems the meaning stem `s` is a form of (module docstring); empty for most words."""
    found: set[str] = set()
    if (base := irregular_base(s)) is not None:
        found.add(stem(base))
    if s.endswith(_ABLE):
        base = s[:-3]
        if len(base) >= _LEAST_ABLE_BASE or base in _VERBS:
            found.add(stem(base))
    found.update(nominal_bases(s), nominal_bases(s + "e"))
    found.discard(s)
    return frozenset(found)


@lru_cache(maxsize=4096)
def rooted(stems: frozenset[str]) -> frozenset[str]:
    """Every stem of `stems` and every root of them: what a quote sentence says, by root."""
    return stems.union(*(roots(s) for s in stems))


def root_match(s: str, stems: frozenset[str]) -> bool:
    """The claim's stem `s` is not among a quote's `stems`, but it or its root is a root of theirs, or its root is
    one of them ("paid" and "payable", "payment" and "pay")."""
    if s in stems:
        return False
    mine = roots(s) | {s}
    return bool(mine & rooted(stems))


def same_count(s: str, stems: frozenset[str]) -> bool:
    """The claim's stem `s` and one of a quote's `stems` both name a place's headcount (`HEADCOUNT`)."""
    return s in HEADCOUNT and not HEADCOUNT.isdisjoint(stems)


def overlap(weights: dict[str, float], stems_: frozenset[str]) -> float:
    """How much of the clause's weighted words `stems_` says: a word in full, another form of it by root in part
    (`roots.py`: "paid" for "payable"); the words naming a place's headcount are one word ("population", "people")."""
    return sum(
        w if s in stems_ or same_count(s, stems_) else ROOT_WEIGHT * w if root_match(s, stems_) else 0.0
        for s, w in weights.items()
    )
