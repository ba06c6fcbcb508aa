"""`gate/meaning/direction.py`: "floor", "ceiling" and "cap" (like "within") are bounds only with their figure
right after them ("a floor of 2%"); as words of things ("Floor plan", "the 12th floor", "ceiling fan") they bound
nothing, so a claim's own bound ("adds up to", "at most") is not read against them."""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from quotebound.agent.gate.meaning.direction import read_directions
from tests.unit.gate.conftest import quotes

HEADER = "| Floor plan | Bedrooms | Square feet | Number of Units |"
ROW = "| Aspen | 2 | 950 | 4 |"
RATE = "The interest rate has a floor of 2%."


@pytest.mark.parametrize(
    ("words", "found"),
    [
        (["floor", "plan", "bedrooms"], set()),
        (["the", "", "floor"], set()),
        (["a", "ceiling", "fan"], set()),
        (["a", "floor", "of", ""], {("magnitude", "high")}),
        (["a", "cap", "of", ""], {("magnitude", "low")}),
        (["the", "ceiling", ""], {("magnitude", "low")}),
    ],
)
def test_a_bound_noun_bounds_only_with_its_figure_next(words: list[str], found: set[tuple[str, str]]) -> None:
    assert read_directions(words, set()) == found


def test_a_claims_bound_is_not_read_against_a_floor_plan_heading() -> None:
    claim = "The Aspen units add up to 3,800 square feet."
    assert meaning.problems(claim, quotes(HEADER, ROW)) == []


@pytest.mark.parametrize(
    "claim",
    ["The interest rate has a cap of 2%.", "The interest rate has a ceiling of 2%."],
)
def test_a_bound_noun_with_its_figure_is_still_read(claim: str) -> None:
    assert [p.code for p in meaning.problems(claim, quotes(RATE))] == ["meaning"]
