"""Clauses of the text at a quote's locator, for the rules that judge where a quote is cut (`rules/quote_size.py`,
`rules/quote_clause.py`).

A clause ends at a sentence or clause mark (. ; : ! ? followed by a space or the end), at a table cell's "|", and
where a line starts a new block (a blank line, a heading, a list item, a table row); a hard-wrapped line simply
continues its clause. Whitespace is collapsed first, so a quote that differs from the text only in its line breaks
is found the same way `gather.py` accepts it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

_CLAUSE_MARK = re.compile(r"[.;:!?][\"'”’)\]]*(?= |$)|\|")
_BLOCK_START = re.compile(r"\s*(?:$|#|[-*+>] |\||\d+[.)] )")


class Cut(NamedTuple):
    """One occurrence of a quote in the collapsed text: the quote's [start, end) and its clauses' [start, end)."""

    text: str  # the collapsed text at the locator
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


def _normalize(context: str) -> tuple[str, set[int]]:
    parts: list[str] = []
    breaks: set[int] = set()
    at = 0
    for line in context.split("\n"):
        words = line.split()
        if _BLOCK_START.match(line):
            breaks.add(at + 1 if parts else 0)
        if not words:
            continue
        if parts:
            at += 1
        parts.append(" ".join(words))
        at += len(parts[-1])
    return " ".join(parts), breaks


def cuts(quote: str, context: str) -> Iterator[Cut]:
    """Every occurrence of `quote` in `context` (whitespace collapsed in both), with the clauses it is cut from."""
    text, breaks = _normalize(context)
    needle = " ".join(quote.split())
    if not needle:
        return
    bounds = sorted({m.end() for m in _CLAUSE_MARK.finditer(text)} | breaks | {0, len(text)})
    at = text.find(needle)
    while at != -1:
        end = at + len(needle)
        yield Cut(text, at, end, max(b for b in bounds if b <= at), min(b for b in bounds if b >= end))
        at = text.find(needle, at + 1)
