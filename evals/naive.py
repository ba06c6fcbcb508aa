"""The naive no-gate baseline: the same retrieval and the same model as the gated system, and no gate.

Same retrieval as the graph's `retrieve` and `resolve` steps, rebuilt from the public tools: the agent's
`HybridRetriever` (same `top_k` and candidates), `resolve_evidence` under the same caller, so `ScopedPolicy` gives
the question the same scope, and the same token budget. Then, instead of
`draft -> validate -> repair -> verified_answer | abstain`:

- a structured model (the default `extractive`): one draft through the allowlisted tools (same registry, same
  limits, same deadline), shipped as is: the three answer levels, its facts, quotes and conflicts, unchecked and
  unrepaired. The run abstains only when the model itself reports insufficient evidence
  (`mode: report_insufficient_evidence`).
- a chat model (`openai:...`, e.g. SmolLM2): one plain prompt (`prompts/naive_answer.md`) with the retrieved
  passages, and the raw reply shipped as is. The run abstains only when the reply says `INSUFFICIENT EVIDENCE`
  (the prompt asks for exactly that) or is blank.

No preflight, no clarify, no validation, no repair, no receipt. The outcome is read the same way as a gated run's
(`evals/datasets/outcome.py`), so "wrong" and "unsupported" mean the same for both systems.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from langchain_core.messages import HumanMessage

from quotebound.agent.core.contracts import Draft, EvidenceBundle
from quotebound.agent.core.offline import token_counter
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.models.base import DraftingModel, DraftInput
from quotebound.agent.models.chat import ChatModel
from quotebound.evals.bipia import ScopedPolicy
from quotebound.evals.bipia_run import settings_for
from quotebound.evals.datasets.outcome import Outcome, reply_outcome, structured_outcome
from quotebound.evals.golden import GoldenCase
from quotebound.evals.leaks import visible_strings
from quotebound.prompts import load_prompt
from quotebound.tools.context import ToolContext
from quotebound.tools.registry import ALL_TOOLS, ToolRegistry
from quotebound.tools.resolve_evidence import resolve_hits

PROMPT: Final = "naive_answer"
ABSTAIN_MARKER: Final = "INSUFFICIENT EVIDENCE"  # what prompts/naive_answer.md asks for when nothing answers
NaiveProgress = Callable[[int, int, Outcome], None]


def passages(bundles: Sequence[EvidenceBundle]) -> str:
    """The retrieved chunks as the prompt shows them: a numbered header (source and locator), then the text."""
    return "\n\n".join(f"[{n}] {b.source_id} {b.locator}\n{b.text}" for n, b in enumerate(bundles, start=1))


def _within(call: Callable[[], Draft], timeout_s: float) -> Draft | None:
    """`call()`'s draft, or None when it raised or did not return within `timeout_s` (the abandoned call runs on
    a daemon thread, its registry closed by the caller), like the graph's per-call model deadline."""
    outcome: list[Draft] = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append(call())
        except Exception:  # an untrusted model may fail in any way: the baseline reports no draft
            pass
        finally:
            done.set()

    context = contextvars.copy_context()  # the caller's context variables (LangChain callbacks) follow the call
    threading.Thread(target=context.run, args=(run,), name="quotebound-naive-model", daemon=True).start()
    done.wait(timeout_s)
    return outcome[0] if outcome else None


class NaiveBaseline:
    """Answers one case at a time through an open `Agent`'s store, policy, settings and model."""

    def __init__(self, agent: Agent, system: str) -> None:
        self.agent = agent
        self.system = system

    def _tools(self, case: GoldenCase) -> ToolContext:
        return self.agent.context.tools_for(case.role, list(case.labels))

    def answer(self, case: GoldenCase) -> Outcome:
        started = time.perf_counter()
        try:
            bundles = self._evidence(case)
        except Exception:  # the store or its indexes failed: the gated run abstains, the baseline reports it
            return self._error(case, "", started, "retrieval failed")
        retrieved = "\n".join(b.text for b in bundles)
        model = self.agent.model
        if isinstance(model, ChatModel):
            return self._reply(case, model, bundles, retrieved, started)
        return self._draft(case, bundles, retrieved, started)

    def _evidence(self, case: GoldenCase) -> list[EvidenceBundle]:
        """The graph's retrieval: pointers for the question as the caller may read them, each resolved under the
        caller's policy (unresolvable ones are no evidence), packed into the model's token budget."""
        tools = self._tools(case)
        hits = self.agent.context.retriever.search(case.question, allow=tools.can_read, changed=tools.changed_chunks)
        budget = self.agent.settings.attempts.context_token_budget
        return resolve_hits(tools, hits, budget=budget, counter=token_counter())

    def _draft(self, case: GoldenCase, bundles: list[EvidenceBundle], retrieved: str, started: float) -> Outcome:
        attempts = self.agent.settings.attempts
        tools = ToolRegistry(self._tools(case), allowed=ALL_TOOLS, max_calls=attempts.max_tool_calls)
        request = DraftInput(question=case.question, bundles=bundles, max_tool_calls=attempts.max_tool_calls)
        model = self.agent.model

        def call() -> Draft:
            draft = model.draft(request, tools)
            return draft if isinstance(draft, Draft) else Draft.model_validate(draft)

        try:
            draft = _within(call, attempts.model_timeout_s)
        finally:
            tools.close()  # whatever happened, an abandoned call can no longer reach the store
        if draft is None or tools.faults:  # a tool fault: what the model read may be incomplete
            return self._error(case, retrieved, started, "the model produced no draft")
        raw = draft.model_dump(mode="json")
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
            tool_calls=len(tools.calls),
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
