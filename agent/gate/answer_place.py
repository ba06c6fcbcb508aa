"""What answers a where-question: a locative phrase that places something in space (not one that dates it), or,
for "where does it come from?", what it comes from. `answer_type.type_ok` reads these for a place answer."""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.gate.question import LOCATIVE, MONTHS, TIME_UNITS, WEEKDAYS, Question
from quotebound.agent.gate.vocabulary import WORD, fold, stem


def places(text: str) -> bool:
    """Some locative word of `text` places something ("in Arizona", "near the river")."""
    return any(_places_at(text, m) for m in WORD.finditer(text))


_TIMES_PHRASE: Final = re.compile(
    r"\b[12]\d{3}(?:['’]?s)?\b|\b(?:january|february|march|april|june|july|august|september|october|november|december)\b",
    re.I,
)


def _places_at(text: str, m: re.Match[str]) -> bool:
    """A locative word that places something: "in Arizona", "near the river"; not one that dates it ("In 1856.",
    "in the 2000s", "in May"): a year, a decade, a month, a weekday or a unit of time after it is a time."""
    if fold(m.group()) not in LOCATIVE:
        return False
    after = re.match(r"[\s,]*(?:(?:the|a|an|early|late|mid)[\s-]+)*([^\s,.;:!?)]+)", text[m.end() :])
    if after is None:
        return False
    word = fold(after.group(1))
    if re.fullmatch(r"[12]\d{3}(?:['’]?s)?", word) or word in MONTHS or word in WEEKDAYS or word in TIME_UNITS:
        return False
    # the phrase, up to its next mark, times what it names ("in a project that spanned most of the 2000s"): it
    # places an event in time, not a thing in space
    phrase = re.split(r"[,.;:!?()]", text[m.end() :], maxsplit=1)[0]
    return not _TIMES_PHRASE.search(phrase)


_ORIGIN_ASKED: Final = re.compile(r"\bfrom\s*[?.!]*\s*$", re.I)  # "Where do ... come from?": a source is asked
_FROM: Final = re.compile(r"\bfrom\s+(?:(?:the|a|an)\s+)?([^\W\d_]+)", re.I)


def origin(q: Question, text: str) -> bool:
    """A where-question that asks where something comes from is answered by what it comes from: "from" and a
    word the question does not have ("from the municipal water supply")."""
    return _ORIGIN_ASKED.search(q.text) is not None and any(
        stem(m.group(1)) not in q.words for m in _FROM.finditer(text)
    )


__all__ = ["origin", "places"]
