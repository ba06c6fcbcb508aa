"""What a quoted figure is stated as: the level of something or a change in it, and for which period.

"Bell Wireless operating revenues increased by 3.6% in Q4 2019" states a change, not the revenues asked for;
"we granted 346,453 PSUs" after "In April 2019" is April's grant, not December's; "42.3% of total net sales for the
fiscal year ended March 31, 2019" is 2019's share, not 2018's. Both are read from plain text with general
categories only:

- a figure is stated as a change when a change word governs it ("increased by 3.6%", "an increase of $473 million",
  "a decrease in revenues of $1.1 billion", "up 10%") or follows it ("a 180% increase");
- a prose figure's period is the first date or year after it in its clause (up to a comma, a clause break, a
  comparison word or the next figure of its class), else the nearest one before it (back to the previous figure of
  its class or a clause break); a table cell's period is the years its column's headings name
  (`answer_calc.column_heading`). No date near it: no period, and nothing is judged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from quotebound.agent.gate.answer_binding import CAUSE_TO, CLAUSE_BREAKS
from quotebound.agent.gate.answer_calc import column_heading, years
from quotebound.agent.gate.answer_text import (
    Figure,
    Quoted,
    answer_figures,
    cells,
    figures,
    is_year,
    keys,
    sentences_with,
)
from quotebound.agent.gate.question import Question
from quotebound.agent.gate.tokens import Key
from quotebound.agent.gate.vocabulary import WORD, fold

# Change words (a general category): the verbs and nouns by which a figure is stated as a change in something.
_CHANGE: Final = (
    r"(?:increase[ds]?|decrease[ds]?|rose|rise[sn]?|fell|fall(?:s|en)?|grew|grow(?:s|n|th)?|decline[ds]?"
    r"|drop(?:s|ped)?|jump(?:s|ed)?|climb(?:s|ed)?|reduc(?:ed|tion)|chang(?:e|es|ed))"
)
_CURRENCY: Final = r"[$€£¥₹]?\s*"
_AS_CHANGE_LEFT: Final = (
    re.compile(rf"\b{_CHANGE}\s+(?:by|of)\s+(?:approximately\s+|about\s+|nearly\s+|almost\s+)?{_CURRENCY}$", re.I),
    re.compile(rf"\b{_CHANGE}\s+in\s+[^,;.\d]{{1,40}}?\s+of\s+{_CURRENCY}$", re.I),
    re.compile(rf"\b(?:up|down)\s+(?:by\s+)?{_CURRENCY}$", re.I),
)
_AS_CHANGE_RIGHT: Final = re.compile(
    rf"^\s*(?:million|billion|thousand|percent|percentage\s+points?|points?|bps)?\s*{_CHANGE}\b", re.I
)
# Words after a figure that turn to another period ("$5.0 million, compared to 2018", "up from 2018").
_COMPARING: Final = frozenset("compared comparison versus vs than from against since".split())
_STOPS: Final = ",;:|()—–!?"
Period = tuple[frozenset[str], frozenset[str]]  # (years, "yyyy-mm" months)


def stated_as_change(sentence: str, figure: Figure) -> bool:
    """A change word governs or follows the figure in its sentence (module docstring)."""
    left, right = sentence[: figure.start], sentence[figure.end :]
    return any(p.search(left) for p in _AS_CHANGE_LEFT) or _AS_CHANGE_RIGHT.match(right) is not None


def _as_change(sentence: str, key: Key) -> bool:
    """A prose sentence writes the figure `key`, each time as a change. A table row may hold it only as a bare cell
    under a column headed in percent (`answer_text.sentences_with`): a cell states a level, never a change."""
    written = [g for g in figures(sentence) if g.key == key]
    return cells(sentence) is None and bool(written) and all(stated_as_change(sentence, g) for g in written)


def _class(f: Figure) -> str:
    return "percent" if f.kind == "percent" else "amount"


def _dated(f: Figure) -> Period | None:
    """The years and months a date-like figure names ("April 2019", "2019", "FY2019")."""
    key = f.key
    if key[0] == "date" and isinstance(key[1], str):
        return frozenset({key[1][:4]}), frozenset({key[1][:7]} if len(key[1]) >= 7 else set())
    if key[0] == "year":
        return frozenset({str(key[1])}), frozenset()
    if f.kind in ("number", "code") and years(f.text):
        return years(f.text), frozenset()
    return None


def _breaks(text: str, right: bool) -> int:
    """Where a clause read from a figure stops in `text` (read left to right, or right to left)."""
    marks = _STOPS if right else ";|—–!?"
    words = CLAUSE_BREAKS | _COMPARING if right else CLAUSE_BREAKS
    spots = [i for i, ch in enumerate(text) if ch in marks]
    spots += [m.start() if right else m.end() for m in WORD.finditer(text) if fold(m.group()) in words]
    spots += [m.start() if right else m.end() for m in CAUSE_TO.finditer(text)]
    if not spots:
        return len(text) if right else 0
    return min(spots) if right else max(spots)


def prose_period(sentence: str, figure: Figure) -> Period | None:
    """The period a prose figure is stated for (module docstring), or None."""
    found = [f for f in figures(sentence) if f.kind != "word"]
    masked = list(sentence)
    for f in found:  # the comma of "March 31, 2019" ends no clause
        masked[f.start : f.end] = "#" * (f.end - f.start)
    flat = "".join(masked)
    same = [f for f in found if f is not figure and _class(f) == _class(figure) and _dated(f) is None]
    end = min([f.start for f in same if f.start >= figure.end], default=len(sentence))
    end = min(end, figure.end + _breaks(flat[figure.end : end], right=True))
    after = [p for f in found if figure.end <= f.start < end and (p := _dated(f)) is not None]
    if after:
        return after[0]
    start = max([f.end for f in same if f.end <= figure.start], default=0)
    start = start + _breaks(flat[start : figure.start], right=False)
    before = [p for f in found if start <= f.start and f.end <= figure.start and (p := _dated(f)) is not None]
    return before[-1] if before else None


def quoted_period(key: Key, qd: Quoted, sentence: str, quotes: Sequence[Quoted]) -> Period | None:
    """The period the quoted sentence states the figure `key` for: the years heading every column that holds it,
    for a table row; its clause's date for prose; None when it names none."""
    row = cells(sentence)
    if row is not None:
        # every column that holds the figure: a row may give one figure for several periods ("| 1,200 | 1,200 |")
        columns = [j for j, c in enumerate(row) if j >= 1 and key in keys(c)]
        named = frozenset().union(*(years(column_heading(qd, sentence, j, quotes)) for j in columns))
        return (named, frozenset()) if named else None
    figure = next((f for f in figures(sentence) if f.key == key), None)
    return prose_period(sentence, figure) if figure is not None else None


