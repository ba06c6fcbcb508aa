"""What a value in a quoted sentence is stated for: the words of its own clause, so an answer's figure or name is
held to the question's subject where the quote gives it, not merely somewhere in the quote's sentence.

"Net sales from our modules segment increased by $958.1 million in 2019 primarily due to a 180% increase in the
volume of watts sold" gives 180% to the volume of watts sold, not to modules sales; "Deloitte was appointed as
intu's external auditor for the 2019 audit, succeeding PwC" makes Deloitte the auditor and PwC the one it
succeeded. A value's clause is read from plain text with general categories only:

- a figure's clause runs left back to a clause break (a hard mark, or a word opening a clause about something else:
  a cause, a concession, a relative pronoun) or to the previous figure of its class, unless only comparison and
  connecting words (and dates) stand between them ("$5.0 million in 2019, compared to $4.2 million": one subject).
  It runs right to the next figure, comma or clause break, a few words at most;
- a name's clause is its comma-delimited stretch of the sentence, extended back over an apposition or a list of
  names ("the Treasurer, Priya Raman,": Priya Raman is the Treasurer).

A table row is not read here: its cells are read under its headings (`reading`). The checks are one-sided: a value
is unbound only when its sentence names the subject and its own clause does not; a sentence that never names the
subject (it is in a heading, a title or another quote of the fact) says nothing either way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from quotebound.agent.gate.answer_text import Figure, Quoted, cells, figures, keys, shares
from quotebound.agent.gate.tokens import Key
from quotebound.agent.gate.vocabulary import WORD, fold, is_content, stem

# Words that open a clause about something else: causes, concessions and contrasts, relative pronouns and the
# participles that introduce a cause ("driven by", "offset by"). A value after one is not the subject's before it.
CLAUSE_BREAKS: Final = frozenset(
    """because although though whereas while but however yet which who whom whose unless except
    driven offset attributable resulting reflecting partially partly""".split()
)
# Words that may stand between two figures of one subject: comparison, range and connecting words ("from $4.2
# million to $5.0 million", "compared to", "up from", "respectively").
_CONNECTING: Final = frozenset(
    """compared comparison with to from versus vs against than and or up down respectively in of at on by for as the
    a an an its their our each per""".split()
)
_HARD: Final = frozenset(";|—–!?")
LEFT_WORDS: Final = 12  # content words read to the left of a value
RIGHT_WORDS: Final = 6  # and to the right
_NAME_RIGHT_WORDS: Final = 14  # a name's clause reads on to its comma: "X was appointed as ... for the 2019 audit"


@dataclass(frozen=True)
class _Item:
    kind: Literal["word", "figure", "mark"]
    text: str
    start: int
    end: int
    figure: Figure | None = None


def _class(f: Figure) -> str:
    """A figure's class: amounts with amounts, percentages with percentages, dates with dates."""
    if f.kind == "percent":
        return "percent"
    if f.kind in ("date", "time") or re.fullmatch(r"[12]\d{3}", f.text):
        return "date"
    return "amount"


@lru_cache(maxsize=2048)
def _items(sentence: str) -> tuple[_Item, ...]:
    """The sentence's words, figures and marks, in reading order (a word inside a figure is the figure's)."""
    found = [_Item("figure", f.text, f.start, f.end, f) for f in figures(sentence) if f.kind != "code"]
    taken = [(i.start, i.end) for i in found]
    for m in WORD.finditer(sentence):
        if all(m.end() <= a or b <= m.start() for a, b in taken):
            found.append(_Item("word", m.group(), m.start(), m.end()))
    for m in re.finditer(r"[,;:|()—–!?]", sentence):
        if all(m.end() <= a or b <= m.start() for a, b in taken):
            found.append(_Item("mark", m.group(), m.start(), m.end()))
    return tuple(sorted(found, key=lambda i: (i.start, -i.end)))


def _at(items: Sequence[_Item], start: int, end: int) -> int | None:
    return next((n for n, i in enumerate(items) if i.start <= start and end <= i.end), None)


CAUSE_TO: Final = re.compile(r"\b(?:due|owing|thanks)\s+to\b", re.I)  # "due to", "owing to": a cause follows


