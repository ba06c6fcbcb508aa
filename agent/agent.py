"""`Agent`: the one entry point for applications. `ask` returns an envelope; `resume` answers a clarify.

from quotebound import Agent
agent = Agent.open(".quotebound")
envelope = agent.ask("What's the square footage of my unit?", session_id="s1")
if envelope.status == "clarify":
    envelope = agent.resume("s1", {"unit": "4B"})
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

from langgraph.types import Command, Overwrite
from pydantic import TypeAdapter

from .audit import ReceiptLedger
from .contracts import AskRequest, Envelope
from .errors import CallerError, ErrorCode
from .models.base import DraftingModel
from .settings import Settings

_ENVELOPE: TypeAdapter[Any] = TypeAdapter(Envelope)


class Agent:
    def __init__(
        self,
        settings: Settings,
        *,
        model: DraftingModel | str | None = None,
        checkpointer: Any = None,
        policy: Any = None,
        user_guard: Any = None,
    ) -> None:
        from quotebound.agent.models.factory import make_model
        from quotebound.agent.offline import default_cache_dir, prepare_tiktoken_cache
        from quotebound.graphs import RunContext, build_graph
        from quotebound.tools.policy import DefaultPolicy
        from quotebound.tools.store import Store

        prepare_tiktoken_cache(default_cache_dir())
        self.settings = settings
        self.store = Store(settings)
        self.ledger = ReceiptLedger(Path(settings.store) / "audit.sqlite")
        self.model = make_model(model if model is not None else settings.model, settings)
        self._owned_saver = None
        if checkpointer is None:
            checkpointer = self._sqlite_saver(Path(settings.store) / "checkpoints.sqlite")
        self.graph = build_graph(settings, checkpointer=checkpointer)
        self.context = RunContext(
            settings=settings,
            store=self.store,
            model=self.model,
            ledger=self.ledger,
            policy=policy or DefaultPolicy(),
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

    def ask(
        self,
        question: str,
        *,
        session_id: str | None = None,
        role: str = "public",
        labels: list[str] | None = None,
        context: dict[str, str] | None = None,
    ) -> Any:
        """Run one question to a terminal (answer or abstain) or to a clarify pause; returns the envelope."""
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
            "path": Overwrite([]),
            "tool_calls": Overwrite([]),
            "hits": [],
            "bundles": [],
            "draft": None,
            "findings": [],
            "gate_report": None,
            "repairs": 0,
            "failure": None,
            "envelope": None,
        }
        return self._finish(self.graph.invoke(state, self._config(session), context=self.context))

    def resume(self, session_id: str, replies: dict[str, str]) -> Any:
        """Answer the clarify questions of the paused run in `session_id`."""
        snapshot = self.graph.get_state(self._config(session_id))
        if not snapshot.interrupts:
            raise CallerError(ErrorCode.BAD_REQUEST, f"session {session_id!r} is not waiting for a reply")
        return self._finish(self.graph.invoke(Command(resume=replies), self._config(session_id), context=self.context))

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
