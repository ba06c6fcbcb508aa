"""Reading a table for the extractive model: a question that names a row ("modules sales") and the years of its
columns ("from 2018 to 2019", "in 2019", "for 2018 and 2019") is answered from the row whose label names what it
asks and the columns whose headings name those years.

- a value in one year ("What was the issued DSU in 2019?") is the cell itself, quoted with its row and headings;
- a change between two years is the later cell minus the earlier one, a percentage change that difference over the
  earlier cell times one hundred (or the cell of a column headed with both years when it holds a percentage), and
  an average the mean of the cells of the years asked; each is computed with `calc`, never typed.

A row is chosen only when its label's words are the question's (most of them, and more than any other row's); a
column only when its headings name exactly the year wanted. Anything less certain (two rows alike, a year no
heading names, an empty or dashed cell) gives nothing, and the model answers from lines or abstains. Headings are
the table rows above the row that hold only words and years, each cell spanning the empty cells to its right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from quotebound.agent.core.contracts import CalcDerivation, Fact, Support
from quotebound.agent.models.extractive_calc import ToolBudget, calc
from quotebound.agent.models.extractive_line_text import is_table_row, table_cells
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_table_ask import SUM_WORDS, YEAR, may_ask, table_ask
from quotebound.agent.models.extractive_table_calc import grouped, row_calc
from quotebound.agent.models.extractive_table_row import (
    FIGURE,
    HEADING_REACH,
    asked_words,
    label_words,
    table_row,
)
from quotebound.agent.models.extractive_table_row import shown as shown_cell
from quotebound.agent.models.extractive_words import tokens

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DATE: Final = re.compile(
    rf"\b{_MONTH}\s+\d{{1,2}}(?!\d)(?:st|nd|rd|th)?,?|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?={_MONTH}\b)"
)


@dataclass(frozen=True)
class Column:
    heading: str
    years: frozenset[str]


def _headings(pool: LinePool, line: Line) -> list[Line]:
    """The heading rows above a table row: the table rows holding only words and years, top to bottom."""
    found: list[Line] = []
    for n in range(line.line_no - 1, max(0, line.line_no - HEADING_REACH), -1):
        above = pool.lines.get((line.source_id, line.page, n))
        if above is None or not is_table_row(above.text):
            break
        cells = table_cells(above.text)
        if all(set(c) <= set("-: ") for c in cells):
            continue  # the Markdown separator
        if all(_heading_cell(c) for c in cells[1:]):
            found.append(above)
    return found[::-1]


def _heading_cell(cell: str) -> bool:
    """A cell of a heading row: words, years and dates ("December 27, 2019", "31 March 2019", "2019 over 2018"),
    no other figure."""
    return not re.search(r"\d", YEAR.sub("", _DATE.sub("", cell)))


def _columns(pool: LinePool, line: Line, width: int) -> list[Column]:
    """Column j's headings (a cell spans the empty cells to its right) and the years they name."""
    parts: list[list[str]] = [[] for _ in range(width)]
    for heading in _headings(pool, line):
        cells = table_cells(heading.text)
        if len(cells) != width:
            continue
        current = ""
        for j in range(1, width):
            current = cells[j] or current
            if current:
                parts[j].append(current)
    return [Column(" ".join(p), frozenset(YEAR.findall(" ".join(p)))) for p in parts]


def _number(cell: str) -> str | None:
    """A cell's figure as calc reads it ("$ 1,460,116" -> "1,460,116", "(25,733)" -> "-25,733"), None for a label,
    a dash or an empty cell."""
    text = cell.replace("**", "").replace(" ", "").strip()
    if not text or not FIGURE.match(text) or text.endswith("%"):
        return None
    negative = text.startswith("(") or text.startswith("-") or "$(" in text
    digits = re.sub(r"[^\d.,]", "", text)
    return f"-{digits}" if negative else digits


def _framing_words(pool: LinePool, line: Line) -> set[str]:
    """The words that frame a table row: its label, the rows above it in its table that hold no figure but years
    (headings, section labels), and the line just above the table (its caption)."""
    found = label_words(table_cells(line.text))
    for n in range(line.line_no - 1, max(0, line.line_no - HEADING_REACH), -1):
        above = pool.lines.get((line.source_id, line.page, n))
        if above is None:
            break
        if not is_table_row(above.text):
            if above.text.strip():
                found |= tokens(above.text)  # the caption
                break
            continue
        if all(_heading_cell(c) for c in table_cells(above.text)):
            found |= tokens(above.text)
    return found


