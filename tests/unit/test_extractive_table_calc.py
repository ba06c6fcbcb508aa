"""The arithmetic of a figure derived from one table row (`extractive_table_calc`): each op's calc expression over
the quoted cells, nothing where the figure has no value, and a result shown as documents write one."""

from __future__ import annotations

import pytest

from quotebound.agent.models.extractive_table_calc import grouped, row_calc
from quotebound.tools.calc import recompute


@pytest.mark.parametrize(
    ("op", "figures", "expr", "value"),
    [
        ("change", ["148", "302"], "302 - 148", "154"),
        ("pct_change", ["148", "302"], "round((302 - 148) / 148 * 100, 2)", "104.05"),
        ("average", ["1,292", "1,396"], "(1,292 + 1,396) / 2", "1344"),
        ("total", ["1,407", "1,082", "1,206"], "1,407 + 1,082 + 1,206", "3695"),
    ],
)
def test_each_op_is_one_calc_over_the_quoted_cells(op: str, figures: list[str], expr: str, value: str) -> None:
    planned = row_calc(op, figures)
    assert planned is not None and planned.expr == expr and recompute(planned.expr) == value
    assert all(f"the quoted {f}" in planned.how for f in figures)


@pytest.mark.parametrize(
    ("op", "figures"),
    [
        ("pct_change", ["0", "12"]),
        ("average", ["12"]),
        ("total", ["12"]),
        ("ratio", ["1", "2"]),
        ("average", ["-16", "-15"]),  # deductions: the sign asked is not said
        ("total", ["-16", "-15"]),
    ],
)
def test_a_figure_with_no_value_is_not_computed(op: str, figures: list[str]) -> None:
    assert row_calc(op, figures) is None


@pytest.mark.parametrize(
    ("value", "shown"),
    [("1344", "1,344"), ("-10.5", "-10.5"), ("12312.25", "12,312.25"), ("-2019", "-2,019"), ("1E+3", "1E+3")],
)
def test_a_result_is_shown_with_its_thousands_grouped(value: str, shown: str) -> None:
    assert grouped(value) == shown
