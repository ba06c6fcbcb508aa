"""Unit symbols: a figure written with a symbol in capitals right after it ("104.1 FM", "220 V", "12 GW") is
counted in that symbol's unit, the way a named unit counts it ("15 days"). The symbols are not a list: any short
run of capitals directly after a plain number is one. A claim that writes the same figure with another symbol than
every quote that gives it a symbol ("104.1 AM" for "104.1 FM") states another unit."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.meaning.model import Problem, QuoteSentence, Sentence, Value

_SYMBOL: Final = r"([A-Z]{1,4})(?![\w'’-])"  # a run of capitals standing alone: "FM", "V", "GW"
_YEARS: Final = range(1800, 2101)


@lru_cache(maxsize=4096)
def symbols_after(text: str, figure: str) -> frozenset[str]:
    """The symbols `text` writes directly after the figure written `figure` (past a closing bracket or none)."""
    pattern = re.compile(rf"(?<![\w.,]){re.escape(figure)}\s+{_SYMBOL}")
    return frozenset(m[1] for m in pattern.finditer(text))


def _plain(v: Value) -> bool:
    """A plain number, not a year: money, percentages, dates and times carry their units in their own form."""
    number = v.key[1]
    if v.kind != "number" or v.label or not isinstance(number, Decimal):
        return False
    return not (number == number.to_integral_value() and int(number) in _YEARS)


def symbol_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """Each plain figure of `claim` written with a symbol, against the symbols its quotes write after it."""
    problems: list[Problem] = []
    for v in claim.values:
        if not _plain(v):
            continue
        mine = symbols_after(claim.text, v.text)
        if not mine:
            continue
        theirs: set[str] = set()
        holder = ""
        for qs in quotes:
            for q in qs.sentence.values:
                if q.key == v.key:
                    found = symbols_after(qs.sentence.text, q.text)
                    theirs |= found
                    holder = holder or (qs.sentence.text if found else "")
        if theirs and not mine & theirs:
            problems.append(
                Problem(
                    "unbound",
                    f"gives {v.text} in {', '.join(sorted(mine))} where the quote gives it in "
                    f"{', '.join(sorted(theirs))}",
                    holder,
                )
            )
    return problems
