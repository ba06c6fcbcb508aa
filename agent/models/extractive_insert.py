"""A sentence one copy of a text adds: the answering sentence stands between two sentences that another copy of
the same text has one right after the other, and that copy never says it.

Two documents most of whose sentences are the same, verbatim, are copies of one text; where one of them carries a
sentence the other lacks at the same place, the copies disagree exactly there (an edit, a later insertion), and
the other copy does not vouch for it. The extractive model answering from such a sentence would state one side
silently, so it does not (`extractive_sides.disputed`). A copy that merely ends or starts elsewhere (an excerpt cut
at another place) is no disagreement: the other copy must hold both neighbours, adjacent, with the sentence missing
between them.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Final

from quotebound.agent.models.extractive_pool import Line, LinePool

_WORD: Final = re.compile(r"\w+")
_MIN_WORDS: Final = 4  # a neighbour shorter than this ("History [edit]") matches too much to place a copy
_SAME: Final = 0.6  # word-sequence similarity of two sentences read as one sentence copied (lightly edited)
_VERBATIM: Final = 0.9  # ... and of a sentence copied as it is
# Two documents are copies of one text when most sentences of the shorter (as read) are in the other verbatim:
# a document that merely quotes a passage of another (a budget citing its declaration) adds its own lines freely.
_COPY_SHARE: Final = 0.5
_COPY_MIN: Final = 2


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _same(a: list[str], b: list[str]) -> bool:
    if len(a) < _MIN_WORDS or len(b) < _MIN_WORDS:
        return False
    return _ratio(a, b) >= _SAME


def _copies(mine: list[list[str]], theirs: list[list[str]]) -> bool:
    """Most sentences of the shorter of two documents (at least `_COPY_MIN`) are verbatim in the other."""
    short, long = sorted((mine, theirs), key=len)
    shared = sum(any(_ratio(a, b) >= _VERBATIM for b in long) for a in short if len(a) >= _MIN_WORDS)
    return shared >= _COPY_MIN and shared >= _COPY_SHARE * len(short)


def _ratio(a: list[str], b: list[str]) -> float:
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def _by_source(pool: LinePool) -> dict[str, list[Line]]:
    found: dict[str, list[Line]] = {}
    for key in sorted(pool.lines):
        line = pool.lines[key]
        if line.text.strip():
            found.setdefault(line.source_id, []).append(line)
    return found


def inserted(line: Line, pool: LinePool) -> bool:
    """Is `line` missing from a copy of its document that holds its previous and next sentences one after the
    other?"""
    here = pool.lines
    before = here.get((line.source_id, line.page, line.line_no - 1))
    after = here.get((line.source_id, line.page, max(line.line_no, line.line_end) + 1))
    if before is None or after is None:
        return False  # without both neighbours read, a copy cut at this sentence cannot be told from an edit
    prev, this, nxt = _words(before.text), _words(line.text), _words(after.text)
    sources = _by_source(pool)
    mine = [_words(other.text) for other in sources.get(line.source_id, [])]
    for source_id, lines in sources.items():
        if source_id == line.source_id:
            continue
        texts = [_words(other.text) for other in lines]
        if any(_same(this, t) for t in texts):
            continue  # the copy says it too
        for first, second, a, b in zip(lines, lines[1:], texts, texts[1:], strict=False):
            adjacent = first.page == second.page and second.line_no == max(first.line_no, first.line_end) + 1
            if adjacent and _same(prev, a) and _same(nxt, b) and _copies(mine, texts):
                return True
    return False
