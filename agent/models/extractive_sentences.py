"""Evidence units are sentences, not lines: hard-wrapped prose read as the sentences it holds.

A license or a README wraps each sentence over several lines ("... may be brought only in the\\ncourts of ...").
Scored line by line, the line holding the answer lacks the question's words and the line holding the words lacks
the answer. Runs of consecutive read prose lines (no blank line, heading, list item or table row between them) are
split into sentences; each sentence becomes one unit quoted verbatim, line breaks included, with a locator spanning
its lines (the gate finds such a quote exactly in the span). A sentence that starts and ends on one line is that
line, unchanged; sentences starting on the same line share one unit, so each line starts at most one unit.
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.models.extractive_line_text import is_heading, is_table_row

# A line that opens a block of its own: a list item, a quote, a table row (as the gate's layout reads blocks).
_BLOCK_START: Final = re.compile(r"\s*(?:[-*+>] |\||\d+[.)] |\(?[a-z0-9]{1,3}\) )")
# A hard-wrapped line's length: text is wrapped at a column of 60 to 100 characters, so a wrapped line is at least
# half that (a shorter one ends where its text ends) and no longer than the widest column.
_WRAP_MIN: Final = 40
_WRAP_MAX: Final = 100
# A sentence ends at . ! ? (optionally closed by a quote or bracket) before whitespace and a capital, digit,
# quote or bracket; "e.g. the" or "Sec. 4" (a lowercase word or a number after an abbreviation) do not split.
_END: Final = re.compile(r"(?<=[.!?])[\"'”’)\]]?\s+(?=[A-Z\"“(\[])")


def _joins(previous: str, text: str) -> bool:
    """Does `text` continue the prose of the line before it? Only a hard wrap: the line before is cut at a text
    column (as long as a wrapped line is, no longer than a column) in mid-sentence. A short line (a title, a menu
    entry) or a long unwrapped paragraph ends where it ends, whatever follows it."""
    before = previous.strip()
    if not _WRAP_MIN <= len(before) <= _WRAP_MAX or before.endswith((".", "!", "?", ":")) or len(text) > _WRAP_MAX:
        return False
    if not text.strip() or is_heading(text) or is_table_row(text) or is_table_row(previous):
        return False
    return _BLOCK_START.match(text) is None


def runs(lines: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """Consecutive (line number, text) pairs grouped into prose runs."""
    grouped: list[list[tuple[int, str]]] = []
    for line_no, text in lines:
        last = grouped[-1][-1] if grouped else None
        if last is not None and last[0] == line_no - 1 and _joins(last[1], text):
            grouped[-1].append((line_no, text))
        else:
            grouped.append([(line_no, text)])
    return grouped


def sentences(run: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """(first line, last line, verbatim text) of each unit of a run: its sentences, those starting on one line
    merged, a whole line kept as it is read."""
    if len(run) == 1:
        return [(run[0][0], run[0][0], run[0][1])]
    joined = "\n".join(text for _, text in run)
    starts = [0] + [m.end() for m in _END.finditer(joined)]
    bounds = [(a, b) for a, b in zip(starts, [*starts[1:], len(joined)], strict=True)]
    units: dict[int, tuple[int, int]] = {}
    for start, end in bounds:
        first = joined.count("\n", 0, start)
        units[first] = (units[first][0], end) if first in units else (start, end)
    found: list[tuple[int, int, str]] = []
    for first, (start, end) in sorted(units.items()):
        text = joined[start:end].rstrip()
        last = first + text.count("\n")
        line_text = run[first][1]
        if last == first and text.strip() == line_text.strip():
            text = line_text  # the whole line: quoted exactly as read
        found.append((run[first][0], run[last][0], text))
    return found
