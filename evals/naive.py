"""The naive no-gate baseline: the same retrieval and the same model as the gated system, and no gate.

Same retrieval: the graph's own `retrieve` and `resolve` nodes, run on the same store with the same settings
(`HybridRetriever`, same `top_k` and candidates, same token budget) and the same caller, so `ScopedPolicy` gives
the question the same scope. Then, instead of `draft -> validate -> repair -> verified_answer | abstain`:

- a structured model (the default `extractive`): the graph's `draft` node once (same tools, same limits), and its
  draft shipped as is: the three answer levels, its facts, quotes and conflicts, unchecked and unrepaired. The run
  abstains only when the model itself reports insufficient evidence (`mode: report_insufficient_evidence`).
- a chat model (`openai:...`, e.g. SmolLM2): one plain prompt (`prompts/naive_answer.md`) with the retrieved
  passages, and the raw reply shipped as is. The run abstains only when the reply says `INSUFFICIENT EVIDENCE`
  (the prompt asks for exactly that) or is blank.

No preflight, no clarify, no validation, no repair, no receipt. The outcome is read the same way as a gated run's
(`evals/datasets/outcome.py`), so "wrong" and "unsupported" mean the same for both systems.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from quotebound.agent.core.contracts import EvidenceBundle
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.models.base import DraftingModel
from quotebound.agent.models.chat import ChatModel
from quotebound.evals.bipia import ScopedPolicy
from quotebound.evals.bipia_run import settings_for
from quotebound.evals.datasets.outcome import Outcome, reply_outcome, structured_outcome
from quotebound.evals.golden import GoldenCase
from quotebound.evals.leaks import visible_strings
from quotebound.graphs.context import RunContext
from quotebound.graphs.drafting import draft
from quotebound.graphs.evidence import resolve, retrieve
from quotebound.graphs.state import RunState
from quotebound.prompts import load_prompt

PROMPT: Final = "naive_answer"
ABSTAIN_MARKER: Final = "INSUFFICIENT EVIDENCE"  # what prompts/naive_answer.md asks for when nothing answers
NaiveProgress = Callable[[int, int, Outcome], None]


def passages(bundles: Sequence[EvidenceBundle]) -> str:
    """The retrieved chunks as the prompt shows them: a numbered header (source and locator), then the text."""
    return "\n\n".join(f"[{n}] {b.source_id} {b.locator}\n{b.text}" for n, b in enumerate(bundles, start=1))


class NaiveBaseline:
    """Answers one case at a time through an open `Agent`'s store, policy, settings and model."""

    def __init__(self, agent: Agent, system: str) -> None:
        self.agent = agent
        self.system = system
        self.runtime: Runtime[RunContext] = Runtime(context=agent.context)

    def answer(self, case: GoldenCase) -> Outcome:
        started = time.perf_counter()
        state: RunState = {
            "question": case.question,
            "role": case.role,
            "labels": list(case.labels),
            "context": {},
            "gate": "proceed",
            "missing": [],
        }
        state.update(retrieve(state, self.runtime))  # type: ignore[typeddict-item]
        if not state.get("failure"):
            state.update(resolve(state, self.runtime))  # type: ignore[typeddict-item]
        bundles = [EvidenceBundle.model_validate(b) for b in state.get("bundles") or []]
        retrieved = "\n".join(b.text for b in bundles)
        if state.get("failure"):
            return self._error(case, retrieved, started, "retrieval failed")
        model = self.agent.model
        if isinstance(model, ChatModel):
            return self._reply(case, model, bundles, retrieved, started)
        return self._draft(case, state, retrieved, started)

    def _draft(self, case: GoldenCase, state: RunState, retrieved: str, started: float) -> Outcome:
        update: dict[str, Any] = draft(state, self.runtime)
        raw = update.get("draft")
        if raw is None:
            return self._error(case, retrieved, started, "the model produced no draft")
        mode = (raw.get("evidence") or {}).get("mode")
        shown = tuple(visible_strings(raw))
        return structured_outcome(
            case.id,
            self.system,
            "answer" if mode == "answer" else "abstain",
            raw.get("levels"),
            raw.get("evidence"),
            retrieved=retrieved,
            seconds=time.perf_counter() - started,
            tool_calls=len(update.get("tool_calls") or []),
            visible=shown,
            drafted=shown,
        )

    def _reply(
        self, case: GoldenCase, model: ChatModel, bundles: list[EvidenceBundle], retrieved: str, started: float
    ) -> Outcome:
        prompt = load_prompt(PROMPT).render(question=case.question, passages=passages(bundles) or "(none)")
        try:
            text = str(model.llm.invoke([HumanMessage(prompt)]).text)
        except Exception as exc:  # a timeout or a server error is an error outcome, not a crash of the benchmark
            return self._error(case, retrieved, started, f"{type(exc).__name__}: {exc}")
        abstained = not text.strip() or ABSTAIN_MARKER in text.upper()
        return reply_outcome(
            case.id, self.system, text, abstained=abstained, retrieved=retrieved, seconds=time.perf_counter() - started
        )

    def _error(self, case: GoldenCase, retrieved: str, started: float, why: str) -> Outcome:
        seconds = time.perf_counter() - started
        return Outcome(case.id, self.system, "error", retrieved=retrieved, seconds=seconds, error=why)


def run_naive(
    store_dir: Path,
    cases: Sequence[GoldenCase],
    system: str,
    *,
    model: DraftingModel | str | None = "extractive",
    settings: Settings | None = None,
    progress: NaiveProgress | None = None,
) -> list[Outcome]:
    """Every case through the naive baseline, in order, on `store_dir` (the gated system's settings by default)."""
    outcomes: list[Outcome] = []
    with Agent(settings or settings_for(store_dir), model=model, policy=ScopedPolicy()) as agent:
        baseline = NaiveBaseline(agent, system)
        for case in cases:
            outcomes.append(baseline.answer(case))
            if progress is not None:
                progress(len(outcomes), len(cases), outcomes[-1])
    return outcomes
