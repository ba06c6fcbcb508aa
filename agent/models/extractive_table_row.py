"""Which table row a question asks about: the one whose label's words the question uses most (most of the label's
words, and more than any other row's), of rows alike the one whose section label the question names; never a row
that gives no figure. Words that ask for a derived figure or name its form are no row's name."""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.models.extractive_line_text import is_table_row, table_cells
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_table_ask import CHANGE_WORDS
from quotebound.agent.models.extractive_words import STOPWORDS, tokens

FIGURE: Final = re.compile(r"^\(?-?[$€£¥₹]?\s?\(?\d[\d,]*(?:\.\d+)?\)?%?\)?$")
HEADING_REACH: Final = 40  # table rows read above a row for its headings
# Words of a question that ask for a derived figure or name its form, never a row: what the row is named by is the
# rest ("the percentage change in the total long-lived assets": total, long, lived, asset).
_FORM: Final = tokens(
    "percentage percent average mean ratio share proportion sum combined amount value figure year years fiscal fy "
    "respectively"
)
# "net" names the form of a change ("the net change in X"), or else the row ("the net voyage revenue").
_NET_FORM: Final = re.compile(r"\bnet\s+(?:percentage\s+)?(?:change|difference|increase|decrease)", re.I)
_MIN_LABEL_SHARE: Final = 0.5  # of a label's words, the share the question must use


def shown(cell: str) -> str | None:
    """A figure cell as written ("$ 1,460,116", "2.5%", "(64)"), None for a label, a dash or an empty cell."""
    text = cell.replace("**", "").strip()
    return text if text and FIGURE.match(text.replace(" ", "")) else None


def label_words(row: list[str]) -> set[str]:
    label = row[0].replace("**", "") if row else ""
    return {w for w in tokens(label) if w not in STOPWORDS and not any(c.isdigit() for c in w) and len(w) > 1}


def asked_words(question: Question) -> set[str]:
    """The question's words that name what it asks about (module docstring)."""
    form = _FORM | {"net"} if _NET_FORM.search(question.text) else _FORM
    return {w for w in question.words if not any(c.isdigit() for c in w)} - CHANGE_WORDS - form


def _section_words(pool: LinePool, line: Line) -> set[str]:
    """The label words of the section a table row sits in: the nearest row above it with a label and no other cell
    ("| RSUs |  |  |" over "| Granted | $674 | $583 |")."""
    for n in range(line.line_no - 1, max(0, line.line_no - HEADING_REACH), -1):
        above = pool.lines.get((line.source_id, line.page, n))
        if above is None or not is_table_row(above.text):
            return set()
        cells = table_cells(above.text)
        if cells and cells[0].strip() and not any(c.strip() for c in cells[1:]):
            return label_words(cells)
    return set()


def _gives_figure(line: Line) -> bool:
    return any(shown(c) for c in table_cells(line.text)[1:])


def table_row(question: Question, pool: LinePool) -> Line | None:
    """The one table row whose label's words the question uses most (module docstring), or None; of rows alike
    ("Granted" under "RSUs" and under "PSUs"), the one whose section the question names more of. A section's label
    row ("| Net sales: |  |  |") answers nothing itself: when it fits best, the question names the section, and a
    row of it answers only when the question names that row too ("the net sales from Malaysia")."""
    asked = asked_words(question)
    scored: list[tuple[float, int, int, bool, Line]] = []
    for line in pool.candidates():
        if not is_table_row(line.text):
            continue
        label = label_words(table_cells(line.text))
        shared = label & asked
        if not label or not shared or len(shared) / len(label) < _MIN_LABEL_SHARE:
            continue
        section = len((_section_words(pool, line) - label) & asked)
        scored.append((len(shared) / len(label), len(shared), section, not _gives_figure(line), line))
    if not scored:
        return None
    scored.sort(key=lambda s: (-s[0], -s[1], -s[2], s[3], s[4].key))  # of rows alike, one that gives figures
    best = scored[0]
    if len(scored) > 1 and scored[1][:4] == best[:4] and scored[1][4].text != best[4].text:
        return None  # two rows alike: which one is asked is not read here
    if not best[3]:
        return best[4]
    named = label_words(table_cells(best[4].text))
    members = [
        line
        for *_, line in scored
        if _gives_figure(line)
        and _section_words(pool, line) == named
        and (label_words(table_cells(line.text)) & asked) - named
    ]
    return members[0] if len(members) == 1 else None


__all__ = ["FIGURE", "HEADING_REACH", "asked_words", "label_words", "shown", "table_row"]
