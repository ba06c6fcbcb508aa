"""Other documents' own answers: the extractive model never states one side of a disagreement silently.

The model answers from its best line. Before it does, it reads every other document it has read the way a careful
reader would, for that document's own answer to the same question, and abstains when one differs:

- a copy of the answering sentence in another document, identical before and after, that lacks or replaces the
  stretch carrying the answer (a clause inserted or a value swapped: the copies disagree exactly there), or a
  copy of the passage that lacks the answering sentence itself between the same two neighbours
  (`extractive_insert`);
- for "what <noun>" questions, the name another document gives right before the same noun in a line naming the
  same subject ("the Whig party" / "the Democratic Party", both said of the person asked about);
- a name given as the answer by a document that merely mentions the subject, while another document is the
  subject's own page (its first line opens with the subject's name, as a title does: "Out of the Box (Jade Valerie
  album) ...") and, in the lines of it the model has read, never gives that name: the page about the subject
  says who, and does not say this one. For a "what <noun>" question answered by a whole line ("Tim Martin, a
  renowned figure in cricket, ..."), the page gives it when a line of it shares a word the answering line adds to
  the question; a page sharing none ("Tim Martin (American football) ...") disputes it.

A document that gives no answer of its own is no disagreement, and a line about another entity that merely shares
a word of the question is not read as an answer (its sentence must name the question's subject in full).

Where the value can be shown rather than withheld, it is listed instead (`copy_sides`): a line giving the answer's
value whose copy in another document has another value in its place is listed beside the answer as a conflict.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from difflib import SequenceMatcher
from typing import Final

from quotebound.agent.models.extractive_insert import inserted
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_subject import subject_names
from quotebound.agent.models.extractive_values import Value, extract_values, kind_class, value_differs
from quotebound.agent.models.extractive_words import STOPWORDS, normalize

_WORD: Final = re.compile(r"\w+")
_HYPHENATED: Final = re.compile(r"\w+(?:[-'’]\w+)+")
_CAPITAL_RUN: Final = re.compile(r"((?:[A-Z][\w'’-]*\s+){1,3})$")
# The auxiliaries that end the asked noun phrase of a "what/which <noun> ..." question ("What political party was").
_AUXILIARY: Final = frozenset(
    "is are was were did does do has have had can could will would should may might must".split()
)
_MIN_SHARED: Final = 8  # words two lines must share, before and after the stretch, to be copies of one sentence
_MAX_STRETCH: Final = 14  # the most words a differing stretch may hold and still be one clause or value


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def names_subject(text: str, names: frozenset[str]) -> bool:
    """The line names the question's subject in full: every word of its name (`subject_names`, which keeps a
    hyphenated name whole: "King-Hall") is a word of it."""
    words = {normalize(w.lower()) for w in (*_WORD.findall(text), *_HYPHENATED.findall(text))}
    return bool(names) and names <= words


def asked_noun(question: Question) -> str | None:
    """The head noun of a "what/which <noun> ..." question: "party" in "What political party was X affiliated
    with?", "date" in "What is the birth date of X?"; None for any other question."""
    words = _words(question.text)
    if not words or words[0] not in ("what", "which"):
        return None
    rest = words[1:]
    if rest and rest[0] in _AUXILIARY:
        rest = rest[1:]
    while rest and rest[0] in ("the", "a", "an"):
        rest = rest[1:]
    phrase: list[str] = []
    for word in rest:
        if word in _AUXILIARY or word in STOPWORDS:
            break
        phrase.append(word)
    return normalize(phrase[-1]) if phrase and len(phrase) <= 3 else None


def _name_before(text: str, noun: str) -> str | None:
    """The capitalized name standing right before `noun` in a line ("Whig" in "the Whig party")."""
    for match in re.finditer(r"\w+", text):
        if normalize(match.group().lower()) != noun:
            continue
        run = _CAPITAL_RUN.search(text[: match.start()])
        if run is not None:
            return " ".join(run.group(1).split())
    return None


def _stretch_differs(answer: str, other: str, marks: frozenset[str]) -> bool:
    """Is `other` a copy of `answer` that lacks or replaces one stretch holding one of `marks` (the answer's
    value words and the question's words), with the same words before and after it?"""
    a, b = _words(answer), _words(other)
    if len(a) < _MIN_SHARED or len(b) < _MIN_SHARED:
        return False
    ops = [op for op in SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] == "insert":
        return False
    _, i1, i2, j1, j2 = ops[0]
    shared = len(a) - (i2 - i1)
    if shared < _MIN_SHARED or i1 < 2 or len(a) - i2 < 2 or not 0 < i2 - i1 <= _MAX_STRETCH:
        return False  # a copy cut short at either end is a shorter line, not a disagreement
    dropped = {normalize(w) for w in a[i1:i2]}
    kept = {normalize(w) for w in b[j1:j2]}
    at_stake = dropped & marks
    return bool(at_stake) and not at_stake <= kept


