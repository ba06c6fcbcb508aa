"""`draft` and `repair`: the only nodes where the untrusted model acts, through the allowlisted tools only."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from langgraph.runtime import Runtime

from quotebound.agent.core.contracts import Draft, EvidenceBundle
from quotebound.agent.models.base import DraftInput
from quotebound.agent.runs.trace import result_summary
from quotebound.graphs.context import RunContext
from quotebound.graphs.deadline import call_with_deadline
from quotebound.graphs.evidence import question_context, resolved_question
from quotebound.graphs.faults import model_fault, tool_fault
from quotebound.graphs.names import Node
from quotebound.graphs.state import RunState
from quotebound.tools.registry import ALL_TOOLS, REPAIR_TOOLS, ToolRegistry


def _request(state: RunState, ctx: RunContext, *, repair: bool) -> DraftInput:
    findings = [str(f.get("message", "")) for f in state.get("findings", [])] if repair else []
    previous = Draft.model_validate(state["draft"]) if repair and state.get("draft") else None
    return DraftInput(
        question=resolved_question(state),
        context=question_context(state),
        bundles=[EvidenceBundle.model_validate(b) for b in state.get("bundles", [])],
        gate=state.get("gate", "proceed"),
        missing=list(state.get("missing", [])) if state.get("gate") == "proceed_after_clarify_timeout" else [],
        findings=findings,
        previous=previous,
        max_tool_calls=ctx.settings.attempts.max_tool_calls,
    )


def _call_model(ctx: RunContext, request: DraftInput, tools: ToolRegistry, *, repair: bool) -> Draft:
    """The model's draft (or repair), validated, within the per-call deadline."""

    def call() -> Draft:
        draft = ctx.model.repair(request, tools) if repair else ctx.model.draft(request, tools)
        return draft if isinstance(draft, Draft) else Draft.model_validate(draft)

    try:
        return call_with_deadline(call, ctx.settings.attempts.model_timeout_s)
    finally:
        tools.close()  # whatever happened, an abandoned call can no longer reach the store


def _run_model(state: RunState, ctx: RunContext, *, repair: bool) -> dict[str, Any]:
    node = Node.REPAIR if repair else Node.DRAFT
    tools = ToolRegistry(
        ctx.tools_for(state.get("role", "public"), state.get("labels")),
        allowed=REPAIR_TOOLS if repair else ALL_TOOLS,
        max_calls=ctx.settings.attempts.max_tool_calls,
    )
    update: dict[str, Any] = {"path": [node.value]}
    try:
        request = _request(state, ctx, repair=repair)
        draft = _call_model(ctx, request, tools, repair=repair)
    except Exception as exc:  # an untrusted model may fail in any way (a timeout too): never a crash
        update["failure"] = tool_fault(node, tools) if tools.faults else model_fault(node, ctx.model.model_id, exc)
    else:
        if tools.faults:  # even when the model carried on: what it read may be incomplete, so nothing ships
            update["failure"] = tool_fault(node, tools)
        else:
            update["draft"] = draft.model_dump(mode="json")
    calls = list(tools.calls)  # a copy: a call already inside a tool when the deadline passed may still append
    # The state (and so the run's trace) keeps a truncated JSON summary of each result; the receipt keeps none.
    update["tool_calls"] = [
        {**asdict(call), "node": node.value, "result": result_summary(call.result) if call.ok else None}
        for call in calls
    ]
    if repair:
        update["repairs"] = int(state.get("repairs", 0)) + 1
    return update


def draft(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    runtime.stream_writer({"node": Node.DRAFT.value, "attempt": 1})  # progress for a streamed run; a no-op else
    return _run_model(state, runtime.context, repair=False)


def repair(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    runtime.stream_writer({"node": Node.REPAIR.value, "attempt": int(state.get("repairs", 0)) + 2})
    return _run_model(state, runtime.context, repair=True)
