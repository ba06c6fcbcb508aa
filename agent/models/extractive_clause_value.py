"""The value of a line that its own clause says is the asked one: "$31,250" in "... household in the city was
$25,714, and the median income for a family was $31,250.", asked the median income for a family.

A line often states several values of one kind, each in its own clause; the first is read by default
(`line_value`). A careful reader takes the one whose clause says what the question asks about: among the line's
values of the first one's class, the one whose clause (`value_clause`, the gate's reading of a figure's clause)
holds strictly more of the question's words, its subject's name aside, than the first's does. Ties keep the first.
"""

from __future__ import annotations

from quotebound.agent.gate.answer_binding import value_clause
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_subject import subject_names
from quotebound.agent.models.extractive_values import NUMERIC_KINDS, Value, extract_values, kind_class
from quotebound.agent.models.extractive_words import token_forms


def _said(question: Question, clause: str | None) -> int:
    """How many of the question's words the clause says, in any of their forms: numbers and the subject's name
    aside (a line's every clause is about its subject; "judge" in "... was a federal judge" says no birth)."""
    if clause is None:
        return 0
    forms: set[str] = set().union(*token_forms(clause))
    names = subject_names(question)
    return sum(1 for w in question.words if w in forms and w not in names and not any(c.isdigit() for c in w))


def clause_value(question: Question, line_text: str, first: Value | None) -> Value | None:
    """The value whose own clause says most of the question (see the module's doc); `first` when none says more."""
    if first is None or first.kind == "entity":
        return first
    if question.kind is None and first.kind not in NUMERIC_KINDS:
        return first  # a date read for a question asking none ("the state where X was born") answers nothing
    best, most = first, _said(question, value_clause(line_text, first.start, first.start + len(first.text)))
    for value in extract_values(line_text):
        if value.start == first.start or kind_class(value.kind) != kind_class(first.kind):
            continue
        said = _said(question, value_clause(line_text, value.start, value.start + len(value.text)))
        if said > most:
            best, most = value, said
    return best
