"""`gate/meaning/roots.py` and value binding by root: "paid", "payable" and "payment" speak of one act, so a claim
that says a figure "will be paid" binds to the quote that says it is "payable" when no quote writes "paid" beside
it for the same thing. A match by root counts less than the word itself, so a figure moved from the quote that
only shares the root to the claim of a quote that writes the word stays unbound."""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan
from quotebound.agent.gate.meaning.lexicon import stem
from quotebound.agent.gate.meaning.roots import root_match, roots
from tests.unit.gate.conftest import quotes


@pytest.mark.parametrize(
    ("word", "root"),
    [("paid", "pay"), ("payable", "pay"), ("payment", "pay"), ("receivable", "receiv"), ("sold", "sell")],
)
def test_a_form_of_a_verb_has_the_verb_as_its_root(word: str, root: str) -> None:
    assert root in roots(stem(word))


@pytest.mark.parametrize("word", ["notable", "capable", "taxable", "table", "million", "union"])
def test_a_short_or_unknown_base_is_no_root(word: str) -> None:
    assert roots(stem(word)) == frozenset()


def test_a_root_match_needs_another_form() -> None:
    assert root_match(stem("paid"), frozenset({stem("payable")}))
    assert root_match(stem("payment"), frozenset({stem("paid")}))
    assert not root_match(stem("paid"), frozenset({stem("paid")}))  # the word itself: a full match, not by root
    assert not root_match(stem("paid"), frozenset({stem("notable"), stem("capable")}))


FINAL = "The final dividend is payable on 3 May 2019 to shareholders on the register."
INTERIM = "The interim dividend was paid on 5 November 2018."


def test_a_claim_saying_paid_binds_to_the_quote_saying_payable() -> None:
    claim = "The final dividend will be paid on 3 May 2019."
    assert "unbound" not in [p.code for p in meaning.problems(claim, quotes(FINAL, INTERIM))]


@pytest.mark.parametrize(
    ("claim", "lines"),
    [
        # an amount owed given as an amount paid, where another quote gives what was paid
        ("Dividends paid during the year were $5,000.", ("Dividends payable at year end were $5,000.",
                                                          "Dividends paid during the year were $8,000.")),
        ("The company paid $5,000 to suppliers.", ("Accounts payable to suppliers were $5,000.",
                                                   "The company paid $8,000 to suppliers.")),
    ],
)  # fmt: skip
def test_a_figure_moved_from_payable_to_paid_stays_unbound(claim: str, lines: tuple[str, ...]) -> None:
    assert "unbound" in [p.code for p in meaning.problems(claim, quotes(*lines))]


CENSUS = "As of the census of 2010, there were 3,559 people, 1,575 households, and 909 families residing in the city."
OTHER = "The population was 10,000 at the 2010 census."
COUNTY = "The population of the county was 10,000."


def sources(*lines: str) -> list[QuoteSpan]:
    return [QuoteSpan(f"doc{i}.md", f"p.1 L{i + 1}-L{i + 1}", line, line) for i, line in enumerate(lines)]


@pytest.mark.parametrize(
    ("claim", "lines"),
    [
        ("Broken Bow had a population of 3,559 at the 2010 census.", (CENSUS, OTHER)),
        ("The population was 3,559.", (CENSUS, COUNTY)),
        ("The 2010 census counted 3,559 residents.", (CENSUS, OTHER)),
    ],
)
def test_a_census_count_of_people_is_the_population(claim: str, lines: tuple[str, ...]) -> None:
    assert "unbound" not in [p.code for p in meaning.problems(claim, sources(*lines))]


@pytest.mark.parametrize(
    ("claim", "lines"),
    [
        ("The population of the county was 3,559.", (CENSUS, COUNTY)),  # the city's count given to the county
        ("The population was 1,575 at the 2010 census.", (CENSUS, OTHER)),  # the households given as the people
        ("The population was 909 in 2010.", (CENSUS, OTHER)),  # the families given as the people
    ],
)
def test_another_count_given_as_the_population_stays_unbound(claim: str, lines: tuple[str, ...]) -> None:
    assert "unbound" in [p.code for p in meaning.problems(claim, sources(*lines))]
