"""`validate`: the hard gate. It recomputes every check itself (quotes, locators, tokens, conflicts, calc).

If checking fails (the store under the quotes, or the gate itself), the draft is unverified: the run abstains
(`retrieval_unavailable` for a store fault, `verification_failed` otherwise) and nothing of the draft ships."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from quotebound.agent.core.contracts import Draft, EvidenceBundle
from quotebound.agent.gate.validate import validate_draft
from quotebound.graphs.context import RunContext
from quotebound.graphs.evidence import resolved_question
from quotebound.graphs.faults import gate_fault, is_store_fault, store_fault
from quotebound.graphs.names import Node
from quotebound.graphs.state import RunState
from quotebound.tools.context import ToolContext
from quotebound.tools.injection import instructional_locators


def flagged_lines(draft: Draft, tools: ToolContext) -> dict[str, list[str]]:
    """Instructional lines of every source the draft cites, recomputed here rather than trusted from bundles."""
    cited = {s.source_id for f in draft.evidence.facts for s in f.support}
    cited |= {v.source_id for c in draft.evidence.conflicts for v in c.values}
    flagged: dict[str, list[str]] = {}
    for source_id in sorted(cited):
        if not tools.can_read(source_id):
            continue  # the gate reports it as an unknown source
        source = tools.corpus.source(source_id)
        if source is not None:
            flagged[source_id] = instructional_locators(tools.corpus.iter_lines(source_id, source.version))
    return flagged


def validate(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    update: dict[str, Any] = {"path": [Node.VALIDATE.value]}
    # the draft's attempt number (1, then one more per repair), for a streamed run's progress
    runtime.stream_writer({"node": Node.VALIDATE.value, "attempt": int(state.get("repairs", 0)) + 1})
    raw = state.get("draft")
    if raw is None:
        return {**update, "findings": [{"code": "schema", "message": "no draft"}], "gate_report": None}
    try:
        return {**update, **_check(state, runtime.context, Draft.model_validate(raw))}
    except Exception as exc:  # the gate must never crash a run, and a draft it could not check never ships
        fault = store_fault(Node.VALIDATE, exc) if is_store_fault(exc) else gate_fault(Node.VALIDATE, exc)
        return {**update, "gate_report": None, "failure": fault}


def _check(state: RunState, ctx: RunContext, draft: Draft) -> dict[str, Any]:
    bundles = [EvidenceBundle.model_validate(b) for b in state.get("bundles", [])]
    tools = ctx.tools_for(state.get("role", "public"), state.get("labels"))
    report = validate_draft(
        draft,
        bundles=bundles,
        ctx=tools,
        gate=state.get("gate", "proceed"),
        flagged=flagged_lines(draft, tools),
        conflict_tolerance_pct=ctx.settings.attempts.conflict_delta_percent,
        question=resolved_question(state),
    )
    findings = [f.model_dump(mode="json") for f in report.findings]
    if ctx.user_guard is not None and report.ok:
        from quotebound.agent.gate.guardrails import run_user_guard

        extra = run_user_guard(ctx.user_guard, draft)
        findings += [f.model_dump(mode="json") for f in extra]
    blocking = [f for f in findings if f.get("blocking", True)]
    dumped = report.model_dump(mode="json")
    dumped["ok"] = report.ok and not blocking
    return {"findings": findings, "gate_report": dumped}
