"""One word in two inflections (`extractive_inflect`): a verb's -ed and -ing forms meet its base both ways, by
English spelling rules; short bases join nothing, and a line saying the act in another tense answers."""

from __future__ import annotations

import pytest

from quotebound.agent.models.extractive_inflect import bases, inflected
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_rank import rank
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_thresholds import Thresholds


@pytest.mark.parametrize(
    ("word", "other"),
    [("budgeted", "budget"), ("maintaining", "maintain"), ("serving", "serve"), ("planned", "plan")],
)
def test_a_verb_form_meets_its_base_both_ways(word: str, other: str) -> None:
    assert inflected(word, {other})
    assert inflected(other, {word})


@pytest.mark.parametrize(("word", "other"), [("used", "us"), ("need", "ne"), ("status", "statue"), ("ring", "r")])
def test_short_bases_and_other_endings_join_nothing(word: str, other: str) -> None:
    assert not inflected(word, {other})


def test_a_word_is_not_its_own_inflection() -> None:
    assert "budget" in bases("budget")
    assert not inflected("budget", {"budget"})


def test_a_header_saying_the_verbs_noun_frames_the_row_and_a_line_in_another_tense_does_not_answer() -> None:
    question = analyze("How much is budgeted for snow removal?")
    pool = LinePool.from_texts("budget.md", ["| Item | Budget |", "| --- | --- |", "| Snow removal | $4,800 |"])
    index = build_index(question, pool)
    assert "budgeted" not in index.unknown  # the header says it as a noun
    ranked = rank(question, index, pool, Thresholds())
    assert ranked and ranked[0].value is not None and ranked[0].value.text == "$4,800"
    # a line's own words must say the question's: "served" in a sentence is no "serve" of the question
    question = analyze("When did Lawrence serve as Attorney General?")
    pool = LinePool.from_texts("bio.txt", ["Lawrence served as Attorney General from 1900 to 1902."])
    assert "serve" in build_index(question, pool).unknown
