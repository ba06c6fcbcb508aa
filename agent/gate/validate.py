"""`validate_draft`: run every rule of the gate on a draft and score it. Milliseconds, no model, no embedding."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from quotebound.agent.core.contracts import Draft, EvidenceBundle, GateStatus
from quotebound.agent.gate.alignment import check_calc, check_span_alignment, cited_ids
from quotebound.agent.gate.checks import (
    Checked,
    check_citations,
    check_clarify,
    check_instructional,
    check_listed_conflicts,
    check_schema,
    check_support_present,
)
from quotebound.agent.gate.confidence import answer_confidence, citation_confidence, fact_confidence
from quotebound.agent.gate.conflict_checks import check_conflicts_in_bundles, check_conflicts_reported
from quotebound.agent.gate.conflicts import flagged_lines
from quotebound.agent.gate.evidence import QuoteVerifier, Verification
from quotebound.agent.gate.findings import Finding, FindingCode, GateReport
from quotebound.agent.gate.grounding import check_grounding
from quotebound.tools.context import ToolContext
from quotebound.tools.injection import FLAG_PREFIX


def verify_quotes(draft: Draft, verifier: QuoteVerifier) -> Checked:
    evidence = draft.evidence
    return Checked(
        support=[[verifier.verify(s.source_id, s.locator, s.quote) for s in f.support] for f in evidence.facts],
        conflicts=[[verifier.verify(v.source_id, v.locator, v.quote) for v in c.values] for c in evidence.conflicts],
    )


def _with_bundle_flags(
    flagged: Mapping[str, Sequence[str]] | None, bundles: Sequence[EvidenceBundle]
) -> dict[str, list[str]]:
    """`flagged` plus the instructional lines `resolve_evidence` flagged in the bundles: flags only ever add
    blocks, so taking the union is safe whoever computed them."""
    merged = {source_id: list(locators) for source_id, locators in (flagged or {}).items()}
    for bundle in bundles:
        for flag in bundle.flags:
            if flag.startswith(FLAG_PREFIX):
                merged.setdefault(bundle.source_id, []).append(flag[len(FLAG_PREFIX) :])
    return merged


def _secondary_only(checks: Sequence[Verification]) -> bool:
    return bool(checks) and all(c.provenance == "secondary" for c in checks)


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
    cited sources (`grounding.py`); the graph always passes it. Returns a `GateReport` whose `ok` is True when
    no finding blocks.
    """
    checked = verify_quotes(draft, QuoteVerifier(ctx, bundles))
    flagged_set = flagged_lines(_with_bundle_flags(flagged, bundles))
    findings: list[Finding] = [
        *check_clarify(draft, gate),
        *check_schema(draft),
        *check_support_present(draft),
        *check_citations(draft, checked),
        *check_instructional(draft, checked, flagged_set),
        *check_calc(draft, checked),
        *check_span_alignment(draft, checked),
        *check_listed_conflicts(draft, checked),
        *check_conflicts_reported(draft, conflict_tolerance_pct),
        *check_conflicts_in_bundles(draft, bundles, flagged_set, conflict_tolerance_pct),
    ]
    if question is not None:
        findings += check_grounding(draft, ctx, question, flagged_set, sorted(cited_ids(draft)))

    citations: list[list[float]] = []
    facts: list[float] = []
    secondary: list[int] = []
    for i, (fact, checks) in enumerate(zip(draft.evidence.facts, checked.support, strict=True)):
        scores = [citation_confidence(c.locator_confidence, c.quote_confidence) for c in checks]
        is_secondary = _secondary_only(checks)
        citations.append(scores)
        facts.append(fact_confidence(scores, depth=1 if fact.calc is not None else 0, secondary_only=is_secondary))
        if is_secondary:
            secondary.append(i)
            findings.append(
                Finding(
                    code=FindingCode.SECONDARY_ONLY,
                    message=f"fact {i} is supported only by secondary sources; its confidence is lowered",
                    fact_index=i,
                    blocking=False,
                )
            )
    weighted = [(conf, len(fact.support)) for conf, fact in zip(facts, draft.evidence.facts, strict=True)]
    return GateReport(
        ok=not any(f.blocking for f in findings),
        findings=findings,
        fact_confidence=facts,
        citation_confidence=citations,
        answer_confidence=answer_confidence(weighted),
        secondary_only=secondary,
    )
