"""`validate`: the hard gate. It recomputes every check itself (quotes, locators, tokens, conflicts, calc)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from quotebound.agent.contracts import Draft, EvidenceBundle
from quotebound.agent.gate.validate import validate_draft

from .context import RunContext
from .names import Node
from .state import RunState


def validate(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    ctx = runtime.context
    update: dict[str, Any] = {"path": [Node.VALIDATE.value]}
    raw = state.get("draft")
    if raw is None:
        return {**update, "findings": [{"code": "schema", "message": "no draft"}], "gate_report": None}
    draft = Draft.model_validate(raw)
    bundles = [EvidenceBundle.model_validate(b) for b in state.get("bundles", [])]
    report = validate_draft(
        draft,
        bundles=bundles,
        ctx=ctx.tools_for(state.get("role", "public"), state.get("labels")),
        gate=state.get("gate", "proceed"),
        conflict_tolerance_pct=ctx.settings.attempts.conflict_delta_percent,
    )
    findings = [f.model_dump(mode="json") for f in report.findings]
    if ctx.user_guard is not None and report.ok:
        from quotebound.agent.gate.guardrails import run_user_guard

        extra = run_user_guard(ctx.user_guard, draft)
        findings += [f.model_dump(mode="json") for f in extra]
    blocking = [f for f in findings if f.get("blocking", True)]
    dumped = report.model_dump(mode="json")
    dumped["ok"] = report.ok and not blocking
    return {**update, "findings": findings, "gate_report": dumped}
