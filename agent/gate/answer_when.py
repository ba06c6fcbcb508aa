"""A when-question answered with a condition where its quote gives the date. "When" may be answered by the event
or condition a thing depends on ("once the cap is reached", `answer_type.type_ok`), but only when that is what the
documents say: if the quote sentence about what is asked dates it ("By January 31, 2019, the actions ... were
substantially complete"), an answer that keeps the sentence's words and drops its date ("once its actions were
done") does not answer when."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from quotebound.agent.gate.answer_text import Figure, Quoted, figures, is_year, next_word, shares, short
from quotebound.agent.gate.question import MONTHS, TIME_UNITS, WEEKDAYS, Question
from quotebound.agent.gate.vocabulary import WORD, fold, stem


def _dated(text: str, found: Sequence[Figure]) -> bool:
    """`text` places its thing in time itself: a date, a time, a year, a month or weekday, or a span of time
    ("within 30 days")."""
    words = {fold(w) for w in WORD.findall(text)}
    return (
        any(f.kind in ("date", "time") or f.key[0] == "year" or is_year(f) for f in found)
        or bool(words & (MONTHS | WEEKDAYS))
        or any(next_word(text, f.end) in TIME_UNITS for f in found)
    )


# Personal pronouns that stand as a clause's subject: a sentence using one speaks of someone it named before.
_SUBJECT_PRONOUNS: Final = frozenset("he she they".split())


def _referent(q: Question, sentence: str) -> frozenset[str]:
    """The stems of the name a subject pronoun of `sentence` may stand for: the question's first run of capitalized
    words past its first word ("Pier Paolo Crescenzi") that the sentence does not write. A pronoun stands for one
    name; the question's other names the sentence must write itself."""
    if not {fold(w) for w in WORD.findall(sentence)} & _SUBJECT_PRONOUNS:
        return frozenset()
    runs: list[list[str]] = [[]]
    for m in WORD.finditer(q.text):
        if m.start() > 0 and m.group()[:1].isupper():
            runs[-1].append(stem(m.group()))
        elif runs[-1]:
            runs.append([])
    unsaid = (frozenset(r) for r in runs if r and not shares(tuple(r), sentence))
    return next(unsaid, frozenset()) & q.subject


def _about(q: Question, sentence: str) -> bool:
    """The quote sentence speaks of most of what the question asks about. A sentence whose subject is a personal
    pronoun ("On 4 Jul 1612, he was appointed ...") speaks of the person its passage named before: the question's
    name it does not write counts as said (which person the quote is about is the document rules' to check)."""
    named = _referent(q, sentence)
    said = sum(1 for s in q.subject if s in named or shares((s,), sentence))
    return bool(q.subject) and 2 * said > len(q.subject)


def undated_problem(q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """A when-question whose answer gives no date (module docstring), while a verified quote sentence about what
    it asks gives one: the date is the answer."""
    del calc  # the answerhood rules share one signature
    if q.expects != "date" or _dated(text, figures(text)):
        return None
    for qd in quotes:
        for s in qd.sentences:
            dates = [f for f in figures(s) if f.kind == "date"]
            if dates and _about(q, s):
                return (
                    f"it asks when, and the quote about it gives the date ({dates[0].text!r} in {short(s)!r}), but "
                    "the answer gives none; state the date the quote gives"
                )
    return None
