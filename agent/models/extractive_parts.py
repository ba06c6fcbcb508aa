"""A question that joins two questions ("When is the annual meeting held, and at what time does it begin?").

Each part asks for its own value, usually stated on its own line: scored as one question, neither line covers
enough of the joint words and the whole abstains or answers one half. The parts are split at an "and" that opens
a new wh-clause; the second part usually refers back ("it"), so it carries the first part's words after its own
(as the clarify replies are carried: "... (the annual meeting of the Owners held)").
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.gate.question_words import AUXILIARIES

_WH: Final = "what|which|who|whom|whose|when|where|why|how"
# ", and at what time ...", "and how much ...": an "and" followed, within two words, by a wh-word
_JOIN: Final = re.compile(rf",?\s+and\s+(?=(?:[\w'’-]+\s+){{0,2}}(?:{_WH})\b)", re.IGNORECASE)
_OPENER: Final = re.compile(rf"^(?:{_WH})\b", re.IGNORECASE)
_WORD: Final = re.compile(r"[\w'’-]+")


def _subject(clause: str) -> str:
    """A question clause without its wh-word and auxiliaries: what it is about."""
    words = _WORD.findall(clause)
    while words and (_OPENER.match(words[0]) or words[0].lower() in AUXILIARIES):
        words.pop(0)
    return " ".join(words)


def clauses(text: str) -> tuple[str, str] | None:
    """The two questions a joint question asks, the second carrying the first's subject; None for one question."""
    stripped = text.strip()
    if not _OPENER.match(stripped):
        return None
    joins = list(_JOIN.finditer(stripped))
    if len(joins) != 1:
        return None
    join = joins[0]
    first = stripped[: join.start()].strip(" ,")
    second = stripped[join.end() :].strip().rstrip("?").strip()
    subject = _subject(first)
    if len(_WORD.findall(first)) < 3 or len(_WORD.findall(second)) < 2 or not subject:
        return None
    return f"{first}?", f"{second[:1].upper()}{second[1:]}? ({subject})"
