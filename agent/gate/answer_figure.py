"""A value asked for a period, answered without one. "What was the cash flow from operations in 2019?" asks the
value of a measure at a time (a "what is the ..." question that names a year); when a verified quote sentence about
what it asks states that measure as an amount or a percentage, an answer that gives no figure at all ("Strong and
consistent: the company has consistently generated strong cash flow") describes the measure instead of giving it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from quotebound.agent.gate.answer_text import Quoted, figures, is_year, shares, short
from quotebound.agent.gate.question import Question
from quotebound.agent.gate.vocabulary import fold

_VALUE_OF: Final = re.compile(r"^\s*what\s+(?:is|was|are|were)\s+the\b", re.I)
_AMOUNTS: Final = frozenset({"money", "percent"})


def _asks_value_at_a_time(q: Question) -> bool:
    """An open "what is the ..." question that names a year."""
    years = [key for key, _ in q.values if key[0] == "year" or (key[0] == "num" and _year(key[1]))]
    return q.expects == "open" and not q.causal and bool(years) and _VALUE_OF.match(fold(q.text)) is not None


def _year(value: object) -> bool:
    return isinstance(value, Decimal) and value == value.to_integral_value() and 1900 <= value <= 2100


def figureless_problem(q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """The question asks a measure's value at a time, the answer gives no figure (the question's own years aside),
    and a verified quote sentence about most of what it asks states an amount or a percentage (module docstring)."""
    del calc  # the answerhood rules share one signature
    asked = {key for key, _ in q.values}
    if not _asks_value_at_a_time(q) or any(f.key not in asked and not is_year(f) for f in figures(text)):
        return None
    for qd in quotes:
        for s in qd.sentences:
            amounts = [f for f in figures(s) if f.kind in _AMOUNTS]
            about = sum(1 for x in q.subject if shares((x,), s))
            if amounts and q.subject and 2 * about > len(q.subject):
                return (
                    f"it asks the value of what it names for a period, and the quote about it gives a figure "
                    f"({amounts[0].text!r} in {short(s)!r}), but the answer gives none; state the figure, or "
                    "report that the documents do not give it for that period"
                )
    return None
