"""The audit ledger's core: the hash chain, the stored row, and the `LedgerBackend` every store implements.

Every run writes one receipt whatever its end (answer, abstain, clarify pause, error). Receipts are append-only
and chained: a receipt's `hash` covers its `seq`, the previous receipt's hash, its audit_ref, run_id, time and
body, and a one-row tip records the last seq and hash. So an edited body or hash, a receipt deleted or moved, and
a truncated tail all show in `verify` (agent/ledger_verify.py). Someone who can rewrite the whole store can also
rewrite the whole chain: copy the tip hash `quotebound audit verify` prints somewhere else to pin it.

Backends: `SqliteLedger` (default, `STORE/audit.sqlite`) and `PostgresLedger` (`Settings.audit_dsn`), same
schema, same chain. `open_ledger` picks one from the settings.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, runtime_checkable

if TYPE_CHECKING:
    from .ledger_verify import ChainReport
    from .settings import Settings

GENESIS = "sha256:" + "0" * 64
# Part of every hash, so a change to what the hash covers can never verify against rows written before it.
CHAIN_FORMAT = "quotebound-ledger/2"
LEDGER_FILE = "audit.sqlite"


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


@runtime_checkable
class LedgerBackend(Protocol):
    """Where receipts live. `append` must be atomic and serialized across every writer of the same ledger (threads,
    processes, servers): it reads the tip, writes seq+1 chained to it and moves the tip, in one transaction."""

    def append(self, audit_ref: str, run_id: str, body: Mapping[str, Any]) -> LedgerRow:
        """Write one receipt. Raises OperatorError(AUDIT_UNAVAILABLE) when it cannot: then nothing may ship."""
        ...

    def find(self, audit_ref: str) -> LedgerRow | None: ...

    def get(self, audit_ref: str) -> LedgerEntry | None: ...

    def snapshot(self) -> AbstractContextManager[LedgerSnapshot]: ...

    def verify(self) -> ChainReport: ...

    def close(self) -> None: ...


class ChainedLedger(ABC):
    """What both backends share: `get` and `verify` over their own `find` and `snapshot`."""

    @abstractmethod
    def append(self, audit_ref: str, run_id: str, body: Mapping[str, Any]) -> LedgerRow: ...

    @abstractmethod
    def find(self, audit_ref: str) -> LedgerRow | None: ...

    @abstractmethod
    def snapshot(self) -> AbstractContextManager[LedgerSnapshot]: ...

    @abstractmethod
    def close(self) -> None: ...

    def get(self, audit_ref: str) -> LedgerEntry | None:
        row = self.find(audit_ref)
        return row.entry() if row is not None else None

    def verify(self) -> ChainReport:
        from .ledger_verify import verify_rows

        with self.snapshot() as snapshot:
            return verify_rows(snapshot.tip, snapshot.rows)

    def __enter__(self) -> ChainedLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def ledger_path(settings: Settings) -> Path:
    return Path(settings.store) / LEDGER_FILE


def open_ledger(settings: Settings, *, create: bool = True) -> LedgerBackend:
    """Postgres when `settings.audit_dsn` is set, else `STORE/audit.sqlite`. With `create=False` a missing
    SQLite ledger is an OperatorError (reading or verifying must not conjure an empty, intact ledger)."""
    if settings.audit_dsn:
        from .ledger_postgres import PostgresLedger

        return PostgresLedger(settings.audit_dsn)
    from .ledger_sqlite import SqliteLedger

    return SqliteLedger(ledger_path(settings), create=create)
