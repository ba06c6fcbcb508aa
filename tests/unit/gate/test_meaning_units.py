"""`gate/meaning/units.py` through `meaning.problems`: a figure's unit, and an amount's currency, must be those its
quote gives the same figure ("996 cc" is not "996 hp"; "18 cents" is not "$18"); a table's units row ("£000") is a
scale, not a figure."""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan
from tests.unit.gate.conftest import quotes

ENGINE = "The V-Strom 1000 is a dual-sport motorcycle with a 996 cc V-twin engine."
DIVIDEND = "The Directors have declared a final dividend of AU 18 cents per share for the year ended 30 June 2019."
ASSESSMENT = "Monthly regular assessment per Unit: $325.00."
FEES = ["|  | 2019 | 2018 |", "|  | £000 | £000 |", "| Audit fees | 1,092 | 823 |"]
STORAGE = "Each unit includes 512 GB of storage and draws 45 watts."

HONEST = [
    ("The V-Strom has a 996 cc engine.", quotes(ENGINE)),
    ("The final dividend is AU 18 cents per share.", quotes(DIVIDEND)),
    ("The final dividend is 18 cents per share.", quotes(DIVIDEND)),
    ("The monthly assessment is $325.00.", quotes(ASSESSMENT)),
    ("The monthly assessment is USD 325.00.", quotes(ASSESSMENT)),
    ("The monthly assessment is 325 dollars.", quotes(ASSESSMENT)),
    ("Audit fees were 1,092 for 2019 and 823 for 2018, in £000.", quotes(*FEES)),
    ("Audit fees were £1,092 thousand in 2019.", quotes(*FEES)),
    ("Each unit has 512 GB of storage.", quotes(STORAGE)),
]

HOSTILE = [
    ("The V-Strom's engine makes 996 hp.", quotes(ENGINE)),
    ("The final dividend is AU$18 per share.", quotes(DIVIDEND)),
    ("The monthly assessment is 325 cents.", quotes(ASSESSMENT)),
    ("The monthly assessment is €325.00.", quotes(ASSESSMENT)),
    ("Each unit has 512 MB of storage.", quotes(STORAGE)),
    ("Each unit draws 45 kilowatts.", quotes(STORAGE)),
]


@pytest.mark.parametrize(("claim", "spans"), HONEST)
def test_a_figure_in_its_quotes_unit_passes(claim: str, spans: list[QuoteSpan]) -> None:
    assert meaning.problems(claim, spans) == []


@pytest.mark.parametrize(("claim", "spans"), HOSTILE)
def test_a_figure_in_another_unit_or_currency_is_unbound(claim: str, spans: list[QuoteSpan]) -> None:
    assert "unbound" in [p.code for p in meaning.problems(claim, spans)]


def test_an_amount_with_a_currency_sign_is_held_only_where_every_quote_gives_the_figure_a_unit() -> None:
    """A bare table cell says nothing of its currency: "$1,092" may stand for it."""
    assert meaning.problems("Audit fees were $1,092 in 2019.", quotes(*FEES)) == []


def test_a_units_row_is_a_scale_not_a_figure() -> None:
    row = meaning.parse("|  | £000 | US$’000 | $'000 |")
    assert row.values == () and row.header
    assert [t.low for t in row.toks].count("thousands") == 3


def test_the_message_names_both_units() -> None:
    [problem] = meaning.problems("The final dividend is AU$18 per share.", quotes(DIVIDEND))
    assert problem.detail == "gives 18 in dollar where the quote gives it in cent"
