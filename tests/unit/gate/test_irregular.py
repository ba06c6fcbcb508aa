"""Irregular verb forms and nouns made from verbs: a claim may say "paid" of a quote's "payment", "issued" of its
"issuance"; ambiguous forms, look-alike words and a bare verb under a plan ("plan to sell": not "sold") stay
apart."""

from __future__ import annotations

import pytest

from quotebound.agent.gate.irregular import IRREGULAR, irregular_base
from quotebound.agent.gate.vocabulary import nominal_bases, vocabulary_of


@pytest.mark.parametrize(
    ("quote", "claim"),
    [
        ("You sent an ACH Payment of $600.00 to Josh Bassi.", "paid"),
        ("You sent an ACH Payment of $600.00 to Josh Bassi.", "send"),
        ("resulting from our issuance of $10.0 billion of senior notes", "issued"),
        ("The increase is attributable to the mix of finished products.", "attributed"),
        ("The construction of the bridge took three years.", "constructed"),
        ("The Board held a hearing.", "hold"),
        ("Directors who were born in the county", "bear"),
        ("The company sold two offices.", "sells"),
    ],
)
def test_the_same_word_in_another_form_matches(quote: str, claim: str) -> None:
    assert vocabulary_of(quote).covers(claim)


@pytest.mark.parametrize(
    ("quote", "claim"),
    [
        ("Revenue was $10.0 billion.", "billed"),  # "-ion" after a consonant other than t/s is no nominal
        ("The union met.", "unit"),
        ("He turned left at the station.", "leave"),  # "left" is as often a side: not in the table
        ("The company found a buyer.", "find"),  # "found" is as often "establish"
        ("The price was $5 per share.", "paid"),
        # an irregular past form needs the quote to state the act done (a past form, or a noun for it): the bare
        # verb of a plan or a future is not it ("Were the offices sold?" echoed over "We plan to sell")
        ("We plan to sell our principal executive offices.", "sold"),
        ("The Board will hold a hearing.", "held"),
    ],
)
def test_look_alike_words_do_not_match(quote: str, claim: str) -> None:
    assert not vocabulary_of(quote).covers(claim)


def test_the_table_maps_forms_to_their_verb_and_leaves_ambiguous_forms_out() -> None:
    assert irregular_base("paid") == "pay" and irregular_base("born") == "bear" and irregular_base("held") == "hold"
    assert not {"left", "found", "saw", "rose", "ground", "wound", "bound", "felt", "lay", "won"} & IRREGULAR.keys()
    assert irregular_base("pay") is None
    assert nominal_bases("payments") == ("pay",) and nominal_bases("billion") == () and nominal_bases("pay") == ()
