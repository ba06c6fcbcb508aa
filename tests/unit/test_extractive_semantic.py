"""A sentence answers by meaning only when no line answers by the question's words, its cosine to the question is
at or above the floor, it holds a value of the asked type, it says one of the question's words, and no sentence
with another value comes as close; without an embedder nothing changes."""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from quotebound.agent.models.base import DraftInput
from quotebound.agent.models.extractive import ExtractiveModel
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_semantic import asks_typed_value, framed, semantic_rank
from quotebound.agent.models.extractive_thresholds import Thresholds
from tests.unit.conftest import NO_TOOLS, whole_document

QUESTION = "When did version 3 come out?"
DATED = "Version 3, 29 June 2007"
UNDATED = "Version 3 of this license is what you receive."
OTHER_DATE = "Version 3 was drafted in 28 March 2007 meetings."


class _Cosines:
    """A stand-in for the MiniLM scorer: the question on axis 0, each listed text at its given cosine to it, every
    other text on an axis of its own."""

    def __init__(self, near: Mapping[str, float]) -> None:
        self.near = dict(near)

    def vectors(self, texts: Sequence[str]) -> list[Any]:
        found = []
        for text in texts:
            vector = np.zeros(4096, dtype=np.float32)
            if text == QUESTION:
                vector[0] = 1.0
            elif text in self.near:
                cosine = self.near[text]
                vector[0], vector[1 + zlib.crc32(text.encode()) % 4095] = cosine, np.sqrt(1 - cosine**2)
            else:
                vector[1 + zlib.crc32(text.encode()) % 4095] = 1.0
            found.append(vector)
        return found


def _rank(near: Mapping[str, float], *texts: str) -> list[str]:
    question = analyze(QUESTION)
    pool = LinePool.from_texts("gpl.txt", texts)
    index = build_index(question, pool)
    meaning = _Cosines({framed(line): c for line in pool.candidates() for t, c in near.items() if line.text == t})
    return [s.line.text for s in semantic_rank(question, index, pool, Thresholds(), meaning)]


def test_only_a_stated_value_of_a_precise_type_is_asked_by_meaning() -> None:
    assert asks_typed_value(analyze("When was the license published?"))
    assert asks_typed_value(analyze("How long do I have to cure a breach?"))
    assert not asks_typed_value(analyze("How many are there?"))  # a bare number, of nothing named, reads loosely
    assert not asks_typed_value(analyze("Who owns the copyright?"))
    assert not asks_typed_value(analyze("What is the annual fee if the monthly fee is quoted?"))  # a conversion


def test_the_closest_dated_sentence_answers_a_when_question() -> None:
    assert _rank({DATED: 0.8, UNDATED: 0.9}, DATED, UNDATED) == [DATED]


def test_a_close_sentence_without_a_value_of_the_asked_type_is_no_answer() -> None:
    assert _rank({UNDATED: 0.95}, UNDATED, "The license was written with care.") == []


def test_below_the_floor_nothing_answers() -> None:
    assert _rank({DATED: 0.6}, DATED) == []


def test_two_close_sentences_with_different_values_are_not_chosen_between() -> None:
    assert _rank({DATED: 0.8, OTHER_DATE: 0.75}, DATED, OTHER_DATE) == []
    assert _rank({DATED: 0.85, OTHER_DATE: 0.6}, DATED, OTHER_DATE) == [DATED]


def test_a_number_the_question_says_must_be_said_by_the_sentence() -> None:
    question = analyze("When did version 2 come out?")
    pool = LinePool.from_texts("gpl.txt", [DATED])
    meaning = _Cosines({framed(line): 0.95 for line in pool.candidates()})
    meaning.near[question.text] = 1.0  # the question on the sentence's axis too: as close as two texts get
    assert semantic_rank(question, build_index(question, pool), pool, Thresholds(), meaning) == []


def test_a_sentence_that_says_none_of_the_question_words_is_not_admitted() -> None:
    assert _rank({"Released 29 June 2007.": 0.9}, "Released 29 June 2007.") == []


def test_the_model_answers_by_meaning_only_with_an_embedder() -> None:
    bundle = whole_document("gpl.txt", f"{DATED}\n{UNDATED}")
    meaning = _Cosines({"gpl: " + DATED: 0.8})

    def values(with_meaning: bool) -> list[str]:
        request = DraftInput(
            question=QUESTION, bundles=[bundle], max_tool_calls=0, meaning=meaning if with_meaning else None
        )
        return [f.value or "" for f in ExtractiveModel().draft(request, NO_TOOLS).evidence.facts]

    assert values(True) == ["29 June 2007"]
    assert values(False) == []
