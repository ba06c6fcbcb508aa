"""The run receipts: an append-only ledger in the store's SQLite file, each receipt chained to the one before.

Every run writes one receipt whatever its end (answer, abstain, clarify pause). A receipt's `hash` covers its
body and the previous receipt's hash, so editing or deleting any receipt breaks every hash after it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import ErrorCode, OperatorError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS receipts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    audit_ref TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
"""
GENESIS = "sha256:" + "0" * 64


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def sha256_text(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_audit_ref() -> str:
    return f"audit://quotebound/{uuid.uuid4().hex}"


class ReceiptLedger:
    """Append-only receipts in `DIR/audit.sqlite`."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as exc:
            raise OperatorError(ErrorCode.STORE_UNAVAILABLE, "the audit ledger cannot be opened") from exc

    def append(self, audit_ref: str, run_id: str, body: dict[str, Any]) -> str:
        """Write one receipt; returns its hash. Raises OperatorError when it cannot be written."""
        created = datetime.now(UTC).isoformat()
        try:
            with self._lock:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    row = self.db.execute("SELECT hash FROM receipts ORDER BY seq DESC LIMIT 1").fetchone()
                    prev = str(row[0]) if row else GENESIS
                    text = canonical_json(body)
                    digest = sha256_text(f"{prev}\n{audit_ref}\n{run_id}\n{created}\n{text}")
                    self.db.execute(
                        "INSERT INTO receipts (audit_ref, run_id, created_at, body, prev_hash, hash) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (audit_ref, run_id, created, text, prev, digest),
                    )
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise
                self.db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise OperatorError(ErrorCode.STORE_UNAVAILABLE, "the audit receipt could not be written") from exc
        return digest

    def get(self, audit_ref: str) -> dict[str, Any] | None:
        with self._lock:
            row = self.db.execute(
                "SELECT seq, audit_ref, run_id, created_at, body, prev_hash, hash FROM receipts WHERE audit_ref = ?",
                (audit_ref,),
            ).fetchone()
        if row is None:
            return None
        seq, ref, run_id, created, body, prev, digest = row
        return {
            "seq": seq,
            "audit_ref": ref,
            "run_id": run_id,
            "created_at": created,
            "body": json.loads(body),
            "prev_hash": prev,
            "hash": digest,
        }

    def verify(self) -> tuple[bool, int | None]:
        """Recompute the chain; returns (ok, seq of the first receipt that does not verify)."""
        prev = GENESIS
        with self._lock:
            rows = self.db.execute(
                "SELECT seq, audit_ref, run_id, created_at, body, prev_hash, hash FROM receipts ORDER BY seq"
            ).fetchall()
        for seq, ref, run_id, created, body, stored_prev, digest in rows:
            expected = sha256_text(f"{prev}\n{ref}\n{run_id}\n{created}\n{body}")
            if stored_prev != prev or digest != expected:
                return False, int(seq)
            prev = digest
        return True, None

    def close(self) -> None:
        self.db.close()
