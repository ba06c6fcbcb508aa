"""`Agent`: the one entry point for applications. `ask` returns an envelope; `resume` answers a clarify.

from quotebound import Agent, AskRequest, ResumeRequest
agent = Agent.open(".quotebound")
envelope = agent.ask(AskRequest(question="What's the square footage of my unit?", session_id="s1"))
if envelope.status == "clarify":
    envelope = agent.resume(ResumeRequest(session_id="s1", replies={"unit": "4B"}))

`agent.ask("What is the minimum lease term?")` is short for `agent.ask(AskRequest(question=...))`.

Every run writes one receipt to the audit ledger (`agent.ledger`), whatever its end; `envelope.audit_ref` names it.
`aask`/`aresume` are the same on an event loop; `astream`/`astream_resume` (and `stream`/`stream_resume`) yield
progress events (agent/runs/events.py) and end with one `EnvelopeEvent` carrying the same envelope.

Every run is traced (agent/runs/trace.py): its steps are kept in `STORE/traces.sqlite`, read back with
`agent.trace(run_id)` (or `quotebound trace RUN_ID`); `principal` (an opaque caller identity, e.g. an API key's
fingerprint) is recorded there only. With a `tracer_provider` (or `Settings.telemetry = "console"`) each run also
emits OpenTelemetry spans (agent/runs/telemetry.py).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command, Overwrite, StreamMode
from pydantic import TypeAdapter

from quotebound.agent.audit import LedgerBackend, bind_witness, new_audit_ref, open_ledger
from quotebound.agent.core.contracts import AskRequest, Envelope, ErrorEnvelope, ResumeRequest
from quotebound.agent.core.errors import CallerError, ErrorCode, OperatorError
from quotebound.agent.core.offline import default_cache_dir, prepare_tiktoken_cache
from quotebound.agent.core.run_errors import error_code, error_envelope, request_problems
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.replay import ReplayOutcome, replay
from quotebound.agent.models.base import DraftingModel
from quotebound.agent.models.factory import make_model
from quotebound.agent.runs.events import (
    EnvelopeEvent,
    NodeEvent,
    ProgressEvent,
    StreamEvent,
    node_summary,
    progress_event,
)
from quotebound.agent.runs.telemetry import make_telemetry
from quotebound.agent.runs.trace import RunRecorder, RunTrace, plain
from quotebound.agent.runs.trace_store import TraceStore
from quotebound.graphs import RunContext, build_graph
from quotebound.graphs.checkpoints import checkpoint_serde
from quotebound.graphs.names import Node
from quotebound.graphs.receipts import build_receipt
from quotebound.graphs.state import RunState
from quotebound.tools.policy_file import load_policy
from quotebound.tools.store import Store

_ENVELOPE: TypeAdapter[Envelope] = TypeAdapter(Envelope)
# `updates` and `custom` make the progress events; `tasks` and `checkpoints` the run's trace.
_STREAM_MODES: list[StreamMode] = ["updates", "custom", "tasks", "checkpoints"]
_NODES = frozenset(node.value for node in Node)
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Run:
    payload: Any  # the graph's input: a new run's state, or `Command(resume=...)`
    config: RunnableConfig
    fallback: RunState  # the state to record if the run fails before anything is checkpointed
    trace: RunTrace | None = None  # the run's trace so far (a resumed run continues it)


def _event(mode: str, chunk: Any, ended: dict[str, Any]) -> NodeEvent | ProgressEvent | None:
    """One stream chunk as an event; the run's end (envelope or interrupt) is kept in `ended` for `_finish`."""
    if mode == "custom":
        return progress_event(chunk, _NODES)
    if mode != "updates" or not isinstance(chunk, dict):
        return None
    if "__interrupt__" in chunk:
        ended["__interrupt__"] = list(chunk["__interrupt__"])
        return None
    for node, update in chunk.items():
        if node not in _NODES:
            continue
        if isinstance(update, dict) and update.get("envelope") is not None:
            ended["envelope"] = update["envelope"]
        return NodeEvent(node=node, summary=node_summary(node, plain(update) if isinstance(update, dict) else None))
    return None


