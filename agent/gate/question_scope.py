"""Which readable documents a question names: the one reading the reader (restrict its lines), preflight (no
"which license?" clarify when the question names one) and the gate's own document phrases share.

A question names a document by what the document calls itself (`by_name`), and that reading, the more precise,
comes first:

- a code: an acronym or a word with a figure ("BSD", "CC0", "GPLv3", "man-db"), matched against the chunks of a
  source's id ("GPL-3.txt": gpl, 3) and the acronyms of its title's capitalized runs ("Mozilla Public License":
  mpl);
- a run of capitalized words ending in a kind of document ("the Apache License", "an Apache-licensed work"), whose
  words and kind are all words of a source's id or title ("the Association budget" is the budget, not every
  source titled "... Association");

A capitalized word alone names nothing: "the Board" or "per Unit" is a defined term, not the name of
`board-minutes-2025-03.md` or `unit-schedule.md`, and the words alone cannot tell it from "for Bash".

A version the question gives ("version 3", "GPLv3") keeps, among the named sources, those whose id or title
carries it, when any does. Else the gate's reading holds (`question_documents.named_sources`: a source id written in
the question, or a document phrase whose head is a word of a title: "the FY2025 budget", "in the spring
newsletter"). Nothing here knows a corpus: only the question's words and the sources' ids and titles.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from quotebound.agent.gate.inputs import SourceInfo
from quotebound.agent.gate.question_documents import named_sources
from quotebound.agent.gate.question_words import DOCUMENT_TYPES
from quotebound.agent.gate.vocabulary import STOPWORDS, fold

_TOKEN: Final = re.compile(r"[A-Za-z0-9]+(?:[-.][A-Za-z0-9]+)*")
_CODE: Final = re.compile(r"^(?=.*[A-Z].*[A-Z]|.*[A-Za-z].*\d|.*[a-z]-[a-z])[A-Za-z0-9.-]+$")  # BSD, CC0, man-db
_VERSION_WORD: Final = re.compile(r"\b(?:version|v)\s*(\d+(?:\.\d+)*)\b", re.I)
_Group = tuple[list[str], bool]  # names a source must all go by; whether they are a code (`Names.codes`)
_CODE_VERSION: Final = re.compile(r"^([A-Za-z]{2,}?)v?(\d+(?:\.\d+)*)$")  # GPLv3: gpl, 3


def _kind(word: str) -> str | None:
    """The kind of document a word is, or is made from ("license", "licensed": license; "README": readme)."""
    w = fold(word)
    return next((k for k in (w, w.removesuffix("d"), w.removesuffix("s")) if k in DOCUMENT_TYPES), None)


def _chunks(text: str) -> list[str]:
    return [c for c in re.split(r"[^a-z0-9]+", fold(text)) if c]


class Names(NamedTuple):
    """The names a source goes by: `words` (`codes` and its title's words), `codes` (its id's chunks and runs of
    chunks, the acronyms of its title's capitalized runs) and the version figures its id or title carry."""

    words: frozenset[str]
    codes: frozenset[str]
    versions: frozenset[str]


@lru_cache(maxsize=4096)
def source_names(source: SourceInfo) -> Names:
    """How a question may name `source` (`Names`). A code is matched to its id and acronyms only: "the Danger Mouse
    TV series" names no page titled "... (1981 TV series)" among pages about the same show."""
    bare = re.sub(r"\.[A-Za-z]{1,5}$", "", source.source_id)
    chunks = _chunks(bare)
    codes = {"-".join(chunks[i:j]) for i in range(len(chunks)) for j in range(i + 1, len(chunks) + 1)}
    codes |= {"".join(chunks[i:j]) for i in range(len(chunks)) for j in range(i + 1, len(chunks) + 1)}
    for run in re.findall(r"(?:\b[A-Z][A-Za-z]*\s+){1,5}[A-Z][A-Za-z]*\b", source.title):
        words = run.split()
        for i in range(len(words) - 1):
            codes.add("".join(w[0] for w in words[i:]).casefold())  # GNU General Public License: ggpl, gpl
    versions = set(re.findall(r"\d+(?:\.\d+)*", f"{bare} {source.title}"))
    versions |= {v.split(".")[0] for v in versions}
    return Names(frozenset(codes | set(_chunks(source.title))), frozenset(codes), frozenset(versions))


def _code_names(word: str, versions: set[str]) -> list[_Group]:
    """A code's names ("CC0": cc0; "GPLv3": gplv3 and gpl, with version 3 added to `versions`)."""
    groups = [([fold(word)], True)] if _CODE.match(word) else []
    code = _CODE_VERSION.match(word)
    if code is not None and any(c.isupper() for c in code.group(1)):
        groups.append(([fold(code.group(1))], True))
        versions.add(code.group(2))
    return groups


def _question_names(question: str) -> tuple[list[_Group], set[str]]:
    """(the name groups the question gives, each a list of names a source must all go by; its versions)."""
    tokens = [m.group() for m in _TOKEN.finditer(question)]
    groups: list[_Group] = []
    versions = set(_VERSION_WORD.findall(question))
    run: list[str] = []  # the capitalized words just read
    for word in tokens:
        parts = word.split("-")
        kind = _kind(parts[-1])
        if kind is not None and (run or (len(parts) > 1 and parts[0][:1].isupper())):
            named = [fold(w) for w in [*run, *parts[:-1]] if fold(w) not in STOPWORDS]
            groups.append(([*named, kind] if named else [], False))  # "the Apache License": apache, license
            for part in parts[:-1]:
                groups += _code_names(part, versions)  # "BSD-licensed": bsd, whatever the title says
            run = []
            continue
        run = [*run, word] if word[:1].isupper() and kind is None else []
        if kind is None:
            groups += _code_names(word, versions)
    return [(g, code) for g, code in groups if g and not set(g) <= STOPWORDS], versions


def names_of(word: str, sources: Sequence[SourceInfo]) -> bool:
    """`word` is a name one of `sources` goes by ("FY2025" of a budget titled "... Fiscal Year 2025": fy, 2025)."""
    versions: set[str] = set()
    codes = [g[0] for g, _ in _code_names(word, versions)]
    for source in sources:
        names = source_names(source)
        if fold(word) in names.words or (any(c in names.codes for c in codes[1:]) and versions <= names.versions):
            return True
    return False


@lru_cache(maxsize=512)
def scoped_sources(question: str, sources: tuple[SourceInfo, ...]) -> frozenset[str]:
    """The readable sources the question names (empty: it names none, or names every one)."""
    every = frozenset(s.source_id for s in sources)
    named = by_name(question, sources) or named_sources(question, sources)
    return frozenset() if named >= every else named


def by_name(question: str, sources: tuple[SourceInfo, ...]) -> frozenset[str]:
    """The sources the question names by a code, a titled name or a bare proper name (module docstring): more
    precise than a kind of document's title words ("the BSD license" is BSD.txt, not every source titled
    "... License")."""
    groups, versions = _question_names(question)
    found: set[str] = set()
    for group, code in groups:
        hits = [s for s in sources if set(group) <= (source_names(s).codes if code else source_names(s).words)]
        versioned = [s for s in hits if versions & source_names(s).versions]
        hits = versioned or hits
        if len(hits) < len(sources):  # a name every source goes by tells none apart
            found |= {s.source_id for s in hits}
    return frozenset(found)


__all__ = ["Names", "by_name", "names_of", "scoped_sources", "source_names"]
