"""Conflict reporting is mandatory (hoa §3.3): two rules over the values of each fact's `key`.

(a) facts sharing a key whose values differ beyond tolerance must both be listed in one `evidence.conflicts`
    entry; (b) a line of a resolved bundle that mentions every content word of a fact's key and carries a
    value of the same kind that differs from the fact's must be listed too (value, source_id, a locator
    covering that line), together with the fact's own value. Calc facts are derived, not stated, and skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from quotebound.agent.core.contracts import Conflict, Draft, EvidenceBundle, Fact
from quotebound.agent.gate.conflicts import (
    FlaggedLines,
    Value,
    bundle_lines,
    competing_values,
    covers,
    differs,
    key_words,
    lists_value,
    parse_value,
)
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.tokens import value_token


def fact_value(fact: Fact) -> Value | None:
    """The value a fact states for its key: `value` when given, else the first figure or date of its text."""
    if fact.calc is not None or not fact.key:
        return None
    if fact.value is not None and fact.value.strip():
        return parse_value(fact.value)
    token = value_token(fact.text)
    return Value(token.text, token.kind, token) if token is not None else None


def group_key(key: str) -> str:
    """Keys naming the same words in another order ("assessment monthly") are one key."""
    return " ".join(sorted(key_words(key))) or " ".join(key.casefold().split())


def _keyed_values(draft: Draft) -> dict[str, list[tuple[int, Value]]]:
    groups: dict[str, list[tuple[int, Value]]] = {}
    for i, fact in enumerate(draft.evidence.facts):
        value = fact_value(fact)
        if value is not None and fact.key:
            groups.setdefault(group_key(fact.key), []).append((i, value))
    return groups


def _listed_together(conflicts: Sequence[Conflict], a: Value, b: Value, tolerance_pct: float) -> bool:
    return any(lists_value(c.values, a, tolerance_pct) and lists_value(c.values, b, tolerance_pct) for c in conflicts)


def _where(fact: Fact) -> str:
    return f"{fact.support[0].source_id} {fact.support[0].locator}" if fact.support else "no citation"


def check_conflicts_reported(draft: Draft, tolerance_pct: float = 1.0) -> list[Finding]:
    """(a): facts of one key that disagree."""
    facts, conflicts = draft.evidence.facts, draft.evidence.conflicts
    findings: list[Finding] = []
    for key, members in _keyed_values(draft).items():
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


def check_conflicts_in_bundles(
    draft: Draft, bundles: Sequence[EvidenceBundle], flagged: FlaggedLines, tolerance_pct: float = 1.0
) -> list[Finding]:
    """(b): competing values in the resolved bundles that the draft left out."""
    lines = list(bundle_lines(bundles))
    conflicts = draft.evidence.conflicts
    groups = _keyed_values(draft)
    findings: list[Finding] = []
    reported: set[tuple[str, str, int, int, object]] = set()
    for i, fact in enumerate(draft.evidence.facts):
        value = fact_value(fact)
        if value is None or not fact.key:
            continue
        group = group_key(fact.key)
        for line, token in competing_values(value, fact.key, lines, flagged, tolerance_pct):
            competitor = Value(token.text, token.kind, token)
            if any(not differs(competitor, other, tolerance_pct) for _, other in groups[group]):
                continue  # another fact states it: rule (a) covers the pair
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
