"""`LedgerBackend`, the protocol every receipt store implements, and `ChainedLedger`, what the backends share."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from quotebound.agent.audit.chain import LedgerEntry, LedgerRow, LedgerSnapshot
from quotebound.agent.audit.verify import ChainReport, verify_rows


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
        with self.snapshot() as snapshot:
            return verify_rows(snapshot.tip, snapshot.rows)

    def __enter__(self) -> ChainedLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
