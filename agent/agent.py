"""`Agent`: the one entry point for applications. `ask` returns an envelope; `resume` answers a clarify.

from quotebound import Agent
agent = Agent.open(".quotebound")
envelope = agent.ask("What's the square footage of my unit?", session_id="s1")
if envelope.status == "clarify":
    envelope = agent.resume("s1", {"unit": "4B"})

Every run writes one receipt to the audit ledger (`agent.ledger`), whatever its end; `envelope.audit_ref` names it.
"""

from __future__ import annotations

import logging
import time
import uuid
from pathlib import Path
from typing import Any

from langgraph.types import Command, Overwrite
from pydantic import TypeAdapter

from .audit import LedgerBackend, new_audit_ref, open_ledger
from .contracts import AskRequest, Envelope
from .errors import CallerError, ErrorCode, OperatorError
from .models.base import DraftingModel
from .run_errors import error_code, error_envelope
from .settings import Settings

_ENVELOPE: TypeAdapter[Any] = TypeAdapter(Envelope)
log = logging.getLogger(__name__)


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
    ) -> None:
        from quotebound.agent.models.factory import make_model
        from quotebound.agent.offline import default_cache_dir, prepare_tiktoken_cache
        from quotebound.graphs import RunContext, build_graph
        from quotebound.tools.policy_file import load_policy
        from quotebound.tools.store import Store

        prepare_tiktoken_cache(default_cache_dir())
        self.settings = settings
        # The policy first: a bad policy file stops here, before anything is opened that would need closing.
        resolved_policy = policy or load_policy(settings)
        self.store = Store(settings)
        try:
            # No ledger, no runs: an answer without its receipt must never ship.
            self.ledger = ledger if ledger is not None else open_ledger(settings, create=True)
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
        self._owned_saver = None
        if checkpointer is None:
            checkpointer = self._sqlite_saver(Path(settings.store) / "checkpoints.sqlite")
        self.graph = build_graph(settings, checkpointer=checkpointer)
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

    def _sqlite_saver(self, path: Path) -> Any:
        import sqlite3

        from langgraph.checkpoint.sqlite import SqliteSaver

        connection = sqlite3.connect(path, check_same_thread=False)
        self._owned_saver = connection
        return SqliteSaver(connection)

    @staticmethod
    def _config(session_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": session_id}, "recursion_limit": 60}

    def _finish(self, result: dict[str, Any]) -> Any:
        interrupts = result.get("__interrupt__") or []
        if interrupts:
            return _ENVELOPE.validate_python(interrupts[0].value)
        return _ENVELOPE.validate_python(result["envelope"])

    def _run(self, payload: Any, config: dict[str, Any], fallback: dict[str, Any]) -> Any:
        """Invoke the graph; any failure becomes an error envelope with its own receipt. A node whose receipt
        could not be written raised before its envelope left it, so no answer ships without its audit trail."""
        try:
            return self._finish(self.graph.invoke(payload, config, context=self.context))
        except Exception as exc:  # every end of a run gets an envelope and a receipt, an unforeseen one too
            return self._failed(exc, config, fallback)

    def _failed(self, exc: Exception, config: dict[str, Any], fallback: dict[str, Any]) -> Any:
        from quotebound.graphs.receipts import build_receipt

        code = error_code(exc)
        state, error_at = self._state_at_failure(config, fallback)
        audit_ref = new_audit_ref()
        run_id = str(state.get("run_id") or fallback.get("run_id") or uuid.uuid4().hex)
        latency = (time.time() - float(state.get("started_at") or time.time())) * 1000

        def envelope_for(code: ErrorCode) -> Any:
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
            )  # type: ignore[arg-type]
            self.ledger.append(audit_ref, run_id, receipt.model_dump(mode="json"))
        except Exception as audit_exc:
            log.error("the error receipt %s of run %s could not be written", audit_ref, run_id, exc_info=audit_exc)
            return envelope_for(ErrorCode.AUDIT_UNAVAILABLE)
        return envelope

    def _state_at_failure(self, config: dict[str, Any], fallback: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The last state checkpointed for this run and the node(s) that failed; the run's input if there is none."""
        try:
            snapshot = self.graph.get_state(config)
        except Exception:  # the checkpointer may be what failed
            return fallback, []
        values = dict(snapshot.values)
        if values.get("run_id") != fallback.get("run_id"):
            return fallback, []
        failed = [task.name for task in snapshot.tasks if task.error is not None]
        return values, failed or list(snapshot.next)

    def ask(
        self,
        question: str,
        *,
        session_id: str | None = None,
        role: str = "public",
        labels: list[str] | None = None,
        context: dict[str, str] | None = None,
    ) -> Any:
        """Run one question to a terminal (answer or abstain) or to a clarify pause; returns the envelope. A run
        that fails (the audit ledger cannot record it, the store breaks) returns an `ErrorEnvelope` instead."""
        try:
            request = AskRequest(
                question=question, session_id=session_id, role=role, labels=labels or [], context=context or {}
            )
        except ValueError as exc:
            raise CallerError(ErrorCode.BAD_REQUEST, str(exc)) from exc
        session = request.session_id or uuid.uuid4().hex
        state: dict[str, Any] = {
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
        payload = {**state, "path": Overwrite([]), "tool_calls": Overwrite([])}
        return self._run(payload, self._config(session), state)

    def resume(self, session_id: str, replies: dict[str, str]) -> Any:
        """Answer the clarify questions of the paused run in `session_id`."""
        config = self._config(session_id)
        snapshot = self.graph.get_state(config)
        if not snapshot.interrupts:
            raise CallerError(ErrorCode.BAD_REQUEST, f"session {session_id!r} is not waiting for a reply")
        return self._run(Command(resume=replies), config, dict(snapshot.values))

    def close(self) -> None:
        closer = getattr(self.model, "close", None)
        if callable(closer):
            closer()  # a chat model's HTTP client
        self.store.close()
        self.ledger.close()
        if self._owned_saver is not None:
            self._owned_saver.close()

    def __enter__(self) -> Agent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