def _breaks(items: Sequence[_Item], n: int, marks: Iterable[str]) -> bool:
    """Item `n` ends a clause: one of `marks`, a word opening a clause about something else, or "due to"."""
    item = items[n]
    if item.kind == "mark":
        return item.text in marks
    if item.kind != "word":
        return False
    word = fold(item.text)
    if word in CLAUSE_BREAKS:
        return True
    near = [fold(i.text) for i in (items[n - 1] if n else None, items[n + 1] if n + 1 < len(items) else None) if i]
    return (word == "to" and bool(near) and near[0] in ("due", "owing", "thanks")) or (
        word in ("due", "owing", "thanks") and "to" in near[-1:]
    )


def _only_connecting(items: Sequence[_Item]) -> bool:
    return all(
        (i.kind == "mark" and i.text in ",()")
        or (i.kind == "word" and fold(i.text) in _CONNECTING)
        or (i.kind == "figure" and i.figure is not None and _class(i.figure) == "date")
        for i in items
    )


def figure_clause(sentence: str, figure: Figure) -> str:
    """The words of the clause `figure` (a figure of `sentence`, by position) is stated in (module docstring)."""
    items = _items(sentence)
    at = _at(items, figure.start, figure.end)
    if at is None:
        return sentence
    own = _class(figure)
    words: list[str] = []
    content = 0
    since = at  # the item after the last figure passed on the left
    for n in range(at - 1, -1, -1):
        item = items[n]
        if _breaks(items, n, _HARD):
            break
        if item.kind == "figure" and item.figure is not None and _class(item.figure) == own:
            if not _only_connecting(items[n + 1 : since]):
                break
            since = n
            continue
        if item.kind == "word":
            words.append(item.text)
            content += is_content(item.text)
            if content >= LEFT_WORDS:
                break
    content = 0
    first = at + 1
    while first < len(items) and items[first].kind == "mark" and items[first].text == ")":
        first += 1  # "six (6) Units": the bracket closes the figure's own spelling
    for n in range(first, len(items)):
        item = items[n]
        if item.kind == "figure" or _breaks(items, n, ",;:|()—–!?"):
            break
        words.append(item.text)
        content += is_content(item.text)
        if content >= RIGHT_WORDS:
            break
    return " ".join(words)


def value_clause(sentence: str, start: int, end: int) -> str | None:
    """The clause of the figure written at `start`:`end` of `sentence` (`figure_clause`), or None when no figure
    stands there."""
    figure = next((f for f in figures(sentence) if f.start <= start and end <= f.end and f.kind != "code"), None)
    return None if figure is None else figure_clause(sentence, figure)


def name_clause(sentence: str, start: int, end: int) -> str:
    """The words of the clause a name (at `start`:`end` in `sentence`) stands in (module docstring)."""
    items = _items(sentence)
    at = _at(items, start, end)
    if at is None:
        return sentence
    words: list[str] = []
    lowered_seen = False  # a lower-case content word on the left: past an apposition or a list of names
    for n in range(at - 1, -1, -1):
        item = items[n]
        if _breaks(items, n, _HARD):
            break
        if item.kind == "mark" and item.text in ",;:()" and lowered_seen:
            break
        if item.kind == "word":
            words.append(item.text)
            lowered_seen = lowered_seen or (is_content(item.text) and not item.text[:1].isupper())
    content = 0
    for n in range(at + 1, len(items)):
        item = items[n]
        if _breaks(items, n, ",;()|—–!?"):
            break
        if item.kind == "word":
            words.append(item.text)
            content += is_content(item.text)
            if content >= _NAME_RIGHT_WORDS:
                break
    return " ".join(words)


def bound(subject: Iterable[str], sentence: str, clause: str) -> bool | None:
    """Whether a value whose clause is `clause` is stated for the subject: None when `sentence` never names the
    subject (the value may be the subject's by a heading or title: this sentence cannot tell), else whether its
    clause names it."""
    subject = tuple(subject)
    if not subject or cells(sentence) is not None or not shares(subject, sentence):
        return None
    return shares(subject, clause)


def figure_bound(subject: Iterable[str], sentence: str, clause: str) -> bool | None:
    """`bound` for a figure: a clause naming nothing but a participle ("and averaging at") states its figure for
    its sentence's subject (the subject averages that figure). Not for a name: "succeeding PwC" makes PwC another
    party, not the subject."""
    verdict = bound(subject, sentence, clause)
    return True if verdict is False and _participial(sentence, clause) else verdict


