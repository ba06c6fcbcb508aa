"""Conflicts reported: when two facts give values for the same key that differ beyond tolerance, the draft
lists both together in one `evidence.conflicts` entry.

Picking one of two disagreeing documents silently hides the disagreement from the user, who may be relying on
the other. Keys naming the same words in another order are one key; calc facts are derived, not stated, and
state no value here. Differences are judged as in `conflicts.py` (numbers within `tolerance_pct`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from quotebound.agent.core.contracts import Conflict, Fact
from quotebound.agent.gate.conflicts import Value, differs, keyed_values, lists_value
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs


def _listed_together(conflicts: Sequence[Conflict], a: Value, b: Value, tolerance_pct: float) -> bool:
    return any(lists_value(c.values, a, tolerance_pct) and lists_value(c.values, b, tolerance_pct) for c in conflicts)


def _where(fact: Fact) -> str:
    return f"{fact.support[0].source_id} {fact.support[0].locator}" if fact.support else "no citation"


def check(inputs: GateInputs) -> list[Finding]:
    draft, tolerance_pct = inputs.draft, inputs.tolerance_pct
    facts, conflicts = draft.evidence.facts, draft.evidence.conflicts
    findings: list[Finding] = []
    for key, members in keyed_values(draft).items():
        distinct: list[tuple[int, Value]] = []
        for i, value in members:
            if all(differs(value, other, tolerance_pct) for _, other in distinct):
                distinct.append((i, value))
        for (i, a), (j, b) in combinations(distinct, 2):
            if _listed_together(conflicts, a, b, tolerance_pct):
                continue
            findings.append(
                Finding(
                    code=FindingCode.CONFLICT_OMITTED,
                    message=f"facts {i} and {j} give different values for {key!r}: {a.text!r} ({_where(facts[i])}) "
                    f"and {b.text!r} ({_where(facts[j])}); list both in evidence.conflicts with their quotes "
                    "and locators",
                    fact_index=j,
                    token=b.text,
                )
            )
    return findings
