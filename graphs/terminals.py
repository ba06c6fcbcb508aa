"""The two terminals: `verified_answer` and `abstain`. Each builds its envelope and writes the run's receipt."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from quotebound.agent.audit import new_audit_ref
from quotebound.agent.contracts import (
    AbstainEnvelope,
    AnswerEnvelope,
    AnswerLevels,
    Citation,
    Draft,
    Gap,
    Meta,
    ReasonCode,
)
from quotebound.agent.errors import ModelError
from quotebound.tools.resolve_evidence import resolve_evidence

from .context import RunContext
from .names import Node
from .receipts import write_receipt
from .state import RunState

_WHY: dict[ReasonCode, str] = {
    ReasonCode.NO_EVIDENCE: "no passage in the documents available to you answers this question",
    ReasonCode.INSUFFICIENT_EVIDENCE: "the documents available to you do not support a complete answer",
    ReasonCode.CONFLICT_UNRESOLVED: "the documents disagree and the disagreement could not be reported reliably",
    ReasonCode.CLARIFY_TIMEOUT: "the detail needed for a precise answer was not supplied",
    ReasonCode.NOT_PERMITTED: "no passage in the documents available to you answers this question",
    ReasonCode.VERIFICATION_FAILED: "the drafted answer could not be verified against its quotes",
    ReasonCode.RETRIEVAL_UNAVAILABLE: "the document index is unavailable right now",
    ReasonCode.MODEL_ERROR: "the answering model failed",
}
_HINTS: dict[ReasonCode, list[str]] = {
    ReasonCode.CLARIFY_TIMEOUT: ["Ask again and answer the clarifying question(s) to get a precise answer."],
    ReasonCode.RETRIEVAL_UNAVAILABLE: ["Try again later; if it persists, tell the operator (quote the audit_ref)."],
    ReasonCode.MODEL_ERROR: ["Try again later; if it persists, tell the operator (quote the audit_ref)."],
}
_DEFAULT_HINTS = [
    "Rephrase the question with the exact term, name or section you are looking for.",
    "Ask a broader question, or about a related topic the documents cover.",
]


def _meta(state: RunState, ctx: RunContext) -> Meta:
    return Meta(
        run_id=state["run_id"],
        model_id=ctx.model.model_id,
        latency_ms=round((time.time() - state["started_at"]) * 1000, 1),
    )


def _abstain_reason(state: RunState, draft: Draft | None, gate_ok: bool) -> ReasonCode:
    failure = state.get("failure")
    if failure:
        return ReasonCode(failure["reason_code"])
    if state.get("gate") == "proceed_after_clarify_timeout":
        return ReasonCode.CLARIFY_TIMEOUT
    if not gate_ok:
        return ReasonCode.VERIFICATION_FAILED
    if draft is not None and draft.evidence.facts:
        return ReasonCode.INSUFFICIENT_EVIDENCE
    return ReasonCode.NO_EVIDENCE


def abstain(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    ctx = runtime.context
    report = state.get("gate_report") or {}
    gate_ok = bool(report.get("ok"))
    draft = Draft.model_validate(state["draft"]) if state.get("draft") else None
    reason = _abstain_reason(state, draft, gate_ok)
    # Only a report that passed the gate may show its (partial, verified) evidence and gaps.
    shown = draft if (draft is not None and gate_ok) else None
    gaps = list(shown.evidence.gaps) if shown else []
    if not gaps:
        why = "clarify_timeout" if reason is ReasonCode.CLARIFY_TIMEOUT else "no_quote_found"
        gaps = [Gap(need=f"evidence that answers: {state['question'][:200]}", why=why)]
    explanation = _WHY[reason]
    level2 = shown.levels.level2 if shown else f"quotebound answers only with verified quotes; {explanation}."
    envelope = AbstainEnvelope(
        reason_code=reason,
        answer=AnswerLevels(
            level1=shown.levels.level1 if shown else "Insufficient evidence",
            level2=level2,
            level3=f"Citations: None — {explanation}.",
        ),
        gaps=gaps,
        remediation_hints=_HINTS.get(reason, _DEFAULT_HINTS),
        evidence=shown.evidence if shown else None,
        audit_ref=new_audit_ref(),
        meta=_meta(state, ctx),
    ).model_dump(mode="json")
    final = {**state, "path": [*state.get("path", []), Node.ABSTAIN.value]}
    write_receipt(ctx, final, envelope)  # type: ignore[arg-type]
    return {"path": [Node.ABSTAIN.value], "envelope": envelope}


def verified_answer(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    ctx = runtime.context
    draft = Draft.model_validate(state["draft"])
    tools = ctx.tools_for(state.get("role", "public"), state.get("labels"))
    report = state.get("gate_report") or {}
    evidence = draft.evidence.model_copy(deep=True)
    confidences = report.get("fact_confidence") or []
    for fact, confidence in zip(evidence.facts, confidences, strict=False):
        fact.confidence = round(float(confidence), 4)
    secondary = set(report.get("secondary_only") or [])
    for index in secondary:
        if index < len(evidence.facts):
            evidence.facts[index].secondary_only = True
    if report.get("answer_confidence") is not None:
        evidence.confidence = round(float(report["answer_confidence"]), 4)
    citations: dict[str, Citation] = {}
    for fact in evidence.facts:
        for support in fact.support:
            try:
                bundle = resolve_evidence(tools, f"doc://{support.source_id}#{support.locator}")
            except ModelError:
                continue  # cannot happen after the gate; never cite what does not resolve
            citations.setdefault(bundle.ref, Citation(ref=bundle.ref, bundle_id=bundle.bundle_id))
    envelope = AnswerEnvelope(
        answer=draft.levels,
        evidence=evidence,
        citations=list(citations.values()),
        audit_ref=new_audit_ref(),
        meta=_meta(state, ctx),
    ).model_dump(mode="json")
    final = {**state, "path": [*state.get("path", []), Node.VERIFIED_ANSWER.value]}
    write_receipt(ctx, final, envelope)  # type: ignore[arg-type]
    return {"path": [Node.VERIFIED_ANSWER.value], "envelope": envelope}
