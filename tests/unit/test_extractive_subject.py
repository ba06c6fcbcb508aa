"""A line that names the question's subject only as a modifier of a group speaks of the group (`extractive_subject`)."""

from __future__ import annotations

import pytest

from quotebound.agent.models.extractive_pool import Line
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_score import Scored, answers
from quotebound.agent.models.extractive_subject import names_only_a_group, subject_names
from quotebound.agent.models.extractive_thresholds import Thresholds

MEDIUM = analyze("What is the primary medium associated with the New York School?")
GROUP_LINE = (
    "Concerning the New York School abstract expressionist painters, critics argued that their primary medium was"
    " abstract expressionist painting."
)


def test_subject_names_are_the_questions_capitalized_words_after_the_first() -> None:
    assert subject_names(MEDIUM) == {"new", "york", "school"}
    assert subject_names(analyze("What is the quorum?")) == frozenset()


@pytest.mark.parametrize(
    "line",
    [
        GROUP_LINE,
        "The New York School poets were prolific and their primary medium was poetry.",
        "Members of the press said the New York School students' primary medium was collage.",
        "Critics said the New York School's painters worked large; their primary medium was oil.",
    ],
)
def test_a_subject_named_only_before_a_groups_plural_noun_is_not_the_subject(line: str) -> None:
    assert names_only_a_group(MEDIUM, line)


@pytest.mark.parametrize(
    "line",
    [
        "The primary medium of the New York School was poetry.",
        "The New York School favored poetry as its primary medium.",
        "The New York School emphasizes spontaneous creations in its primary medium.",  # a verb, not a noun
        "The New York School paints the city as its primary medium.",  # a verb taking an object
        "The New York School poets, like the New York School itself, favored poetry.",  # named on its own too
        "Poetry was the primary medium.",  # never named in full: not judged here
        "The New York School Press printed poetry.",  # another name (a press), not judged here
        "Median age in New York School Both sexes",  # a flattened table's labels: another run than the name
        "The New York School produced abstract paintings as its primary medium.",  # a verb form and its object
        "The primary medium of the New York School amounts to poetry.",  # a verb and its complement
        "The New York School consists of poets whose primary medium is poetry.",
    ],
)
def test_a_subject_named_on_its_own_or_not_in_full_is_not_judged(line: str) -> None:
    assert not names_only_a_group(MEDIUM, line)


def test_the_groups_noun_may_be_what_the_question_asks_about() -> None:
    question = analyze("How many employees does Acme have?")
    assert not names_only_a_group(question, "Acme employees are 5,000 in all.")
    assert names_only_a_group(question, "Acme board members are 7 in all.")


def test_a_question_without_a_name_is_not_judged() -> None:
    assert not names_only_a_group(analyze("what is the primary medium of painters?"), GROUP_LINE)


def scored(text: str) -> Scored:
    return Scored(Line("a.txt", 1, 1, text), 1.0, 1.0, None, None, True, None)


def test_the_line_scorer_takes_no_answer_from_a_line_about_a_group() -> None:
    assert not answers(MEDIUM, scored(GROUP_LINE), Thresholds())
    assert answers(MEDIUM, scored("The primary medium of the New York School was poetry."), Thresholds())
