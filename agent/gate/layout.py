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
reads whole. A table split into blocks by rows labelled with a year alone ("| 2019 | | |" ... "| 2018 | | |") reads a
row under the label of its own block, not the first one; a dated year labels a block too ("| December 31, 2018 | |").

Blocks and sections. A quote's subject may be named in another line of its own context: the heading of its section,
the paragraph it belongs to, its table. `frames` tells, for each line of a page, the block it belongs to (a
paragraph, a list item, a table, a heading: the run of lines up to the next blank line or the next line of another
kind) and the section (the nearest heading above it). A heading is a Markdown heading ("# Pets"), or a line standing
alone between blank lines that is short and ends in no sentence mark ("Accounting policy for dividends").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

MAX_WRAP_LINES = 10  # a paragraph's lines read each way from a locator: a long sentence wraps over a few
MAX_TABLE_LINES = 400  # how far above a row its table's headings are looked for
MAX_HEADING_ROWS = 8  # heading rows composed: real tables have one to four

_BLOCK_START = re.compile(r"\s*(?:$|#|[-*+>] |\||\d+[.)] )")  # as clauses.py: a line that starts a new block
_SEPARATOR = re.compile(r"\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_YEAR = re.compile(r"(?:19|20)\d\d")
# Month names and their abbreviations (a general calendar category), for a period label's date.
_MONTH = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?"
)
_LIST_ITEM = re.compile(r"\s*(?:[-*+>] |\d+[.)] )")
_SENTENCE_MARK = re.compile(r"[.!?:;,]\s*$")
MAX_HEADING_WORDS = 10  # a line standing alone longer than this is a one-line paragraph, not a heading


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
    """A row labelled in its first cell with a figure other than a year in another cell: a table body's row. A cell
    whose figures are all years ("2019", "2019 over 2018") heads a column."""
    if not row or not row[0]:
        return False
    return any(any(not _YEAR.fullmatch(n) for n in _NUMBER.findall(c)) for c in row[1:])


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
    """The headings of the table `lines[first]` is a row of, composed per column and joined with " | ", one entry
    per column after the first (empty for a column nothing heads, so the entries line up with the row's cells; see
    the module docstring), or "" when `lines[first]` is no table row or its table has no heading rows above it."""
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
    block_label = _block_label(lines, start + len(rows), first)
    if block_label:  # the row is in a later block: its label, not the first block's, says its period
        rows = [r for r in rows if not _labels_block(r)] + [[block_label]]
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    captions = " ".join([r[0].rstrip(":,") for r in rows if r and r[0]] + [_caption_scale(lines, start, lines[first])])
    captions = captions.strip()
    spread = [_spread(r, width) for r in rows]
    columns = []
    for j in range(width - 1):
        parts = [captions] if captions else []
        for r in spread:
            cell = r[j].rstrip(":")
            if cell and (not parts or parts[-1] != cell):
                parts.append(cell)
        columns.append(" ".join(parts))
    return " | ".join(columns) if any(columns) else ""


# A scale a caption declares for its table ("(in millions except per share data):"), and the rows it excepts.
_CAPTION_SCALE = re.compile(r"\bin\s+(thousands|millions|billions)\b(?:[,\s]+except\s+([^):;]+))?", re.I)


def _caption_scale(lines: Sequence[str], start: int, row: str) -> str:
    """The scale the caption of the table starting at `lines[start]` declares ("in millions"), when that caption (the
    line just above the table, or above one blank line, ending in a colon) declares one and does not except `row`
    from it (a row whose label has a word of "except per share data" is counted per share, not in millions)."""
    above = start - 1
    if above >= 0 and not lines[above].strip():
        above -= 1
    caption = lines[above].strip() if above >= 0 else ""
    m = _CAPTION_SCALE.search(caption) if caption.endswith(":") else None
    if m is None:
        return ""
    label = {w.lower() for w in re.findall(r"[^\W\d_]{3,}", cells(row)[0] if cells(row) else "")}
    excepted = {w.lower() for w in re.findall(r"[^\W\d_]{3,}", m[2] or "")}
    return "" if label & excepted else f"in {m[1].lower()}"


# A period written alone: a year, or a date of a year ("December 31, 2018", "31 Dec. 2018"), "as of" one or not.
_PERIOD_LABEL = re.compile(
    rf"(?:(?:as\s+of|as\s+at|at)\s+)?(?:(?:{_MONTH})\.?\s+\d{{1,2}},?\s+|\d{{1,2}}\s+(?:{_MONTH})\.?,?\s+)?"
    r"(?:FY\s*)?(?:19|20)\d\d",
    re.I,
)


def _labels_block(row: list[str]) -> bool:
    """A row that labels the block of rows under it with a period alone in its first cell (a year or a dated year)
    and no other cell filled ("| 2018 |  |  |", "| December 31, 2018 |  |  |"): the period of the rows down to the
    next such row."""
    return bool(row) and _PERIOD_LABEL.fullmatch(row[0].strip()) is not None and not any(row[1:])


