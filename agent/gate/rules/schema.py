"""Schema: the draft is complete enough to show. All three levels are written; an answer states at least one
fact; an insufficient-evidence report names at least one gap.

The contracts accept empty strings and lists, so a draft can be well-formed and still say nothing. A user
reading an empty level, an "answer" with no fact behind it, or a refusal that does not say what is missing has
been told nothing they can check.
"""

from __future__ import annotations

from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs


def check(inputs: GateInputs) -> list[Finding]:
    draft = inputs.draft
    findings: list[Finding] = []
    levels = draft.levels
    for name, text in (("level1", levels.level1), ("level2", levels.level2), ("level3", levels.level3)):
        if not text.strip():
            findings.append(Finding(code=FindingCode.SCHEMA, message=f"{name} is empty; write all three levels"))
    evidence = draft.evidence
    if evidence.mode == "answer" and not evidence.facts:
        findings.append(
            Finding(
                code=FindingCode.SCHEMA,
                message="mode 'answer' needs at least one fact with a quote; otherwise use "
                "mode 'report_insufficient_evidence' with gaps",
            )
        )
    if evidence.mode == "report_insufficient_evidence" and not evidence.gaps:
        findings.append(
            Finding(
                code=FindingCode.SCHEMA,
                message="mode 'report_insufficient_evidence' needs at least one gap saying what is missing and why",
            )
        )
    return findings
