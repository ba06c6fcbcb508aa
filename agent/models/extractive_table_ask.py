"""What a question asks of a table, read from its words: the years it names and whether it wants the cell of one
year, a change or a percentage change between two, or an average or a total over several (`extractive_table`
answers it).

A word that names a derived figure ("total", "average") asks for one only when it is not a word of the row's own
label: "the change in Total operating income" asks for a change of the row "Total", "the total accounts
receivable for 2018 and 2019" for the sum of the row "Accounts receivable" over both years. An average that names
no year is the mean over every year the row has a column for ("the average Gross profit" over 2017, 2018, 2019);
"the 2019 average" is the mean of 2019 and the year before it, the opening and closing figures, as the gate reads a
derived figure asked in one year (`agent/gate/answer_calc.asked_years`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from quotebound.agent.models.extractive_cues import CHANGE_DOWN, CHANGE_EITHER, CHANGE_UP
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_words import normalize, tokens

Op = Literal["value", "change", "pct_change", "average", "total"]
# A year, never inside a larger figure ("2,019", "2019.5", "12019"); a comma after it may end the year ("2017, 2018").
YEAR: Final = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?!\d|[.,]\d)")
CHANGE_WORDS: Final = tokens(" ".join((*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER)))
SUM_WORDS: Final = tokens("total sum combined altogether")
# The cue words below are matched as written: "shares" is no "share of", "means" no "mean".
_SUMS: Final = frozenset({"total", "sum", "combined", "altogether"})
_CHANGES: Final = frozenset(w for v in (*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER) for w in v.split())
_DIFFERENCES: Final = frozenset({"difference", "differences", "differ"})
_OTHER_DERIVED: Final = frozenset({"ratio", "proportion", "share", "respectively", "times"})
_AVERAGES: Final = frozenset({"average", "mean"})
_PER: Final = frozenset({"per", "each"})  # "the average cost per employee": a ratio of two figures, not a row's mean
_MAX_SPAN: Final = 10  # years a "from 2009 to 2019" span may cover


@dataclass(frozen=True)
class TableAsk:
    op: Op
    years: tuple[str, ...]  # the years asked, in the order written; () for an average over every year of the row


def spanned(text: str, years: tuple[str, ...]) -> tuple[str, ...]:
    """Two years written as the ends of a span ("from 2017 to 2019", "between 2017 and 2019", "2017 through 2019")
    stand for every year between them; years merely listed ("for 2017 and 2019") stand for themselves."""
    if len(years) != 2:
        return years
    low, high = sorted(int(y) for y in years)
    first, last = years
    ends = rf"(?:(?:from|between)\s+(?:\w+\s+)?{first}\s+(?:to|and|through)\s+(?:\w+\s+)?{last}"
    ends += rf"|{first}\s+(?:to|through)\s+{last})\b"
    if high - low > _MAX_SPAN or not re.search(ends, text, re.I):
        return years
    return tuple(str(y) for y in range(low, high + 1))


def _average(text: str, years: tuple[str, ...]) -> TableAsk | None:
    """An average over the years asked: every year of the row when none is named, the span or list of those named,
    and for "the 2019 average" that year and the one before it (module docstring); "the average X in 2019" names
    one year of a row that has one figure a year, and what is averaged then is not read here."""
    if len(years) > 1:
        return TableAsk("average", spanned(text, years))
    if not years:
        return TableAsk("average", ())
    (year,) = years
    return TableAsk("average", (str(int(year) - 1), year)) if re.search(rf"\b{year}\s+average", text) else None


def may_ask(question: Question) -> bool:
    """Whether a question can ask anything of a table at all (a year, an average, a change of a row's two years):
    the cheap check made before its row is looked for."""
    return YEAR.search(question.text) is not None or bool(_written(question.text) & (_AVERAGES | _CHANGES))


def _written(text: str, label: frozenset[str] = frozenset()) -> set[str]:
    """The words `text` writes, lowercased as written, less those of a row's label (normalized words)."""
    return {w for w in re.findall(r"[^\W\d_]+", text.lower()) if normalize(w) not in label}


# "What was the (percentage) change in X?": a question whose head is the change itself, so a figure answers it (not
# "What caused the increase in X?").
_CHANGE_HEAD: Final = re.compile(
    r"\s*(?:what|how much)\s+(?:is|was|are|were)\s+the\s+(?:(?:net|overall|absolute|percentage|percent)\s+)?"
    r"(?:change|increase|decrease|growth|decline|rise|fall)\b",
    re.I,
)
# "2017-2019": a span of full years; "2018/2019", "2018-19": one fiscal year written across two.
_RANGE: Final = re.compile(r"\b((?:19|20)\d\d)\s*[–-]\s*((?:19|20)\d\d)\b")
_FISCAL: Final = re.compile(r"\b(?:19|20)\d\d\s*/\s*(?:19|20)?\d\d\b|\b(?:19|20)\d\d\s*[–-]\s*\d\d\b")


def _range(text: str) -> tuple[str, ...] | None:
    """Every year of a "2017-2019" span written in `text`, or None when it writes none."""
    match = _RANGE.search(text)
    if match is None:
        return None
    low, high = int(match[1]), int(match[2])
    return tuple(str(y) for y in range(low, high + 1)) if 0 < high - low <= _MAX_SPAN else ()


def _change(op: Op, text: str, years: tuple[str, ...]) -> TableAsk | None:
    """A change between the two years named; with none, between the row's two years, when the question asks for
    the change itself. One year named ("the increase in interest income in 2019") is often a change a sentence
    states for that year, with its own scale and words: not computed here."""
    if len(years) == 2:
        return TableAsk(op, years)
    return TableAsk(op, ()) if not years and _CHANGE_HEAD.match(text) else None


def table_ask(question: Question, label: frozenset[str] = frozenset()) -> TableAsk | None:
    """What a question asks of a table row labelled with the words `label` (module docstring), or None."""
    text = question.text.lower()
    years = tuple(dict.fromkeys(YEAR.findall(question.text)))
    words = _written(text, label)  # the label's own words name the row, not a figure derived from it
    average = bool(words & _AVERAGES)
    total = bool(words & _SUMS)
    span = _range(question.text)
    if _FISCAL.search(question.text) or (span is not None and not (span and (average or total))):
        return None  # a fiscal year, or a span that is no average's or total's, is not read here
    years = span or years
    percentage = re.search(r"(?:percent(?:age)?|%)\s*(?:change|increase|decrease|growth|decline)", text) is not None
    difference = bool(words & _DIFFERENCES)
    change = bool(words & _CHANGES) or difference
    op = None if question.op == "sum" and not total else question.op
    if percentage and not (average or total or words & _OTHER_DERIVED):
        return _change("pct_change", text, years)
    if percentage or words & _OTHER_DERIVED or (change and (average or total)) or (average and total):
        return None
    if average:
        return _average(text, years) if not words & _PER else None
    if total:
        return TableAsk("total", spanned(text, years)) if len(years) >= 2 else None
    if op is not None and not change:
        return None
    if difference and not words & _CHANGES:
        return None  # "the difference between 2018 and 2019": which is taken from which is not said
    if change:
        return _change("change", text, years)
    return TableAsk("value", years) if len(years) == 1 else None


__all__ = ["CHANGE_WORDS", "SUM_WORDS", "YEAR", "Op", "TableAsk", "may_ask", "spanned", "table_ask"]
