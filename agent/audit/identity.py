"""The store knows its ledger: a missing, replaced or restarted ledger is an error, never a fresh chain.

Every ledger has a random `ledger_id`, written once when it is created (a ledger made before ledgers had one
gets one the first time a writer opens it). The store it serves records, on its first receipt, that id and then
the ledger's tip (seq and hash) after every append: the store's witness (`LedgerWitness`, the store's
manifest). From then on, a ledger whose id differs (replaced: another file, a recreated database), whose chain is
shorter than the recorded tip (restarted, or truncated behind the tip's back), or whose receipt at the recorded
seq has another hash (rewritten) is refused: no run appends to it, and `audit verify` says which it is.

A store that recorded nothing yet (a new store, or one made before this) adopts the ledger it finds on its first
receipt. Deleting the ledger and the store's record together is not detectable here: keep the tip hash
`quotebound audit verify` prints somewhere else for that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from quotebound.agent.audit.chain import LedgerTip
from quotebound.agent.core.errors import ErrorCode, OperatorError

IdentityProblem = Literal["ledger_replaced", "ledger_restarted"]


@dataclass(frozen=True)
class RecordedLedger:
    """What a store recorded of its ledger: its id and the last tip it saw (seq 0 before any receipt)."""

    ledger_id: str
    seq: int
    hash: str

    def describe(self) -> str:
        return f"ledger {self.ledger_id} with {self.seq} receipts (tip {self.hash})"


@runtime_checkable
class LedgerWitness(Protocol):
    """Where a ledger's identity is recorded, apart from the ledger (the store's manifest: `tools.store.Store`).
    `record_ledger` only ever moves the recorded tip forward, and never records a second ledger id."""

    def recorded_ledger(self) -> tuple[str, int, str] | None: ...

    def record_ledger(self, ledger_id: str, seq: int, tip_hash: str) -> None: ...


def recorded(witness: LedgerWitness | None) -> RecordedLedger | None:
    """What `witness` recorded of its ledger (None: nothing yet). A record that cannot be read fails closed."""
    if witness is None:
        return None
    try:
        found = witness.recorded_ledger()
    except OperatorError:
        raise
    except Exception as exc:
        raise OperatorError(
            ErrorCode.AUDIT_UNAVAILABLE, "the store's record of its audit ledger cannot be read"
        ) from exc
    return RecordedLedger(found[0], int(found[1]), found[2]) if found is not None else None


@dataclass(frozen=True)
class Mismatch:
    """Why a ledger is not the one its store recorded."""

    problem: IdentityProblem
    message: str


def identity_mismatch(
    record: RecordedLedger | None,
    ledger_id: str | None,
    tip: LedgerTip | None,
    hash_at: Callable[[int], str | None],
) -> Mismatch | None:
    """None when the ledger is the one `record` names (or nothing was recorded); else what is wrong. `hash_at(seq)`
    reads the hash of the ledger's receipt `seq` (one lookup, only when the record has receipts). A missing tip is
    left to the chain's own checks (an append fails closed on it, `verify` reports it)."""
    if record is None:
        return None
    if ledger_id != record.ledger_id:
        return Mismatch(
            "ledger_replaced",
            f"ledger replaced: the store recorded {record.describe()}, this is "
            + (f"ledger {ledger_id}" if ledger_id else "a ledger without an id"),
        )
    if tip is None:
        return None
    if tip.seq < record.seq:
        return Mismatch(
            "ledger_restarted",
            f"ledger restarted: the store recorded {record.describe()}, this ledger has {tip.seq}",
        )
    if record.seq > 0 and hash_at(record.seq) != record.hash:
        return Mismatch(
            "ledger_replaced",
            f"ledger rewritten: its receipt {record.seq} is not the one the store recorded ({record.describe()})",
        )
    return None
