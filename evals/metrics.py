"""The metrics of cite-or-abstain, over a run's case scores (all of them, or one tag's).

Each metric is a share in [0, 1] (None when nothing was there to measure, e.g. no case expected a conflict),
except the counts and timings. `DIRECTION` says which way is better, for the regression gate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

from quotebound.evals.scoring import CaseScore


class Metrics(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cases: int
    passed: int
    outcome_accuracy: float | None
    answer_correctness: float | None
    citation_coverage_facts: float | None
    citation_coverage_sentences: float | None
    citation_resolvability: float | None
    refusal_precision: float | None
    refusal_recall: float | None
    leakage: int
    conflict_recall: float | None
    clarify_correctness: float | None
    latency_p50_ms: float | None
    latency_p95_ms: float | None
    tool_calls_per_question: float | None
    harness_errors: int


Direction = Literal["higher", "lower"]
DIRECTION: Final[dict[str, Direction]] = {
    "passed": "higher",
    "outcome_accuracy": "higher",
    "answer_correctness": "higher",
    "citation_coverage_facts": "higher",
    "citation_coverage_sentences": "higher",
    "citation_resolvability": "higher",
    "refusal_precision": "higher",
    "refusal_recall": "higher",
    "leakage": "lower",
    "conflict_recall": "higher",
    "clarify_correctness": "higher",
    "latency_p50_ms": "lower",
    "latency_p95_ms": "lower",
    "tool_calls_per_question": "lower",
    "harness_errors": "lower",
}


def _share(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100): a value that was measured, never an interpolation."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return round(ordered[rank - 1], 1)


def compute(scores: Sequence[CaseScore]) -> Metrics:
    answers = [s for s in scores if s.status == "answer"]
    expected_answers = [s for s in scores if s.expect == "answer"]
    abstained = [s for s in scores if s.status == "abstain"]
    should_abstain = [s for s in scores if s.expect == "abstain"]
    true_abstain = sum(s.expect == "abstain" for s in abstained)
    clarify_scored = [s for s in scores if s.clarify_ok is not None]
    completed = [s for s in scores if s.error is None]
    return Metrics(
        cases=len(scores),
        passed=sum(s.passed for s in scores),
        outcome_accuracy=_share(sum(s.outcome_ok for s in scores), len(scores)),
        answer_correctness=_share(sum(bool(s.answer_correct) for s in expected_answers), len(expected_answers)),
        citation_coverage_facts=_share(sum(s.facts_supported for s in answers), sum(s.facts for s in answers)),
        citation_coverage_sentences=_share(
            sum(s.sentences_supported for s in answers), sum(s.sentences for s in answers)
        ),
        citation_resolvability=_share(
            sum(s.citations_resolved for s in answers), sum(len(s.citations) for s in answers)
        ),
        refusal_precision=_share(true_abstain, len(abstained)),
        refusal_recall=_share(true_abstain, len(should_abstain)),
        leakage=sum(len(s.leaks) for s in scores),
        conflict_recall=_share(sum(s.conflicts_recalled for s in scores), sum(s.conflicts_expected for s in scores)),
        clarify_correctness=_share(sum(bool(s.clarify_ok) for s in clarify_scored), len(clarify_scored)),
        latency_p50_ms=percentile([s.latency_ms for s in completed], 50),
        latency_p95_ms=percentile([s.latency_ms for s in completed], 95),
        tool_calls_per_question=round(sum(s.tool_calls for s in scores) / len(scores), 2) if scores else None,
        harness_errors=sum(s.error is not None for s in scores),
    )


def by_tag(scores: Sequence[CaseScore]) -> dict[str, Metrics]:
    tags = sorted({tag for score in scores for tag in score.tags})
    return {tag: compute([s for s in scores if tag in s.tags]) for tag in tags}
