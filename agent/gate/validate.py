"""`validate_draft`: gather what the rules need from the store, run every rule, and score the draft.
Milliseconds, no model, no embedding. `judge` is the same without the store, for inputs built by hand.

Both fail closed on a draft past the gate's input bounds or deadline (`bounds.py`): the report blocks with an
`input_bounds` finding, and no exception leaves the gate for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from quotebound.agent.core.contracts import Draft, EvidenceBundle, GateStatus
from quotebound.agent.gate.bounds import (
    DEFAULT_BOUNDS,
    Bounds,
    DeadlineExceeded,
    bounds_findings,
    check_deadline,
    deadline,
    deadline_finding,
)
from quotebound.agent.gate.confidence import answer_confidence, citation_confidence, fact_confidence, secondary_only
from quotebound.agent.gate.findings import Finding, GateReport
from quotebound.agent.gate.gather import gather_inputs
from quotebound.agent.gate.inputs import GateInputs, Paraphrase
from quotebound.agent.gate.rules import RULES
from quotebound.tools.context import ToolContext


def blocked(draft: Draft, findings: list[Finding]) -> GateReport:
    """A report that blocks with `findings` and gives every fact and citation confidence 0 (nothing was scored)."""
    facts = draft.evidence.facts
    return GateReport(
        ok=False,
        findings=findings,
        fact_confidence=[0.0] * len(facts),
        citation_confidence=[[0.0] * len(f.support) for f in facts],
    )


def judge(inputs: GateInputs, *, bounds: Bounds = DEFAULT_BOUNDS) -> GateReport:
    """Run `RULES` over `inputs` and score each citation, fact and the answer from the gate's own checks.
    A draft past `bounds`, or rules still running at the deadline, block with `input_bounds`."""
    over = bounds_findings(inputs.draft, bounds)
    if over:
        return blocked(inputs.draft, over)
    return _run_rules(inputs, bounds)


def _run_rules(inputs: GateInputs, bounds: Bounds) -> GateReport:
    """`judge` for a draft already inside `bounds` (`validate_draft` checks them before it reads the store)."""
    findings: list[Finding] = []
    try:
        with deadline(bounds.deadline_ms):
            for rule in RULES:
                check_deadline()
                findings.extend(rule.check(inputs))
    except DeadlineExceeded:
        return blocked(inputs.draft, [*findings, deadline_finding(bounds.deadline_ms)])
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
    bounds: Bounds = DEFAULT_BOUNDS,
    paraphrase: Paraphrase | None = None,
) -> GateReport:
    """Check `draft` against the corpus as `ctx`'s caller may see it (and the `bundles` resolved for it).

    `flagged` maps a source_id to the locators of lines flagged as instructional text (the bundles' own
    `instructional_text:<locator>` flags are added); a quote from such a line is never support. With the
    `question` (and the details the user supplied), each claim shown must also be supported by its own quotes,
    the question naming its subject only (`rules/claim_support.py`); the graph always passes it. `paraphrase`
    lets that rule accept close rewordings (the store's embedder, `paraphrase.paraphrase_scorer`). Returns a
    `GateReport` whose `ok` is True when no finding blocks. A draft past `bounds` blocks before the store is
    read; the deadline counts from here.
    """
    over = bounds_findings(draft, bounds)
    if over:
        return blocked(draft, over)
    try:
        with deadline(bounds.deadline_ms):
            inputs = gather_inputs(
                draft,
                bundles=bundles,
                ctx=ctx,
                gate=gate,
                flagged=flagged,
                conflict_tolerance_pct=conflict_tolerance_pct,
                question=question,
                paraphrase=paraphrase,
            )
            return _run_rules(inputs, bounds)
    except DeadlineExceeded:  # while gathering (judge reports its own)
        return blocked(draft, [deadline_finding(bounds.deadline_ms)])
