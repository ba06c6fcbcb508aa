"""Who holds a role (`extractive_role`): the name written beside the asked role word answers "who is the <role>";
a line that writes the role as a name with no name beside it answers nothing; other questions are left alone."""

from __future__ import annotations

import pytest

from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_rank import choose, rank
from quotebound.agent.models.extractive_role import role_holder, role_phrase, role_word, writes_role
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_values import extract_values

TREASURER = analyze("Who is the Association's treasurer?")


@pytest.mark.parametrize(
    ("question", "role"),
    [
        ("Who is the Association's treasurer?", "treasurer"),
        ("Who is the night patrol officer", "officer"),
        ("Who was the author of Moby Dick?", "author"),  # the role, not what it is the role of
        ("Who directed Titanic?", None),  # no copula: the rule does not apply
        ("Who is eligible to serve as a director?", None),
    ],
)
def test_the_role_word_is_the_head_of_the_noun_phrase_asked_about(question: str, role: str | None) -> None:
    assert role_word(analyze(question)) == role


@pytest.mark.parametrize(
    ("line", "holder", "phrase"),
    [
        (
            "Association directors present: Priya Raman (Treasurer) and Ellen Marsh (Director).",
            "Priya Raman",
            "Priya Raman (Treasurer)",
        ),
        ("Prepared by the Treasurer, Priya Raman, with Ridgeline Management.", "Priya Raman", "Treasurer, Priya Raman"),
    ],
)
def test_the_name_beside_the_role_holds_it(line: str, holder: str, phrase: str) -> None:
    values = extract_values(line)
    assert writes_role(TREASURER, values)
    found = role_holder(TREASURER, values, line)
    assert found is not None and found.text == holder
    assert line[found.start : found.start + len(holder)] == holder
    assert role_phrase(TREASURER, values, line) == phrase


@pytest.mark.parametrize(
    "line",
    [
        "The officers of the Association are a President, a Vice President, a Secretary and a Treasurer.",
        "The Treasurer presents the proposed annual budget to the Board.",
    ],
)
def test_a_line_that_only_mentions_the_role_names_no_holder(line: str) -> None:
    values = extract_values(line)
    assert writes_role(TREASURER, values)
    assert role_holder(TREASURER, values, line) is None
    assert role_phrase(TREASURER, values, line) is None


def test_the_holder_line_answers_and_agreeing_lines_come_with_it() -> None:
    pool = LinePool.from_texts(
        "minutes.md",
        [
            "The officers of the Association are a President, a Vice President, a Secretary and a Treasurer.",
            "Association directors present: Priya Raman (Treasurer) and Ellen Marsh (Director).",
            "Treasurer Priya Raman presented the Association's financial report.",
        ],
    )
    ranked = rank(TREASURER, build_index(TREASURER, pool), pool, Thresholds())
    assert all(s.value is not None and s.value.text == "Priya Raman" for s in ranked)
    chosen = choose(ranked, TREASURER, Thresholds())
    assert sorted(s.line.line_no for s in chosen) == [2, 3]
