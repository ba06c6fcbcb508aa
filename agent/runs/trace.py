"""Run traces: every run's steps kept with the run, for `quotebound trace`, `replay` and `GET /runs/{id}/trace`.

`RunRecorder` watches one drive of the graph (the stream modes `updates`, `custom`, `tasks` and `checkpoints`) and
builds a `RunTrace`: one `TraceStep` per node that ran, with its timing, short summaries of what went in and came
out, the tool calls it made (arguments and a truncated summary of each result), the validator's findings, the
checkpoint written after it and, for a node that raised, the error code. A run paused at clarify and resumed keeps
one run_id: the resumed drive continues the same trace, its steps appended.

A trace is for the developers and operators of a deployment (the HTTP service shows a run's trace only to the
caller who ran it, or to a role that reads audit): it holds the question and the drafted answer, truncated, but no
more than a few hundred characters of any one value, so a trace stays small whatever a run read.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from quotebound.agent.core.run_errors import error_code

log = logging.getLogger(__name__)

TraceStatus = Literal["answer", "abstain", "clarify", "error", "running"]
MAX_TEXT = 300  # characters kept of a question, a drafted answer, a tool argument
MAX_RESULT = 600  # characters kept of a tool result's JSON
MAX_REFS = 8  # refs listed in a step's output (hits, bundles)


class _TraceModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TraceToolCall(_TraceModel):
    name: str
    args: dict[str, Any] = Field(default_factory=dict, description="as the model sent them, long strings truncated")
    ok: bool
    error: str | None = Field(default=None, description="an error code, never a message")
    result: str | None = Field(default=None, description="the result as JSON text, truncated; None when refused")
    ms: float | None = None


class TraceFinding(_TraceModel):
    code: str
    blocking: bool = True
    detail: str | None = None


class TraceStep(_TraceModel):
    index: int = Field(ge=1, description="1-based, in the order the nodes ran (a resumed drive continues it)")
    node: str
    started_at: float = Field(description="epoch seconds")
    ms: float = Field(ge=0)
    input: dict[str, Any] = Field(default_factory=dict, description="a summary of the state the node read")
    output: dict[str, Any] = Field(default_factory=dict, description="a summary of the node's update")
    tool_calls: list[TraceToolCall] = Field(default_factory=list)
    findings: list[TraceFinding] = Field(default_factory=list, description="the validator's findings (validate)")
    checkpoint_id: str | None = Field(default=None, description="the checkpoint written after this step")
    error: str | None = Field(default=None, description="the error code of a node that raised")


class RunTrace(_TraceModel):
    run_id: str
    session_id: str
    principal: str | None = None
    role: str
    labels: list[str] = Field(default_factory=list)
    question: str
    status: TraceStatus = "running"
    audit_ref: str | None = None
    started_at: float
    ms: float = Field(default=0.0, ge=0, description="time the run was being driven (a clarify pause excluded)")
    envelope: dict[str, Any] | None = Field(default=None, description="the last envelope the caller got, as JSON")
    steps: list[TraceStep] = Field(default_factory=list)


# --- summaries ----------------------------------------------------------------------------------------------


def clip(text: Any, limit: int = MAX_TEXT) -> str:
    value = text if isinstance(text, str) else str(text)
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list | dict) else 0


def _clip_value(value: Any, depth: int = 0) -> Any:
    """A JSON value with every string clipped and every container bounded (tool arguments)."""
    if isinstance(value, str):
        return clip(value)
    if isinstance(value, bool | int | float) or value is None:
        return value
    if depth >= 3:
        return clip(json.dumps(value, ensure_ascii=False, default=str), 80)
    if isinstance(value, Mapping):
        return {clip(str(k), 64): _clip_value(v, depth + 1) for k, v in list(value.items())[:20]}
    if isinstance(value, list | tuple):
        return [_clip_value(v, depth + 1) for v in list(value)[:20]]
    return clip(repr(value), 80)


def plain(value: Any) -> Any:
    """`value` with every pydantic model in it dumped to JSON data: the graph's state holds typed records, and
    the summaries below (and telemetry) read mappings, whichever shape a node wrote."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def result_summary(result: Any, limit: int = MAX_RESULT) -> str | None:
    """A tool result as JSON text, at most `limit` characters (the state and traces keep this, never the
    whole result; the receipt keeps neither)."""
    if result is None:
        return None
    try:
        text = json.dumps(result, ensure_ascii=False, default=str, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(result)
    return clip(text, limit)


def input_summary(node: str, state: Any) -> dict[str, Any]:
    """What a node read: counts and statuses of the state it was handed."""
    if not isinstance(state, Mapping):
        return {}
    summary: dict[str, Any] = {}
    if node == "preflight":
        summary["question"] = clip(state.get("question", ""))
        summary["context"] = sorted(str(k) for k in (state.get("context") or {}))[:20]
    if state.get("gate") is not None and node != "preflight":
        summary["gate"] = state.get("gate")
    for key in ("hits", "bundles", "findings"):
        if state.get(key):
            summary[key] = _count(state.get(key))
    if state.get("draft") is not None and node in ("validate", "repair", "verified_answer", "abstain"):
        summary["draft"] = True
    if state.get("repairs"):
        summary["repairs"] = state.get("repairs")
    if state.get("failure"):
        summary["failure"] = (state.get("failure") or {}).get("reason_code")
    return summary


def _refs(items: Any) -> list[str]:
    refs: list[str] = []
    for item in (items or [])[:MAX_REFS]:
        if isinstance(item, Mapping):
            if item.get("ref"):
                refs.append(str(item["ref"]))
            elif item.get("source_id") and item.get("locator"):
                refs.append(f"doc://{item['source_id']}#{item['locator']}")
    return refs


def output_summary(node: str, update: Any) -> dict[str, Any]:
    """What a node wrote: statuses, counts, refs and the drafted answer's first level (truncated)."""
    if not isinstance(update, Mapping):
        return {}
    out: dict[str, Any] = {}
    if node == "preflight":
        out["gate"] = update.get("gate")
        out["signals"] = list(update.get("signals") or [])[:20]
        out["missing"] = list(update.get("missing") or [])[:20]
    elif node == "clarify":
        out["replies"] = sorted(str(k) for k in (update.get("context") or {}))[:20]
    elif node == "retrieve":
        out["hits"] = _count(update.get("hits"))
        out["refs"] = _refs(update.get("hits"))
    elif node == "resolve":
        out["bundles"] = _count(update.get("bundles"))
        out["refs"] = _refs(update.get("bundles"))
    elif node in ("draft", "repair"):
        draft = update.get("draft")
        out["drafted"] = isinstance(draft, Mapping)
        if isinstance(draft, Mapping):
            levels = draft.get("levels") or {}
            evidence = draft.get("evidence") or {}
            out["mode"] = evidence.get("mode")
            out["facts"] = _count(evidence.get("facts"))
            out["answer"] = clip(levels.get("level1", ""))
        out["tool_calls"] = _count(update.get("tool_calls"))
        if node == "repair" and isinstance(update.get("repairs"), int):
            out["repairs"] = update["repairs"]
    elif node == "validate":
        report = update.get("gate_report")
        out["ok"] = bool(isinstance(report, Mapping) and report.get("ok"))
        out["findings"] = _count(update.get("findings"))
    envelope = update.get("envelope")
    if isinstance(envelope, Mapping):
        out.update(envelope_summary(envelope))
    failure = update.get("failure")
    if isinstance(failure, Mapping):
        out["failure"] = {"reason_code": failure.get("reason_code"), "detail": failure.get("detail")}
    return out


def envelope_summary(envelope: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"status": envelope.get("status")}
    for key in ("reason_code", "code", "audit_ref"):
        if envelope.get(key) is not None:
            out[key] = envelope.get(key)
    answer = envelope.get("answer")
    if isinstance(answer, Mapping) and answer.get("level1"):
        out["answer"] = clip(answer["level1"])
    if envelope.get("citations") is not None:
        out["citations"] = _count(envelope.get("citations"))
    if envelope.get("questions") is not None:
        out["questions"] = [str(q.get("field")) for q in envelope["questions"] if isinstance(q, Mapping)][:10]
    return out


def _findings(update: Mapping[str, Any]) -> list[TraceFinding]:
    found: list[TraceFinding] = []
    for finding in (update.get("findings") or [])[:50]:
        if isinstance(finding, Mapping):
            detail = finding.get("message") or finding.get("detail")
            found.append(
                TraceFinding(
                    code=str(finding.get("code", "")),
                    blocking=bool(finding.get("blocking", True)),
                    detail=clip(detail) if detail else None,
                )
            )
    return found


def _tool_calls(update: Mapping[str, Any]) -> list[TraceToolCall]:
    calls: list[TraceToolCall] = []
    for call in update.get("tool_calls") or []:
        if not isinstance(call, Mapping):
            continue
        ms = call.get("ms")
        result = call.get("result")
        calls.append(
            TraceToolCall(
                name=clip(str(call.get("name", "")), 64),
                args=_clip_value(call.get("args") or {}) if isinstance(call.get("args"), Mapping) else {},
                ok=bool(call.get("ok")),
                error=call.get("error"),
                result=result if isinstance(result, str) or result is None else result_summary(result),
                ms=float(ms) if isinstance(ms, int | float) else None,
            )
        )
    return calls


def _error_code(error: Any) -> str:
    if isinstance(error, BaseException):
        return error_code(error).value
    return "internal_error"


def envelope_status(envelope: Mapping[str, Any] | None) -> TraceStatus:
    status = (envelope or {}).get("status")
    return status if status in ("answer", "abstain", "clarify", "error") else "running"


# --- the recorder ---------------------------------------------------------------------------------------------


class _Open:
    __slots__ = ("input", "node", "perf", "started")

    def __init__(self, node: str, started: float, perf: float, input: dict[str, Any]) -> None:
        self.node, self.started, self.perf, self.input = node, started, perf, input


class RunRecorder:
    """Builds the trace of one drive of the graph from its stream chunks. It never raises into the run: a chunk
    it cannot read is logged and skipped. `telemetry` (agent/runs/telemetry.py), if given, gets each finished step."""

    def __init__(self, trace: RunTrace, nodes: frozenset[str], telemetry: Any = None) -> None:
        self.trace = trace
        self.nodes = nodes
        self.telemetry = telemetry
        self._open: dict[str, _Open] = {}
        self._updates: dict[str, Any] = {}  # the node's update, by node name (the last seen)
        self._unpinned: list[TraceStep] = []  # finished steps waiting for the checkpoint written after them
        self._perf0 = time.perf_counter()
        self._ms0 = trace.ms
        trace.status = "running"
        if telemetry is not None:
            telemetry.run_started(trace)

    def on_chunk(self, mode: str, chunk: Any) -> None:
        try:
            if mode == "tasks":
                self._task(chunk)
            elif mode == "updates" and isinstance(chunk, Mapping):
                for node, update in chunk.items():
                    if node in self.nodes:
                        self._updates[node] = update
            elif mode == "checkpoints" and isinstance(chunk, Mapping):
                checkpoint_id = ((chunk.get("config") or {}).get("configurable") or {}).get("checkpoint_id")
                for step in self._unpinned:
                    step.checkpoint_id = checkpoint_id
                self._unpinned = []
        except Exception:
            log.error("run %s: a %s chunk could not be traced", self.trace.run_id, mode, exc_info=True)

    def _task(self, chunk: Any) -> None:
        if not isinstance(chunk, Mapping) or chunk.get("name") not in self.nodes:
            return
        task_id = str(chunk.get("id"))
        node = str(chunk["name"])
        if "result" not in chunk:  # a task starts (a task's end always carries `result`, an error's too)
            summary = input_summary(node, plain(chunk.get("input")))
            self._open[task_id] = _Open(node, time.time(), time.perf_counter(), summary)
            return
        opened = self._open.pop(task_id, None) or _Open(node, time.time(), time.perf_counter(), {})
        update = chunk.get("result") if isinstance(chunk.get("result"), Mapping) else self._updates.get(node)
        update = plain(update) if isinstance(update, Mapping) else {}
        self._updates.pop(node, None)
        output = output_summary(node, update)
        if chunk.get("interrupts"):
            output["interrupted"] = True
        step = TraceStep(
            index=len(self.trace.steps) + 1,
            node=node,
            started_at=opened.started,
            ms=round((time.perf_counter() - opened.perf) * 1000, 3),
            input=opened.input,
            output=output,
            tool_calls=_tool_calls(update),
            findings=_findings(update) if node == "validate" else [],
            error=_error_code(chunk["error"]) if chunk.get("error") is not None else None,
        )
        self.trace.steps.append(step)
        if step.error is None and not chunk.get("interrupts"):
            self._unpinned.append(step)
        if self.telemetry is not None:
            self.telemetry.step(self.trace, step, update)

    def finish(self, envelope: Any) -> RunTrace:
        """Close the drive with the envelope the caller gets (a pydantic envelope or its JSON)."""
        try:
            dumped = envelope.model_dump(mode="json") if hasattr(envelope, "model_dump") else envelope
            dumped = dict(dumped) if isinstance(dumped, Mapping) else None
            self.trace.envelope = dumped
            self.trace.status = envelope_status(dumped)
            self.trace.audit_ref = (dumped or {}).get("audit_ref") or self.trace.audit_ref
            self.trace.ms = round(self._ms0 + (time.perf_counter() - self._perf0) * 1000, 3)
            for opened in self._open.values():  # a node that never reported its end (the drive was cut short)
                self.trace.steps.append(
                    TraceStep(
                        index=len(self.trace.steps) + 1,
                        node=opened.node,
                        started_at=opened.started,
                        ms=round((time.perf_counter() - opened.perf) * 1000, 3),
                        input=opened.input,
                        error=str((dumped or {}).get("code") or "internal_error"),
                    )
                )
            self._open.clear()
            if self.telemetry is not None:
                self.telemetry.run_finished(self.trace)
        except Exception:
            log.error("run %s: its trace could not be closed", self.trace.run_id, exc_info=True)
        return self.trace
