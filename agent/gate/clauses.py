"""Clauses of the text at a quote's locator, for the rules that judge where a quote is cut (`rules/quote_size.py`,
`rules/quote_clause.py`).

A clause ends at a sentence or clause mark (. ; : ! ? followed by a space or the end), at a table cell's "|", and
where a line starts a new block (a blank line, a heading, a list item, a table row, the line after a heading or a
row); a hard-wrapped line simply continues its clause. Whitespace is collapsed first, so a quote that differs from
the text only in its line breaks is found the same way `gather.py` accepts it.

The quote is looked for in the text at its locator only, but its clauses are read across the paragraph's
hard-wrapped lines around the locator (`Verification.before` / `.after`, see `layout.py`): a sentence wrapped over
two lines is one clause, whichever of its lines the locator names.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

_CLAUSE_MARK = re.compile(r"[.;:!?][\"'”’)\]]*(?= |$)|\|")
_BLOCK_START = re.compile(r"\s*(?:$|#|[-*+>] |\||\d+[.)] )")
_ONE_LINE_BLOCK = re.compile(r"\s*[#|]")  # a heading or a table row: the line after it starts a new block


class Cut(NamedTuple):
    """One occurrence of a quote in the collapsed text: the quote's [start, end) and its clauses' [start, end)."""

    text: str  # the collapsed text around the locator
    start: int
    end: int
    clause_start: int  # where the clause the quote starts in begins
    clause_end: int  # where the clause the quote ends in ends

    @property
    def clauses(self) -> str:
        return self.text[self.clause_start : self.clause_end]

    def left_out(self, token: re.Pattern[str]) -> list[str]:
        """The `token` matches of those clauses the quote does not hold whole (a token it cuts in two included)."""
        return [
            m.group()
            for m in token.finditer(self.text, self.clause_start, self.clause_end)
            if not (self.start <= m.start() and m.end() <= self.end)
        ]


def _normalize(lines: list[str]) -> tuple[str, list[int], set[int]]:
    """(the lines' words joined by single spaces, where each line starts in that text, the block starts)."""
    parts: list[str] = []
    starts: list[int] = []
    breaks: set[int] = set()
    at = 0
    previous = ""
    for line in lines:
        words = line.split()
        starts.append(at + 1 if parts and words else at)
        if _BLOCK_START.match(line) or _ONE_LINE_BLOCK.match(previous):
            breaks.add(at + 1 if parts else 0)
        previous = line
        if not words:
            continue
        if parts:
            at += 1
        parts.append(" ".join(words))
        at += len(parts[-1])
    return " ".join(parts), starts, breaks


class _Layout(NamedTuple):
    text: str  # the collapsed text of the paragraph around the locator
    lo: int  # where the locator's own text starts and ends in it
    hi: int
    bounds: tuple[int, ...]  # where its clauses start and end, sorted


@lru_cache(maxsize=1024)  # the size and clause rules read the same locators, and a repair reads them again
def _layout(context: str, before: str, after: str) -> _Layout:
    head = before.split("\n") if before else []
    tail = after.split("\n") if after else []
    lines = [*head, *context.split("\n"), *tail]
    text, starts, breaks = _normalize(lines)
    lo = starts[len(head)] if head else 0
    hi = starts[len(lines) - len(tail)] if tail else len(text)
    bounds = tuple(sorted({m.end() for m in _CLAUSE_MARK.finditer(text)} | breaks | {0, len(text)}))
    return _Layout(text, lo, hi, bounds)


def cuts(quote: str, context: str, before: str = "", after: str = "") -> Iterator[Cut]:
    """Every occurrence of `quote` in `context` (whitespace collapsed in both), with the clauses it is cut from,
    read on across the paragraph lines `before` and `after` the locator."""
    needle = " ".join(quote.split())
    if not needle:
        return
    text, lo, hi, bounds = _layout(context, before, after)
    at = text.find(needle, lo)
    while at != -1 and at + len(needle) <= hi:
        end = at + len(needle)
        yield Cut(text, at, end, bounds[bisect_right(bounds, at) - 1], bounds[bisect_left(bounds, end)])
        at = text.find(needle, at + 1)
