"""Recompute a ledger's chain and name the first receipt that does not hold.

Checks, in seq order: seq runs 1, 2, 3... without a gap (a receipt deleted from the middle); each row's hash
matches its own content (an edited body, time, ref or hash; a row moved to another seq, since seq is hashed);
each row's prev_hash is the hash of the row before (a row rewritten with a fresh hash); and the last row is the
tip the ledger recorded (a truncated tail, or rows added behind the ledger's back).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict

from quotebound.agent.audit.chain import GENESIS, LedgerRow, LedgerTip

Problem = Literal["missing", "altered", "rewritten", "broken_link", "truncated", "untracked", "tip_mismatch", "no_tip"]

_WHAT: dict[Problem, str] = {
    "missing": "the receipt with this seq is missing (deleted, or the rows were renumbered)",
    "altered": "the stored hash does not match the receipt's content (body, time, ref, seq or hash edited)",
    "rewritten": "the next receipt does not chain to this one: it was rewritten after it was written",
    "broken_link": "the receipt's prev_hash does not chain to the receipt before it",
    "truncated": "receipts from this seq on are missing: the ledger's tip records more receipts",
    "untracked": "this receipt is beyond the tip the ledger recorded: it was added outside the ledger",
    "tip_mismatch": "the ledger's tip does not match its last receipt",
    "no_tip": "the ledger's tip record is missing",
}


class ChainReport(BaseModel):
    """The verdict on a whole ledger. `first_bad_*` name the first receipt that does not verify (the ref is None
    when that receipt is gone)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ok: bool
    count: int
    tip_hash: str | None = None
    first_bad_seq: int | None = None
    first_bad_ref: str | None = None
    problem: Problem | None = None

    @property
    def detail(self) -> str:
        return _WHAT[self.problem] if self.problem else "chain intact"

    def summary(self) -> str:
        if self.ok:
            return f"{self.count} receipts, chain intact (tip {self.tip_hash})"
        ref = self.first_bad_ref or "audit_ref unknown"
        return f"chain broken at receipt seq {self.first_bad_seq} ({ref}): {self.detail}"


def _bad(count: int, seq: int, ref: str | None, problem: Problem) -> ChainReport:
    return ChainReport(ok=False, count=count, first_bad_seq=seq, first_bad_ref=ref, problem=problem)


def verify_rows(tip: LedgerTip | None, rows: Iterable[LedgerRow]) -> ChainReport:
    """Walk the chain once, streaming (a ledger can be larger than memory)."""
    prev: LedgerRow | None = None
    count = 0
    for row in rows:
        count += 1
        expected_seq = prev.seq + 1 if prev else 1
        if row.seq != expected_seq:
            return _bad(count, expected_seq, None, "missing")
        if row.hash != row.expected_hash():
            return _bad(count, row.seq, row.audit_ref, "altered")
        if row.prev_hash != (prev.hash if prev else GENESIS):
            # This row's own hash holds, so its prev_hash is as first written: the row before it changed since.
            if prev is not None:
                return _bad(count, prev.seq, prev.audit_ref, "rewritten")
            return _bad(count, row.seq, row.audit_ref, "broken_link")
        if tip is not None and row.seq > tip.seq:
            return _bad(count, row.seq, row.audit_ref, "untracked")
        prev = row
    last_seq = prev.seq if prev else 0
    if tip is None:
        return _bad(count, last_seq, prev.audit_ref if prev else None, "no_tip")
    if tip.seq > last_seq:
        return _bad(count, last_seq + 1, tip.audit_ref if tip.seq == last_seq + 1 else None, "truncated")
    if tip.hash != (prev.hash if prev else GENESIS) or (prev is not None and tip.audit_ref != prev.audit_ref):
        return _bad(count, last_seq, prev.audit_ref if prev else None, "tip_mismatch")
    return ChainReport(ok=True, count=count, tip_hash=tip.hash)