def _participial(sentence: str, clause: str) -> bool:
    """The clause names nothing of its own: its content words are all present participles ("ranging from", "and
    averaging at"), which state the figure for the subject of their sentence. A noun in "-ing" takes "of" ("funding
    of $5 million", "the financing of") and names a thing of its own."""
    content = [w for w in WORD.findall(clause) if is_content(w)]
    return bool(content) and all(
        len(w) > 5 and fold(w).endswith("ing") and not re.search(rf"\b{re.escape(w)}\s+of\b", sentence, re.I)
        for w in content
    )


def reading(key: Key, qd: Quoted, sentence: str, quotes: Sequence[Quoted]) -> str:
    """What a quoted sentence says about the figure `key`. Prose says it in the sentence. A table row says it with
    the row's label cells, the figure's column headers (the cells in its column of the other rows cited from that
    source), the section rows cited from that source ("| Weighted-average
    shares outstanding: | | |") and the prose its fact cites from that source (a caption), as a reader of the table
    reads a cell: "| Net profit | (9,819) | 6,639 | (248%) |" under "| | 2019 | 2018 | Change |" gives (9,819) for
    2019, not a change."""
    row = cells(sentence)
    if row is None:
        return sentence
    columns = [j for j, c in enumerate(row) if key in keys(c)]
    parts = [c for c in row if any(is_content(w) for w in WORD.findall(c))]  # the row's labels
    for other_qd in quotes:
        if other_qd.source_id != qd.source_id:
            continue
        for s in other_qd.sentences:
            other = cells(s)
            if s == sentence:
                continue
            if other is None:
                if other_qd.fact == qd.fact:
                    parts.append(s)  # the caption the fact cites
            elif len(other) == len(row):
                parts += [other[j] for j in columns]
                if sum(1 for c in other if c) == 1 and not figures(s):
                    parts.append(s)  # a section row
    return " ".join(parts)


def proper_subject(question: str, subject: Iterable[str]) -> bool:
    """The question's subject includes a proper name: a title-case word after its first ("Broken Bow")."""
    words = WORD.findall(question)[1:]
    wanted = set(subject)
    return any(w[:1].isupper() and not w.isupper() and stem(w) in wanted for w in words)


def _named_before(sentence: str, key: Key) -> bool:
    """A proper name (a title-case word other than the sentence's first) stands before the figure `key`: the
    sentence names what the figure is of. "As of the census of 2010, there were 3,559 people ... in the city" and
    "With a length of 98 km, it is ..." name nothing before it: they refer to their document's topic ("the city",
    "it"), which the quoted sentence alone cannot tell."""
    figure = figure_in(sentence, key)
    before = WORD.findall(sentence[: figure.start] if figure is not None else sentence)[1:]
    return any(w[:1].isupper() and not w.isupper() and not re.fullmatch(r"[IVXLCDM]+", w) for w in before)


def about_subject(
    subject: Iterable[str], key: Key, qd: Quoted, sentence: str, quotes: Sequence[Quoted], proper: bool = False
) -> bool:
    """A quoted sentence is about the subject when it (with a table cell's column headings) shares one of its
    words; a row of bare figures ("| | 2019 | 2018 |", "| | 206.2 | 132.6 |") is read with the other quotes cited
    from its source (the row or section label that names it). When the subject is a proper name (`proper`), a
    prose sentence that names no one before its figure refers to its topic by anaphora and is not judged."""
    subject = tuple(subject)
    if shares(subject, f"{sentence} {reading(key, qd, sentence, quotes)}"):
        return True
    if proper and cells(sentence) is None and not _named_before(sentence, key):
        return True
    if any(
        other.fact == qd.fact and other.source_id == qd.source_id and shares(subject, " ".join(other.sentences))
        for other in quotes
        if other is not qd
    ):
        return True  # the fact also quotes the line of that source naming the subject (a header, the payee line);
    # whether the value belongs to what that line names is the meaning rule's binding check
    if any(is_content(w) for w in WORD.findall(sentence)):
        return False
    together = " ".join(s for other in quotes if other.source_id == qd.source_id for s in other.sentences)
    return shares(subject, together)


def figure_in(sentence: str, key: Key) -> Figure | None:
    """The first figure of `sentence` with `key`."""
    return next((f for f in figures(sentence) if f.key == key), None)


__all__ = [
    "CAUSE_TO",
    "CLAUSE_BREAKS",
    "about_subject",
    "bound",
    "figure_bound",
    "figure_clause",
    "figure_in",
    "name_clause",
    "proper_subject",
    "reading",
    "value_clause",
]
