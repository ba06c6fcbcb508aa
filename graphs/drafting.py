"""`draft` and `repair`: the only nodes where the untrusted model acts, through the allowlisted tools only."""

from __future__ import annotations

from langgraph.runtime import Runtime

from quotebound.agent.core.contracts import Draft
from quotebound.agent.core.errors import OperatorError
from quotebound.agent.gate.gather import readable_sources
from quotebound.agent.gate.paraphrase import paraphrase_scorer
from quotebound.agent.models.base import DraftInput, Meaning
from quotebound.agent.runs.trace import result_summary
from quotebound.graphs.context import RunContext
from quotebound.graphs.deadline import call_with_deadline
from quotebound.graphs.evidence import question_context, resolved_question
from quotebound.graphs.faults import model_fault, tool_fault
from quotebound.graphs.names import Node
from quotebound.graphs.state import RunState, ToolCall
from quotebound.tools.registry import ALL_TOOLS, REPAIR_TOOLS, ToolCallRecord, ToolRegistry


def _meaning(ctx: RunContext) -> Meaning | None:
    """The store's meaning embedder for the model's paraphrase reading (the gate's own cached scorer: the words
    both read are embedded once); None for a hashing embedder or one that cannot be opened."""
    try:
        scorer = paraphrase_scorer(ctx.store.embedder)
    except (OperatorError, OSError):
        return None
    return scorer if isinstance(scorer, Meaning) else None


def _request(state: RunState, ctx: RunContext, tools: ToolRegistry, *, repair: bool) -> DraftInput:
    findings = [f.message for f in state.get("findings", [])] if repair else []
    previous = state.get("draft") if repair else None
    # Copies: the untrusted model never holds the state's own objects (the bundles are the gate's ground truth).
    return DraftInput(
        question=resolved_question(state),
        context=question_context(state),
        bundles=[bundle.model_copy(deep=True) for bundle in state.get("bundles", [])],
        gate=state.get("gate", "proceed"),
        missing=list(state.get("missing", [])) if state.get("gate") == "proceed_after_clarify_timeout" else [],
        findings=findings,
        previous=previous.model_copy(deep=True) if previous is not None else None,
        max_tool_calls=ctx.settings.attempts.max_tool_calls,
        meaning=_meaning(ctx),
        documents=tuple((s.source_id, s.title) for s in readable_sources(tools.ctx)),
    )


def _call_model(ctx: RunContext, request: DraftInput, tools: ToolRegistry, *, repair: bool) -> Draft:
    """The model's draft (or repair), validated, within the per-call deadline."""

    def call() -> Draft:
        draft = ctx.model.repair(request, tools) if repair else ctx.model.draft(request, tools)
        # Whatever the model returned (a dict, a Draft built without validation, one it still holds), the state
        # gets a validated copy of its JSON: the model's own object never reaches the gate.
        return Draft.model_validate(draft.model_dump(mode="json") if isinstance(draft, Draft) else draft)

    try:
        return call_with_deadline(call, ctx.settings.attempts.model_timeout_s)
    finally:
        tools.close()  # whatever happened, an abandoned call can no longer reach the store


def _record(call: ToolCallRecord, node: Node) -> ToolCall:
    # The state (and so the run's trace) keeps a truncated JSON summary of each result; the receipt keeps none.
    return ToolCall(
        name=call.name,
        node=node.value,
        args=dict(call.args),
        ok=call.ok,
        result=result_summary(call.result) if call.ok else None,
        error=call.error,
        ms=call.ms,
        at=call.at,
    )


def _run_model(state: RunState, ctx: RunContext, *, repair: bool) -> RunState:
    node = Node.REPAIR if repair else Node.DRAFT
    tools = ToolRegistry(
        ctx.tools_for(state.get("role", "public"), state.get("labels")),
        allowed=REPAIR_TOOLS if repair else ALL_TOOLS,
        max_calls=ctx.settings.attempts.max_tool_calls,
    )
    update: RunState = {"path": [node.value]}
    try:
        request = _request(state, ctx, tools, repair=repair)
        draft = _call_model(ctx, request, tools, repair=repair)
    except Exception as exc:  # an untrusted model may fail in any way (a timeout too): never a crash
        update["failure"] = tool_fault(node, tools) if tools.faults else model_fault(node, ctx.model.model_id, exc)
    else:
        if tools.faults:  # even when the model carried on: what it read may be incomplete, so nothing ships
            update["failure"] = tool_fault(node, tools)
        else:
            update["draft"] = draft
    calls = list(tools.calls)  # a copy: a call already inside a tool when the deadline passed may still append
    update["tool_calls"] = [_record(call, node) for call in calls]
    if repair:
        update["repairs"] = state.get("repairs", 0) + 1
    return update


def draft(state: RunState, runtime: Runtime[RunContext]) -> RunState:
    runtime.stream_writer({"node": Node.DRAFT.value, "attempt": 1})  # progress for a streamed run; a no-op else
    return _run_model(state, runtime.context, repair=False)


def repair(state: RunState, runtime: Runtime[RunContext]) -> RunState:
    runtime.stream_writer({"node": Node.REPAIR.value, "attempt": state.get("repairs", 0) + 2})
    return _run_model(state, runtime.context, repair=True)
