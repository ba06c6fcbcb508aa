"""`validate_draft`: gather what the rules need from the store, run every rule, and score the draft.
Milliseconds, no model, no embedding. `judge` is the same without the store, for inputs built by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from quotebound.agent.core.contracts import Draft, EvidenceBundle, GateStatus
from quotebound.agent.gate.confidence import answer_confidence, citation_confidence, fact_confidence, secondary_only
from quotebound.agent.gate.findings import GateReport
from quotebound.agent.gate.gather import gather_inputs
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import run_rules
from quotebound.tools.context import ToolContext


def judge(inputs: GateInputs) -> GateReport:
    """Run `RULES` over `inputs` and score each citation, fact and the answer from the gate's own checks."""
    findings = run_rules(inputs)
    facts = inputs.draft.evidence.facts
    citations: list[list[float]] = []
    fact_scores: list[float] = []
    secondary: list[int] = []
    for i, (fact, checks) in enumerate(zip(facts, inputs.support_checks, strict=True)):
        scores = [citation_confidence(c.locator_confidence, c.quote_confidence) for c in checks]
        is_secondary = secondary_only(checks)
        citations.append(scores)
        fact_scores.append(
            fact_confidence(scores, depth=1 if fact.calc is not None else 0, secondary_only=is_secondary)
        )
        if is_secondary:
            secondary.append(i)
    weighted = [(conf, len(fact.support)) for conf, fact in zip(fact_scores, facts, strict=True)]
    return GateReport(
        ok=not any(f.blocking for f in findings),
        findings=findings,
        fact_confidence=fact_scores,
        citation_confidence=citations,
        answer_confidence=answer_confidence(weighted),
        secondary_only=secondary,
    )


def validate_draft(
    draft: Draft,
    *,
    bundles: Sequence[EvidenceBundle],
    ctx: ToolContext,
    gate: GateStatus = "proceed",
    flagged: Mapping[str, Sequence[str]] | None = None,
    conflict_tolerance_pct: float = 1.0,
    question: str | None = None,
) -> GateReport:
    """Check `draft` against the corpus as `ctx`'s caller may see it (and the `bundles` resolved for it).

    `flagged` maps a source_id to the locators of lines flagged as instructional text (the bundles' own
    `instructional_text:<locator>` flags are added); a quote from such a line is never support. With the
    `question` (and the details the user supplied), every word shown must also be grounded in it or in the
    cited sources (`rules/grounding.py`); the graph always passes it. Returns a `GateReport` whose `ok` is True
    when no finding blocks.
    """
    inputs = gather_inputs(
        draft,
        bundles=bundles,
        ctx=ctx,
        gate=gate,
        flagged=flagged,
        conflict_tolerance_pct=conflict_tolerance_pct,
        question=question,
    )
    return judge(inputs)
