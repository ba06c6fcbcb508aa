"""The receipt every run writes at its end (and at every clarify pause), built from the run's state.

`write_receipt` raises OperatorError(AUDIT_UNAVAILABLE) when the ledger cannot take the receipt; the node that
called it then fails, so its envelope never leaves the graph (`Agent` turns that into an error envelope).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from quotebound.agent.audit import canonical_json, sha256_text
from quotebound.agent.core.contracts import AbstainEnvelope, AnswerEnvelope, ClarifyEnvelope, EvidenceBundle
from quotebound.agent.core.receipt import (
    REFUSED_TOOL_ERRORS,
    Receipt,
    ReceiptBundle,
    ReceiptCaller,
    ReceiptCitation,
    ReceiptFinding,
    ReceiptFlag,
    ReceiptGate,
    ReceiptModel,
    ReceiptPolicy,
    ReceiptPrecheck,
    ReceiptQuery,
    ReceiptToolCall,
)
from quotebound.graphs.context import RunContext
from quotebound.graphs.state import RunState, ToolCall
from quotebound.prompts import prompt_versions
from quotebound.tools.injection import FLAG_PREFIX
from quotebound.tools.policy import Caller

_MAX_TOOL_NAME = 64


def _query(state: RunState, keep_text: bool) -> ReceiptQuery:
    question = state.get("question", "")
    context = dict(state.get("context") or {})
    return ReceiptQuery(
        sha256=sha256_text(question),
        text=question if keep_text else None,
        context_sha256=sha256_text(canonical_json(context)) if context else None,
        context=context if (keep_text and context) else None,
    )


def _tool_call(call: ToolCall) -> ReceiptToolCall:
    return ReceiptToolCall(
        name=call.name[:_MAX_TOOL_NAME],
        node=call.node,
        ok=call.ok,
        error=call.error,
        args_sha256=sha256_text(canonical_json(call.args)),
        ms=call.ms,
    )


def _bundles(bundles: Sequence[EvidenceBundle]) -> tuple[list[ReceiptBundle], list[ReceiptFlag]]:
    kept: list[ReceiptBundle] = []
    flags: list[ReceiptFlag] = []
    for bundle in bundles:
        kept.append(
            ReceiptBundle(
                ref=bundle.ref,
                source_id=bundle.source_id,
                bundle_id=bundle.bundle_id,
                digest=bundle.digest,
                policy=bundle.policy.model_copy(deep=True),
            )
        )
        flags += [
            ReceiptFlag(ref=bundle.ref, locator=flag.removeprefix(FLAG_PREFIX))
            for flag in bundle.flags
            if flag.startswith(FLAG_PREFIX)
        ]
    return kept, flags


def _precheck(state: RunState) -> ReceiptPrecheck | None:
    gate = state.get("gate")
    if gate is None:
        return None  # preflight never ran (the run failed before it)
    if gate != "deny":
        return ReceiptPrecheck(decision="allow")
    failure = state.get("failure")
    if failure is None:
        return ReceiptPrecheck(decision="deny")
    return ReceiptPrecheck(decision="deny", reason=failure.detail, topic=failure.topic)


def _gate(state: RunState) -> ReceiptGate:
    report = state.get("gate_report")
    return ReceiptGate(
        preflight=state.get("gate"),
        signals=list(state.get("signals") or []),
        passed=report.ok if report is not None else None,
        findings=[ReceiptFinding(code=str(f.code), blocking=f.blocking) for f in state.get("findings") or []],
        repairs=state.get("repairs") or 0,
    )


def build_receipt(
    ctx: RunContext, state: RunState, envelope: Mapping[str, Any], *, error_at: Sequence[str] = ()
) -> Receipt:
    """The receipt for `envelope` (any status, as JSON), from the state the run reached."""
    caller = Caller(role=state.get("role", "public"), labels=frozenset(state.get("labels") or ()))
    started = state.get("started_at") or time.time()
    bundles, flags = _bundles(state.get("bundles") or [])
    calls = [_tool_call(call) for call in state.get("tool_calls") or []]
    failure = state.get("failure")
    meta = envelope.get("meta") or {}
    latency = meta.get("latency_ms")
    return Receipt(
        audit_ref=str(envelope["audit_ref"]),
        run_id=state["run_id"],
        session_id=state.get("session_id"),
        status=envelope["status"],
        reason_code=envelope.get("reason_code"),
        error_code=envelope.get("code"),
        failure_detail=failure.detail if failure is not None and envelope["status"] != "clarify" else None,
        caller=ReceiptCaller(role=caller.role, labels=sorted(caller.labels)),
        query=_query(state, ctx.policy.keeps_query_text(caller)),
        started_at=datetime.fromtimestamp(started, UTC),
        finished_at=datetime.now(UTC),
        latency_ms=float(latency) if latency is not None else round((time.time() - started) * 1000, 1),
        path=list(state.get("path") or []),
        error_at=list(error_at),
        tool_calls=calls,
        refused_tool_calls=[call for call in calls if call.error in REFUSED_TOOL_ERRORS],
        bundles=bundles,
        citations=[ReceiptCitation(ref=c["ref"], bundle_id=c["bundle_id"]) for c in envelope.get("citations") or []],
        instructional_flags=flags,
        policy=ReceiptPolicy(
            version=ctx.policy.version,
            precheck=_precheck(state),
            obligations_applied=sorted({o for b in bundles for o in b.policy.obligations_applied}),
        ),
        model=ReceiptModel(id=ctx.model.model_id, version=ctx.model.model_version),
        prompt_versions=prompt_versions(),
        gate=_gate(state),
        output_sha256=sha256_text(canonical_json(envelope)),
    )


def write_receipt(
    ctx: RunContext,
    state: RunState,
    envelope: AnswerEnvelope | AbstainEnvelope | ClarifyEnvelope,
    *,
    once: bool = False,
) -> None:
    """Append the receipt for `envelope`. With `once`, a receipt already written under its `audit_ref` (a
    clarify node re-run on resume) is left as it is."""
    dumped = envelope.model_dump(mode="json")
    audit_ref = str(dumped["audit_ref"])
    if once and ctx.ledger.find(audit_ref) is not None:
        return
    receipt = build_receipt(ctx, state, dumped)
    ctx.ledger.append(audit_ref, state["run_id"], receipt.model_dump(mode="json"))
