"""The quotes a draft cites that the gate found verbatim, one `CitedQuote` each, for the rules that judge a quote's
own span (its size, where it is cut). Supports come first, fact by fact, then listed conflict values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.verification import Verification


class CitedQuote(NamedTuple):
    where: str  # "fact 0 support 1", "conflict 0 value 1": how a finding names it
    fact_index: int | None
    source_id: str
    locator: str
    quote: str
    verification: Verification


def verified_quotes(inputs: GateInputs) -> Iterator[CitedQuote]:
    """Every cited quote whose verification is OK (the citations rule reports the others)."""
    evidence = inputs.draft.evidence
    for i, (fact, checks) in enumerate(zip(evidence.facts, inputs.support_checks, strict=True)):
        for j, (s, check) in enumerate(zip(fact.support, checks, strict=True)):
            if check.ok:
                yield CitedQuote(f"fact {i} support {j}", i, s.source_id, s.locator, s.quote, check)
    for k, (conflict, checks) in enumerate(zip(evidence.conflicts, inputs.conflict_checks, strict=True)):
        for m, (v, check) in enumerate(zip(conflict.values, checks, strict=True)):
            if check.ok:
                yield CitedQuote(f"conflict {k} value {m}", None, v.source_id, v.locator, v.quote, check)
