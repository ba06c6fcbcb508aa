"""Which lines may give an operand of the extractive model's two-operand arithmetic (`extractive_calc.one_figure`):
prose, or a table row with one figure of the operand's kind; a row with a figure per column is the table reader's."""

from __future__ import annotations

import pytest

from quotebound.agent.models.extractive_calc import one_figure
from quotebound.agent.models.extractive_pool import Line
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_values import Value


@pytest.mark.parametrize(
    ("text", "value", "kind", "one"),
    [
        ("| Nonvested as of December 31, 2019 | 6,148 | $6.59 | 1.81 |", "$6.59", "money", False),
        ("| Modules | 1,460,116 | 502,001 |", "1,460,116", "number", False),
        ("| 1 | Landscaping and grounds maintenance | $18,600.00 |", "$18,600.00", "money", True),  # a line number
        ("| 4B | 4 | Ground | Birch | 2 | 2 | 1,180 | 4.25% | C-14 |", "4.25%", "percent", True),  # one percentage
        ("Reserve fund balance on January 1, 2025: $184,250.00.", "$184,250.00", "money", True),
    ],
)
def test_an_operand_comes_from_a_line_with_one_figure_of_its_kind(text: str, value: str, kind: str, one: bool) -> None:
    scored = Scored(Line("a.md", 1, 1, text), 1.0, 1.0, Value(value, kind, 0), None, True, None)
    assert one_figure(scored) is one
