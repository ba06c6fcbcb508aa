"""A "how many X" question is answered by meaning only with a number that X directly follows; a line whose
numbers count something else ("three (3) of the five") gives the count of X it states, or none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from quotebound.agent.models.extractive_counted import counted_noun, counted_value
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_semantic import asks_typed_value, semantic_rank
from quotebound.agent.models.extractive_thresholds import Thresholds

QUESTION = "How many directors sit on the Board?"  # "sit": no line spells it
QUORUM = "A majority of the directors, that is three (3) of the five (5) directors, is a quorum of the Board."
VACANCY = "A vacancy on the Board is filled by a majority vote of the remaining 4 members."


class _Close:
    """Every text equally close to the question: only the count reading decides."""

    def vectors(self, texts: Sequence[str]) -> list[Any]:
        return [np.full(4, 0.5, dtype=np.float32) for _ in texts]


def test_the_counted_noun_is_the_word_after_how_many() -> None:
    assert counted_noun(analyze(QUESTION)) == "director"
    assert counted_noun(analyze("What is the number of directors?")) is None


def test_the_count_is_the_number_the_noun_follows() -> None:
    assert (value := counted_value("director", QUORUM)) is not None and value.text == "5"
    assert (value := counted_value("director", "All five directors were present.")) is not None
    assert value.text == "five"
    assert counted_value("director", VACANCY) is None  # 4 counts members
    assert counted_value("director", "Vote: 5 in favor, 0 opposed.") is None


def test_a_count_of_a_named_noun_is_asked_by_meaning() -> None:
    assert asks_typed_value(analyze(QUESTION))
    assert not asks_typed_value(analyze("How many are there?"))


def _rank(*texts: str) -> list[str | None]:
    question = analyze(QUESTION)
    pool = LinePool.from_texts("bylaws.md", texts)
    index = build_index(question, pool)
    ranked = semantic_rank(question, index, pool, Thresholds(), _Close())
    return [s.value.text if s.value is not None else None for s in ranked]


def test_the_sentence_answers_with_the_count_of_the_asked_noun() -> None:
    assert _rank(QUORUM, VACANCY) == ["5"]


def test_two_equally_close_different_counts_are_no_answer() -> None:
    assert _rank(QUORUM, "Three directors are elected in odd-numbered years.") == []
