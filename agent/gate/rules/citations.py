"""Citations: each support names a source the caller may read, a locator in that source's index, and a quote
found verbatim at that locator.

A citation is only worth something if a reader who follows it finds the quoted words there. A made-up source,
a made-up locator or a paraphrase dressed as a quote would send them to nothing, or to different words. A
source the caller may not read fails exactly like a missing one, so the finding reveals nothing about it.
"""

from __future__ import annotations

from quotebound.agent.gate.findings import Finding
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.verification import citation_finding


def check(inputs: GateInputs) -> list[Finding]:
    findings: list[Finding] = []
    for i, (fact, checks) in enumerate(zip(inputs.draft.evidence.facts, inputs.support_checks, strict=True)):
        for j, (support, verification) in enumerate(zip(fact.support, checks, strict=True)):
            if not verification.ok:
                where = f"fact {i} support {j}"
                findings.append(citation_finding(where, support.source_id, support.locator, verification, i))
    return findings
