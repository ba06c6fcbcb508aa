"""Whether a line states the qualifiers a question puts on the figure it asks for: the year it names, and the
words that name a row of the document's tables ("revenue" in "the revenue in the fiscal 2019 third quarter",
"EMEA" in "the net sales in 2019 for EMEA", "granted" in "the shares granted in 2019").

Coverage lets a line miss some of the question's words: most are said in other words or go unsaid. A word that
labels a table row, though, names a figure the document gives: a line that says it neither itself, nor in its
frame (heading, header row), nor in other words, states another figure (net income for revenue, the total for
EMEA, the year-end balance for the grants). The rule holds for a question pinned to a year, the form of a
question for one figure of a table of periods. A year the question names is a qualifier too: a line whose text
and frame name other years but never the asked one ("As at 31 December 2019" for "as at 31 December 2018")
states the figure of another period.
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.models.extractive_cues import CHANGE_DOWN, CHANGE_EITHER, CHANGE_UP
from quotebound.agent.models.extractive_line_text import is_table_row
from quotebound.agent.models.extractive_meaning import Senses, sense_credit
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_section import part_credit
from quotebound.agent.models.extractive_table_ask import CHANGE_WORDS, YEAR
from quotebound.agent.models.extractive_values import NUMERIC_KINDS, Value
from quotebound.agent.models.extractive_words import tokens

_CHANGE_NOUNS: Final = tokens("growth variance difference")
_CHANGED_BY: Final = re.compile(
    rf"\b(?:{'|'.join(map(re.escape, (*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER)))})\s+(?:by\s+)?"
    r"(?:(?:approximately|about|nearly|almost|over|roughly)\s+)?$",
    re.IGNORECASE,
)
_ASIDE: Final = re.compile(r"\([^)]*\)")
_LEVEL: Final = re.compile(r"\b(?:to|from)\s+(?:approximately\s+|about\s+)?[$€£¥]?\s?\d", re.IGNORECASE)
_QUANTITIES: Final = frozenset({"money", "amount", "percent", "count"})  # question kinds that ask how much
# Words that ask for a figure or name its form, not what it is of: documents rarely repeat them beside the figure.
_FORM: Final = tokens("percentage percent average mean ratio share proportion sum amount value figure number much many")


def asked_years(question: Question) -> frozenset[str]:
    return frozenset(YEAR.findall(question.text))


def unstated(
    question: Question,
    weights: dict[str, float],
    senses: Senses,
    text: str,
    frame: str,
    labels: frozenset[str],
    floor: float,
) -> frozenset[str]:
    """The question's qualifiers the line (`text`) and its frame (headings, header row) leave out: a year it names
    when they name only others, and, for a question pinned to a year, the words that label a table row read
    (`labels`) said in neither, nor in other words: the figure asked is that row's, and a line without its word
    ("Granted" asked, "Non-vested at December 31" read; "revenue" asked, a net income sentence read) is about
    another thing."""
    asked = asked_years(question)
    if not asked:
        return frozenset()  # no year asked: a line's missing words are left to coverage
    said = tokens(text) | tokens(frame)
    # a year in parentheses is the comparison aside ("US$261,518 (2018: US$283,752)"), not the figure's own
    other = set(YEAR.findall(_ASIDE.sub(" ", f"{text} {frame}"))) - asked
    years = asked if not asked & said and other else set()
    line_words = tokens(text)
    words = {
        w
        for w in question.words
        if w in weights
        and w not in said
        and w in labels
        and not any(c.isdigit() for c in w)
        and w not in _FORM | CHANGE_WORDS | question.period_words
        and sense_credit(w, line_words, senses, floor) == 0.0
        and part_credit(w, text) == 0.0
    }
    return frozenset(years | words)


def row_labels(texts: list[str]) -> frozenset[str]:
    """The words of the table rows' labels (their first cells) among `texts`."""
    return frozenset(w for t in texts if is_table_row(t) for w in tokens(t.strip().strip("|").split("|")[0]))


def change_figure(question: Question, text: str, value: Value | None) -> bool:
    """The line's figure is the size of a change ("increased $273 million", "grew by 1.6%") and it states no level
    ("from $1,501 to $1,620"): it answers a question about the change, never one asking how much the thing itself
    is ("How much were the expenses in 2017?"), which the change leaves unsaid."""
    if question.kind not in _QUANTITIES or question.change or tokens(question.text) & _CHANGE_NOUNS:
        return False
    if value is None or value.kind not in NUMERIC_KINDS or _LEVEL.search(text):
        return False
    return _CHANGED_BY.search(text[: value.start]) is not None


def labels_only(text: str) -> bool:
    """A table row with a label and no other cell ("| Basic earnings per share (1) |  |  |") names the rows below
    it and states no figure of its own."""
    cells = [c.strip() for c in text.strip().strip("|").split("|")]
    return is_table_row(text) and len(cells) > 1 and not any(cells[1:])


__all__ = ["asked_years", "change_figure", "labels_only", "row_labels", "unstated"]
