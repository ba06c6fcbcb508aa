"""The benchmark's reading of a calc's operands (`evals/datasets/outcome.calc_figures`): the count of an average
and `round`'s precision are the arithmetic's shape, every other number is a figure that must come from the text."""

from __future__ import annotations

import pytest

from quotebound.evals.datasets.outcome import Outcome, calc_figures, unsupported


@pytest.mark.parametrize(
    ("expr", "wanted"),
    [
        ("(166 + 178) / 2", {"166", "178"}),
        ("(453 + 361 + 384) / 3", {"453", "361", "384"}),
        ("round((44.1 - 56.7) / 56.7 * 100, 2)", {"44.1", "56.7", "100"}),
        ("(166 + 178) / 3", {"166", "178", "3"}),  # not their number: a figure
        ("(166 - 178) / 2", {"166", "178", "2"}),  # a difference halved is no average
        ("166 / 2", {"166", "2"}),
    ],
)
def test_an_average_count_is_no_figure_of_the_text(expr: str, wanted: set[str]) -> None:
    assert calc_figures(expr) == wanted


def _answer(value: str, expr: str) -> Outcome:
    row = "| Schemes | 166 | 178 |"
    return Outcome(
        "q", "extractive+gate", "answer", headline=value, shipped=value, retrieved=row, calcs=((expr, value),)
    )


def test_an_average_of_retrieved_figures_ships_nothing_unsupported() -> None:
    assert unsupported(_answer("172", "(166 + 178) / 2"), []) == []
    assert unsupported(_answer("83", "166 / 2"), []) == ["calc operand: 2", "figure: 83"]
