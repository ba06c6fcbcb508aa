"""A joint question over the unknown-word limit is answered in the one part whose own words pass it, by the
ordinary reading; a single question over the limit, or one whose parts both fail it, still abstains."""

from __future__ import annotations

from quotebound.agent.models.base import DraftInput
from quotebound.agent.models.extractive import ExtractiveModel
from quotebound.agent.models.extractive_known_part import known_part, within_limit
from quotebound.agent.models.extractive_parts import clauses
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_thresholds import Thresholds
from tests.unit.conftest import NO_TOOLS, whole_document

OFFICER = "Night patrol officer: Jordan Alvarez."
ROUNDS = "Patrol rounds: three visits each night."
JOINT = "Who is the night patrol officer, and how often does the patrol come by?"  # "often", "come": no line


def _pool() -> LinePool:
    return LinePool.from_texts("security.md", [OFFICER, ROUNDS])


def _answers(question: str) -> list[str]:
    bundle = whole_document("security.md", f"{OFFICER}\n{ROUNDS}")
    request = DraftInput(question=question, bundles=[bundle], max_tool_calls=0)
    return [f.support[0].quote for f in ExtractiveModel().draft(request, NO_TOOLS).evidence.facts]


def test_the_limit_is_the_share_of_words_no_line_spells() -> None:
    spelled = analyze("Who is the night patrol officer?")
    assert within_limit(spelled, build_index(spelled, _pool()), Thresholds())
    unspelled = analyze("Who dismissed the patrol officer yesterday?")
    assert not within_limit(unspelled, build_index(unspelled, _pool()), Thresholds())


def test_the_one_part_within_the_limit_is_asked_alone() -> None:
    found = known_part(clauses(JOINT), _pool(), None, Thresholds())
    assert found is not None and found[0].text == "Who is the night patrol officer?"


def test_no_part_when_the_question_is_single_or_no_part_passes() -> None:
    assert known_part(None, _pool(), None, Thresholds()) is None
    both_unknown = clauses("Who dismissed the guard yesterday, and why was he replaced?")
    assert known_part(both_unknown, _pool(), None, Thresholds()) is None


def test_the_model_answers_the_spoken_part_of_a_joint_question() -> None:
    assert _answers(JOINT) == [OFFICER]


def test_a_single_question_over_the_limit_still_abstains() -> None:
    assert _answers("Who dismissed the patrol officer yesterday?") == []