_Request = TypeVar("_Request", AskRequest, ResumeRequest)


def _ended(envelope: Envelope | None) -> Envelope:
    if envelope is None:  # every drive's stream ends with an EnvelopeEvent (`_stream`, `_astream`)
        raise RuntimeError("the run's stream ended without an envelope")
    return envelope


def _validated(model: type[_Request], data: object) -> _Request:
    try:
        return model.model_validate(data)
    except ValueError as exc:  # pydantic's ValidationError: the caller's request is at fault
        raise CallerError(ErrorCode.BAD_REQUEST, request_problems(exc)) from exc


def _ask_request(request: AskRequest | str) -> AskRequest:
    """The request to run: a bare string is the question. A request object is validated again (one built with
    `model_construct` skipped its checks), so any bad request is a `CallerError` before anything runs."""
    if isinstance(request, str):
        return _validated(AskRequest, {"question": request})
    return _validated(AskRequest, request.model_dump() if isinstance(request, AskRequest) else request)


def _resume_request(request: ResumeRequest) -> ResumeRequest:
    return _validated(ResumeRequest, request.model_dump() if isinstance(request, ResumeRequest) else request)


class _SqliteSaver(SqliteSaver):
    """The default checkpointer: LangGraph's `SqliteSaver`, whose async methods (which it lacks) run its sync
    ones on a worker thread, so `aask` and `astream` work on it too. Its own lock serializes the connection."""

    async def aget_tuple(self, config: Any) -> Any:
        return await asyncio.to_thread(self.get_tuple, config)

    async def alist(
        self, config: Any, *, filter: dict[str, Any] | None = None, before: Any = None, limit: int | None = None
    ) -> AsyncIterator[Any]:
        items = await asyncio.to_thread(lambda: list(self.list(config, filter=filter, before=before, limit=limit)))
        for item in items:
            yield item

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        return await asyncio.to_thread(self.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self, config: Any, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        await asyncio.to_thread(self.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        await asyncio.to_thread(self.delete_thread, thread_id)

    async def aget_delta_channel_history(self, *, config: Any, channels: Sequence[str]) -> Any:
        return await asyncio.to_thread(lambda: self.get_delta_channel_history(config=config, channels=channels))


class Agent:
    def __init__(
        self,
        settings: Settings,
        *,
        model: DraftingModel | str | None = None,
        checkpointer: Any = None,
        policy: Any = None,
        user_guard: Any = None,
        ledger: LedgerBackend | None = None,
        tracer_provider: Any = None,
    ) -> None:
        prepare_tiktoken_cache(default_cache_dir())
        self.settings = settings
        # The policy first: a bad policy file stops here, before anything is opened that would need closing.
        resolved_policy = policy or load_policy(settings)
        # Telemetry too (`telemetry=console` without opentelemetry-sdk installed stops here).
        self.telemetry, self._owned_tracer_provider = make_telemetry(tracer_provider, settings.telemetry)
        self.store = Store(settings)
        try:
            # No ledger, no runs: an answer without its receipt must never ship. The store knows its ledger: a
            # missing, replaced, restarted or unreadable one stops here (agent/audit/identity.py).
            if ledger is None:
                self.ledger = open_ledger(settings, create=True, witness=self.store)
            else:
                bind_witness(ledger, self.store)
                self.ledger = ledger
        except BaseException:
            self.store.close()
            raise
        self.model = make_model(model if model is not None else settings.model, settings)
        if not isinstance(getattr(self.model, "model_version", None), str):
            # Fail here, not in every run's receipt.
            self.store.close()
            if ledger is None:
                self.ledger.close()
            raise OperatorError(
                ErrorCode.MISCONFIGURED, f"model {self.model.model_id!r} has no `model_version` (receipts record it)"
            )
        self._owned_saver: sqlite3.Connection | None = None
        if checkpointer is None:
            checkpointer = self._sqlite_saver(Path(settings.store) / "checkpoints.sqlite")
        self.graph = build_graph(settings, checkpointer=checkpointer)
        self.traces = self._open_traces(settings)
        self.context = RunContext(
            settings=settings,
            store=self.store,
            model=self.model,
            ledger=self.ledger,
            policy=resolved_policy,
            user_guard=user_guard,
        )

    @classmethod
    def open(cls, store: str | Path, **kwargs: Any) -> Agent:
        return cls(Settings(store=Path(store)), **kwargs)

    @staticmethod
    def _open_traces(settings: Settings) -> TraceStore | None:
        """The run traces' store; without it runs still answer and write receipts (the error is logged)."""
        try:
            return TraceStore.for_store(settings.store)
        except Exception:
            log.error("the trace store in %s cannot be opened: runs are not traced", settings.store, exc_info=True)
            return None

    def _sqlite_saver(self, path: Path) -> _SqliteSaver:
        connection = sqlite3.connect(path, check_same_thread=False)
        self._owned_saver = connection
        return _SqliteSaver(connection, serde=checkpoint_serde())

    @staticmethod
    def _config(session_id: str) -> RunnableConfig:
        return {"configurable": {"thread_id": session_id}, "recursion_limit": 60}

    # --- one run, whichever way it is driven -------------------------------------------------------------
    # `ask`/`aask`/`stream`/`astream` share `_new_run`; `resume`/`aresume`/`stream_resume`/`astream_resume` share
    # `_resumed_run`; every driver ends through `_finish` or `_failed`, so sync, async and streamed runs get the
    # same validation, envelopes and receipts.

    def _new_run(self, request: AskRequest, principal: str | None = None) -> _Run:
        session = request.session_id or uuid.uuid4().hex
        state: RunState = {
            "run_id": uuid.uuid4().hex,
            "question": request.question,
            "role": request.role,
            "labels": request.labels,
            "session_id": session,
            "started_at": time.time(),
            "context": {k.lower(): v for k, v in request.context.items()},
            "path": [],
            "tool_calls": [],
            "hits": [],
            "bundles": [],
            "draft": None,
            "findings": [],
            "gate_report": None,
            "repairs": 0,
            "failure": None,
            "envelope": None,
        }
        # A new run on the session's thread: the per-run lists restart instead of adding to the last run's.
        payload: dict[str, Any] = {**state, "path": Overwrite([]), "tool_calls": Overwrite([])}
        trace = RunTrace(
            run_id=state["run_id"],
            session_id=session,
            principal=principal,
            role=request.role,
            labels=list(request.labels),
            question=request.question,
            started_at=state["started_at"],
        )
        return _Run(payload, self._config(session), state, trace)

    def _resumed_run(
        self, request: ResumeRequest, snapshot: Any, principal: str | None, trace: RunTrace | None
    ) -> _Run:
        session_id, replies = request.session_id, dict(request.replies)
        values: RunState = snapshot.values
        # A session belongs to the principal who asked (recorded in its trace): someone else's paused session
        # reads exactly like one that is not waiting.
        owned = trace is None or trace.run_id != values.get("run_id") or trace.principal == principal
        if not snapshot.interrupts or not owned:
            raise CallerError(ErrorCode.BAD_REQUEST, f"session {session_id!r} is not waiting for a reply")
        if trace is None or trace.run_id != values.get("run_id"):  # its trace was lost: start one from the state
            trace = RunTrace(
                run_id=str(values.get("run_id") or ""),
                session_id=session_id,
                principal=principal,
                role=str(values.get("role") or "public"),
                labels=list(values.get("labels") or []),
                question=str(values.get("question") or ""),
                started_at=float(values.get("started_at") or time.time()),
            )
        return _Run(Command(resume=replies), self._config(session_id), values, trace)

    def _stored_trace(self, snapshot: Any) -> RunTrace | None:
        """The trace of the run paused in `snapshot`, to continue (None if there is none or it cannot be read)."""
        run_id = dict(snapshot.values).get("run_id") if snapshot is not None else None
        if not run_id or self.traces is None:
            return None
        try:
            return self.traces.get(str(run_id))
        except Exception:
            log.error("the trace of run %s could not be read; its resumed steps start a new one", run_id, exc_info=True)
            return None

    def _recorder(self, run: _Run) -> RunRecorder | None:
        if run.trace is None:
            return None
        return RunRecorder(run.trace, _NODES, self.telemetry)

    def _save_trace(self, recorder: RunRecorder | None, envelope: Any) -> None:
        """Close and store the drive's trace. A failure is logged: the answer and its receipt stand."""
        if recorder is None:
            return
        trace = recorder.finish(envelope)
        if self.traces is None:
            return
        try:
            self.traces.put(trace)
        except Exception:
            log.error("the trace of run %s could not be written", trace.run_id, exc_info=True)

    def _finish(self, result: dict[str, Any]) -> Envelope:
        interrupts = result.get("__interrupt__") or []
        if interrupts:
            return _ENVELOPE.validate_python(interrupts[0].value)
        return _ENVELOPE.validate_python(result["envelope"])

    def _run(self, run: _Run) -> Envelope:
        """Drive the graph to its end; any failure becomes an error envelope with its own receipt. A node whose
        receipt could not be written raised before its envelope left it, so no answer ships without its audit
        trail. (`_stream` without the events: the trace's chunks come from the same stream.)"""
        envelope: Envelope | None = None
        for event in self._stream(run):
            if isinstance(event, EnvelopeEvent):
                envelope = event.envelope
        return _ended(envelope)

    async def _arun(self, run: _Run) -> Envelope:
        envelope: Envelope | None = None
        async for event in self._astream(run):
            if isinstance(event, EnvelopeEvent):
                envelope = event.envelope
        return _ended(envelope)

    def _stream(self, run: _Run) -> Iterator[StreamEvent]:
        ended: dict[str, Any] = {}
        recorder = self._recorder(run)
        saved = False
        try:
            try:
                for mode, chunk in self.graph.stream(
                    run.payload, run.config, context=self.context, stream_mode=_STREAM_MODES
                ):
                    if recorder is not None:
                        recorder.on_chunk(mode, chunk)
                    event = _event(mode, chunk, ended)
                    if event is not None:
                        yield event
                envelope = self._finish(ended)
            except Exception as exc:  # every end of a run gets an envelope and a receipt, an unforeseen one too
                envelope = self._failed(exc, run, self._snapshot(run.config))
            saved = True
            self._save_trace(recorder, envelope)  # before the envelope: a caller may read the trace right after
            yield EnvelopeEvent(envelope=envelope)
        finally:
            if not saved:  # the caller stopped reading the stream: keep what ran
                self._save_trace(recorder, None)

    async def _astream(self, run: _Run) -> AsyncIterator[StreamEvent]:
        ended: dict[str, Any] = {}
        recorder = self._recorder(run)
        saved = False
        try:
            try:
                async for mode, chunk in self.graph.astream(
                    run.payload, run.config, context=self.context, stream_mode=_STREAM_MODES
                ):
                    if recorder is not None:
                        recorder.on_chunk(mode, chunk)
                    event = _event(mode, chunk, ended)
                    if event is not None:
                        yield event
                envelope = self._finish(ended)
            except Exception as exc:
                snapshot = await self._asnapshot(run.config)
                # The ledger write may wait on a lock: off the event loop.
                envelope = await asyncio.to_thread(self._failed, exc, run, snapshot)
            saved = True
            await asyncio.to_thread(self._save_trace, recorder, envelope)
            yield EnvelopeEvent(envelope=envelope)
        finally:
            if not saved:  # the caller stopped reading the stream (or was cancelled): keep what ran
                self._save_trace(recorder, None)

    def _snapshot(self, config: RunnableConfig) -> Any:
        try:
            return self.graph.get_state(config)
        except Exception:  # the checkpointer may be what failed
            return None

    async def _asnapshot(self, config: RunnableConfig) -> Any:
        try:
            return await self.graph.aget_state(config)
        except Exception:
            return None

    def _failed(self, exc: Exception, run: _Run, snapshot: Any) -> ErrorEnvelope:
        fallback = run.fallback
        code = error_code(exc)
        state, error_at = self._state_at_failure(snapshot, fallback)
        audit_ref = new_audit_ref()
        run_id = str(state.get("run_id") or fallback.get("run_id") or uuid.uuid4().hex)
        latency = (time.time() - float(state.get("started_at") or time.time())) * 1000

        def envelope_for(code: ErrorCode) -> ErrorEnvelope:
            return error_envelope(
                code, audit_ref=audit_ref, run_id=run_id, model_id=self.model.model_id, latency_ms=round(latency, 1)
            )

        envelope = envelope_for(code)
        # The details go to the operator's log only, under the audit_ref the caller can quote.
        log.error("run %s failed (%s); audit_ref %s", run_id, code.value, audit_ref, exc_info=exc)
        if code is ErrorCode.AUDIT_UNAVAILABLE:
            return envelope  # the ledger just failed: this audit_ref resolves to nothing
        try:
            receipt = build_receipt(
                self.context, {**state, "run_id": run_id}, envelope.model_dump(mode="json"), error_at=error_at
            )
            self.ledger.append(audit_ref, run_id, receipt.model_dump(mode="json"))
        except Exception as audit_exc:
            log.error("the error receipt %s of run %s could not be written", audit_ref, run_id, exc_info=audit_exc)
            return envelope_for(ErrorCode.AUDIT_UNAVAILABLE)
        return envelope

    @staticmethod
    def _state_at_failure(snapshot: Any, fallback: RunState) -> tuple[RunState, list[str]]:
        """The last state checkpointed for this run and the node(s) that failed; the run's input if there is none
        (or the checkpointer could not be read)."""
        if snapshot is None:
            return fallback, []
        values: RunState = snapshot.values
        if values.get("run_id") != fallback.get("run_id"):
            return fallback, []
        failed = [task.name for task in snapshot.tasks if task.error is not None]
        return values, failed or list(snapshot.next)

    # --- the public API --------------------------------------------------------------------------------------

    def ask(self, request: AskRequest | str, *, principal: str | None = None) -> Envelope | ErrorEnvelope:
        """Run one question to a terminal (answer or abstain) or to a clarify pause; returns the envelope. A run
        that fails (the audit ledger cannot record it, the store breaks) returns an `ErrorEnvelope` instead. A bare
        string is `AskRequest(question=...)`; a request that fails validation raises `CallerError`."""
        return self._run(self._new_run(_ask_request(request), principal))

    def resume(self, request: ResumeRequest, *, principal: str | None = None) -> Envelope | ErrorEnvelope:
        """Answer the clarify questions of the paused run in `request.session_id` (`CallerError` if none is)."""
        request = _resume_request(request)
        snapshot = self.graph.get_state(self._config(request.session_id))
        return self._run(self._resumed_run(request, snapshot, principal, self._stored_trace(snapshot)))

    async def aask(self, request: AskRequest | str, *, principal: str | None = None) -> Envelope | ErrorEnvelope:
        """`ask` on the event loop (the graph's `astream`): the same envelopes, errors, receipts and traces."""
        return await self._arun(self._new_run(_ask_request(request), principal))

    async def aresume(self, request: ResumeRequest, *, principal: str | None = None) -> Envelope | ErrorEnvelope:
        """`resume` on the event loop."""
        request = _resume_request(request)
        snapshot = await self.graph.aget_state(self._config(request.session_id))
        trace = await asyncio.to_thread(self._stored_trace, snapshot)
        return await self._arun(self._resumed_run(request, snapshot, principal, trace))

    async def astream(self, request: AskRequest | str, *, principal: str | None = None) -> AsyncIterator[StreamEvent]:
        """`ask`, streamed: `NodeEvent`s and `ProgressEvent`s as the run goes (agent/runs/events.py), then exactly
        one `EnvelopeEvent` with the envelope `ask` would return (a clarify pause and an error too). A bad request
        raises `CallerError` before the first event."""
        async for event in self._astream(self._new_run(_ask_request(request), principal)):
            yield event

    async def astream_resume(
        self, request: ResumeRequest, *, principal: str | None = None
    ) -> AsyncIterator[StreamEvent]:
        """`resume`, streamed like `astream`."""
        request = _resume_request(request)
        snapshot = await self.graph.aget_state(self._config(request.session_id))
        trace = await asyncio.to_thread(self._stored_trace, snapshot)
        async for event in self._astream(self._resumed_run(request, snapshot, principal, trace)):
            yield event

    def stream(self, request: AskRequest | str, *, principal: str | None = None) -> Iterator[StreamEvent]:
        """`astream` for synchronous code."""
        yield from self._stream(self._new_run(_ask_request(request), principal))

    def stream_resume(self, request: ResumeRequest, *, principal: str | None = None) -> Iterator[StreamEvent]:
        """`astream_resume` for synchronous code."""
        request = _resume_request(request)
        snapshot = self.graph.get_state(self._config(request.session_id))
        yield from self._stream(self._resumed_run(request, snapshot, principal, self._stored_trace(snapshot)))

    # --- traces ----------------------------------------------------------------------------------------------

    def replay(self, run_id: str, from_node: str | None = None) -> ReplayOutcome:
        """Re-run `run_id` from the checkpoint before `from_node` (default: its first node) in a new thread, with
        this agent's model, policy and corpus; returns a `ReplayOutcome` (agent/facade/replay.py): the new envelope (its
        own run_id, receipt and trace) and what changed versus the original run. Every replay passes `validate`
        before it can ship anything: starting at a terminal is a `CallerError`."""
        return replay(self, run_id, from_node)

    def _replay_run(self, thread: str, values: dict[str, Any], original: RunTrace) -> Envelope:
        """Drive the graph on `thread` from the checkpoint a replay put there (`values` is its state)."""
        trace = RunTrace(
            run_id=str(values["run_id"]),
            session_id=thread,
            principal=None,
            role=original.role,
            labels=list(original.labels),
            question=original.question,
            started_at=float(values["started_at"]),
        )
        # the checkpoint's channel values: the run's state (beside LangGraph's own channels, which nothing reads)
        return self._run(_Run(None, self._config(thread), cast(RunState, values), trace))

    def trace(self, run_id: str) -> RunTrace | None:
        """The steps of run `run_id` (agent/runs/trace.py), None for a run this store never traced. Blocking: on an
        event loop call it through `asyncio.to_thread`."""
        if self.traces is None:
            return None
        return self.traces.get(run_id)

    def pending(self, session_id: str) -> bool:
        """True when the session's run is paused at a clarify question, waiting for `resume`."""
        return bool(self.graph.get_state(self._config(session_id)).interrupts)

    async def apending(self, session_id: str) -> bool:
        """`pending` on the event loop."""
        return bool((await self.graph.aget_state(self._config(session_id))).interrupts)

    def close(self) -> None:
        closer = getattr(self.model, "close", None)
        if callable(closer):
            closer()  # a chat model's HTTP client
        self.store.close()
        self.ledger.close()
        if self.traces is not None:
            self.traces.close()
        if self._owned_tracer_provider is not None:
            self._owned_tracer_provider.shutdown()
        if self._owned_saver is not None:
            self._owned_saver.close()

    def __enter__(self) -> Agent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
