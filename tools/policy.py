"""Who may read what. Default deny: only what a rule allows is readable.

This is the minimal policy of the foundation: a source labelled `public` is readable by everyone and every
other label is denied. The governance issue replaces it with a policy file; the interface stays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from quotebound.agent.contracts import PolicyDecision, Source


@dataclass(frozen=True)
class Caller:
    role: str = "public"
    labels: frozenset[str] = field(default_factory=frozenset)


class Policy(Protocol):
    def decide(self, caller: Caller, source: Source) -> PolicyDecision: ...


class DefaultPolicy:
    """Allow `public` sources; deny every other label, whoever asks."""

    readable_labels: frozenset[str] = frozenset({"public"})

    def decide(self, caller: Caller, source: Source) -> PolicyDecision:
        if source.policy_label in self.readable_labels:
            return PolicyDecision(decision="allow", reason="label_public")
        return PolicyDecision(decision="deny", reason="default_deny")
