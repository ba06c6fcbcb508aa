"""`gate/meaning/titles.py` through `meaning.problems`: a word of polarity inside a name the question asks about
("Never Again", "The Spy Who Never Was") is part of the name, not the writer's negation; a negator the question
does not name (a sentence-initial "Never", a capitalized "Not", a name used as a verb's adverb) still counts."""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from quotebound.agent.gate.meaning.reading import parse
from quotebound.agent.gate.meaning.titles import asked_titles, named_tokens
from tests.unit.gate.conftest import quotes

FILM = "The Spy Who Never Was The Spy Who Never Was is a 1956 UK war film directed by Ana Ruiz."
ALBUM = "Never Again (Lena album) Never Again is the second album by Lena Park."
RELEASE = "The album was released on March 3, 2011 by Blue Note."
PETS = "Pets are allowed in the garden."


def test_the_questions_titles_are_its_capitalized_runs_holding_a_word_of_polarity() -> None:
    assert asked_titles('Who directed the 1956 film "The Spy Who Never Was"?') == (
        ("the", "spy", "who", "never", "was"),
    )
    assert asked_titles("When was the Never Again album released?") == (("never", "again"),)
    assert asked_titles("Who directed Casablanca?") == ()
    assert asked_titles("Is No parking allowed?") == ()  # a lone capitalized negator is no name


@pytest.mark.parametrize(
    ("question", "claim", "quote"),
    [
        (
            'Who directed the 1956 film "The Spy Who Never Was"?',
            "It is a 1956 UK war film directed by Ana Ruiz.",
            FILM,
        ),
        (
            "When was the Never Again album released?",
            "Never Again was released on March 3, 2011 by Blue Note.",
            RELEASE,
        ),
        ('Who recorded the album "Never Again"?', "Never Again is the second album by Lena Park.", ALBUM),
    ],
)
def test_a_word_of_polarity_in_the_questions_title_is_part_of_the_name(question: str, claim: str, quote: str) -> None:
    assert meaning.problems(claim, quotes(quote), question=question) == []
    # the same claim, with no question to name the title, is read as a negation (the rule is what passes it)
    assert [p.code for p in meaning.problems(claim, quotes(quote))] == ["meaning"]


def test_a_claim_writing_the_title_as_the_quote_does_passes() -> None:
    claim = "The Spy Who Never Was was directed by Ana Ruiz."
    assert meaning.problems(claim, quotes(FILM), question='Who directed the 1956 film "The Spy Who Never Was"?') == []


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        # a sentence-initial "Never" not followed by the rest of the name
        ("When was the Never Again album released?", "Never was the album released on March 3, 2011."),
        # a name between a verb and a verb: the words of the clause, not the title
        ("When was the Never Again album released?", "The album was Never Again released on March 3, 2011."),
        # a capitalized "Not" the question does not name
        ("When was the Never Again album released?", "The album was Not released on March 3, 2011."),
    ],
)
def test_a_negation_outside_the_questions_title_still_counts(question: str, claim: str) -> None:
    found = meaning.problems(claim, quotes(RELEASE), question=question)
    assert [p.code for p in found] == ["meaning"]


def test_a_negation_added_next_to_the_title_still_counts() -> None:
    question = 'Are pets allowed in the garden of the "Never Again" house?'
    claim = "Pets are not allowed in the garden of the Never Again house."
    assert [p.code for p in meaning.problems(claim, quotes(PETS), question=question)] == ["meaning"]


def test_only_the_words_of_polarity_of_the_title_are_named() -> None:
    s = parse("Never Again was not released in 2011.")
    assert [s.toks[i].low for i in sorted(named_tokens(s, (("never", "again"),)))] == ["never"]


@pytest.mark.parametrize(("answer", "found"), [("Yes.", []), ("No.", ["meaning"])])
def test_a_bare_answer_reads_the_questions_title_as_a_name(answer: str, found: list[str]) -> None:
    """ "No" as an answer word denies the question's clause, title and all; the title's "Never" denies nothing."""
    question = 'Is "Never Again" the second album by Lena Park?'
    assert [p.code for p in meaning.problems(answer, quotes(ALBUM), question=question)] == found
