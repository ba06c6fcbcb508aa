"""`SqliteLedger`: the default audit ledger, `STORE/audit.sqlite`.

`BEGIN IMMEDIATE` takes SQLite's write lock before the tip is read, so appends from threads (one connection,
serialized by a lock) and from processes (one connection each, waiting on the busy timeout) chain one after
another. Triggers refuse UPDATE and DELETE of receipts and let the tip only advance by one: not a defence
against someone who can edit the file (`verify` is), but no tool or slip of a hand rewrites the trail.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quotebound.agent.audit.chain import GENESIS, LedgerRow, LedgerSnapshot, LedgerTip, canonical_json, chain_hash
from quotebound.agent.audit.ledger import ChainedLedger
from quotebound.agent.core.errors import ErrorCode, OperatorError

BUSY_TIMEOUT_S = 30.0
_COLUMNS = "seq, audit_ref, run_id, created_at, body, prev_hash, hash"
_SCHEMA = f"""
BEGIN IMMEDIATE;
CREATE TABLE IF NOT EXISTS audit_receipts (
    seq INTEGER PRIMARY KEY CHECK (seq >= 1),
    audit_ref TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_tip (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL,
    audit_ref TEXT NOT NULL,
    hash TEXT NOT NULL
);
-- Only a new ledger gets a tip: a tip deleted from a used ledger must stay missing (verify reports it).
INSERT OR IGNORE INTO audit_tip (id, seq, audit_ref, hash)
    SELECT 1, 0, '', '{GENESIS}' WHERE NOT EXISTS (SELECT 1 FROM audit_receipts);
CREATE TRIGGER IF NOT EXISTS audit_receipts_no_update BEFORE UPDATE ON audit_receipts
BEGIN SELECT RAISE(ABORT, 'audit receipts are append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_receipts_no_delete BEFORE DELETE ON audit_receipts
BEGIN SELECT RAISE(ABORT, 'audit receipts are append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_tip_advances BEFORE UPDATE ON audit_tip
WHEN NEW.seq != OLD.seq + 1 OR NEW.id != OLD.id
BEGIN SELECT RAISE(ABORT, 'the audit tip only advances one receipt at a time'); END;
CREATE TRIGGER IF NOT EXISTS audit_tip_no_delete BEFORE DELETE ON audit_tip
BEGIN SELECT RAISE(ABORT, 'the audit tip cannot be deleted'); END;
COMMIT;
"""


def utc_now() -> str:
    return datetime.now(UTC).isoformat()


class SqliteLedger(ChainedLedger):
    """Append-only receipts in one SQLite file. `create=False` opens only an existing ledger; a writer waits up to
    `busy_timeout_s` for another process's lock before its append fails."""

    def __init__(self, path: Path, *, create: bool = True, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        if not create and not self.path.is_file():
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, f"no audit ledger at {self.path}")
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=busy_timeout_s, check_same_thread=False, isolation_level=None)
        except (sqlite3.Error, OSError) as exc:
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, f"the audit ledger {self.path} cannot be opened") from exc
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")  # a committed receipt survives a power cut
            if create:
                self._db.executescript(_SCHEMA)
            elif self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'audit_receipts'").fetchone() is None:
                raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, f"{self.path} is not a quotebound audit ledger")
        except sqlite3.Error as exc:
            self._db.close()
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, f"the audit ledger {self.path} cannot be opened") from exc
        except OperatorError:
            self._db.close()
            raise

    def append(self, audit_ref: str, run_id: str, body: Mapping[str, Any]) -> LedgerRow:
        text = canonical_json(body)
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    row = self._append_locked(audit_ref, run_id, text)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the audit receipt could not be written") from exc
        return row

    def _append_locked(self, audit_ref: str, run_id: str, body: str) -> LedgerRow:
        tip = self._tip()
        if tip is None:
            # Chaining past a missing tip would bury the evidence of what was removed: fail closed.
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the audit ledger's tip is missing; run audit verify")
        seq, created = tip.seq + 1, utc_now()
        digest = chain_hash(seq, tip.hash, audit_ref, run_id, created, body)
        row = LedgerRow(seq, audit_ref, run_id, created, body, tip.hash, digest)
        self._db.execute(
            f"INSERT INTO audit_receipts ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (row.seq, row.audit_ref, row.run_id, row.created_at, row.body, row.prev_hash, row.hash),
        )
        self._db.execute("UPDATE audit_tip SET seq = ?, audit_ref = ?, hash = ? WHERE id = 1", (seq, audit_ref, digest))
        return row

    def _tip(self) -> LedgerTip | None:
        found = self._db.execute("SELECT seq, audit_ref, hash FROM audit_tip WHERE id = 1").fetchone()
        return LedgerTip(int(found[0]), str(found[1]), str(found[2])) if found else None

    def find(self, audit_ref: str) -> LedgerRow | None:
        try:
            with self._lock:
                found = self._db.execute(
                    f"SELECT {_COLUMNS} FROM audit_receipts WHERE audit_ref = ?", (audit_ref,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the audit ledger cannot be read") from exc
        return LedgerRow(*found) if found else None

    @contextmanager
    def snapshot(self) -> Iterator[LedgerSnapshot]:
        """One read transaction: WAL gives it a fixed view while other connections keep appending."""
        try:
            with self._lock:
                self._db.execute("BEGIN")
                try:
                    tip = self._tip()
                    cursor = self._db.execute(f"SELECT {_COLUMNS} FROM audit_receipts ORDER BY seq")
                    yield LedgerSnapshot(tip=tip, rows=(LedgerRow(*found) for found in cursor))
                finally:
                    self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the audit ledger cannot be read") from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()
