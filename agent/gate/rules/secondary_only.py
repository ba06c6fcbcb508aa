"""Secondary only: a fact whose every support comes from a secondary source (a summary, a newsletter, minutes
reporting on a document) is annotated, and its confidence is lowered; it is not blocked.

The quote is real, so the fact may ship, but a report about a document is weaker than the document itself, and
the user should know the answer leans on one.
"""

from __future__ import annotations

from quotebound.agent.gate.confidence import secondary_only
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs


def check(inputs: GateInputs) -> list[Finding]:
    return [
        Finding(
            code=FindingCode.SECONDARY_ONLY,
            message=f"fact {i} is supported only by secondary sources; its confidence is lowered",
            fact_index=i,
            blocking=False,
        )
        for i, checks in enumerate(inputs.support_checks)
        if secondary_only(checks)
    ]
