"""Builders for the gate's rule tests: drafts from the contracts, and `GateInputs` with hand-made verifications.

No store anywhere: a rule is a function of its `GateInputs`, so a test states what the gate found (a quote
verbatim, a fake locator, a line flagged as instructional ...) and checks what the rule decides.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest

from quotebound.agent.core.contracts import (
    AnswerLevels,
    AnswerObject,
    Conflict,
    Draft,
    EvidenceBundle,
    Fact,
    Gap,
    Locator,
    PolicyDecision,
    ProvenanceKind,
)
from quotebound.agent.gate.claims import QuoteSpan
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.verification import Status, Verification


def quotes(*lines: str) -> list[QuoteSpan]:
    """One quote per line of a one-page "doc.md", each at its own line, the quote the whole line."""
    return [QuoteSpan("doc.md", f"p.1 L{i + 1}-L{i + 1}", line, line) for i, line in enumerate(lines)]


def verbatim(locator: str, provenance: ProvenanceKind = "primary") -> Verification:
    """A quote found verbatim at `locator` (one occurrence, covering the whole locator)."""
    span = Locator.parse(locator)
    return Verification(Status.OK, 1.0, 1.0, provenance, ((span.page, span.line_start, span.line_end),))


def build_draft(
    *facts: Fact,
    level1: str = "See the quotes.",
    level2: str = "See the quotes.",
    level3: str = "Citations: see the quotes",
    mode: str = "answer",
    answer: str = "",
    analysis: str = "",
    conflicts: Sequence[Conflict] = (),
    gaps: Sequence[Gap] = (),
) -> Draft:
    return Draft(
        levels=AnswerLevels(level1=level1, level2=level2, level3=level3),
        evidence=AnswerObject.model_validate(
            {
                "mode": mode,
                "answer": answer,
                "analysis": analysis,
                "facts": list(facts),
                "conflicts": list(conflicts),
                "gaps": list(gaps),
            }
        ),
    )


def build_inputs(
    draft: Draft,
    *,
    checks: Mapping[tuple[int, int], Verification] | None = None,
    conflict_checks: Mapping[tuple[int, int], Verification] | None = None,
    provenance: ProvenanceKind = "primary",
    **fields: Any,
) -> GateInputs:
    """`GateInputs` for `draft` where every quote was found verbatim at its locator, except the ones `checks`
    (fact, support) and `conflict_checks` (conflict, value) say otherwise. `fields` are GateInputs' others."""
    checks, conflict_checks = checks or {}, conflict_checks or {}
    evidence = draft.evidence
    return GateInputs(
        draft=draft,
        support_checks=tuple(
            tuple(checks.get((i, j), verbatim(s.locator, provenance)) for j, s in enumerate(f.support))
            for i, f in enumerate(evidence.facts)
        ),
        conflict_checks=tuple(
            tuple(conflict_checks.get((k, m), verbatim(v.locator, provenance)) for m, v in enumerate(c.values))
            for k, c in enumerate(evidence.conflicts)
        ),
        **fields,
    )


def build_bundle(source_id: str, lines: Iterable[str], locator: str = "p.1 L1-L3") -> EvidenceBundle:
    text = "\n".join(lines)
    digest = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    return EvidenceBundle(
        bundle_id=digest,
        ref=f"doc://{source_id}@v1#{locator}",
        source_id=source_id,
        version=1,
        locator=locator,
        text=text,
        digest=digest,
        content_hash=digest,
        policy=PolicyDecision(decision="allow"),
    )


@pytest.fixture
def make_draft() -> Callable[..., Draft]:
    """`make_draft(*facts, level1=..., mode=..., conflicts=..., gaps=...)`: a Draft."""
    return build_draft


@pytest.fixture
def make_inputs() -> Callable[..., GateInputs]:
    """`make_inputs(draft, checks={(fact, support): Verification}, **GateInputs fields)`."""
    return build_inputs


@pytest.fixture
def ok() -> Callable[..., Verification]:
    """`ok(locator, provenance="primary")`: a quote found verbatim at `locator`."""
    return verbatim


@pytest.fixture
def make_bundle() -> Callable[..., EvidenceBundle]:
    """`make_bundle(source_id, lines, locator="p.1 L1-L3")`: a resolved bundle holding `lines`."""
    return build_bundle
