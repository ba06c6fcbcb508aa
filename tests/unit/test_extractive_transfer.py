"""Who pays whom: the role a transfer word gives a named party, in a question and in a line, without a store."""

from __future__ import annotations

import pytest

from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_transfer import (
    party_pattern,
    roles,
    transfer_amount,
    transfer_ask,
    transfer_lines,
)


@pytest.mark.parametrize(
    ("clause", "role"),
    [
        ("Your card was charged $40.00 by Acme Corp.", "receiver"),  # a passive bill word's agent bills
        ("Acme Corp has charged your account $40.00.", "receiver"),  # an active biller
        ("Your account received $40.00 from Acme.", "giver"),  # "from" with a take word
        ("You sent a payment of $40.00 to Acme.", "receiver"),  # "to" with a give word
        ("Acme sent $40.00 to Jane Roe.", "giver"),
        ("Acme's debit card was charged $40.00 by the store.", "giver"),  # "debit card" is a noun, not the verb
        ("The card received a $40.00 credit from Acme.", "giver"),
        ("A payment of $40.00 was made to Mr. Acme.", "receiver"),  # the title is part of the name
    ],
)
def test_a_transfer_word_gives_the_party_its_role(clause: str, role: str) -> None:
    party = party_pattern("Acme")
    assert party is not None and roles(clause, party) == {role}


@pytest.mark.parametrize(
    "clause",
    [
        "Hi Acme, you have $0.00 available.",  # no transfer word fixes a role
        "Your account received $40.00 by Acme.",  # an active take word: "by" is a means, not the agent
    ],
)
def test_no_transfer_word_no_role(clause: str) -> None:
    party = party_pattern("Acme")
    assert party is not None and roles(clause, party) == set()


def test_a_name_of_initials_only_is_no_party() -> None:
    assert party_pattern("J. R.") is None


def test_the_question_asks_a_role() -> None:
    to = transfer_ask("the $ value paid to Acme Corp?")
    by = transfer_ask("the $ value paid by Acme?")
    assert to is not None and to.role == "receiver"
    assert by is not None and by.role == "giver"
    assert transfer_ask("What is the fee for Acme?") is None  # no transfer word: nothing asked of a role


def test_a_line_answers_only_in_the_asked_role() -> None:
    ask = transfer_ask("the $ value paid to Acme?")
    assert ask is not None
    found = transfer_amount("Your card was charged $40.00 by Acme.", ask)
    assert found is not None and found.text == "$40.00"
    assert transfer_amount("You received $40.00 from Acme.", ask) is None  # Acme paid: the opposite direction
    assert transfer_amount("Your card was charged $4 040.00 by Acme.", ask) is None  # a space-grouped amount


def _pool(*texts: str) -> LinePool:
    pool = LinePool.from_texts("mail.txt", texts)
    return pool


def test_transfer_lines_keep_one_line_per_amount() -> None:
    pool = _pool(
        "Your card was charged $40.00 by Acme.", "Acme has charged your card $40.00.", "You received $9.00 from Acme."
    )
    found = transfer_lines(analyze("How much was paid to Acme?"), pool, 3)
    assert [s.line.line_no for s in found] == [1]


def test_the_question_s_other_words_must_be_stated() -> None:
    pool = _pool("Your card was charged $40.00 by Acme.", "The January invoice: your card was charged $55.00 by Acme.")
    found = transfer_lines(analyze("How much was paid to Acme for the January invoice?"), pool, 3)
    assert [s.line.line_no for s in found] == [2]
    assert transfer_lines(analyze("How much was paid to Mr. Acme in 2019?"), pool, 3) == []
