"""A joint question is split into its two questions, the second carrying the first's subject; one question is not."""

from __future__ import annotations

import pytest

from quotebound.agent.models.base import DraftInput
from quotebound.agent.models.extractive import ExtractiveModel
from quotebound.agent.models.extractive_parts import clauses
from tests.unit.conftest import NO_TOOLS, whole_document


def test_two_wh_clauses_joined_by_and_are_two_questions() -> None:
    assert clauses("When is the annual meeting of the Owners held, and at what time does it begin?") == (
        "When is the annual meeting of the Owners held?",
        "At what time does it begin? (the annual meeting of the Owners held)",
    )
    assert clauses("What is the fee and who collects it?") == ("What is the fee?", "Who collects it? (the fee)")


@pytest.mark.parametrize(
    "text",
    [
        "Which units have decks and patios?",
        "How many directors and officers are there?",
        "Is the pool open and who runs it?",  # not a wh-question: a yes/no question is answered whole
        "What is the fee?",
    ],
)
def test_one_question_is_not_split(text: str) -> None:
    assert clauses(text) is None


JOINT = "When is the annual meeting of the Owners held, and at what time does it begin?"


def _draft(*texts: str) -> list[str]:
    bundle = whole_document("bylaws.md", "\n".join(texts))
    draft = ExtractiveModel().draft(DraftInput(question=JOINT, bundles=[bundle], max_tool_calls=0), NO_TOOLS)
    return [s.locator for f in draft.evidence.facts for s in f.support]


def test_each_part_is_answered_by_its_own_line() -> None:
    held = "The annual meeting of the Owners is held on the second Tuesday of January."
    begins = "The annual meeting begins at 7:00 p.m. unless the notice states another time."
    assert _draft(held, begins) == ["p.1 L1-L1", "p.1 L2-L2"]


def test_a_line_answering_both_parts_is_quoted_once() -> None:
    both = "The annual meeting of the Owners is held on the second Tuesday of January and begins at 7:00 p.m."
    assert _draft(both, "The Board meets monthly.") == ["p.1 L1-L1"]
