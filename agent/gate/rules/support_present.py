"""Support present: every fact cites at least one quote, and an answer without a single citation abstains.

A fact with no quote is the model's word alone; nothing downstream could check it. An answer that cites
nothing at all is not an answer this project may give: it must be a report of insufficient evidence instead.
"""

from __future__ import annotations

from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs


def check(inputs: GateInputs) -> list[Finding]:
    evidence = inputs.draft.evidence
    findings = [
        Finding(
            code=FindingCode.NO_SUPPORT,
            message=f"fact {i} has no support; add a verbatim quote with its source_id and locator, or move "
            "the claim to gaps",
            fact_index=i,
        )
        for i, fact in enumerate(evidence.facts)
        if not fact.support
    ]
    if evidence.mode == "answer" and not any(f.support for f in evidence.facts):
        findings.append(
            Finding(
                code=FindingCode.NO_CITATIONS,
                message="an answer without a single citation must abstain: use mode 'report_insufficient_evidence'",
            )
        )
    return findings
