"""What the nodes run with, handed to the graph as LangGraph's run context (never stored in state)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from quotebound.agent.audit import LedgerBackend
from quotebound.agent.core.settings import Settings
from quotebound.agent.models.base import DraftingModel
from quotebound.graphs.timing import AbstentionTimes
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.policy import Caller, DefaultPolicy, Policy
from quotebound.tools.retrieval import HybridRetriever
from quotebound.tools.store import Store


@dataclass
class RunContext:
    settings: Settings
    store: Store
    model: DraftingModel
    ledger: LedgerBackend
    policy: Policy = field(default_factory=DefaultPolicy)
    user_guard: object | None = None  # a guardrails-ai Guard run as an extra stage of the gate

    @cached_property
    def corpus(self) -> Corpus:
        return Corpus(self.store)

    @cached_property
    def retriever(self) -> HybridRetriever:
        return HybridRetriever(self.store)

    @cached_property
    def abstention_times(self) -> AbstentionTimes:
        """Ordinary abstentions' latencies, which hidden denials are padded to (graphs/timing.py)."""
        return AbstentionTimes(self.settings.gate.denial_floor_ms)

    def tools_for(self, role: str, labels: list[str] | None = None) -> ToolContext:
        caller = Caller(role=role, labels=frozenset(labels or ()))
        return ToolContext(self.corpus, caller=caller, policy=self.policy, limits=self.settings.tools)
