"""Matching two spellings of one word: inflection, derivation, a doubled consonant, a Latin noun and its verb; and
the categories read through them."""

from __future__ import annotations

import pytest

from quotebound.agent.gate.vocabulary import DERIVATION_WORDS, Vocabulary, in_category, variants, vocabulary_of


@pytest.mark.parametrize(
    ("quote", "claim"),
    [
        ("Dividends totalled 28,128.", "total"),  # a doubled consonant, both ways
        ("The total was 28,128.", "totalled"),
        ("The program was stopped.", "stop"),
        ("with the following assumptions: expected term of seven years", "assumed"),  # Latin alternations
        ("The simulation assumed a term of seven years.", "assumption"),
        ("The description of the mill", "describes"),
        ("Occupancy of the building", "occupy"),
        ("The occupation of the premises", "occupied"),
        ("Notification is sent by mail.", "notify"),
        ("The retention period is five years.", "retain"),
    ],
)
def test_one_word_in_two_spellings_matches(quote: str, claim: str) -> None:
    assert vocabulary_of(quote).covers(claim)


@pytest.mark.parametrize(
    ("quote", "claim"),
    [
        ("The business is open.", "busy"),  # "-iness" is no alternation
        ("The relation is close.", "rely"),  # too short a base for "-ation" to "-y"
        ("The station is open.", "sty"),
        ("The call was made.", "cal"),
        ("The party met.", "part"),
    ],
)
def test_different_words_do_not(quote: str, claim: str) -> None:
    assert not vocabulary_of(quote).covers(claim)


def test_variants_are_the_same_word_only() -> None:
    assert variants("totalled") == ("total",)
    assert variants("called") == ()  # a doubled "l" that belongs to the word ("call") stays
    assert variants("total") == ()
    assert in_category("totalled", DERIVATION_WORDS)  # categories read through the variants


def test_a_vocabulary_remembers_what_it_covers_and_forgets_when_it_grows() -> None:
    vocab = Vocabulary()
    vocab.add("The late charge is waived.")
    assert vocab.covers("charges") and not vocab.covers("pets")
    vocab.add("Owners may keep two household pets.")  # what it answered before must not stick
    assert vocab.covers("pets")
    other = Vocabulary()
    other.add("A quorum is present.")
    assert not vocab.covers("quorum")
    vocab.merge(other)
    assert vocab.covers("quorum")


def test_an_apostrophe_joining_two_words_joins_a_compound_not_a_contraction() -> None:
    unit = vocabulary_of("| | RMB’Million | RMB’Million |")
    assert unit.covers("RMB") and unit.covers("million")
    assert not vocabulary_of("they'll go").covers("ll")
    assert not vocabulary_of("it isn't").covers("isn")
