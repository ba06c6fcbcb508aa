"""Who is calling: an API key (`Authorization: Bearer KEY` or `X-API-Key: KEY`) mapped to a role, or no key at all
(role `public`). An unknown or malformed key is refused (401), never downgraded to public.

A caller is known to the rest of quotebound by a short sha256 fingerprint of their key (`key:<16 hex>`): it is what
traces record and what namespaces their sessions. The key itself is compared in constant time and never stored
anywhere else, logged or echoed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass, field

from quotebound.agent.core.settings import ApiKey, Settings

ANONYMOUS_NAMESPACE = "anon"


@dataclass(frozen=True)
class Principal:
    """One caller as the service sees them. `tag` is None for a caller without a key."""

    role: str = "public"
    labels: tuple[str, ...] = ()
    tag: str | None = None
    name: str | None = field(default=None, compare=False)

    @property
    def namespace(self) -> str:
        """The prefix of this caller's sessions' threads: the same session_id under another key is another session."""
        return ANONYMOUS_NAMESPACE if self.tag is None else self.tag.replace(":", "")


ANONYMOUS = Principal()


def fingerprint(secret: str) -> str:
    return "key:" + hashlib.sha256(secret.encode("utf-8")).hexdigest()[:16]


class ApiKeys:
    """The keys the service accepts, each with the principal it stands for."""

    def __init__(self, keys: Iterable[ApiKey] = ()) -> None:
        self._entries: list[tuple[bytes, Principal]] = []
        for key in keys:
            secret = key.key.get_secret_value()
            principal = Principal(role=key.role, labels=tuple(key.labels), tag=fingerprint(secret), name=key.name)
            self._entries.append((secret.encode("utf-8"), principal))

    @classmethod
    def from_settings(cls, settings: Settings) -> ApiKeys:
        return cls(settings.api_keys)

    def __len__(self) -> int:
        return len(self._entries)

    def authenticate(self, presented: str) -> Principal | None:
        """The principal of a presented key, or None if no key matches. Every key is compared, in constant time,
        so neither the answer's timing nor its work tells how close a guess was or which key it resembled."""
        candidate = presented.encode("utf-8", errors="replace")
        found: Principal | None = None
        for secret, principal in self._entries:
            if hmac.compare_digest(secret, candidate):
                found = principal
        return found
