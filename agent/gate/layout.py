"""How the lines around a quote's locator frame it: the hard-wrapped lines of its paragraph, and the headings of the
table its row belongs to. `gather.py` reads them from the cited source and stores them on the `Verification`.

Hard wraps. A source may wrap one sentence over several lines ("No pet may be kept\\nfor breeding."). A locator
covers whole lines, so a quote of the second line ("for breeding") can be exact at its locator while its clause
starts on the line before. The paragraph's other lines (up to the nearest blank line, heading, list item or table
row, and at most `MAX_WRAP_LINES` each way) are what the clause rules read around the locator.

Tables. A table row holds figures whose meaning is in the table's headings: "| Discount rate | 4.00% | 1.90% |"
says nothing of the year or the unit until it is read under "| | September 30, | |" and "| | 2019 | 2018 |". The
headings are the rows above the Markdown separator and those below it up to the table's first data row (a row
labelled in its first cell with a figure other than a year in another cell), composed column by column: a heading
cell spans the empty cells to its right (a merged cell), a heading row with a single heading spans every column,
and a caption in the first column ("For the year ended December 31:") heads every column. Column j reads as its
captions then its headings top to bottom ("For the year ended December 31 2019"), so a date split over heading rows
reads whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MAX_WRAP_LINES = 10  # a paragraph's lines read each way from a locator: a long sentence wraps over a few
MAX_TABLE_LINES = 400  # how far above a row its table's headings are looked for
MAX_HEADING_ROWS = 8  # heading rows composed: real tables have one to four

_BLOCK_START = re.compile(r"\s*(?:$|#|[-*+>] |\||\d+[.)] )")  # as clauses.py: a line that starts a new block
_SEPARATOR = re.compile(r"\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_FIGURE = re.compile(r"\d")
_YEAR = re.compile(r"(?:19|20)\d\d")


def is_table_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def _stops_paragraph(line: str) -> bool:
    """A line a paragraph never continues into: blank, a heading or a table row."""
    stripped = line.strip()
    return not stripped or stripped.startswith(("#", "|"))


def wrapped_neighbours(lines: Sequence[str], first: int, last: int) -> tuple[str, str]:
    """(the lines of the paragraph before `lines[first]`, those after `lines[last]`), each joined with newlines:
    the hard-wrapped rest of the paragraph the locator's lines belong to (0-based, inclusive indexes)."""
    start = first
    while (
        start > 0
        and first - start < MAX_WRAP_LINES
        and not _BLOCK_START.match(lines[start])
        and not _stops_paragraph(lines[start - 1])
    ):
        start -= 1
    end = last
    while (
        end + 1 < len(lines)
        and end - last < MAX_WRAP_LINES
        and not _stops_paragraph(lines[last])
        and not _BLOCK_START.match(lines[end + 1])
    ):
        end += 1
    return "\n".join(lines[start:first]), "\n".join(lines[last + 1 : end + 1])


def cells(row: str) -> list[str]:
    """The cells of a Markdown table row, whitespace squashed (the outer pipes are not cells)."""
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [" ".join(c.split()) for c in inner.split("|")]


def _is_data_row(row: list[str]) -> bool:
    """A row labelled in its first cell with a figure other than a year in another cell: a table body's row."""
    if not row or not row[0]:
        return False
    return any(_FIGURE.search(c) and not _YEAR.fullmatch(c.strip(" *")) for c in row[1:])


def _spread(row: list[str], width: int) -> list[str]:
    """A heading row's cell for each column 1..width-1: a cell spans the empty cells to its right, and a row with
    one heading spans every column."""
    headed = [c for c in row[1:] if c]
    if len(headed) == 1:
        return [headed[0]] * (width - 1)
    out: list[str] = []
    current = ""
    for j in range(1, width):
        cell = row[j] if j < len(row) else ""
        current = cell or current
        out.append(current)
    return out


def table_headings(lines: Sequence[str], first: int) -> str:
    """The headings of the table `lines[first]` is a row of, composed per column and joined with " | " (see the
    module docstring), or "" when `lines[first]` is no table row or its table has no heading rows above it."""
    if not 0 <= first < len(lines) or not is_table_row(lines[first]):
        return ""
    start = first
    while start > 0 and first - start < MAX_TABLE_LINES and is_table_row(lines[start - 1]):
        start -= 1
    rows: list[list[str]] = []
    block = lines[start:first]
    separated = any(_SEPARATOR.match(line) for line in block)
    below = not separated  # no separator above the row: every row is judged as a possible data row
    for line in block:
        if _SEPARATOR.match(line):
            below = True
            continue
        row = cells(line)
        if below and _is_data_row(row):  # the rows above a Markdown separator are headings, whatever they hold
            break
        rows.append(row)
        if len(rows) == MAX_HEADING_ROWS:
            break
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    captions = " ".join(r[0].rstrip(":,") for r in rows if r and r[0])
    spread = [_spread(r, width) for r in rows]
    columns = []
    for j in range(width - 1):
        parts = [captions] if captions else []
        for r in spread:
            cell = r[j].rstrip(":")
            if cell and (not parts or parts[-1] != cell):
                parts.append(cell)
        columns.append(" ".join(parts))
    return " | ".join(c for c in columns if c)