def _cell(row: list[str], columns: list[Column], year: str, shown: bool = False) -> tuple[int, str] | None:
    """The one column headed by exactly `year` that holds a figure in the row: as calc reads it, or with `shown`
    as the table writes it (a percentage too)."""
    found = [
        (j, n)
        for j, col in enumerate(columns)
        if j < len(row) and col.years == {year} and (n := shown_cell(row[j]) if shown else _number(row[j])) is not None
    ]
    values = {n for _, n in found}
    return found[0] if found and len(values) == 1 else None


def _fetch_headings(pool: LinePool, line: Line, budget: ToolBudget) -> None:
    """Read the lines above a row whose headings were not retrieved (one `quote_fetch`)."""
    if line.line_no <= 1 or budget.left <= 1:
        return
    first = max(1, line.line_no - HEADING_REACH)
    locator = f"p.{line.page} L{first}-L{line.line_no - 1}"
    result = budget.call("quote_fetch", {"source_id": line.source_id, "locator": locator})
    if isinstance(result, dict):
        for offset, text in enumerate(str(result.get("quote", "")).split("\n")):
            pool.add(Line(line.source_id, line.page, first + offset, text))


def _support(lines: list[Line]) -> list[Support]:
    return [Support(source_id=x.source_id, locator=x.locator, quote=x.text) for x in lines]


def _label(row: list[str]) -> str:
    return row[0].replace("**", "").strip(" :")


def _year_columns(row: list[str], columns: list[Column]) -> tuple[str, ...]:
    """Every year the row has a figure for, each under exactly one column headed by it alone, earliest first."""
    found = [next(iter(col.years)) for j, col in enumerate(columns) if len(col.years) == 1 and _number(row[j])]
    distinct = set(found)
    return tuple(sorted(distinct)) if len(distinct) == len(found) else ()


def table_facts(question: Question, pool: LinePool, budget: ToolBudget) -> list[Fact]:
    """The fact(s) answering `question` from one table row (module docstring), or [] when nothing is certain."""
    line = table_row(question, pool) if may_ask(question) else None
    named = frozenset(label_words(table_cells(line.text))) if line is not None else frozenset()
    ask = table_ask(question, named) if line is not None else None
    if ask is None or line is None:
        return []
    if not _headings(pool, line):
        _fetch_headings(pool, line, budget)
    # a sum's cue, and "net", which picks the net row where there is one but often goes unsaid in a table of net
    # figures ("the net sales from Malaysia" over a row "Malaysia"), need not frame the row
    cue_words = (SUM_WORDS - named if ask.op == "total" else frozenset()) | {"net"}
    if not asked_words(question) - cue_words <= _framing_words(pool, line):
        return []  # a word of the question no label, heading or caption gives ("the unrevised value"): another figure
    row = table_cells(line.text)
    columns = _columns(pool, line, len(row))
    lines = [*_headings(pool, line), line]
    label = _label(row)
    if ask.op == "value":
        cell = _cell(row, columns, ask.years[0], shown=True)
        if cell is None:
            return []
        text = f"{cell[1]} ({label}, {ask.years[0]})."
        return [Fact(text=text, support=_support(lines), coverage=1.0, value=cell[1], confidence=1.0)]
    if ask.op == "pct_change" and ask.years:
        both = [j for j, col in enumerate(columns) if set(ask.years) <= col.years and row[j].strip().endswith("%")]
        if len(both) == 1:
            stated = row[both[0]].strip()
            text = f"{stated} ({label}, {columns[both[0]].heading})."
            return [Fact(text=text, support=_support(lines), coverage=1.0, value=stated, confidence=1.0)]
    years = ask.years or _year_columns(row, columns)
    if not ask.years and ask.op != "average" and len(years) != 2:
        return []  # a change asked with no year is between the row's two years, when it has just two
    cells = [_cell(row, columns, year) for year in sorted(years)]
    if any(c is None for c in cells):
        return []
    planned = row_calc(ask.op, [c[1] for c in cells if c is not None])
    value = calc(budget, planned.expr) if planned is not None else None
    if planned is None or value is None:
        return []
    shown = f"{value}%" if ask.op == "pct_change" else grouped(value)
    return [
        Fact(
            text=f"{planned.head} {shown} ({label}): {planned.how}.",
            support=_support(lines),
            coverage=1.0,
            value=value,
            calc=CalcDerivation(expr=planned.expr, value=value),
            confidence=1.0,
        )
    ]


__all__ = ["table_facts"]
