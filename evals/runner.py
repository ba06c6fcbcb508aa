"""Run golden cases through an `Agent`, concurrently, and keep every envelope of every clarify round.

A case's run is `ask`, then one `resume` per scripted reply while the run keeps pausing for the user. The
harness never fails on a case: whatever goes wrong (a reply to a run that did not pause, a run that raised) is
recorded on the `CaseRun` as `error` and scored as a failed case, and the other cases go on.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from quotebound.agent.core.contracts import AskRequest, ResumeRequest
from quotebound.agent.core.errors import QuoteboundError
from quotebound.evals.golden import GoldenCase

if TYPE_CHECKING:
    from quotebound.agent.facade.agent import Agent

Progress = Callable[[int, int, "CaseRun"], None]


@dataclass
class CaseRun:
    """What one golden case produced: each round's envelope (as JSON data), timings and tool calls."""

    case: GoldenCase
    session_id: str
    envelopes: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    tool_calls: int = 0
    error: str | None = None  # the harness could not complete the case as scripted

    @property
    def final(self) -> dict[str, Any] | None:
        return self.envelopes[-1] if self.envelopes else None

    @property
    def status(self) -> str:
        """The final envelope's status (`answer`, `abstain`, `clarify`, `error`), or `failed` when no envelope."""
        final = self.final
        return str(final["status"]) if final is not None else "failed"

    @property
    def clarify_rounds(self) -> int:
        return sum(1 for envelope in self.envelopes if envelope.get("status") == "clarify")


def run_case(agent: Agent, case: GoldenCase) -> CaseRun:
    """Ask the case's question, answer its clarify rounds with the scripted replies, and record everything."""
    run = CaseRun(case=case, session_id=f"eval-{uuid.uuid4().hex}")
    started = time.perf_counter()
    try:
        # Built unchecked: the agent validates every request, so a case it refuses is a CallerError, as for any caller.
        request = AskRequest.model_construct(
            question=case.question, session_id=run.session_id, role=case.role, labels=list(case.labels), context={}
        )
        envelope = agent.ask(request)
        run.envelopes.append(_dump(envelope))
        for reply in case.replies:
            if run.status != "clarify":
                run.error = (
                    f"the run ended ({run.status}) with {len(case.replies) - run.clarify_rounds} reply(ies) unused"
                )
                break
            resume = ResumeRequest.model_construct(session_id=run.session_id, replies=dict(reply))
            run.envelopes.append(_dump(agent.resume(resume)))
        run.tool_calls = _tool_calls(agent, run.session_id)
        _forget(agent, run.session_id)
    except QuoteboundError as exc:
        run.error = f"{exc.code.value}: {exc}"
    except Exception as exc:  # a harness must report a broken case, not stop the other cases
        run.error = f"{type(exc).__name__}: {exc}"
    run.seconds = time.perf_counter() - started
    return run


def run_cases(
    agent: Agent, cases: Sequence[GoldenCase], *, concurrency: int = 1, progress: Progress | None = None
) -> list[CaseRun]:
    """Run every case (up to `concurrency` at once, each on its own session); results in the cases' order."""
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    results: list[CaseRun | None] = [None] * len(cases)
    done = 0
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="quotebound-eval") as pool:
        futures = {pool.submit(run_case, agent, case): index for index, case in enumerate(cases)}
        for future in as_completed(futures):
            index = futures[future]
            finished = future.result()
            results[index] = finished
            done += 1
            if progress is not None:
                progress(done, len(cases), finished)
    return [run for run in results if run is not None]


def _dump(envelope: BaseModel) -> dict[str, Any]:
    return envelope.model_dump(mode="json")


def _forget(agent: Agent, session_id: str) -> None:
    """Drop the finished case's checkpoints: an eval of 500 cases must not grow the checkpointer by 500 threads
    (the receipts stay in the audit ledger: an eval run is a governed run like any other)."""
    checkpointer = getattr(agent.graph, "checkpointer", None)
    if checkpointer is not None and hasattr(checkpointer, "delete_thread"):
        checkpointer.delete_thread(session_id)


def _tool_calls(agent: Agent, session_id: str) -> int:
    values = agent.graph.get_state({"configurable": {"thread_id": session_id}}).values
    return len(values.get("tool_calls") or [])
