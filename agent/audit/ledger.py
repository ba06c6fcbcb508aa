"""`LedgerBackend`, the protocol every receipt store implements, and `ChainedLedger`, what the backends share:
reading, verifying, and holding a ledger to the identity its store recorded (`identity.py`)."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from quotebound.agent.audit.chain import LedgerEntry, LedgerRow, LedgerSnapshot, LedgerTip
from quotebound.agent.audit.identity import LedgerWitness, RecordedLedger, identity_mismatch, recorded
from quotebound.agent.audit.verify import ChainReport, verify_rows
from quotebound.agent.core.errors import ErrorCode, OperatorError

log = logging.getLogger(__name__)


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
    """What both backends share: `get` and `verify` over their own `find` and `snapshot`, and the identity check.

    `ledger_id` is the ledger's own random id (None only for a ledger made before ledgers had one, opened
    read-only). Bound to a witness (`bind`: the store whose receipts it keeps), every append first checks that
    this is the ledger the witness recorded, inside the append's transaction, and then records the new tip there;
    `verify` reports a replaced or restarted ledger."""

    ledger_id: str | None = None
    _witness: LedgerWitness | None = None

    @abstractmethod
    def append(self, audit_ref: str, run_id: str, body: Mapping[str, Any]) -> LedgerRow: ...

    @abstractmethod
    def find(self, audit_ref: str) -> LedgerRow | None: ...

    @abstractmethod
    def snapshot(self) -> AbstractContextManager[LedgerSnapshot]: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _position(self, seq: int) -> tuple[LedgerTip | None, str | None]:
        """The ledger's tip and the hash of its receipt `seq` (None if there is none), in one read."""

    # --- identity ------------------------------------------------------------------------------------------

    @property
    def witness(self) -> LedgerWitness | None:
        return self._witness

    def bind(self, witness: LedgerWitness) -> None:
        """Hold this ledger to what `witness` recorded of it, and record its tip there after every append."""
        self._witness = witness

    def recorded(self) -> RecordedLedger | None:
        """What the bound witness recorded of its ledger; a record that cannot be read fails closed."""
        return recorded(self._witness)

    def check_identity(self) -> None:
        """Raise OperatorError(AUDIT_UNAVAILABLE) unless this is the ledger the witness recorded (or it recorded
        none yet). Called when a writer opens the ledger, so a replaced or restarted ledger stops it there."""
        record = self.recorded()
        if record is None:
            return
        tip, at_seq = self._position(record.seq)
        self._refuse_mismatch(record, tip, lambda _seq: at_seq)

    def _refuse_mismatch(
        self, record: RecordedLedger | None, tip: LedgerTip | None, hash_at: Callable[[int], str | None]
    ) -> None:
        mismatch = identity_mismatch(record, self.ledger_id, tip, hash_at)
        if mismatch is not None:
            raise OperatorError(
                ErrorCode.AUDIT_UNAVAILABLE,
                f"{mismatch.message}; no receipt is written to it (restore the store's ledger, then run "
                "`quotebound audit verify`)",
            )

    def _witness_append(self, row: LedgerRow) -> None:
        """Record the new tip with the witness. The receipt is already committed: a witness that cannot take it
        (a locked or read-only store) leaves its record behind, which later appends catch up; it is logged."""
        if self._witness is None or self.ledger_id is None:
            return
        try:
            self._witness.record_ledger(self.ledger_id, row.seq, row.hash)
        except Exception:
            log.error("the store could not record the audit ledger's tip (receipt %s)", row.seq, exc_info=True)

    # --- reading -------------------------------------------------------------------------------------------

    def get(self, audit_ref: str) -> LedgerEntry | None:
        row = self.find(audit_ref)
        return row.entry() if row is not None else None

    def verify(self) -> ChainReport:
        """The chain, and (bound to a witness) whether this is the ledger the store recorded."""
        record = self.recorded()
        with self.snapshot() as snapshot:
            return verify_rows(snapshot.tip, snapshot.rows, ledger_id=self.ledger_id, recorded=record)

    def __enter__(self) -> ChainedLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
