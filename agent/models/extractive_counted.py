"""A count read strictly: "how many directors" is answered by a number that counts directors.

A line's first number is a loose reading of a count: in "three (3) of the five (5) directors are a quorum" it is
the quorum, not the board. The counted noun follows its number ("five (5) directors", "all five directors"), so
a count is read here as the number the asked noun directly follows, after an optional figure in parentheses. A
line with no such number counts something else, however close its meaning.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_values import Value, extract_values
from quotebound.agent.models.extractive_words import tokens

_ASKED: Final = re.compile(r"\bhow\s+many\s+([A-Za-z][\w'-]*)", re.IGNORECASE)
# what may stand between a number and its noun: a closing parenthesis, the figure repeated in parentheses
_NEXT_WORD: Final = re.compile(r"^\)?\s*(?:\(\s*\d+\s*\)\s*)?([A-Za-z][\w'-]*)")
_COUNTS: Final = frozenset({"number", "numword"})


def counted_noun(question: Question) -> str | None:
    """The noun a "how many" question counts, in the question's word form ("directors" -> "director")."""
    match = _ASKED.search(question.text)
    if match is None:
        return None
    forms = tokens(match.group(1)) & set(question.words)  # a content word of the question, not "are" or "of"
    return next(iter(forms)) if len(forms) == 1 else None


def counted_value(noun: str, text: str) -> Value | None:
    """The first number in `text` that the noun directly follows, or None."""
    for value in extract_values(text):
        if value.kind not in _COUNTS:
            continue
        after = _NEXT_WORD.match(text[value.start + len(value.text) :])
        if after is not None and noun in tokens(after.group(1)):
            return value
    return None


def recounted(noun: str, scored: Scored) -> Scored | None:
    """The scored line with its count read strictly, or None when it states no count of the noun."""
    value = counted_value(noun, scored.line.text)
    return None if value is None else replace(scored, value=value)
