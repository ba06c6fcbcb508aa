"""What every tool call runs with: the corpus, the policy and the caller. Built once per run."""

from __future__ import annotations

from dataclasses import dataclass, field

from quotebound.agent.contracts import Source
from quotebound.agent.errors import ErrorCode, ModelError
from quotebound.agent.settings import ToolLimits

from .corpus import Corpus
from .policy import Caller, DefaultPolicy, Policy


@dataclass
class ToolContext:
    corpus: Corpus
    caller: Caller = field(default_factory=Caller)
    policy: Policy = field(default_factory=DefaultPolicy)
    limits: ToolLimits = field(default_factory=ToolLimits)

    def readable_source(self, source_id: str, version: int | None = None) -> Source:
        """The source if it exists *and* the caller may read it. Both failures raise the same error text, so
        a caller cannot tell a hidden source from a missing one (no ghost metadata)."""
        source = self.corpus.source(source_id, version) if isinstance(source_id, str) else None
        if source is None or self.policy.decide(self.caller, source).decision != "allow":
            raise ModelError(ErrorCode.UNKNOWN_SOURCE, f"unknown source {source_id!r}")
        return source

    def can_read(self, source_id: str) -> bool:
        source = self.corpus.source(source_id)
        return source is not None and self.policy.decide(self.caller, source).decision == "allow"
