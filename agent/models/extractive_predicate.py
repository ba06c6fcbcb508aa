"""The name a who-question's own verb governs in a line: "William Parke" in "... a 1918 film directed by William
Parke and starring Fannie Ward", asked who directed the film.

A line about a film, a book or a building names many people and places; the first name in it ("American", "The
Yellow Ticket") is rarely the one asked for. The question's words that are not its subject's name ("directed",
"married", "architect") are what the line must say of the answer, so the name read is the one standing right after
such a word, directly or through "by" / "to" (the agent of a passive, the object of "married to"); a capitalized
word qualifying a noun ("by American country music artist Mark Wills") is passed over for the name after it.
Names made only of the subject's own words are the subject, not an answer.
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_subject import subject_names
from quotebound.agent.models.extractive_values import Value
from quotebound.agent.models.extractive_words import STOPWORDS, normalize

_TOKEN: Final = re.compile(r"[\w'’.-]+|[^\w\s]")
_LINKS: Final = frozenset({"by", "to"})  # "directed by X", "married to X"
# Lowercase particles inside a person's or a place's name ("Leonardo da Vinci", "Ludwig van Beethoven").
_PARTICLES: Final = frozenset({"da", "de", "del", "della", "di", "van", "von", "der", "du", "le", "la", "bin", "al"})
_MAX_NAME: Final = 5


def _capital(token: str) -> bool:
    return token[:1].isupper()


def _name_at(tokens: list[str], i: int) -> tuple[int, int] | None:
    """The span of a capitalized name starting at token `i` (particles inside it, never at its ends)."""
    if i >= len(tokens) or not _capital(tokens[i]):
        return None
    end = i + 1
    while end < len(tokens) and end - i < _MAX_NAME:
        if _capital(tokens[end]):
            end += 1
        elif tokens[end] in _PARTICLES and end + 1 < len(tokens) and _capital(tokens[end + 1]):
            end += 2
        else:
            break
    return i, end


def _modifies(tokens: list[str], end: int) -> bool:
    """The name ending at `end` is followed by a lowercase content word: it qualifies a noun ("American country
    music artist"), it names no one."""
    after = tokens[end] if end < len(tokens) else ""
    return after.isalpha() and after.islower() and after not in STOPWORDS


def _next_capital(tokens: list[str], start: int) -> int:
    """The first capitalized token within `_MAX_NAME` lowercase words of `start` (len(tokens) when none)."""
    for i in range(start, min(len(tokens), start + _MAX_NAME)):
        if _capital(tokens[i]):
            return i
        if not (tokens[i].isalpha() and tokens[i].islower()):
            break
    return len(tokens)


def predicate_name(question: Question, line_text: str) -> Value | None:
    """The name right after a question word that is not the subject's name (see the module's doc), or None."""
    names = subject_names(question)
    verbs = {w for w in question.words if w not in names and not any(c.isdigit() for c in w)}
    if not verbs:
        return None
    spans = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(line_text)]
    tokens = [s[2] for s in spans]
    for i, token in enumerate(tokens):
        if _capital(token) or normalize(token.lower()) not in verbs:
            continue
        at = i + 1 + (i + 1 < len(tokens) and tokens[i + 1].lower() in _LINKS)
        found = _name_at(tokens, at)
        if found is not None and _modifies(tokens, found[1]):
            found = _name_at(tokens, _next_capital(tokens, found[1]))  # "by American country artist Mark Wills"
        if found is None:
            continue
        first, end = found
        words = {normalize(t.lower().strip(".")) for t in tokens[first:end] if t.lower() not in STOPWORDS}
        if words <= names:
            continue  # the subject named again, not an answer
        start, stop = spans[first][0], spans[end - 1][1]
        text = line_text[start:stop].rstrip(".,")
        return Value(text, "entity", start)
    return None
