"""How the extractive model says a figure it computed (`extractive.calc_sentence`): the result, grouped as documents
write figures, and each quoted operand, in words the quotes and the calc back."""

from __future__ import annotations

from quotebound.agent.models.extractive import calc_sentence
from quotebound.agent.models.extractive_calc import CalcPlan
from quotebound.agent.models.extractive_pool import Line
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_values import Value


def _scored(text: str, value: str, kind: str = "money") -> Scored:
    line = Line("minutes.md", 1, 49, text)
    return Scored(line, 1.0, 1.0, Value(value, kind, 0), "monthly", True, "monthly")


def test_an_annual_figure_from_a_monthly_one_names_the_months_without_counting_them() -> None:
    scored = _scored("The renewed landscaping contract costs $1,550.00 per month.", "$1,550.00")
    sentence = calc_sentence(CalcPlan("annual", "1,550.00 * 12", "18600", (scored,), "$"))
    assert sentence.startswith("The annual figure: $18,600,") and "$1,550.00" in sentence
    assert not any(w in sentence for w in ("12", "twelve"))  # a count the question may say reads as repeated


def test_a_difference_shows_its_result_grouped() -> None:
    a, b = _scored("Landscaping: $18,600.00", "$18,600.00"), _scored("Snow: $4,800.00", "$4,800.00")
    sentence = calc_sentence(CalcPlan("difference", "18,600.00 - 4,800.00", "13800.00", (a, b), "$"))
    assert sentence == "The difference is $13,800.00: the quoted $18,600.00 minus the quoted $4,800.00."
