"""Conflicts in the bundles: a line of the resolved evidence that states, for a fact's key, a value of the same
kind that differs from the fact's must be listed in `evidence.conflicts` with the fact's own value, its source
and a locator covering that line.

The model saw that line. Answering from one passage while another passage it was given says otherwise is an
omitted conflict, even if the model never quoted the other one. A line counts as stating a value for the key
when it mentions every content word of the key and the value sits near one of them; lines flagged as
instructional text are never read, and a value another fact already states is left to `conflicts_reported`.
"""

from __future__ import annotations

from quotebound.agent.gate.conflicts import (
    Value,
    bundle_lines,
    competing_values,
    covers,
    differs,
    fact_value,
    group_key,
    keyed_values,
    lists_value,
    parse_value,
)
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs


def check(inputs: GateInputs) -> list[Finding]:
    draft, tolerance_pct = inputs.draft, inputs.tolerance_pct
    lines = list(bundle_lines(inputs.bundles))
    conflicts = draft.evidence.conflicts
    groups = keyed_values(draft)
    findings: list[Finding] = []
    reported: set[tuple[str, str, int, int, object]] = set()
    for i, fact in enumerate(draft.evidence.facts):
        value = fact_value(fact)
        if value is None or not fact.key:
            continue
        group = group_key(fact.key)
        for line, token in competing_values(value, fact.key, lines, inputs.flagged, tolerance_pct):
            competitor = Value(token.text, token.kind, token)
            if any(not differs(competitor, other, tolerance_pct) for _, other in groups[group]):
                continue  # another fact states it: conflicts_reported covers the pair
            seen = (group, line.source_id, line.page, line.line, token.key)
            if seen in reported:
                continue
            reported.add(seen)
            listed = any(
                lists_value(c.values, value, tolerance_pct)
                and any(
                    covers(v, line.source_id, line.page, line.line)
                    and not differs(parse_value(v.value), competitor, tolerance_pct)
                    for v in c.values
                )
                for c in conflicts
            )
            if not listed:
                findings.append(
                    Finding(
                        code=FindingCode.CONFLICT_OMITTED,
                        message=f"{line.source_id} {line.locator} states {token.text!r} for {fact.key!r}, which "
                        f"differs from fact {i}'s {value.text!r}; list both values in evidence.conflicts with "
                        f"their quotes and locators",
                        fact_index=i,
                        token=token.text,
                    )
                )
    return findings
