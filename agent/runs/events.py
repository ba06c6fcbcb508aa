"""Progress events of a streamed run (`Agent.astream`, `Agent.stream`): what a chat app can show while it waits.

A stream is any number of `NodeEvent`s (a node finished) and `ProgressEvent`s (a node reported progress while
running), then exactly one `EnvelopeEvent` carrying the run's envelope: an answer, an abstention, a clarify
pause or an error. Events are JSON-serializable (`event.model_dump(mode="json")`) and carry node names, counts
and statuses only: never a question, a reply, a quote, a source name or any other text of the run. What the
caller may read is in the final envelope, exactly as `Agent.ask` would return it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from quotebound.agent.core.contracts import Envelope

Scalar = int | float | bool


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NodeEvent(_Event):
    """A node of the graph finished; `summary` holds counts and statuses, never text."""

    type: Literal["node"] = "node"
    node: str
    summary: dict[str, Scalar | str] = Field(default_factory=dict)


class ProgressEvent(_Event):
    """A node reported progress while running (e.g. `retrieve` {"hits": 12}, `draft` {"attempt": 1})."""

    type: Literal["progress"] = "progress"
    node: str
    data: dict[str, Scalar] = Field(default_factory=dict)


class EnvelopeEvent(_Event):
    """The last event of every stream: the run's envelope (answer, abstain, clarify or error)."""

    type: Literal["envelope"] = "envelope"
    envelope: Envelope


StreamEvent = Annotated[NodeEvent | ProgressEvent | EnvelopeEvent, Field(discriminator="type")]

_STATUSES = frozenset({"answer", "abstain", "clarify", "error"})


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list | dict) else 0


def node_summary(node: str, update: Mapping[str, Any] | None) -> dict[str, Scalar | str]:
    """Counts and statuses from a node's state update. A policy denial reads like any other preflight (its
    gate, reason and topic are not shown), and a failed step is not flagged: the envelope says what the caller
    may know about both."""
    update = update or {}
    if node == "preflight":
        return {
            "clarify": update.get("gate") == "clarify",
            "signals": _count(update.get("signals")),
            "missing": _count(update.get("missing")),
        }
    if node == "clarify":
        return {"replies": _count(update.get("context"))}
    if node == "retrieve":
        return {"hits": _count(update.get("hits"))}
    if node == "resolve":
        return {"bundles": _count(update.get("bundles"))}
    if node in ("draft", "repair"):
        summary: dict[str, Scalar | str] = {"drafted": update.get("draft") is not None}
        summary["tool_calls"] = _count(update.get("tool_calls"))
        if node == "repair" and isinstance(update.get("repairs"), int):
            summary["repairs"] = update["repairs"]
        return summary
    if node == "validate":
        report = update.get("gate_report")
        return {"ok": bool(isinstance(report, dict) and report.get("ok")), "findings": _count(update.get("findings"))}
    if node in ("verified_answer", "abstain"):
        envelope = update.get("envelope")
        status = envelope.get("status") if isinstance(envelope, dict) else None
        return {"status": status} if status in _STATUSES else {}
    return {}


def progress_event(chunk: Any, nodes: frozenset[str]) -> ProgressEvent | None:
    """A `custom` stream chunk as a `ProgressEvent`: a dict naming one of `nodes`; only numbers and flags are
    kept, so no text can ride along. Anything else is dropped."""
    if not isinstance(chunk, Mapping) or chunk.get("node") not in nodes:
        return None
    data = {
        str(key): value
        for key, value in chunk.items()
        if key != "node" and isinstance(value, int | float | bool) and isinstance(key, str)
    }
    return ProgressEvent(node=str(chunk["node"]), data=data)
