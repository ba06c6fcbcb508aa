"""Whether a verified calc that answers the question was computed over the right operands: figures of the question's
subject, from the periods the question asks about.

The calc rule (`rules/calc.py`) checks that a calc recomputes and that each operand is quoted; a calc can do both and
still answer another question: "the percentage change from 2018 to 2019" computed over the 2017 and 2018 columns,
or over another row. For a table row the operand's period is read from its column's headings (its table's headings
at the locator when they line up with the row's cells, and the cells in its column of the heading rows cited from
that source), and its subject from the row's label (`answer_binding.about_subject`). A row whose label dates its
figures ("| Balance payable as at June 30, 2019 | ... |") gives its own period: a year in the headings then belongs to
the table's title ("Fiscal 2017 Restructuring Plan"), not to the row. Prose operands are left to the meaning rule's
binding checks: which year a figure of a sentence is for is not read here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from quotebound.agent.core.contracts import Fact
from quotebound.agent.gate.answer_binding import about_subject
from quotebound.agent.gate.answer_text import Quoted, cells, figures, keys, same_figure, short
from quotebound.agent.gate.derivation import calc_operands, calc_problem, structural_operands
from quotebound.agent.gate.question import Question
from quotebound.agent.gate.tokens import Key, operand_key
from quotebound.agent.gate.vocabulary import WORD
from quotebound.tools.calc import recompute

_YEAR: Final = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?![\d,]|\.\d)")


def years(text: str) -> frozenset[str]:
    """The years written in `text` ("2019", "FY2019", "2019 over 2018"), never inside a larger figure."""
    return frozenset(m.group() for m in _YEAR.finditer(text.replace("FY", " ").replace("fy", " ")))


def _heading_row(row: list[str]) -> bool:
    """A table row of headings: no figure in it but years ("| | 2019 | 2018 | Change |")."""
    return all(not re.search(r"\d", _YEAR.sub("", c)) for c in row[1:]) and any(c for c in row[1:])


def column_heading(qd: Quoted, sentence: str, column: int, quotes: Sequence[Quoted]) -> str:
    """The headings of column `column` of the table row `sentence` (module docstring)."""
    row = cells(sentence) or []
    parts: list[str] = []
    heads = qd.headings.split(" | ") if qd.headings else []
    if len(heads) == len(row) - 1 and column >= 1:
        parts.append(heads[column - 1])
    for other in quotes:
        if other.source_id != qd.source_id:
            continue
        for s in other.sentences:
            other_row = cells(s)
            if s != sentence and other_row is not None and len(other_row) == len(row) and _heading_row(other_row):
                parts.append(other_row[column])
    return " ".join(parts)


def _period(qd: Quoted, sentence: str, row: list[str], column: int, quotes: Sequence[Quoted]) -> frozenset[str]:
    """The years an operand of `row` is for: its label's when the label dates the row, else its column's headings'."""
    return years(row[0]) or years(column_heading(qd, sentence, column, quotes))


def _operands(fact: Fact) -> list[tuple[str, Key]]:
    """The operands of a calc fact that are figures of the documents (unit conversions and shape left out)."""
    assert fact.calc is not None
    shape = structural_operands(fact.calc.expr)
    found: list[tuple[str, Key]] = []
    for i, operand in enumerate(calc_operands(fact.calc.expr)):
        key = operand_key(operand)
        if key is not None and i not in shape:
            found.append((operand, key))
    return found


def _shown(fact: Fact, text: str) -> bool:
    """The answer shows the calc's result (as `same_figure` reads an answer's figure)."""
    assert fact.calc is not None
    got = recompute(fact.calc.expr)
    if got is None:
        return False
    value = Decimal(got)
    return any(f.number is not None and same_figure(f.number, value) for f in figures(text))


def asked_years(q: Question) -> frozenset[str]:
    """The years the question asks about; a change or an average asked in one year ("the 2019 average", "the change
    in 2019") is computed with the year before it too (the opening balance, the year compared with)."""
    asked = years(q.text)
    if q.derived and len(asked) == 1:
        (year,) = asked
        asked |= {str(int(year) - 1)}
    return asked


def _labelled(row: list[str]) -> bool:
    """The row names what it is about in a label cell ("| Modules | ..."); a total row with no label does not."""
    return any(WORD.search(c) is not None for c in row if not re.search(r"\d", c))


def _operand_problem(q: Question, index: int, operand: str, key: Key, quotes: Sequence[Quoted]) -> str | None:
    asked = asked_years(q)
    own = [(qd, s) for qd in quotes if qd.fact == index for s in qd.sentences if key in keys(s)]
    rows = [(qd, s, row) for qd, s in own if (row := cells(s)) is not None]
    if not rows or len(rows) < len(own):
        return None  # stated in prose (or nowhere): not judged here
    for qd, s, row in rows:
        columns = [j for j, c in enumerate(row) if j >= 1 and key in keys(c)]
        if not columns:
            return None
        period = _period(qd, s, row, columns[0], quotes)
        subject_ok = not q.subject or not _labelled(row) or about_subject(q.subject, key, qd, s, quotes)
        if subject_ok and (not asked or not period or period & asked):
            return None  # one reading of the operand fits the question
    qd, s, row = rows[0]
    columns = [j for j, c in enumerate(row) if j >= 1 and key in keys(c)]
    period = _period(qd, s, row, columns[0], quotes) if columns else frozenset()
    if asked and period and not period & asked:
        return (
            f"the calc takes {operand} from the column for {', '.join(sorted(period))}, but the question asks about "
            f"{', '.join(sorted(asked))}; compute over the figures of the periods asked, or report that the documents "
            "do not give them"
        )
    return (
        f"the calc takes {operand} from a row about something else ({short(s)!r}); compute over the figures of what "
        "the question asks about, or report that the documents do not give them"
    )


def calc_operand_problem(q: Question, facts: Sequence[Fact], text: str, quotes: Sequence[Quoted]) -> str | None:
    """A verified calc whose result the answer shows takes an operand from a table column of another period than
    the question asks about, or from a row about another subject (module docstring)."""
    for index, fact in enumerate(facts):
        if fact.calc is None or calc_problem(fact) is not None or not _shown(fact, text):
            continue
        for operand, key in _operands(fact):
            problem = _operand_problem(q, index, operand, key, quotes)
            if problem is not None:
                return problem
    return None


__all__ = ["asked_years", "calc_operand_problem", "column_heading", "years"]
