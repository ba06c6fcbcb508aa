"""Recompute a ledger's chain and name the first receipt that does not hold.

Checks, in seq order: seq runs 1, 2, 3... without a gap (a receipt deleted from the middle); each row's hash
matches its own content (an edited body, time, ref or hash; a row moved to another seq, since seq is hashed);
each row's prev_hash is the hash of the row before (a row rewritten with a fresh hash); and the last row is the
tip the ledger recorded (a truncated tail, or rows added behind the ledger's back).

Given what the store recorded of its ledger (`identity.py`), also: the ledger is that one (`ledger_replaced`: another
id, or another receipt at the recorded seq) and has at least the recorded receipts (`ledger_restarted`). A chain
that holds but is not the store's ledger is never "intact".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal

from pydantic import BaseModel, ConfigDict

from quotebound.agent.audit.chain import GENESIS, LedgerRow, LedgerTip
from quotebound.agent.audit.identity import RecordedLedger, identity_mismatch

Problem = Literal[
    "missing",
    "altered",
    "rewritten",
    "broken_link",
    "truncated",
    "untracked",
    "tip_mismatch",
    "no_tip",
    "ledger_replaced",
    "ledger_restarted",
]

_WHAT: dict[Problem, str] = {
    "missing": "the receipt with this seq is missing (deleted, or the rows were renumbered)",
    "altered": "the stored hash does not match the receipt's content (body, time, ref, seq or hash edited)",
    "rewritten": "the next receipt does not chain to this one: it was rewritten after it was written",
    "broken_link": "the receipt's prev_hash does not chain to the receipt before it",
    "truncated": "receipts from this seq on are missing: the ledger's tip records more receipts",
    "untracked": "this receipt is beyond the tip the ledger recorded: it was added outside the ledger",
    "tip_mismatch": "the ledger's tip does not match its last receipt",
    "no_tip": "the ledger's tip record is missing",
    "ledger_replaced": "this is not the ledger the store recorded: it was replaced or rewritten",
    "ledger_restarted": "the ledger has fewer receipts than the store recorded: it was restarted or truncated",
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
    ledger_id: str | None = None  # the ledger's own id (None for one made before ledgers had ids)
    recorded: str | None = None  # what the store recorded of its ledger, when that is the problem

    @property
    def detail(self) -> str:
        return _WHAT[self.problem] if self.problem else "chain intact"

    def summary(self) -> str:
        if self.ok:
            return f"{self.count} receipts, chain intact (tip {self.tip_hash})"
        if self.problem in ("ledger_replaced", "ledger_restarted"):
            return f"{self.recorded or self.detail} (the ledger holds {self.count} receipts)"
        ref = self.first_bad_ref or "audit_ref unknown"
        return f"chain broken at receipt seq {self.first_bad_seq} ({ref}): {self.detail}"


def _bad(count: int, seq: int, ref: str | None, problem: Problem) -> ChainReport:
    return ChainReport(ok=False, count=count, first_bad_seq=seq, first_bad_ref=ref, problem=problem)


def verify_rows(
    tip: LedgerTip | None,
    rows: Iterable[LedgerRow],
    *,
    ledger_id: str | None = None,
    recorded: RecordedLedger | None = None,
) -> ChainReport:
    """Walk the chain once, streaming (a ledger can be larger than memory); then hold it to what the store
    recorded of its ledger (`recorded`, None when it recorded nothing). A chain fault of the recorded ledger is
    reported first; a ledger with another id is `ledger_replaced` whatever its chain."""
    seen: dict[int, str] = {}

    def watched() -> Iterator[LedgerRow]:
        for row in rows:
            if recorded is not None and row.seq == recorded.seq:
                seen[row.seq] = row.hash
            yield row

    report = _verify_chain(tip, watched()).model_copy(update={"ledger_id": ledger_id})
    if recorded is None or (not report.ok and recorded.ledger_id == ledger_id):
        return report
    mismatch = identity_mismatch(recorded, ledger_id, tip, seen.get)
    if mismatch is None:
        return report
    if mismatch.problem == "ledger_restarted":
        first_bad = report.count + 1
    else:
        first_bad = recorded.seq if ledger_id == recorded.ledger_id else 1
    return ChainReport(
        ok=False,
        count=report.count,
        first_bad_seq=first_bad,
        problem=mismatch.problem,
        ledger_id=ledger_id,
        recorded=mismatch.message,
    )


def _verify_chain(tip: LedgerTip | None, rows: Iterable[LedgerRow]) -> ChainReport:
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
