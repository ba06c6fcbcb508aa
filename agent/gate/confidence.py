"""Confidence, computed from the gate's own verification of each quote, never from what the model claims.

citation_confidence = min(locator_confidence, quote_confidence)
    locator: 1.0 when the locator is in the index, else 0; quote: 1.0 verbatim, WHITESPACE_MATCH when
    verbatim only once whitespace is collapsed, 0 when not found.
fact_confidence     = mean(citation_confidence) * inferred_penalty * secondary factor
    inferred_penalty = 1 - 0.1 * depth (a fact derived with calc has depth 1: one step away from the quotes);
    secondary factor = SECONDARY_FACTOR when only secondary sources (a summary, a newsletter) support the fact,
    which is weaker than the primary document it reports on.
answer_confidence   = average of fact confidences weighted by each fact's number of supports.
"""

from __future__ import annotations

from collections.abc import Sequence

from quotebound.agent.gate.verification import Verification

WHITESPACE_MATCH = 0.9
SECONDARY_FACTOR = 0.8
DEPTH_STEP = 0.1


def citation_confidence(locator_confidence: float, quote_confidence: float) -> float:
    return min(locator_confidence, quote_confidence)


def inferred_penalty(depth: int) -> float:
    return max(0.0, 1.0 - DEPTH_STEP * depth)


def fact_confidence(citations: Sequence[float], *, depth: int = 0, secondary_only: bool = False) -> float:
    if not citations:
        return 0.0
    mean = sum(citations) / len(citations)
    factor = SECONDARY_FACTOR if secondary_only else 1.0
    return round(mean * inferred_penalty(depth) * factor, 6)


def answer_confidence(facts: Sequence[tuple[float, int]]) -> float:
    """`facts` holds (fact confidence, number of supports); facts without support weigh nothing."""
    total = sum(weight for _, weight in facts)
    if total == 0:
        return 0.0
    return round(sum(conf * weight for conf, weight in facts) / total, 6)


def secondary_only(checks: Sequence[Verification]) -> bool:
    """True when a fact has supports and every one of them comes from a secondary source."""
    return bool(checks) and all(c.provenance == "secondary" for c in checks)
