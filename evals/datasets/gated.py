"""Run golden cases through the full graph on one shard's store, scoped to each case's own documents, and read
each run back as an `Outcome`: its final envelope, the bundles retrieval gave it and its last draft.

Not `evals/runner.run_cases`: it drops each finished thread's checkpoint, and with it the bundles and the draft
these scores need (the retrieved text for "unsupported", the draft for "obeyed in drafts"). The cases here have
no scripted clarify replies, so one `ask` per case is the whole run; its thread is dropped the same way after.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from quotebound.agent.core.contracts import AskRequest
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.models.base import DraftingModel
from quotebound.evals.bipia import ScopedPolicy
from quotebound.evals.bipia_run import settings_for
from quotebound.evals.datasets.outcome import Outcome, envelope_outcome
from quotebound.evals.golden import GoldenCase

OutcomeProgress = Callable[[int, int, Outcome], None]


def as_json(value: Any) -> Any:
    """A graph state value as JSON data: the state holds typed models (a draft, bundles)."""
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def bundles_text(bundles: Sequence[Any]) -> str:
    return "\n".join(str(as_json(b).get("text") or "") for b in bundles)


def ask(agent: Agent, case: GoldenCase, system: str) -> Outcome:
    """One case through `Agent.ask`, read back before its thread is dropped; a run that raises is an error."""
    session = f"external-{uuid.uuid4().hex}"
    started = time.perf_counter()
    envelope: dict[str, Any] | None = None
    values: dict[str, Any] = {}
    error: str | None = None
    try:
        # Built unchecked: the agent validates it, and a case it refuses is reported like any other failure.
        request = AskRequest.model_construct(
            question=case.question, session_id=session, role=case.role, labels=list(case.labels), context={}
        )
        asked = agent.ask(request)
        envelope = asked.model_dump(mode="json")
    except Exception as exc:  # a benchmark reports a broken case and goes on
        error = f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - started
    try:
        values = dict(agent.graph.get_state({"configurable": {"thread_id": session}}).values)
        checkpointer = getattr(agent.graph, "checkpointer", None)
        if checkpointer is not None and hasattr(checkpointer, "delete_thread"):
            checkpointer.delete_thread(session)  # 1,668 runs must not grow the checkpointer by 1,668 threads
    except Exception as exc:
        error = error or f"state unreadable: {type(exc).__name__}: {exc}"
    return envelope_outcome(
        case.id,
        system,
        envelope,
        retrieved=bundles_text(values.get("bundles") or []),
        draft=as_json(values.get("draft")),
        seconds=seconds,
        tool_calls=len(values.get("tool_calls") or []),
        error=error,
    )


def run_gated(
    store_dir: Path,
    cases: Sequence[GoldenCase],
    system: str,
    *,
    model: DraftingModel | str | None = "extractive",
    settings: Settings | None = None,
    progress: OutcomeProgress | None = None,
) -> list[Outcome]:
    """Every case through the graph, one at a time (the machine is shared), each scoped to its `labels`."""
    outcomes: list[Outcome] = []
    with Agent(settings or settings_for(store_dir), model=model, policy=ScopedPolicy()) as agent:
        for case in cases:
            outcomes.append(ask(agent, case, system))
            if progress is not None:
                progress(len(outcomes), len(cases), outcomes[-1])
    return outcomes
