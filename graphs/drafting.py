"""`draft` and `repair`: the only nodes where the untrusted model acts, through the allowlisted tools only."""

from __future__ import annotations

import logging
from dataclasses import asdict
from typing import Any

from langgraph.runtime import Runtime

from quotebound.agent.contracts import Draft, EvidenceBundle, ReasonCode
from quotebound.agent.errors import OperatorError
from quotebound.agent.models.base import DraftInput
from quotebound.tools.registry import ALL_TOOLS, REPAIR_TOOLS, ToolRegistry

from .context import RunContext
from .evidence import resolved_question
from .names import Node
from .state import RunState

log = logging.getLogger(__name__)


def _request(state: RunState, ctx: RunContext, *, repair: bool) -> DraftInput:
    findings = [str(f.get("message", "")) for f in state.get("findings", [])] if repair else []
    previous = Draft.model_validate(state["draft"]) if repair and state.get("draft") else None
    return DraftInput(
        question=resolved_question(state),
        context=dict(state.get("context") or {}),
        bundles=[EvidenceBundle.model_validate(b) for b in state.get("bundles", [])],
        gate=state.get("gate", "proceed"),
        missing=list(state.get("missing", [])) if state.get("gate") == "proceed_after_clarify_timeout" else [],
        findings=findings,
        previous=previous,
        max_tool_calls=ctx.settings.attempts.max_tool_calls,
    )


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
        draft = ctx.model.repair(request, tools) if repair else ctx.model.draft(request, tools)
        if not isinstance(draft, Draft):
            draft = Draft.model_validate(draft)
        update["draft"] = draft.model_dump(mode="json")
    except OperatorError as exc:
        update["failure"] = {"reason_code": ReasonCode.RETRIEVAL_UNAVAILABLE.value, "detail": exc.code.value}
    except Exception as exc:  # an untrusted model may fail in any way: it ends the run, never crashes it
        log.info("model %s failed in %s: %s", ctx.model.model_id, node.value, type(exc).__name__)
        update["failure"] = {"reason_code": ReasonCode.MODEL_ERROR.value, "detail": type(exc).__name__}
    update["tool_calls"] = [
        {**asdict(call), "node": node.value, "result": None if not call.ok else "ok"} for call in tools.calls
    ]
    if repair:
        update["repairs"] = int(state.get("repairs", 0)) + 1
    return update


def draft(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    return _run_model(state, runtime.context, repair=False)


def repair(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    return _run_model(state, runtime.context, repair=True)
