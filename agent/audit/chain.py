"""The audit ledger's hash chain: how one receipt is hashed and chained, and the rows every backend stores.

Every run writes one receipt whatever its end (answer, abstain, clarify pause, error). Receipts are append-only
and chained: a receipt's `hash` covers its `seq`, the previous receipt's hash, its audit_ref, run_id, time and
body, and a one-row tip records the last seq and hash. So an edited body or hash, a receipt deleted or moved, and
a truncated tail all show in `verify` (`verify.py`). Someone who can rewrite the whole store can also
rewrite the whole chain: copy the tip hash `quotebound audit verify` prints somewhere else to pin it.

Backends (`ledger.py`): `SqliteLedger` (default, `STORE/audit.sqlite`) and `PostgresLedger`
(`Settings.audit_dsn`), same schema, same chain. `open_ledger` (`open.py`) picks one from the settings.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypedDict

GENESIS = "sha256:" + "0" * 64
# Part of every hash, so a change to what the hash covers can never verify against rows written before it.
CHAIN_FORMAT = "quotebound-ledger/2"


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def sha256_text(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_audit_ref() -> str:
    return f"audit://quotebound/{uuid.uuid4().hex}"


def chain_hash(seq: int, prev_hash: str, audit_ref: str, run_id: str, created_at: str, body: str) -> str:
    """The hash of one receipt: a JSON array, so no field can bleed into the next."""
    return sha256_text(canonical_json([CHAIN_FORMAT, seq, prev_hash, audit_ref, run_id, created_at, body]))


class LedgerEntry(TypedDict):
    """One stored receipt with its body parsed (what `get` returns)."""

    seq: int
    audit_ref: str
    run_id: str
    created_at: str
    body: dict[str, Any]
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class LedgerRow:
    """One stored receipt exactly as stored: `body` is the canonical JSON text the hash covers."""

    seq: int
    audit_ref: str
    run_id: str
    created_at: str
    body: str
    prev_hash: str
    hash: str

    def expected_hash(self) -> str:
        return chain_hash(self.seq, self.prev_hash, self.audit_ref, self.run_id, self.created_at, self.body)

    def entry(self) -> LedgerEntry:
        return LedgerEntry(
            seq=self.seq,
            audit_ref=self.audit_ref,
            run_id=self.run_id,
            created_at=self.created_at,
            body=json.loads(self.body),
            prev_hash=self.prev_hash,
            hash=self.hash,
        )


@dataclass(frozen=True)
class LedgerTip:
    """The chain's head as the ledger recorded it: seq 0 and GENESIS before the first receipt."""

    seq: int
    audit_ref: str
    hash: str


@dataclass(frozen=True)
class LedgerSnapshot:
    """A consistent read of the whole ledger: the tip, and every row in seq order (streamed)."""

    tip: LedgerTip | None
    rows: Iterator[LedgerRow]
