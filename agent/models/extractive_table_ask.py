"""What a question asks of a table, read from its words alone: the years it names and whether it wants the cell of
one year, a change or a percentage change between two, or an average over several (`extractive_table` answers it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from quotebound.agent.models.extractive_text import CHANGE_DOWN, CHANGE_EITHER, CHANGE_UP, Question, tokens

Op = Literal["value", "change", "pct_change", "average"]
YEAR: Final = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?![\d,]|\.\d)")
CHANGE_WORDS: Final = tokens(" ".join((*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER)))
_DIFFERENCE_WORDS: Final = tokens("difference differences differ")


@dataclass(frozen=True)
class TableAsk:
    op: Op
    years: tuple[str, ...]  # the years asked, in the order written


def table_ask(question: Question) -> TableAsk | None:
    """What a question asks of a table, when it names years (module docstring)."""
    text = question.text.lower()
    years = tuple(dict.fromkeys(YEAR.findall(question.text)))
    if not years or re.search(r"\b(?:19|20)\d\d\s*[/–-]\s*(?:19|20)?\d\d\b", question.text):
        return None  # "2018/2019", "2017-2019": a fiscal year or a range is not read here
    words = set(tokens(text))
    percentage = re.search(r"percent(?:age)?\s+(?:change|increase|decrease|growth|decline)", text) is not None
    difference = bool(words & _DIFFERENCE_WORDS)
    change = bool(words & CHANGE_WORDS) or difference
    average = re.search(r"\baverage\b", text) is not None
    derived = re.search(r"\b(?:total|sum|ratio|proportion|share|combined|respectively|times)\b", text)
    if percentage and len(years) == 2:
        return TableAsk("pct_change", years)
    if percentage or derived or (question.op is not None and not change):
        return None
    if difference and not words & CHANGE_WORDS:
        return None  # "the difference between 2018 and 2019": which is taken from which is not said
    if change and len(years) == 2 and not average:
        return TableAsk("change", years)
    if average and len(years) >= 2 and not change:
        low, high = sorted(int(y) for y in years)
        spanned = tuple(str(y) for y in range(low, high + 1)) if len(years) == 2 and high - low <= 10 else years
        return TableAsk("average", spanned)  # "from 2017 to 2019", "between 2017-2019": every year of the span
    if len(years) == 1 and not (change or average):
        return TableAsk("value", years)
    return None


__all__ = ["CHANGE_WORDS", "YEAR", "Op", "TableAsk", "table_ask"]
