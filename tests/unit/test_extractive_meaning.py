"""The extractive model's paraphrase reading: a question word said in other words by a line (the embedder's
cosine, here a fixed table of unit vectors) earns coverage; numbers, units of time and unrelated words do not."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from quotebound.agent.models.base import Meaning
from quotebound.agent.models.extractive_meaning import sense_credit, senses
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_rank import rank
from quotebound.agent.models.extractive_score import build_index, says_enough
from quotebound.agent.models.extractive_thresholds import Thresholds

# Unit vectors: "allowed" and "permitted" at cosine 0.9, "year" and "annual" at 0.9, everything else orthogonal.
_AXES = {"allowed": 0, "permitted": 0, "year": 1, "annual": 1, "company": 2, "llc": 2}
_LEAN = {"permitted": 3, "annual": 4, "llc": 5}


class FakeMeaning:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        self.asked.extend(texts)
        found = []
        for text in texts:
            vector = np.zeros(64, dtype=np.float32)
            if text in _LEAN:
                vector[_AXES[text]], vector[_LEAN[text]] = 0.9, np.sqrt(1 - 0.81)
            elif text in _AXES:
                vector[_AXES[text]] = 1.0
            else:
                vector[6 + hash(text) % 58] = 1.0
            found.append(vector)
        return found


def test_the_fake_is_a_meaning() -> None:
    assert isinstance(FakeMeaning(), Meaning)


def test_a_word_close_in_meaning_is_found_and_credited_at_its_cosine() -> None:
    found = senses(["allowed"], ["permitted", "boat"], FakeMeaning(), 0.6)
    assert set(found["allowed"]) == {"permitted"}
    assert abs(sense_credit("allowed", {"permitted"}, found, 0.6) - 0.9) < 1e-5
    assert sense_credit("allowed", {"boat"}, found, 0.6) == 0.0
    assert sense_credit("allowed", {"permitted"}, found, 0.95) == 0.0  # below the floor: no credit


def test_units_of_time_numbers_and_no_embedder_match_exactly_or_not_at_all() -> None:
    meaning = FakeMeaning()
    assert senses(["year", "2025"], ["annual", "2024"], meaning, 0.6) == {}
    assert "year" not in meaning.asked and "2025" not in meaning.asked
    assert senses(["allowed"], ["permitted"], None, 0.6) == {}


def _pool(*texts: str) -> LinePool:
    pool = LinePool.from_texts("rules.md", texts)
    return pool


def test_a_line_saying_the_question_in_other_words_answers_only_with_an_embedder() -> None:
    # not a yes/no question: there any deontic word says "allowed" (`extractive_polarity`), embedder or not
    question = analyze("Which boats are allowed on the dock?")
    pool = _pool("Boats are permitted on the dock.", "The dock opens at noon.")
    t = Thresholds()
    plain = rank(question, build_index(question, pool), pool, t)
    read = rank(question, build_index(question, pool, FakeMeaning(), t.meaning_floor), pool, t)
    assert read and read[0].line.line_no == 1
    assert read[0].coverage > (plain[0].coverage if plain else 0.0)


def test_a_reworded_word_counts_as_known_only_for_a_line_that_says_it() -> None:
    question = analyze("Which company holds the contract?")
    pool = _pool("Greenway LLC holds the contract.", "The contract premium holds at $5.")
    t = Thresholds()
    index = build_index(question, pool, FakeMeaning(), t.meaning_floor)
    assert index.reworded == ("company",)
    assert says_enough(question, index, pool.lines[("rules.md", 1, 1)], t)
    assert not says_enough(question, index, pool.lines[("rules.md", 1, 2)], t)