def matches(period: Period, asked: Period) -> bool:
    """The figure's period is one the question asks about: a year in common and, where both name a month of that
    year, the same month."""
    shared = period[0] & asked[0]
    if not shared:
        return False
    months = {m for m in period[1] if m[:4] in shared}
    wanted = {m for m in asked[1] if m[:4] in shared}
    return not months or not wanted or bool(months & wanted)


def asked_period(question: str) -> Period:
    """The years and months a question names."""
    found = [p for f in figures(question) if (p := _dated(f)) is not None]
    return frozenset().union(*(p[0] for p in found)), frozenset().union(*(p[1] for p in found))


# --- the checks the answerhood rule runs ----------------------------------------------------------------------------

_NUMBER_KINDS: Final = frozenset({"money", "number", "percent"})  # "one" is as often a pronoun


def _values(q: Question, text: str) -> list[Figure]:
    """The answer's figures that give a quantity: no year, no date, no code."""
    return [f for f in answer_figures(q, text) if f.kind in _NUMBER_KINDS and not is_year(f)]


def _asks_change(q: Question) -> bool:
    return bool(q.derived) or q.causal or any(re.fullmatch(_CHANGE, fold(w)) for w in WORD.findall(q.text))


def change_problem(q: Question, text: str, quotes: Sequence[Quoted]) -> str | None:
    """The question asks for a level ("What was the operating revenue for Q4 2019?"), and every figure the answer
    gives is one its quotes state as a change ("increased by 3.6% in Q4 2019")."""
    if _asks_change(q) or q.expects not in ("count", "amount", "percent", "open"):
        return None
    stated = [(f, [s for _, s in sentences_with(f.key, quotes)]) for f in _values(q, text)]
    stated = [(f, found) for f, found in stated if found]
    if not stated or not all(all(_as_change(s, f.key) for s in found) for f, found in stated):
        return None
    f = stated[0][0]
    return (
        f"the question asks for a figure itself, but {f.text!r} is what its quote says it changed by; quote the "
        "figure the question asks for, or report that the documents do not give it"
    )


def period_problem(q: Question, text: str, quotes: Sequence[Quoted]) -> str | None:
    """The question asks about a period ("in 2018", "in December 2019"), and the figure the answer leads with is one
    its quotes state for another period (module docstring): an answer gives the period asked first, whatever it
    adds after ("$5.0 million in 2019, up from $4.2 million in 2018" does not answer for 2018)."""
    if q.offers_choice or q.expects in ("date", "year") or q.causal:
        return None  # a cause may come before the period asked about ("notes issued in November 2017")
    asked = asked_period(q.text)
    given = _values(q, text)
    if not asked[0] or not given:
        return None
    f = given[0]
    found = [p for qd, s in sentences_with(f.key, quotes) if (p := quoted_period(f.key, qd, s, quotes))]
    if not found or any(matches(p, asked) for p in found):
        return None  # the period asked, or one no quote names: not judged
    when = ", ".join(sorted(found[0][1] or found[0][0]))
    return (
        f"the question asks about {', '.join(sorted(asked[1] or asked[0]))}, but its quote gives {f.text!r} for "
        f"{when}; give the figure for the period asked first, or report that the documents do not give it"
    )


__all__ = [
    "Period",
    "asked_period",
    "change_problem",
    "matches",
    "period_problem",
    "prose_period",
    "quoted_period",
    "stated_as_change",
]
