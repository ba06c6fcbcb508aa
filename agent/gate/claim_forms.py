"""Forms of a claim's words that its quotes bear out without writing them, for the claim-support rule (`support`):
a comparison that restates a quoted change, a year named as a fiscal year, a listed conflict's attribute, a calc's
rounding places, the labels a key may join into one word, and an ordinal counting a quoted table's columns."""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.gate.allowance import plain_vocabulary
from quotebound.agent.gate.calc_words import ABOVE_WORDS, DOWN_WORDS, UP_WORDS
from quotebound.agent.gate.claims import Claim
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.quoted import Evidence, meaning_word
from quotebound.agent.gate.vocabulary import (
    ATTRIBUTE_WORDS,
    BIRTH_WORDS,
    DEATH_WORDS,
    ORDINALS,
    Vocabulary,
    in_category,
)

# Change words long enough to be read as words (not "up", "down"): what a comparison may restate
_CHANGES: Final = {True: tuple(w for w in UP_WORDS if len(w) > 3), False: tuple(w for w in DOWN_WORDS if len(w) > 3)}


# Words that say which kind of year a year is ("fiscal 2018", "the financial year 2019"): before a year the quotes
# date their figures by, they name that year as a reporting period and assert nothing of their own.
_YEAR_KINDS: Final = frozenset("fiscal financial".split())
_YEAR_AFTER: Final = re.compile(r"\s+(?:years?\s+)?((?:19|20)\d\d)\b", re.I)


# "at the end of 2019", "the end of fiscal 2019": a year a quoted table dates its column by is reported at its end
# (never "the beginning of 2019": that is the year before's end, another column)
_YEAR_END: Final = "end"
_END_OF: Final = re.compile(r"\s+of\s+(?:(?:the\s+)?(?:fiscal|financial)\s+)?(?:years?\s+)?((?:19|20)\d\d)\b", re.I)


def names_year(folded: str, end: int, claim: Claim) -> bool:
    """The word `folded` (ending at `end`) is "fiscal" or "financial" qualifying the year right after it, or the
    "end" of that year, and the claim's quotes (or their tables' headers) state that year."""
    if folded not in _YEAR_KINDS and folded != _YEAR_END:
        return False
    after = (_YEAR_AFTER if folded in _YEAR_KINDS else _END_OF).match(claim.text, end)
    return after is not None and any(re.search(rf"\b{after.group(1)}\b", f"{q.quote} {q.header}") for q in claim.quotes)


def as_change(folded: str, evidence: Evidence) -> bool:
    """A comparison word with no calc to hold it restates a change its quotes state the same way: "higher
    production volume" for "an increase in production volume" (never "lower" for an increase)."""
    return any(evidence.vocab.covers(w) for w in _CHANGES[folded in ABOVE_WORDS])


def key_label(word: str, question: Vocabulary, inputs: GateInputs) -> bool:
    """`word` may stand in a key: a word of the question or of the documents the model read, an attribute, or a
    birth or death (what a person's record is keyed by)."""
    if question.covers(word) or plain_vocabulary(inputs).covers(word):
        return True
    return any(in_category(word, category) for category in (ATTRIBUTE_WORDS, BIRTH_WORDS, DEATH_WORDS))


# "disagree on the", "differ about its": the attribute named next is what a listed conflict is about
_DISAGREE_ON: Final = re.compile(
    r"\b(?:disagree|differ|conflict|dispute|vary|varies)\w*\s+(?:on|about|over|as\s+to)\s+"
    r"(?:(?:the|its|his|her|their)\s+)?$",
    re.I,
)
_PLACES: Final = re.compile(r"\s+(?:decimal\s+)?(?:places|decimals|digits)\b", re.I)  # "two (decimal) places"
_PART: Final = 4  # the shortest part of a closed compound read as a word


def compound_label(folded: str, question: Vocabulary, inputs: GateInputs) -> bool:
    """A closed compound in a key ("birthplace", "taxpayer") whose two parts each may stand in a key."""
    return any(
        key_label(folded[:cut], question, inputs) and key_label(folded[cut:], question, inputs)
        for cut in range(_PART, len(folded) - _PART + 1)
        if not (meaning_word(folded[:cut]) or meaning_word(folded[cut:]))
    )


def on_disputed(text: str, start: int) -> bool:
    """The word at `start` is the object of a disagreement ("the sources disagree on the date")."""
    return bool(_DISAGREE_ON.search(text, 0, start))


def places_after(text: str, end: int) -> bool:
    """The number word ending at `end` counts decimal places ("rounding to two places")."""
    return bool(_PLACES.match(text, end))


# "the third column": an ordinal before a table's column noun counts the cells of a quoted table row
_COLUMN_AFTER: Final = re.compile(r"\s+columns?\b", re.I)
_FIGURE: Final = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _figure(text: str) -> str:
    return text.replace(",", "")


def ranks_column(folded: str, end: int, claim: Claim) -> bool:
    """The ordinal `folded` (ending at `end`) counts a quoted table row's columns ("where the third column is 2017"
    over "| ($ in millions) | 2019 | 2018 | 2017 |"): a figure the claim states stands at that place in the row,
    counted after the row's label cell or from its first cell."""
    if folded not in ORDINALS or not _COLUMN_AFTER.match(claim.text, end):
        return False
    stated = {_figure(m.group()) for m in _FIGURE.finditer(claim.text)}
    n = ORDINALS[folded]
    for row in (r.strip() for q in claim.quotes for r in (q.quote, *q.header.splitlines())):
        if not row.startswith("|"):
            continue
        cells = [c.strip() for c in row.strip("|").split("|")]
        for k in (n, n - 1):  # after the label cell, or from the first cell
            figures = _FIGURE.findall(cells[k]) if k < len(cells) else []
            if len(figures) == 1 and _figure(figures[0]) in stated:
                return True
    return False