def _block_label(lines: Sequence[str], start: int, first: int) -> str:
    """The label of the block row `lines[first]` is in, when a block-labelling row stands between the table's
    headings (from `start` on) and it; "" when none does."""
    for i in range(first - 1, start - 1, -1):
        if is_table_row(lines[i]) and not _SEPARATOR.match(lines[i]) and _labels_block(cells(lines[i])):
            return cells(lines[i])[0]
    return ""


class Frame(NamedTuple):
    """Where a line stands on its page (0-based line indexes; -1: no heading above)."""

    block: int  # the first line of its block (paragraph, list item, table, heading)
    section: int  # the nearest heading at or above it
    heading: bool  # the line is a heading


def _heading(lines: Sequence[str], i: int) -> bool:
    line = lines[i].strip()
    if line.startswith("#"):
        return True
    if not line or is_table_row(line) or _LIST_ITEM.match(lines[i]) or _SENTENCE_MARK.search(line):
        return False
    alone = (i == 0 or not lines[i - 1].strip()) and (i + 1 == len(lines) or not lines[i + 1].strip())
    return alone and len(line.split()) <= MAX_HEADING_WORDS and line[0].isalnum()


def frames(lines: Sequence[str]) -> list[Frame]:
    """The `Frame` of each line of a page (see the module docstring)."""
    out: list[Frame] = []
    block, section = 0, -1
    previous = ""  # the kind of the line before: "", "heading", "table", "text"
    for i, raw in enumerate(lines):
        if not raw.strip():
            out.append(Frame(i, section, False))
            previous = ""
            continue
        if _heading(lines, i):
            block, section, previous = i, i, "heading"
            out.append(Frame(i, i, True))
            continue
        kind = "table" if is_table_row(raw) else "text"
        if kind != previous or (kind == "text" and _LIST_ITEM.match(raw)):
            block = i
        previous = kind
        out.append(Frame(block, section, False))
    return out


# A heading that counts its column in percent: a "%" standing as a word, or the words "percent", "per cent",
# "percentage" ("| | % | % |", "% change", "Percentage of revenue").
_PERCENT_HEADING = re.compile(r"(?<![\w.])%(?!\w)|\bper\s?cent(?:age)?\b", re.I)
_BARE_CELL = re.compile(r"\(?[-+−–]?\d[\d,]*(?:\.\d+)?\)?")


def column_unit_cells(row: str, headings: str) -> str:
    """The cells of table row `row` written with the unit their column heading (or the row's own label) gives
    them, joined with spaces: under a units row "| | % | % |" the row "| Discount rate | 2.9 | 3.8 |" reads
    "2.9% 3.8%". `headings` is `table_headings` of the row (one entry per column after the first, joined with
    " | "). Only a cell that is one bare figure is rewritten; "" when no cell of the row is counted in percent.
    The figures stay the quote's own: only their unit, which the table states once for the column, is added."""
    if not is_table_row(row):
        return ""
    row_cells = cells(row)
    columns = headings.split(" | ") if headings else []
    labelled = bool(row_cells) and bool(_PERCENT_HEADING.search(row_cells[0]))
    out: list[str] = []
    for j, cell in enumerate(row_cells[1:]):
        heading = columns[j] if j < len(columns) else ""
        if (labelled or _PERCENT_HEADING.search(heading)) and _BARE_CELL.fullmatch(cell):
            out.append(f"({cell.strip('()')}%)" if cell.startswith("(") and cell.endswith(")") else f"{cell}%")
    return " ".join(out)


_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
# A day and a month with no year after them ("At 1 January", "As at December 31"): a date the column completes.
_DAY_MONTH = re.compile(rf"\b(?:(\d{{1,2}})\s+({_MONTH})|({_MONTH})\s+(\d{{1,2}}))\b(?!,?\s*\d)", re.I)
_MONTH_WORD = re.compile(rf"\b{_MONTH}\b", re.I)


def row_label_dates(row: str, headings: str) -> str:
    """The dates a table row's label and its columns' years write together, one per column, joined with "; ": a
    movement table's "| At 1 January | 65.6 | 64.8 |" under the years "2019" and "2018" reads "1 January 2019; 1
    January 2018", as a date split over heading rows reads whole. Only a label with a day and a month and no year,
    under a column headed by one year and no month; "" otherwise. The figures stay the quote's own."""
    if not is_table_row(row) or not headings:
        return ""
    label = cells(row)[0] if cells(row) else ""
    m = _DAY_MONTH.search(label)
    if m is None:
        return ""
    out: list[str] = []
    for heading in headings.split(" | "):
        years = _YEAR.findall(heading)
        if len(set(years)) != 1 or _MONTH_WORD.search(heading) or re.search(r"\d", _YEAR.sub("", heading)):
            continue
        year = years[0]
        out.append(f"{m[1]} {m[2]} {year}" if m[1] else f"{m[3]} {m[4]}, {year}")
    return "; ".join(dict.fromkeys(out))
