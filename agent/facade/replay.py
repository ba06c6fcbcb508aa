"""`replay`: re-run a past run from the checkpoint before one of its nodes (LangGraph time travel).

The checkpoint is copied into a NEW thread (the session that ran it is never touched) under a new run_id, and the
graph continues from there with the agent's current model, policy and corpus: `quotebound replay RUN_ID --from
draft --model chat:...` asks "what would another model have drafted from the same evidence?". The replay is a run
like any other: it writes its own receipt and its own trace. `envelope_changes` says what differs from the
original run's envelope: status, answer text, citations added or removed, reason code.

No replay reaches a terminal without a fresh gate pass. The copied state keeps no gate verdict (`gate_report` is
cleared), so only a `validate` of this run can pass a draft; every node before a terminal leads through
`validate` (or to `abstain` without a draft), and a replay that would start AT a terminal is refused: the
terminal would ship a draft checked against the corpus as it was then (`--from validate` checks it against
today's). The replay's path, tool calls and receipt are its own: what the original run did before the checkpoint
is the original's record, not this run's.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointMetadata
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import StateSnapshot

from quotebound.agent.core.contracts import Envelope
from quotebound.agent.core.errors import CallerError, ErrorCode, OperatorError
from quotebound.agent.runs.trace import RunTrace
from quotebound.graphs.context import RunContext
from quotebound.graphs.names import TERMINALS, Node
from quotebound.graphs.state import RunState


class ReplayHost(Protocol):
    """What a replay needs of the `Agent`: its compiled graph, its traces, and a way to drive the graph from a
    prepared thread. A protocol, so that this module does not import the facade that calls it."""

    @property
    def graph(self) -> CompiledStateGraph[RunState, RunContext, RunState, RunState]: ...

    def trace(self, run_id: str) -> RunTrace | None: ...

    def _replay_run(self, thread: str, values: dict[str, Any], original: RunTrace) -> Envelope: ...


@dataclass(frozen=True)
class ReplayOutcome:
    original: RunTrace
    from_node: str
    checkpoint_id: str  # the original checkpoint the replay started from
    run_id: str  # the replay's own run
    session_id: str  # its new thread
    envelope: Envelope
    changes: dict[str, Any]


def _checkpoint_before(agent: ReplayHost, trace: RunTrace, node: str) -> StateSnapshot | None:
    """The first snapshot of the run whose next task is `node`: the state just before the node first ran."""
    config: RunnableConfig = {"configurable": {"thread_id": trace.session_id}}
    found = None
    for snapshot in agent.graph.get_state_history(config):  # newest first
        values = snapshot.values or {}
        if values.get("run_id") == trace.run_id and tuple(snapshot.next) == (node,):
            found = snapshot
    return found


def replay(agent: ReplayHost, run_id: str, from_node: str | None = None) -> ReplayOutcome:
    """Re-run `run_id` from the checkpoint before `from_node` (default: its first node) in a new thread."""
    original = agent.trace(run_id)
    if original is None:
        raise CallerError(ErrorCode.BAD_REQUEST, f"no trace of run {run_id!r} in this store")
    ran = [step.node for step in original.steps]
    node = from_node or (ran[0] if ran else "preflight")
    if node in {terminal.value for terminal in TERMINALS}:
        # Starting at a terminal would ship (or show) the original run's gate verdict on today's corpus.
        raise CallerError(
            ErrorCode.BAD_REQUEST,
            f"a replay cannot start at the terminal {node!r}: it would ship a draft the gate checked against the "
            f"documents as they were. Replay from {Node.VALIDATE.value!r} to check the same draft against today's "
            f"documents, or from {Node.DRAFT.value!r} to draft it again",
        )
    if node not in ran:
        raise CallerError(
            ErrorCode.BAD_REQUEST, f"run {run_id} never ran {node!r}; its nodes: {', '.join(dict.fromkeys(ran))}"
        )
    saver = agent.graph.checkpointer
    if not isinstance(saver, BaseCheckpointSaver):
        raise OperatorError(ErrorCode.MISCONFIGURED, "replay needs the agent's checkpointer, and it has none")
    snapshot = _checkpoint_before(agent, original, node)
    source = saver.get_tuple(snapshot.config) if snapshot is not None else None
    if source is None:
        raise CallerError(
            ErrorCode.BAD_REQUEST,
            f"the checkpoints of run {run_id} are gone (its session was deleted?); replay needs the one before {node}",
        )
    new_run = uuid.uuid4().hex
    thread = f"replay-{new_run}"
    checkpoint = source.checkpoint.copy()
    values = dict(checkpoint.get("channel_values") or {})
    values.update(
        {
            "run_id": new_run,
            "started_at": time.time(),
            "session_id": thread,
            # This run's own record starts empty, and it inherits no gate verdict: only its own `validate` passes.
            "path": [],
            "tool_calls": [],
            "gate_report": None,
            "envelope": None,
        }
    )
    checkpoint["channel_values"] = values
    # `replay_of` is a key of our own: LangGraph keeps extra metadata keys, its TypedDict does not name them.
    metadata = cast(CheckpointMetadata, {**(source.metadata or {}), "source": "fork", "replay_of": run_id})
    saver.put(
        {"configurable": {"thread_id": thread, "checkpoint_ns": ""}},
        checkpoint,
        metadata,
        dict(checkpoint.get("channel_versions") or {}),
    )
    envelope = agent._replay_run(thread, values, original)
    after = envelope.model_dump(mode="json")
    return ReplayOutcome(
        original=original,
        from_node=node,
        checkpoint_id=str(source.config["configurable"]["checkpoint_id"]),
        run_id=new_run,
        session_id=thread,
        envelope=envelope,
        changes=envelope_changes(original.envelope, after),
    )


def _citations(envelope: Mapping[str, Any] | None) -> list[str]:
    return sorted({str(c.get("ref")) for c in (envelope or {}).get("citations") or [] if isinstance(c, Mapping)})


def _answer(envelope: Mapping[str, Any] | None) -> dict[str, Any] | None:
    answer = (envelope or {}).get("answer")
    return dict(answer) if isinstance(answer, Mapping) else None


def envelope_changes(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> dict[str, Any]:
    """What differs between two envelopes, field by field; `changed` is False when nothing the caller reads did."""
    before = before or {}
    old_cites, new_cites = _citations(before), _citations(after)
    changes: dict[str, Any] = {
        "status": {"before": before.get("status"), "after": after.get("status")},
        "reason_code": {"before": before.get("reason_code"), "after": after.get("reason_code")},
        "answer": {"before": _answer(before), "after": _answer(after)},
        "citations": {
            "added": [c for c in new_cites if c not in old_cites],
            "removed": [c for c in old_cites if c not in new_cites],
        },
    }
    changes["changed"] = (
        changes["status"]["before"] != changes["status"]["after"]
        or changes["reason_code"]["before"] != changes["reason_code"]["after"]
        or changes["answer"]["before"] != changes["answer"]["after"]
        or bool(changes["citations"]["added"] or changes["citations"]["removed"])
    )
    return changes
