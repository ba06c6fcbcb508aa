"""`clarify`: pause the run with the clarify envelope; resume on the same thread with the user's replies.

The node writes the round's receipt before it pauses. LangGraph re-runs a node from its start when it
resumes, so the receipt's `audit_ref` is derived from the run and the pause's number and written only once.
"""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from quotebound.agent.core.contracts import ClarifyEnvelope, Meta
from quotebound.graphs.context import RunContext
from quotebound.graphs.names import Node
from quotebound.graphs.receipts import write_receipt
from quotebound.graphs.state import RunState

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


def clarify(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    ctx = runtime.context
    pending = state.get("clarify") or {}
    run_id = state["run_id"]
    # The pauses this run already made, from its path: the same on a re-run, unlike the preflight's round counter
    # (which a cooldown resets).
    pause = sum(1 for node in state.get("path", []) if node == Node.CLARIFY.value) + 1
    audit_ref = f"audit://quotebound/{run_id}-clarify-{pause}"
    envelope = ClarifyEnvelope(
        session_id=state["session_id"],
        questions=pending.get("questions", []),
        notes=pending.get("notes", {"reason": []}),
        audit_ref=audit_ref,
        meta=Meta(
            run_id=run_id,
            model_id=ctx.model.model_id,
            latency_ms=round((time.time() - state["started_at"]) * 1000, 1),
        ),
    ).model_dump(mode="json")
    write_receipt(ctx, {**state, "path": [*state.get("path", []), Node.CLARIFY.value]}, envelope, once=True)  # type: ignore[arg-type]
    replies = clean_replies(interrupt(envelope))
    return {"path": [Node.CLARIFY.value], "context": replies}
