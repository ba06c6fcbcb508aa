"""The gate's rules, one module each, and `RULES`: the one list of them, in the order they run.

Every rule is `check(inputs: GateInputs) -> list[Finding]`, a pure function of what `gather.py` collected: no
store, no model. The order is the order of the findings in a report (the drafting model reads them in it), so
structure comes first, then the quotes, then the figures, the conflicts, the words, and the annotations last.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from quotebound.agent.gate.findings import Finding
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import (
    answerhood,
    calc,
    citations,
    claim_support,
    clarify,
    conflicts_in_bundles,
    conflicts_reported,
    instructional,
    listed_conflicts,
    meaning,
    negating_prefix,
    quote_clause,
    quote_size,
    schema,
    secondary_only,
    span_alignment,
    support_present,
)

Check = Callable[[GateInputs], list[Finding]]


@dataclass(frozen=True)
class Rule:
    name: str  # the rule's module under `rules/`
    check: Check


RULES: tuple[Rule, ...] = (
    Rule("clarify", clarify.check),
    Rule("schema", schema.check),
    Rule("support_present", support_present.check),
    Rule("citations", citations.check),
    Rule("quote_size", quote_size.check),
    Rule("quote_clause", quote_clause.check),
    Rule("instructional", instructional.check),
    Rule("calc", calc.check),
    Rule("span_alignment", span_alignment.check),
    Rule("meaning", meaning.check),
    Rule("negating_prefix", negating_prefix.check),
    Rule("listed_conflicts", listed_conflicts.check),
    Rule("conflicts_reported", conflicts_reported.check),
    Rule("conflicts_in_bundles", conflicts_in_bundles.check),
    Rule("claim_support", claim_support.check),
    Rule("answerhood", answerhood.check),
    Rule("secondary_only", secondary_only.check),
)


def run_rules(inputs: GateInputs) -> list[Finding]:
    """Every rule's findings, in `RULES` order."""
    return [finding for rule in RULES for finding in rule.check(inputs)]


__all__ = ["RULES", "Check", "Rule", "run_rules"]
