"""`SqliteLedger`: the default audit ledger, `STORE/audit.sqlite`.

`BEGIN IMMEDIATE` takes SQLite's write lock before the tip is read, so appends from threads (one connection,
serialized by a lock) and from processes (one connection each, waiting on the busy timeout) chain one after
another. Triggers refuse UPDATE and DELETE of receipts and let the tip only advance by one: not a defence
against someone who can edit the file (`verify` is), but no tool or slip of a hand rewrites the trail.

A writer (`create=True`) refuses a ledger SQLite cannot read (`PRAGMA quick_check` when it opens: one pass over
the file, about 0.2 s per 400 MB when cached) and, on every append, a file that was removed or replaced while it
was open (its inode). `audit_ledger` holds the ledger's random id, given when the ledger is created (or, for a
ledger made before ledgers had ids, the first time a writer opens it); see `identity.py`.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quotebound.agent.audit.chain import GENESIS, LedgerRow, LedgerSnapshot, LedgerTip, canonical_json, chain_hash
from quotebound.agent.audit.identity import RecordedLedger
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
CREATE TABLE IF NOT EXISTS audit_ledger (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    ledger_id TEXT NOT NULL,
    created_at TEXT NOT NULL
);
-- The ledger's id: given once (a ledger made before ids gets one here, the first time a writer opens it).
INSERT OR IGNORE INTO audit_ledger (id, ledger_id, created_at) VALUES (1, '{{ledger_id}}', '{{created_at}}');
CREATE TRIGGER IF NOT EXISTS audit_ledger_fixed BEFORE UPDATE ON audit_ledger
BEGIN SELECT RAISE(ABORT, 'the audit ledger id is fixed'); END;
CREATE TRIGGER IF NOT EXISTS audit_ledger_no_delete BEFORE DELETE ON audit_ledger
BEGIN SELECT RAISE(ABORT, 'the audit ledger id is fixed'); END;
COMMIT;
"""


def utc_now() -> str:
    return datetime.now(UTC).isoformat()


def new_ledger_id() -> str:
    return uuid.uuid4().hex


class SqliteLedger(ChainedLedger):
    """Append-only receipts in one SQLite file. `create=False` opens only an existing ledger; a writer waits up to
    `busy_timeout_s` for another process's lock before its append fails."""

    def __init__(self, path: Path, *, create: bool = True, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        if not create and not self.path.is_file():
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, f"no audit ledger at {self.path}")
        self._file: tuple[int, int] | None = None
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
                self._check_readable()
                schema = _SCHEMA.replace("{ledger_id}", new_ledger_id()).replace("{created_at}", utc_now())
                self._db.executescript(schema)
                stat = os.stat(self.path)
                self._file = (stat.st_dev, stat.st_ino)
            elif self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'audit_receipts'").fetchone() is None:
                raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, f"{self.path} is not a quotebound audit ledger")
            self.ledger_id = self._read_ledger_id()
        except sqlite3.Error as exc:
            self._db.close()
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, f"the audit ledger {self.path} cannot be opened") from exc
        except OperatorError:
            self._db.close()
            raise

    def _check_readable(self) -> None:
        """A ledger SQLite cannot read (a damaged page anywhere in the file) takes no receipt: the receipts it
        holds are unreadable, and chaining on would hide that."""
        try:
            verdict = self._db.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            raise OperatorError(
                ErrorCode.AUDIT_UNAVAILABLE,
                f"the audit ledger {self.path} cannot be read ({exc}); restore it from a backup, nothing runs without "
                "it",
            ) from exc
        if verdict != [("ok",)]:
            problems = "; ".join(str(found[0]) for found in verdict[:3])
            raise OperatorError(
                ErrorCode.AUDIT_UNAVAILABLE,
                f"the audit ledger {self.path} is damaged ({problems}); restore it from a backup, nothing runs "
                "without it",
            )

    def _read_ledger_id(self) -> str | None:
        if self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'audit_ledger'").fetchone() is None:
            return None  # a ledger made before ledgers had ids, opened read-only
        found = self._db.execute("SELECT ledger_id FROM audit_ledger WHERE id = 1").fetchone()
        return str(found[0]) if found else None

    def _check_file(self) -> None:
        """The file this connection writes is still the one at `path` (not removed, nor replaced by another)."""
        if self._file is None:
            return
        try:
            stat = os.stat(self.path)
        except OSError:
            stat = None
        if stat is None or (stat.st_dev, stat.st_ino) != self._file:
            raise OperatorError(
                ErrorCode.AUDIT_UNAVAILABLE,
                f"the audit ledger {self.path} was removed or replaced while open; no receipt is written",
            )

    def append(self, audit_ref: str, run_id: str, body: Mapping[str, Any]) -> LedgerRow:
        text = canonical_json(body)
        try:
            with self._lock:
                self._check_file()
                record = self.recorded()
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    row = self._append_locked(audit_ref, run_id, text, record)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the audit receipt could not be written") from exc
        self._witness_append(row)
        return row

    def _append_locked(self, audit_ref: str, run_id: str, body: str, record: RecordedLedger | None) -> LedgerRow:
        tip = self._tip()
        if tip is None:
            # Chaining past a missing tip would bury the evidence of what was removed: fail closed.
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the audit ledger's tip is missing; run audit verify")
        self._refuse_mismatch(record, tip, self._hash_at)
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

    def _hash_at(self, seq: int) -> str | None:
        found = self._db.execute("SELECT hash FROM audit_receipts WHERE seq = ?", (seq,)).fetchone()
        return str(found[0]) if found else None

    def _position(self, seq: int) -> tuple[LedgerTip | None, str | None]:
        try:
            with self._lock:
                self._db.execute("BEGIN")
                try:
                    return self._tip(), self._hash_at(seq)
                finally:
                    self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the audit ledger cannot be read") from exc

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
