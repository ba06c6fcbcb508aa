"""`gate/meaning/names.py` through `meaning.problems`: a name the claim makes its subject must be the subject of its
quote clause, not a name the quote gives another role ("succeeding PwC"), unless the claim turns the clause into
the passive and names the quote's subject as its agent."""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from tests.unit.gate.conftest import quotes

AUDITOR = (
    "Deloitte was appointed as intu’s external auditor for the 2019 audit following approval at the 2019 AGM, "
    "succeeding PwC."
)
IMFT = "Intel provided debt financing of $1.01 billion to IMFT in 2018 and IMFT repaid $316 million to Intel in 2019."
QUESTION = "Who is intu's external auditor for the 2019 audit?"


@pytest.mark.parametrize(
    ("claim", "line"),
    [
        ("Deloitte is intu's external auditor for the 2019 audit, having succeeded PwC.", AUDITOR),
        ("PwC was succeeded by Deloitte as intu's external auditor for the 2019 audit.", AUDITOR),
        ("IMFT repaid Intel $316 million in 2019.", IMFT),  # IMFT opens the quote's second clause
    ],
)
def test_a_name_in_its_quotes_role_passes(claim: str, line: str) -> None:
    assert meaning.problems(claim, quotes(line), QUESTION) == []


def test_a_name_turned_from_object_to_subject_is_a_meaning_change() -> None:
    claim = "PwC is intu's external auditor for the 2019 audit, having succeeded Deloitte."
    [problem] = meaning.problems(claim, quotes(AUDITOR), QUESTION)
    assert problem.code == "meaning" and problem.detail == "makes 'pwc' the subject where its quote makes another"


MAC = "Mac McDonald Mac McDonald (born Terence McDonald; 18 June 1949) is an American actor."


def test_a_name_right_after_a_verb_of_phase_is_its_object_not_the_subject() -> None:
    honest = "Two people go by that name, while Mac McDonald, born Terence McDonald, is an American actor."
    assert "meaning" not in [p.code for p in meaning.problems(honest, quotes(MAC))]
    # a phrase with such a verb before the subject leaves the subject in place
    hostile = "Founded in London, PwC was appointed as intu's external auditor for the 2019 audit, succeeding Deloitte."
    assert "meaning" in [p.code for p in meaning.problems(hostile, quotes(AUDITOR))]


OPEN = (
    "The 2013 China Open (known as the 2013 Bank of Beijing China Open for sponsorship reasons) was played on "
    "outdoor hard courts in Beijing."
)
WON = "Serena Williams won the 2013 China Open, defeating Jelena Janković in the final."


@pytest.mark.parametrize(
    "claim",
    [
        # a name is one subject, whatever common words it is made of ("Bank", "Open") and whatever particle joins them
        "The 2013 Bank of Beijing China Open was played on outdoor hard courts in Beijing.",
        "The 2013 Bank of Beijing China Open was won by Serena Williams.",  # the quote's subject named as agent
    ],
)
def test_a_multi_word_name_is_one_subject(claim: str) -> None:
    assert "meaning" not in [p.code for p in meaning.problems(claim, quotes(OPEN, WON))]


def test_a_name_given_another_role_is_still_a_meaning_change() -> None:
    claim = "PwC was appointed as the Bank of Beijing's external auditor for the 2019 audit, succeeding Deloitte."
    auditor = AUDITOR.replace("intu’s", "the Bank of Beijing's")
    assert "meaning" in [p.code for p in meaning.problems(claim, quotes(OPEN, WON, auditor))]


OFFICERS = "The Vice President acts in place of the President when the President is absent or unable to act."


def test_a_shorter_name_the_quote_writes_apart_is_another_name() -> None:
    """ "President" shares a word with "Vice President", but the quote names both: they are two subjects."""
    hostile = "The President acts in place of the Vice President when the Vice President is absent or unable to act."
    assert "meaning" in [p.code for p in meaning.problems(hostile, quotes(OFFICERS))]


def test_the_quotes_own_subject_and_its_short_form_pass() -> None:
    assert meaning.problems("The Vice President acts in place of the President when absent.", quotes(OFFICERS)) == []
    dunn = "Charles J. Dunn was an American jurist; Dunn lived in Michigan."
    assert "meaning" not in [p.code for p in meaning.problems("Dunn was an American jurist.", quotes(dunn))]


def test_a_name_before_its_titles_bracket_is_still_the_subject() -> None:
    """ "War Music (Slim the Mobster album) War Music is ...": the bracket tells which one; it modifies nothing."""
    title = (
        "War Music (Slim the Mobster album) War Music is the street album by American rapper Slim the Mobster, "
        "hosted by DJ Whoo Kid."
    )
    claim = 'One document says "War Music is the street album by American rapper Slim the Mobster."'
    assert "meaning" not in [p.code for p in meaning.problems(claim, quotes(title))]
