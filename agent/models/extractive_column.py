"""A table row read with its header, as a person reads it: "| Douglas | 1 | 1 | 820 |" under "| Floor plan |
Bedrooms | Bathrooms | Square feet |" says "Floor plan: Douglas ... Square feet: 820".

- The asked column is the one whose header's own words the question uses, all of them ("how many square feet"
  names "Square feet"); its cell is the row's value, not the row's first figure.
- A header's words are said by the row, in full, where the row's cell under it is asked too: the column the value
  comes from, and a column whose cell the question names ("a Douglas floor plan": "Floor plan: Douglas"). Other
  header words frame every row alike and keep the partial credit of a heading.
"""

from __future__ import annotations

from dataclasses import dataclass

from quotebound.agent.models.extractive_line_text import table_cells
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_values import Value, line_value
from quotebound.agent.models.extractive_words import content_tokens, tokens


@dataclass(frozen=True)
class RowReading:
    value: Value | None  # the asked column's value, at its place in the row's text; None when none is asked
    said: frozenset[str]  # header words the row says in full (module docstring)


def _cells(text: str) -> list[str]:
    return [c.replace("**", "").strip() for c in table_cells(text)]


def asked_column(question: Question, names: list[str], cells: list[str]) -> int | None:
    """The column whose header's words (one at least, digits aside) are all question words; of several, the one
    with the most such words, and none when two tie (the question does not say which). A column whose cell the
    question names picks the row ("a Douglas floor plan"), so it is not the one asked."""
    asked = set(question.words)
    fits = [
        (len(words), i)
        for i, (name, cell) in enumerate(zip(names, cells, strict=True))
        if (words := content_tokens(name)) and words <= asked and not tokens(cell) & asked
    ]
    if not fits:
        return None
    fits.sort(reverse=True)
    if len(fits) > 1 and fits[0][0] == fits[1][0]:
        return None
    return fits[0][1]


def _cell_start(row: str, column: int) -> int:
    """Where the text of cell `column` starts in the row as written."""
    at = row.index("|") if row.lstrip().startswith("|") else -1
    for _ in range(column):
        at = row.index("|", at + 1)
    start = at + 1
    return start + len(row[start:]) - len(row[start:].lstrip())


def read_row(question: Question, row: str, header: str) -> RowReading | None:
    """The row read under its header; None when the two do not line up cell for cell."""
    names, cells = _cells(header), _cells(row)
    if len(names) != len(cells) or not cells:
        return None
    asked = set(question.words)
    column = asked_column(question, names, cells)
    said: set[str] = set()
    for i, (name, cell) in enumerate(zip(names, cells, strict=True)):
        if cell and (i == column or tokens(cell) & asked):
            said |= tokens(name)
    value = None
    if column is not None and cells[column]:
        found = line_value(question, cells[column])
        if found is not None:
            start = _cell_start(row, column) + cells[column].find(found.text)
            if row[start : start + len(found.text)] == found.text:
                value = Value(found.text, found.kind, start)
    return RowReading(value, frozenset(said))
