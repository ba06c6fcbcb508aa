"""The arithmetic of a derived figure over one table row's cells: which calc expression computes it and how the
answer says it was computed. Cells come as calc reads them ("1,460,116", "-25,733"), earliest year first."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class RowCalc:
    expr: str
    head: str  # "The change is"
    how: str  # the operands, said in words: every one of them quoted


def grouped(value: str) -> str:
    """A computed figure as documents write one, thousands grouped ("1344" -> "1,344"): four plain digits are read
    as a year ("1344", "2019"), never as the amount they are."""
    match = re.fullmatch(r"(-?)(\d+)(\.\d+)?", value)
    if match is None:
        return value
    sign, whole, fraction = match.groups()
    return f"{sign}{int(whole):,}{fraction or ''}"


def _zero(figure: str) -> bool:
    return figure.lstrip("-").replace(",", "").strip("0.") == ""


def row_calc(op: str, figures: Sequence[str]) -> RowCalc | None:
    """The calc for `op` (change, pct_change, average, total) over `figures`, or None when it has no value (a
    percentage change from zero, an average or a total of fewer than two figures, or of deductions alone)."""
    if len(figures) < 2:
        return None
    earlier, later = figures[0], figures[-1]
    listed = ", ".join(f"the quoted {f}" for f in figures)
    if op == "change":
        return RowCalc(f"{later} - {earlier}", "The change is", f"the quoted {later} minus the quoted {earlier}")
    if op == "pct_change":
        if _zero(earlier):
            return None
        how = f"the quoted {later} minus the quoted {earlier}, divided by the quoted {earlier}, times one hundred"
        return RowCalc(f"round(({later} - {earlier}) / {earlier} * 100, 2)", "The percentage change is", how)
    if op in ("average", "total") and all(f.startswith("-") for f in figures):
        return None  # a row of deductions, "(16) | (15)": whether the figure asked is the deduction or its amount is
    if op == "average":  # not said, and either sign would be a guess
        expr = f"({' + '.join(figures)}) / {len(figures)}"
        return RowCalc(expr, "The average is", f"{listed} added and divided by their number")
    if op == "total":
        return RowCalc(" + ".join(figures), "The total is", f"{listed} added")
    return None


__all__ = ["RowCalc", "grouped", "row_calc"]
