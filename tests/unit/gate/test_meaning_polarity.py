"""`gate/meaning/polarity.py` through `meaning.problems`: a claim clause that states the opposite of its quote clause
is found even when it has no content word of its own ("... that were signed and had already commenced"), by the
quote clause that uses its own word of polarity or direction."""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from tests.unit.gate.conftest import quotes

LEASES = (
    "(1) Total lease liabilities as of January 31, 2020 excluded legally binding lease payments for leases signed "
    "but not yet commenced of $361 million."
)
PLAN = "The defined benefit plan is closed to new members."
SPONSOR = "The Company sponsors a defined benefit plan, the Woolworths Group Superannuation Plan."


@pytest.mark.parametrize(
    "claim",
    [
        "They excluded $361 million of legally binding lease payments for leases that were signed but had not yet "
        "commenced.",
        "Legally binding payments of $361 million for leases signed but not yet commenced.",
        "The $361 million excluded is for leases that have been signed but have not commenced.",
    ],
)
def test_a_claim_keeping_the_quotes_negated_phase_passes(claim: str) -> None:
    assert meaning.problems(claim, quotes(LEASES)) == []


@pytest.mark.parametrize(
    "claim",
    [
        "They excluded $361 million of legally binding lease payments for leases that were signed and had already "
        "commenced.",
        "They excluded $361 million of lease payments for leases that were signed and commenced.",
    ],
)
def test_a_claim_dropping_the_negation_of_a_phase_is_a_meaning_change(claim: str) -> None:
    [problem] = meaning.problems(claim, quotes(LEASES))
    assert problem.code == "meaning" and "'start' (phase)" in problem.detail


def test_a_word_of_state_is_said_even_when_it_is_no_content_word() -> None:
    """ "closed" is read as a state, not a content word: a claim that says it does not leave it out."""
    claim = (
        "The Company's disclosure on its defined benefit plan, the Woolworths Group Superannuation Plan, says the "
        "plan is closed to new members."
    )
    assert meaning.problems(claim, quotes(SPONSOR, PLAN)) == []  # the plan line right below the sponsor line
    assert [p.code for p in meaning.problems("The defined benefit plan is open to new members.", quotes(PLAN))] == [
        "meaning"
    ]
