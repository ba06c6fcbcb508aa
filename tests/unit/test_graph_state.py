"""The graph's typed state: it survives a checkpoint with only quotebound's own types rebuilt, and a gate report
vouches for the one draft it checked, never a later or an earlier one."""

from __future__ import annotations

import logging

import pytest
from pydantic import BaseModel

from quotebound.agent.core.contracts import (
    AbstainEnvelope,
    AnswerLevels,
    AnswerObject,
    ClarifyNotes,
    ClarifyQuestion,
    Draft,
    EvidenceBundle,
    Fact,
    Meta,
    PolicyDecision,
    ReasonCode,
    RetrievalHit,
    Support,
)
from quotebound.agent.gate import Finding, FindingCode, GateReport
from quotebound.graphs.checkpoints import STATE_ALLOWLIST, checkpoint_serde
from quotebound.graphs.routes import after_validate
from quotebound.graphs.state import (
    CheckedReport,
    ClarifyPlan,
    Failure,
    ResolvedContext,
    RunState,
    ToolCall,
    checked_draft,
    draft_digest,
)


def make_draft(level1: str = "The lease term is 12 months.") -> Draft:
    quote = "The minimum lease term is twelve (12) months."
    return Draft(
        levels=AnswerLevels(level1=level1, level2="From the rules.", level3="Citations: rules.md p.1 L3-L3"),
        evidence=AnswerObject(
            mode="answer",
            answer=level1,
            facts=[Fact(text=level1, support=[Support(source_id="rules.md", locator="p.1 L3-L3", quote=quote)])],
        ),
    )


def full_state() -> RunState:
    draft = make_draft()
    report = GateReport(ok=True, findings=[Finding(code=FindingCode.SECONDARY_ONLY, message="m", blocking=False)])
    return {
        "run_id": "r1",
        "question": "What is the minimum lease term?",
        "labels": ["staff"],
        "context": {"unit": "4B"},
        "clarify_counters": {"abc": {"count": 1, "last": 12.5}},
        "gate": "proceed",
        "signals": ["AmbiguousSubject"],
        "clarify": ClarifyPlan(
            questions=[ClarifyQuestion(field="unit", prompt="Which unit?")],
            notes=ClarifyNotes(reason=["AmbiguousSubject"]),
            round=1,
            resolved_context=ResolvedContext(sources=["text", "session"], keys=["unit"]),
        ),
        "hits": [RetrievalHit(source_id="rules.md", version=1, locator="p.1 L3-L3", score=0.5, lexical_rank=1)],
        "bundles": [
            EvidenceBundle(
                bundle_id="b",
                ref="doc://rules.md@v1#p.1 L3-L3",
                source_id="rules.md",
                version=1,
                locator="p.1 L3-L3",
                text="The minimum lease term is twelve (12) months.",
                digest="d",
                content_hash="c",
                policy=PolicyDecision(decision="allow", obligations_applied=["mask"]),
                flags=["instructional_text:p.1 L4-L4"],
            )
        ],
        "draft": draft,
        "findings": list(report.findings),
        "gate_report": CheckedReport.of(report, draft_digest(draft), ok=True),
        "failure": Failure(reason_code=ReasonCode.NOT_PERMITTED, detail="restricted", topic="payroll"),
        "path": ["preflight", "retrieve"],
        "tool_calls": [
            ToolCall(name="search", node="draft", args={"q": "lease"}, ok=True, result="[]", error=None, ms=1.5)
        ],
        "envelope": AbstainEnvelope(
            reason_code=ReasonCode.NO_EVIDENCE,
            answer=AnswerLevels(level1="Insufficient evidence", level2="-", level3="-"),
            audit_ref="audit://quotebound/x",
            meta=Meta(run_id="r1", model_id="extractive", latency_ms=3.0),
        ),
    }


def test_every_state_value_survives_a_checkpoint_as_its_own_type(caplog: pytest.LogCaptureFixture) -> None:
    serde = checkpoint_serde()
    with caplog.at_level(logging.WARNING):
        for key, value in full_state().items():
            loaded = serde.loads_typed(serde.dumps_typed(value))
            assert loaded == value and type(loaded) is type(value), key
    assert not caplog.records, [r.getMessage() for r in caplog.records]  # nothing blocked, nothing unregistered


class Stranger(BaseModel):
    """A class no state value is: a checkpoint naming it must not make a load import and build it."""

    x: int


def test_the_serializer_rebuilds_the_state_types_and_no_other_class(caplog: pytest.LogCaptureFixture) -> None:
    assert STATE_ALLOWLIST and all(module.startswith("quotebound.") for module, _ in STATE_ALLOWLIST)
    serde = checkpoint_serde()
    assert type(serde.loads_typed(serde.dumps_typed(make_draft()))) is Draft
    with caplog.at_level(logging.WARNING):
        assert serde.loads_typed(serde.dumps_typed(Stranger(x=1))) == {"x": 1}  # plain data, never a Stranger
    assert "Blocked deserialization" in caplog.text


def test_a_report_vouches_only_for_the_draft_it_checked() -> None:
    draft = make_draft()
    report = CheckedReport.of(GateReport(ok=True), draft_digest(draft), ok=True)
    assert report.passed(draft) and report.passed(draft.model_copy(deep=True))
    assert not report.passed(make_draft("The lease term is 6 months."))  # another draft
    changed = draft.model_copy(deep=True)
    changed.levels.level1 = "The lease term is 6 months."
    assert not report.passed(changed)  # the same draft, edited after the check
    assert not report.passed(None)
    assert not CheckedReport.of(GateReport(ok=True), draft_digest(draft), ok=False).passed(draft)


def test_only_a_draft_the_gate_passed_routes_to_the_answer() -> None:
    draft = make_draft()
    passed = CheckedReport.of(GateReport(ok=True), draft_digest(draft), ok=True)
    state: RunState = {"draft": draft, "gate_report": passed, "repairs": 0}
    assert checked_draft(state) is draft and after_validate(state, n_repairs=1) == "verified_answer"
    swapped: RunState = {**state, "draft": make_draft("The lease term is 6 months.")}
    assert checked_draft(swapped) is None
    assert after_validate(swapped, n_repairs=1) == "repair" and after_validate(swapped, n_repairs=0) == "abstain"
