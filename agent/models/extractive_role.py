"""Who holds a role: "Who is the Association's treasurer?" is answered by the name written beside the role word
("Priya Raman (Treasurer)", "Treasurer Priya Raman", "the Treasurer, Priya Raman"), never by another name of a line
that only mentions the role ("The officers are a President, a Secretary and a Treasurer": a list of roles names
no holder; "The Treasurer presents the budget to the Board": the Board holds nothing).

The role word is the head of the noun phrase a copular who-question asks about ("who is the night patrol officer"
asks for an officer), cut before a preposition ("who is the author of X" asks for an author, not for X). The rule
bites only where the line writes the role as a name of its own, capitalized: a title in a name's place.
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_values import Value
from quotebound.agent.models.extractive_words import STOPWORDS, normalize

_COPULAR: Final = re.compile(r"^\s*who\s+(?:is|was|are|were)\s+(?:the|a|an)\s+([^?,;]+)", re.IGNORECASE)
_PREPOSITION: Final = re.compile(r"\s(?:of|in|for|at|on|from|with|to|by|and|who|that)\s.*$", re.IGNORECASE)
_WORD: Final = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# What may stand between a name and its role and keep them one phrase: a space, a comma, an opening parenthesis.
_BESIDE: Final = re.compile(r"^[\s,(:]{1,3}$|^\)?[\s,:]{0,2}$")


def role_word(question: Question) -> str | None:
    """The normalized head noun of "who is the <role>" (module docstring); None for any other question."""
    found = _COPULAR.match(question.text)
    if found is None:
        return None
    phrase = _PREPOSITION.sub("", " " + found.group(1).strip() + " ").strip()
    words = [normalize(w) for w in _WORD.findall(phrase)]
    content = [w for w in words if w not in STOPWORDS]
    return content[-1] if content else None


def _titles(question: Question, values: list[Value]) -> list[Value]:
    """The line's names that are the asked role word alone ("Treasurer"): the role written as a name."""
    role = role_word(question)
    if role is None:
        return []
    return [v for v in values if v.kind == "entity" and [normalize(w) for w in _WORD.findall(v.text)] == [role]]


def writes_role(question: Question, values: list[Value]) -> bool:
    """Whether the rule applies to the line: a copular who-question, and the line writes its role as a name."""
    return bool(_titles(question, values))


def _bound(question: Question, values: list[Value], line_text: str) -> tuple[Value, Value] | None:
    """(the name, the role word) written side by side, the first such pair in the line."""
    names = [v for v in values if v.kind == "entity"]
    for title in _titles(question, values):
        end = title.start + len(title.text)
        for name in names:
            if name.start < title.start:
                between = line_text[name.start + len(name.text) : title.start]
            elif name.start >= end:
                between = line_text[end : name.start]
            else:
                continue
            if _BESIDE.match(between):
                return name, title
    return None


def role_holder(question: Question, values: list[Value], line_text: str) -> Value | None:
    """The name written beside the role word (`writes_role` lines only); None when no name stands beside it."""
    bound = _bound(question, values, line_text)
    return bound[0] if bound is not None else None


def role_phrase(question: Question, values: list[Value], line_text: str) -> str | None:
    """The words of the line that name the holder with the role ("Priya Raman (Treasurer)"): level 1 leads with
    the name, in the quote's own words, instead of the sentence's first name ("Directors present: ...")."""
    bound = _bound(question, values, line_text)
    if bound is None:
        return None
    first, last = sorted(bound, key=lambda v: v.start)
    phrase = line_text[first.start : last.start + len(last.text)]
    return phrase + ")" if phrase.count("(") > phrase.count(")") else phrase