def disputed(question: Question, chosen: list[Scored], pool: LinePool) -> bool:
    """Does a document other than the answering one give its own, different answer (see the module's doc)?"""
    if not chosen:
        return False
    top = chosen[0]
    answering = {s.line.source_id for s in chosen}
    others = [line for line in pool.lines.values() if line.source_id not in answering and line.text.strip()]
    value_words = {normalize(w) for w in _words(top.value.text)} if top.value is not None else set()
    marks = frozenset(value_words | set(question.words))
    if any(_stretch_differs(top.line.text, line.text, marks) for line in others) or inserted(top.line, pool):
        return True
    return _names_differ(question, top.line, others) or _unconfirmed_by_its_page(question, top, pool)


def _alike(a: Value, b: Value) -> bool:
    """Values of one class; a bare four-digit number is read as a year or a number by its context alone."""
    classes = {kind_class(a.kind), kind_class(b.kind)}
    return len(classes) == 1 or classes == {"year", "number"}


def passage(line: Line, pool: LinePool) -> str:
    """The line between the lines read around it in its document: a short sentence ("He was Ohio Attorney General
    1884-1886.") is a copy of another document's only when its neighbours are copies too."""
    near = (pool.lines.get((line.source_id, line.page, line.line_no + step)) for step in (-1, 0, 1))
    return " ".join(n.text for n in near if n is not None)


def _swapped_copy(line: Line, other: Line, pool: LinePool, value_words: frozenset[str]) -> bool:
    """`other` is a copy of `line` with the stretch holding the value replaced: the lines alone, or, for lines
    too short to tell, the lines with their neighbours."""
    for mine, theirs in ((line.text, other.text), (passage(line, pool), passage(other, pool))):
        if len(set(_words(mine)) & set(_words(theirs))) >= _MIN_SHARED and _stretch_differs(mine, theirs, value_words):
            return True
    return False


def copy_sides(chosen: list[Scored], pool: LinePool, tolerance_pct: float) -> list[Scored]:
    """When the chosen lines give one value (none lists a disagreement with it already): a line giving
    that value and its copy in another document with another value in its place ("Built in 1920, it is one of
    ..." / "Built in 1875, it is one of ..."; a short line, with the lines around it), each valued as it reads
    there; [] when there is none."""
    if not chosen or chosen[0].value is None or chosen[0].value.kind == "entity":
        return []
    top = chosen[0]
    assert top.value is not None
    others = [s.value for s in chosen[1:] if s.value is not None]
    if any(value_differs(v, top.value, tolerance_pct) for v in others):
        return []  # the answer lists a disagreement already
    value_words = frozenset(normalize(w) for w in _words(top.value.text))
    for line in [line for line in pool.lines.values() if top.value.text in line.text]:
        for other in pool.lines.values():
            if other.source_id == line.source_id or not _swapped_copy(line, other, pool, value_words):
                continue
            theirs = [v for v in extract_values(other.text) if v.text not in line.text and _alike(v, top.value)]
            if theirs:
                mine = dataclasses.replace(top, line=line)
                return [mine, dataclasses.replace(top, line=other, value=theirs[0])]
    return []


def _opens_with(text: str, names: frozenset[str]) -> bool:
    """The line opens with the subject's name: its first words, function words aside, are the name's words."""
    head = [normalize(w) for w in _words(text) if w not in STOPWORDS][: len(names)]
    return bool(names) and set(head) == set(names)


def _unconfirmed_by_its_page(question: Question, top: Scored, pool: LinePool) -> bool:
    """The answer is a name, its document does not open with the subject's name, and another document that does
    (the subject's own page, read from its first line) never gives that name (see the module's doc)."""
    names = subject_names(question)
    if not names:
        return False
    if top.value is not None and top.value.kind == "entity":
        answer = {normalize(w) for w in _words(top.value.text)} - names
        given: Callable[[set[str]], bool] = answer.issubset  # the page gives the name: a line holds all its words
    elif top.value is None and asked_noun(question) is not None:
        # a "what <noun>" answer read from the whole line ("a renowned figure in cricket"): the page gives it
        # when a line of it shares a word the line adds to the question
        answer = {normalize(w) for w in _words(top.line.text) if w not in STOPWORDS} - set(question.words) - names
        given = lambda words: bool(answer & words)  # noqa: E731
    else:
        return False
    by_source: dict[str, list[Line]] = {}
    for line in pool.lines.values():
        by_source.setdefault(line.source_id, []).append(line)

    def own_page(source_id: str) -> bool:
        return any(
            line.page == 1 and line.line_no == 1 and _opens_with(line.text, names)
            for line in by_source.get(source_id, ())
        )

    if not answer or own_page(top.line.source_id):
        return False
    return any(
        source_id != top.line.source_id
        and own_page(source_id)
        and not any(given({normalize(w) for w in _words(line.text)}) for line in lines)
        for source_id, lines in by_source.items()
    )


def _names_differ(question: Question, top: Line, others: list[Line]) -> bool:
    noun = asked_noun(question)
    names = subject_names(question)
    if noun is None or not names_subject(top.text, names):
        return False
    mine = _name_before(top.text, noun)
    if mine is None:
        return False
    for line in others:
        if not names_subject(line.text, names):
            continue
        theirs = _name_before(line.text, noun)
        if theirs is not None and theirs.lower() != mine.lower():
            return True
    return False
