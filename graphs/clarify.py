"""`clarify`: pause the run with the clarify envelope; resume on the same thread with the user's replies.

The node writes the round's receipt before it pauses. LangGraph re-runs a node from its start when it
resumes, so the receipt's `audit_ref` is derived from the run and the pause's number and written only once.
"""

from __future__ import annotations

import time

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from quotebound.agent.core.contracts import ClarifyEnvelope, Meta
from quotebound.graphs.context import RunContext
from quotebound.graphs.names import Node
from quotebound.graphs.receipts import write_receipt
from quotebound.graphs.state import ClarifyPlan, RunState

MAX_REPLY_CHARS = 2000


def clean_replies(replies: object) -> dict[str, str]:
    """Keep string replies to named fields; blanks are no reply. Anything else is ignored, never fatal."""
    if not isinstance(replies, dict):
        return {}
    cleaned: dict[str, str] = {}
    for key, value in replies.items():
        if isinstance(key, str) and isinstance(value, str | int | float) and str(value).strip():
            cleaned[key.strip().lower()[:64]] = str(value).strip()[:MAX_REPLY_CHARS]
    return cleaned


def _plan(state: RunState) -> ClarifyPlan:
    pending: object = state.get("clarify")
    if isinstance(pending, dict):
        # a run paused by an earlier version, whose checkpoint kept the plan as JSON
        return ClarifyPlan.model_validate(pending)
    return pending if isinstance(pending, ClarifyPlan) else ClarifyPlan()


def clarify(state: RunState, runtime: Runtime[RunContext]) -> RunState:
    ctx = runtime.context
    plan = _plan(state)
    run_id = state["run_id"]
    # The pauses this run already made, from its path: the same on a re-run, unlike the preflight's round counter
    # (which a cooldown resets).
    pause = sum(1 for node in state.get("path", []) if node == Node.CLARIFY.value) + 1
    envelope = ClarifyEnvelope(
        session_id=state["session_id"],
        questions=plan.questions,
        notes=plan.notes,
        audit_ref=f"audit://quotebound/{run_id}-clarify-{pause}",
        meta=Meta(
            run_id=run_id,
            model_id=ctx.model.model_id,
            latency_ms=round((time.time() - state["started_at"]) * 1000, 1),
        ),
    )
    write_receipt(ctx, {**state, "path": [*state.get("path", []), Node.CLARIFY.value]}, envelope, once=True)
    # The interrupt's value is what a caller (or a LangGraph server's client) reads: the envelope as JSON.
    replies = clean_replies(interrupt(envelope.model_dump(mode="json")))
    return {"path": [Node.CLARIFY.value], "context": replies}
