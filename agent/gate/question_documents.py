"""The documents a question names: "According to the Bylaws, ...", "What does the FY2025 budget say ...", "In
budget-2025.md, ...", "According to the Jacob Zook House article, ...".

A question names a document in a phrase (`document_phrases`), and the phrase names readable sources two ways:

- by kind and title (`named_sources`): the phrase's head noun is a word of a source's title or id ("the
  Declaration", "the board minutes"), and among those sources the ones matching most of the phrase's words win;
  when none of those matches a word of the phrase besides its head, the sources its other words name do ("the BSD
  license" is BSD.txt, not every source titled "... License"), and a kind word alone that several sources share
  ("under the license") names none of them;
  or, when the head only says what kind of document it is ("article", "report", "summary"), the sources whose title
  or id holds every name the phrase gives ("the Jacob Zook House article");
- by name (`phrase_names`): the proper names a phrase gives ("Jacob Zook House", "Fort Kent", and a possessor
  written without a determiner, "intu's", "VMware's"). A document the answer quotes is that document only if it
  writes those names somewhere (its title, its id or its text), which the answerhood rule checks when no title
  names a source.

Only readable sources are ever named, so a finding built from them names nothing the caller cannot see.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.inputs import SourceInfo
from quotebound.agent.gate.question_words import DOCUMENT_TYPES, SAY_VERBS
from quotebound.agent.gate.vocabulary import STOPWORDS, WORD, fold, stem

_NAME_CODE: Final = r"(?:[A-Z][A-Z0-9]+|[A-Za-z]*\d\w*)(?:-\w+)?"  # an acronym or a word with a figure: BSD, FY2025
# How a question names the document it asks about. `True`: the phrase names a document by any title word ("According
# to the Board, ..." may mean the minutes); `False`: only when its head noun is a kind of document ("In an
# emergency, ..." or "in my unit?" names nothing; "Under the Declaration, ..." and "in the newsletter?" do). A
# source's id written in the question names it wherever it stands (`named_sources`).
_DOC_CUES: Final[tuple[tuple[re.Pattern[str], bool], ...]] = (
    (re.compile(r"\baccording\s+to\s+(?P<x>[^,;:?]+)", re.I), True),
    (re.compile(r"^\s*(?:in|under|per|from|within)\s+(?P<x>[^,;:?]+),", re.I), False),
    (re.compile(rf"\b(?:does|do|did)\s+(?P<x>[^?]+?)\s+{SAY_VERBS}\b", re.I), False),
    (re.compile(r"\b(?:in|from|under|per)\s+(?P<x>(?:the\s+)?[\w'’.-]+(?:\s+[\w'’.-]+){0,3}?)\s*[?.]?\s*$", re.I),
     False),
    # "the BSD license", "the 2025 minutes", "the FY2025 Annual Budget": an acronym or a figure, then a kind of
    # document within two words, anywhere in the question
    (re.compile(rf"(?P<x>\b{_NAME_CODE}(?:\s+[A-Za-z]+)?\s+(?P<head>[A-Za-z]+))\b"), False),
    (re.compile(rf"(?P<x>\b{_NAME_CODE}\s+(?P<head>[A-Za-z]+))\b"), False),
)  # fmt: skip
_DOCUMENT_STEMS: Final = frozenset(stem(w) for w in DOCUMENT_TYPES)
_DETERMINERS: Final = frozenset("the a an this that these those its their our his her your my".split())
_POSSESSOR: Final = re.compile(r"([^\W\d_][\w&.-]*)['’]s?\b")


def _overlapping(cue: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """Every match of `cue` starting at each word (matches may overlap: "BSD license require" and "BSD license")."""
    starts = [m.start() for m in re.finditer(r"\b\w", text)]
    return [m for m in (cue.match(text, at) for at in starts) if m is not None]


@lru_cache(maxsize=512)
def document_phrases(text: str) -> tuple[str, ...]:
    """Phrases by which the question names a document (see `_DOC_CUES`)."""
    phrases: list[str] = []
    for cue, any_head in _DOC_CUES:
        for m in cue.finditer(text) if "head" not in cue.groupindex else _overlapping(cue, text):
            phrase = m["x"].strip()
            words = WORD.findall(phrase)  # letters only: the head is the last word, a trailing year aside
            if not words or not (any_head or fold(words[-1]) in DOCUMENT_TYPES):
                continue
            phrases.append(phrase)
    return tuple(dict.fromkeys(phrases))


def phrase_names(phrase: str) -> frozenset[str]:
    """The stems of the proper names a document phrase gives: its capitalized words that are not kinds of document
    ("the Jacob Zook House article": jacob, zook, house), and a possessor written without a determiner before it
    ("intu's audit committee report": intu; not "the company's report")."""
    found: set[str] = set()
    for m in WORD.finditer(phrase):
        word = m.group()
        bare = re.sub(r"['’]s?$", "", word)
        if bare[:1].isupper() and stem(bare) not in _DOCUMENT_STEMS and fold(bare) not in STOPWORDS | _DETERMINERS:
            found.add(stem(bare))
    for m in _POSSESSOR.finditer(phrase):
        before = WORD.findall(phrase[: m.start()])
        if not before or fold(before[-1]) not in _DETERMINERS:
            found.add(stem(m.group(1)))
    return frozenset(found)


def _split_words(text: str) -> list[str]:
    """Words of a title or an id, split at punctuation and at letter/digit boundaries ("FY2025" -> fy, 2025)."""
    return [w.casefold() for w in re.findall(r"[A-Za-z]+|\d+", text)]


@lru_cache(maxsize=8192)
def _source_names(source: SourceInfo) -> tuple[tuple[str, ...], frozenset[str], frozenset[str]]:
    """How a question may name `source`: its id as written (whole, and without its extension when that is not a
    plain word: "budget-2025", "tatqa-53474060-..."; not "bylaws"), and the stems of its id's and title's words."""
    full = fold(source.source_id)
    bare = full.rsplit(".", 1)[0]
    ids = (full, bare) if re.search(r"[^a-z]", bare) else (full,)
    id_words = frozenset(stem(w) for w in _split_words(source.source_id))
    return ids, id_words, frozenset(stem(w) for w in _split_words(source.title))


def _written(lowered: str, name: str) -> bool:
    """`lowered` writes `name` as a whole token (not inside a longer id or word)."""
    at = lowered.find(name)
    while at >= 0:
        before = lowered[at - 1] if at else " "
        after = lowered[at + len(name)] if at + len(name) < len(lowered) else " "
        if not (before.isalnum() or before in "-_") and not (after.isalnum() or after in "-_"):
            return True
        at = lowered.find(name, at + 1)
    return False


def _by_title(phrase: str, sources: Sequence[SourceInfo]) -> set[str]:
    """The sources `phrase` names by its head noun and title words, or by its names when its head only says what
    kind of document it is (module docstring)."""
    words = [stem(w) for w in _split_words(phrase) if w not in STOPWORDS and w != "the"]
    head = next((w for w in reversed(words) if w.isalpha()), None)  # "the Annual Report 2019": report
    if head is None:
        return set()
    best, chosen = 0, set()
    for source in sources:
        _, id_words, title_words = _source_names(source)
        if head not in id_words and head not in title_words:
            continue  # the phrase's head word names a kind of document this one is not
        score = sum(2 if w in id_words else 1 if w in title_words else 0 for w in words)
        if score > best:
            best, chosen = score, {source.source_id}
        elif score == best:
            chosen.add(source.source_id)
    distinct = _distinctive(words, head, chosen, sources)
    if distinct:
        return distinct
    if len(chosen) > 1 and head in _DOCUMENT_STEMS and all(w == head for w in words):
        return set()  # "under the license" alone: the kind word tells none of several licenses apart
    names = phrase_names(phrase)
    if chosen or head not in _DOCUMENT_STEMS or not names:
        return chosen
    return {s.source_id for s in sources if names <= _source_names(s)[1] | _source_names(s)[2]}


def _distinctive(words: Sequence[str], head: str, chosen: set[str], sources: Sequence[SourceInfo]) -> set[str]:
    """When the sources the head word picked match none of the phrase's other words ("the BSD license": every source
    titled "... License", none of them BSD), the sources those words name instead: the kind word is shared by every
    document of that kind, the distinctive words tell which one ("BSD.txt", whose title never says "license").
    Empty when the picked sources match a distinctive word, or no source does."""
    distinct = [w for w in words if w != head and w.isalpha()]  # a figure alone ("2019") tells no kind apart
    if not distinct:
        return set()
    by_id = {s.source_id: _source_names(s) for s in sources}
    if any(w in by_id[sid][1] | by_id[sid][2] for sid in chosen for w in distinct):
        return set()
    scores = {
        sid: sum(2 if w in ids else 1 if w in title else 0 for w in distinct) for sid, (_, ids, title) in by_id.items()
    }
    best = max(scores.values(), default=0)
    return {sid for sid, score in scores.items() if best and score == best}


@lru_cache(maxsize=512)
def named_sources(question: str, sources: tuple[SourceInfo, ...]) -> frozenset[str]:
    """The readable sources the question names, by id or by title words (empty: it names none).

    A phrase names the sources whose title or id has the phrase's head word; among them, those matching most of
    the phrase's words win, a word of the id counting twice a word of the title only ("the Declaration" is the
    declaration itself, not the exhibit titled "... to the Declaration")."""
    lowered = fold(question)
    by_id = frozenset(s.source_id for s in sources if any(_written(lowered, name) for name in _source_names(s)[0]))
    if by_id:
        return by_id
    named: set[str] = set()
    for phrase in document_phrases(question):
        named |= _by_title(phrase, sources)
    return frozenset(named)


def document_titles(ids: Sequence[str], sources: Sequence[SourceInfo]) -> list[str]:
    """The titles of `ids` (the id itself when a source has no title)."""
    titles = {s.source_id: (s.title or s.source_id) for s in sources}
    return [titles.get(i, i) for i in ids]


__all__ = ["document_phrases", "document_titles", "named_sources", "phrase_names"]
