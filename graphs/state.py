"""The graph's state: a TypedDict whose list and dict fields merge through Annotated reducers.

Values are plain JSON (pydantic models dumped with `mode="json"`) so any LangGraph checkpointer can store
them. A thread is a session: `context` and `clarify_counters` persist across questions on the same thread;
the per-run fields are reset by the caller's input (`langgraph.types.Overwrite`).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from quotebound.agent.core.contracts import GateStatus


def merge_dicts(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    return {**(left or {}), **(right or {})}


class RunState(TypedDict, total=False):
    # the request
    run_id: str
    question: str
    role: str
    labels: list[str]
    session_id: str
    started_at: float
    # the session (persists across runs on one thread)
    context: Annotated[dict[str, str], merge_dicts]
    clarify_counters: Annotated[dict[str, dict[str, float]], merge_dicts]
    # preflight
    gate: GateStatus
    signals: list[str]
    missing: list[str]
    clarify: dict[str, Any]
    # evidence
    hits: list[dict[str, Any]]
    bundles: list[dict[str, Any]]
    # drafting and the gate
    draft: dict[str, Any] | None
    findings: list[dict[str, Any]]
    gate_report: dict[str, Any] | None
    repairs: int
    failure: dict[str, str | None] | None
    # the record of the run
    path: Annotated[list[str], operator.add]
    tool_calls: Annotated[list[dict[str, Any]], operator.add]
    envelope: dict[str, Any] | None
