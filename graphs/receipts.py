"""The receipt every run writes at its end (and at every clarify pause)."""

from __future__ import annotations

import time
from typing import Any

from quotebound.agent.audit import canonical_json, sha256_text

from .context import RunContext
from .state import RunState


def receipt_body(ctx: RunContext, state: RunState, envelope: dict[str, Any]) -> dict[str, Any]:
    return {
        "run_id": state["run_id"],
        "session_id": state.get("session_id"),
        "role": state.get("role", "public"),
        "query_hash": sha256_text(state.get("question", "")),
        "status": envelope.get("status"),
        "reason_code": envelope.get("reason_code"),
        "gate": state.get("gate"),
        "signals": state.get("signals", []),
        "path": state.get("path", []),
        "tool_calls": [
            {"name": c.get("name"), "ok": c.get("ok"), "error": c.get("error")} for c in state.get("tool_calls", [])
        ],
        "bundles": [
            {"ref": b["ref"], "bundle_id": b["bundle_id"], "digest": b["digest"]} for b in state.get("bundles", [])
        ],
        "findings": [f.get("code") for f in state.get("findings", [])],
        "model_id": ctx.model.model_id,
        "output_hash": sha256_text(canonical_json(envelope)),
        "latency_ms": round((time.time() - state.get("started_at", time.time())) * 1000, 1),
    }


def write_receipt(ctx: RunContext, state: RunState, envelope: dict[str, Any], *, once: bool = False) -> None:
    """Append the receipt for `envelope["audit_ref"]`. Raises OperatorError when the ledger cannot take it:
    then the envelope must not ship."""
    audit_ref = str(envelope["audit_ref"])
    if once and ctx.ledger.get(audit_ref) is not None:
        return
    ctx.ledger.append(audit_ref, state["run_id"], receipt_body(ctx, state, envelope))
