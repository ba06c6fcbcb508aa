"""`gate/meaning/periods.py` through `meaning.problems`: a figure's period in a claim (a year, a fiscal code, a date,
a range of them) must be the one its quote gives it, whether the quote is a sentence with two figures, a table row
under dated column headings, or a row labelled with a range."""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan
from tests.unit.gate.conftest import quotes

CENSUS = "The population was 1,066 at the 2010 census, up from 630 at the 2000 census."
GMINA = (
    "The gmina covers an area of 143 km², and as of 2006 its total population is 14,719 (out of which the population "
    "of Gniewkowo amounts to 7,254, and the population of the rural part of the gmina is 7,465)."
)
DATED = "|  | December 31, 2019 | December 31, 2018 |"
RECEIVABLES = "| Trade accounts receivable | 1,396 | 1,292 |"
LEASE_HEADINGS = "|  | Ground | Building |\n| Fiscal Year | Leases | Leases |"
LEASE_ROW = "| 2020 – 2024 | 381 | 697 |"

HONEST = [
    ("The population was 1,066 at the 2010 census.", quotes(CENSUS), None),
    ("1,066 (2010 census).", quotes(CENSUS), "What is the population of St. Paul?"),
    ("It had 1,066 residents in 2010, up from 630 in 2000.", quotes(CENSUS), None),
    ("The population of Gniewkowo was 7,254 in 2006.", quotes(GMINA), "What is the population of Gniewkowo?"),
    ("The gmina's total population was 14,719 in 2006.", quotes(GMINA), "What is the population of Gniewkowo?"),
    ("Trade accounts receivable were 1,396 at December 31, 2019.", quotes(DATED, RECEIVABLES), None),
    ("Trade accounts receivable were 1,396 in 2019 and 1,292 in 2018.", quotes(DATED, RECEIVABLES), None),
    (
        "Trade accounts receivable increased by 104, from 1,292 at December 31, 2018 to 1,396 at December 31, 2019.",
        quotes(DATED, RECEIVABLES),
        None,
    ),
    (
        "For 2020 – 2024 the table shows 381 ground leases and 697 building leases.",
        quotes(LEASE_HEADINGS, LEASE_ROW),
        None,
    ),
    ("In fiscal 2020 through 2024, 381 ground leases expire.", quotes(LEASE_HEADINGS, LEASE_ROW), None),
]

HOSTILE = [
    ("The population was 630 at the 2010 census.", quotes(CENSUS), None),
    ("The population was 1,066 in 2000.", quotes(CENSUS), None),
    ("Population of Gniewkowo (2006): 14,719.", quotes(GMINA), "What is the population of Gniewkowo?"),
    (
        "Trade accounts receivable decreased by 104, from 1,396 at December 31, 2018 to 1,292 at December 31, 2019.",
        quotes(DATED, RECEIVABLES),
        None,
    ),
    ("Trade accounts receivable were 1,396 in 2018.", quotes(DATED, RECEIVABLES), None),
    ("In 2024, 381 ground leases expire.", quotes(LEASE_HEADINGS, LEASE_ROW), None),
    ("381 ground leases expire in 2020.", quotes(LEASE_HEADINGS, LEASE_ROW), None),
]


@pytest.mark.parametrize(("claim", "spans", "question"), HONEST)
def test_a_figure_given_for_its_own_period_passes(claim: str, spans: list[QuoteSpan], question: str | None) -> None:
    assert meaning.problems(claim, spans, question, ["Gniewkowo", "St", "Paul"]) == []


@pytest.mark.parametrize(("claim", "spans", "question"), HOSTILE)
def test_a_figure_given_for_another_period_or_part_is_unbound(
    claim: str, spans: list[QuoteSpan], question: str | None
) -> None:
    assert "unbound" in [p.code for p in meaning.problems(claim, spans, question, ["Gniewkowo", "St", "Paul"])]


def test_the_message_names_the_period_the_quote_gives() -> None:
    [problem] = meaning.problems("The population was 630 at the 2010 census.", quotes(CENSUS))
    assert problem.detail == "gives 630 for 2010, where the quote gives it for 2000"
    [problem] = meaning.problems("381 ground leases expire in 2020.", quotes(LEASE_HEADINGS, LEASE_ROW))
    assert problem.detail == "gives 381 for 2020, where the quote gives it for 2020 – 2024"


def test_a_change_between_two_years_is_read_under_dated_column_headings() -> None:
    """Columns headed "December 31, 2019" and "December 31, 2018" are the years a claim's "from 2018 to 2019" names:
    the direction it states must agree with the quoted figures."""
    assert meaning.problems("Trade accounts receivable rose from 2018 to 2019.", quotes(DATED, RECEIVABLES)) == []
    [problem] = meaning.problems("Trade accounts receivable fell from 2018 to 2019.", quotes(DATED, RECEIVABLES))
    assert problem.code == "meaning" and problem.detail == "says it went down where the quoted figures went up"
