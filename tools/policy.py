"""Who may read what, and what they see. Default deny: only what a rule allows is readable.

`Policy` is the interface every part of quotebound asks: `resolve_evidence`, `quote_fetch` and `search_source`
(readability and obligations), `preflight` (restricted topics and enumeration attempts, before any retrieval), the
terminals (how a denial is worded) and the audit ledger (what a receipt keeps and who may read it).
`DefaultPolicy` is the built-in file-free policy: `public` sources for everyone, nothing else, no topics.
A policy file (`tools/policy_file.py`) implements the same interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from quotebound.agent.core.contracts import PolicyDecision, Source
from quotebound.tools.precheck import check_builtin

ObligationKind = Literal["mask", "generalize", "drop"]


@dataclass(frozen=True)
class Caller:
    role: str = "public"
    labels: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Obligation:
    """One transformation applied to source text before anyone downstream (model, validator, caller) sees it.

    - mask: `what` names the kind of span replaced (`email`, `phone`, `account_number`) or `pattern:<regex>`;
    - generalize: `what` is `coordinates`, rounded to `precision` decimal places;
    - drop: `what` is a regex; a line it matches is emptied (line numbers, so locators, stay stable).
    `rule` is the policy file's name for the rule that imposed it (recorded in bundles and receipts).
    """

    kind: ObligationKind
    what: str
    rule: str = ""
    precision: int | None = None


@dataclass(frozen=True)
class TopicDecision:
    """The outcome of the pre-check on a question (before retrieval). `topic` is for the receipt only."""

    allowed: bool
    reason: Literal["ok", "restricted_topic", "enumeration", "exfiltration"] = "ok"
    topic: str | None = None


@runtime_checkable
class Policy(Protocol):
    def decide(self, caller: Caller, source: Source) -> PolicyDecision:
        """allow or deny reading `source`; `obligations_applied` names the obligations that will apply."""
        ...

    def obligations(self, caller: Caller, source: Source) -> list[Obligation]:
        """What must be applied to `source`'s text before `caller` (or the model working for them) sees it."""
        ...

    def precheck(self, caller: Caller, question: str) -> TopicDecision:
        """Restricted topics, enumeration and exfiltration attempts, decided from the question alone."""
        ...

    def reveals_denials(self, caller: Caller) -> bool:
        """Whether abstentions may say `not_permitted` to this caller; if not, a denial reads like `no_evidence`."""
        ...

    def keeps_query_text(self, caller: Caller) -> bool:
        """Whether this caller's receipts keep the question's text (a hash is always kept)."""
        ...

    def reads_audit(self, caller: Caller) -> bool:
        """Whether this caller may read receipts unredacted (queries, restricted refs)."""
        ...

    @property
    def access_request_hint(self) -> str | None:
        """How to request access (shown in abstention hints), or None."""
        ...

    @property
    def version(self) -> str:
        """An identifier of this policy's content (a hash for a file), recorded in receipts."""
        ...


class DefaultPolicy:
    """Allow `public` sources; deny every other label, whoever asks. No restricted topics, no obligations; the
    built-in pre-check (enumeration and exfiltration attempts) applies."""

    readable_labels: frozenset[str] = frozenset({"public"})

    def decide(self, caller: Caller, source: Source) -> PolicyDecision:
        if source.policy_label in self.readable_labels:
            return PolicyDecision(decision="allow", reason="label_public")
        return PolicyDecision(decision="deny", reason="default_deny")

    def obligations(self, caller: Caller, source: Source) -> list[Obligation]:
        return []

    def precheck(self, caller: Caller, question: str) -> TopicDecision:
        reason = check_builtin(question)
        return TopicDecision(allowed=True) if reason is None else TopicDecision(allowed=False, reason=reason)

    def reveals_denials(self, caller: Caller) -> bool:
        return False

    def keeps_query_text(self, caller: Caller) -> bool:
        return False

    def reads_audit(self, caller: Caller) -> bool:
        return False

    @property
    def access_request_hint(self) -> str | None:
        return None

    @property
    def version(self) -> str:
        return "builtin:default"
