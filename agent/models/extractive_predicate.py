"""The name a who-question's own verb governs in a line: "William Parke" in "... a 1918 film directed by William
Parke and starring Fannie Ward", asked who directed the film.

A line about a film, a book or a building names many people and places; the first name in it ("American", "The
Yellow Ticket") is rarely the one asked for. The question's words that are not its subject's name ("directed",
"married", "architect") are what the line must say of the answer, so the name read is the one standing right after
such a word, directly or through "by" / "to" (the agent of a passive, the object of "married to"). Names made only
of the subject's own words are the subject, not an answer.
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.models.extractive_subject import subject_names
from quotebound.agent.models.extractive_text import STOPWORDS, Question, Value, normalize

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
