"""Listed conflicts are real: each value of a conflict the draft lists is quoted verbatim at its locator, and
the value itself appears in that quote.

Listing a conflict tells the user the documents disagree. A made-up disagreement is as false as a made-up
fact, so each side is held to the same standard as a support, and its value must be one its quote states.
"""

from __future__ import annotations

from quotebound.agent.gate.conflicts import parse_value
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.tokens import quote_keys
from quotebound.agent.gate.verification import citation_finding


def _value_in_quote(value: str, quote: str) -> bool:
    parsed = parse_value(value)
    if parsed.token is not None:
        return parsed.token.key in quote_keys(quote)
    return " ".join(value.casefold().split()) in " ".join(quote.casefold().split())


def check(inputs: GateInputs) -> list[Finding]:
    findings: list[Finding] = []
    for k, (conflict, checks) in enumerate(zip(inputs.draft.evidence.conflicts, inputs.conflict_checks, strict=True)):
        for m, (value, verification) in enumerate(zip(conflict.values, checks, strict=True)):
            where = f"conflict {k} ({conflict.key!r}) value {m}"
            if not verification.ok:
                findings.append(citation_finding(where, value.source_id, value.locator, verification, None))
                continue
            if not _value_in_quote(value.value, value.quote):
                findings.append(
                    Finding(
                        code=FindingCode.CONFLICT_VALUE_UNQUOTED,
                        message=f"{where}: the value {value.value!r} does not appear in its quote",
                        token=value.value,
                    )
                )
    return findings
