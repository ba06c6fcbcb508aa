"""`TraceStore`: run traces (agent/trace.py) in SQLite, `STORE/traces.sqlite`.

One row per run_id, upserted at the end of every drive of the run (a resumed run rewrites its row with the steps
appended). WAL mode, one connection shared by threads behind a lock, and a busy timeout for other processes. A
trace is a developer's record, not the audit trail: the receipts in the ledger are what proves a run; a trace
write that fails is logged and the run's answer and receipt stand.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.runs.trace import RunTrace

TRACE_FILE = "traces.sqlite"
BUSY_TIMEOUT_S = 10.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS run_traces (
    run_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    principal TEXT,
    status TEXT NOT NULL,
    started_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS run_traces_session ON run_traces (session_id, started_at);
"""


class TraceStore:
    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise OperatorError(ErrorCode.STORE_UNAVAILABLE, f"no trace store at {self.path}")
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=BUSY_TIMEOUT_S)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise OperatorError(
                ErrorCode.STORE_UNAVAILABLE, f"the trace store {self.path} cannot be opened: {exc}"
            ) from exc
        self._closed = False

    @classmethod
    def for_store(cls, store: Path | str, *, create: bool = True) -> TraceStore:
        return cls(Path(store) / TRACE_FILE, create=create)

    def put(self, trace: RunTrace) -> None:
        """Insert or replace the trace of `trace.run_id`."""
        body = trace.model_dump_json()
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO run_traces (run_id, session_id, principal, status, started_at, updated_at, body) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET session_id = excluded.session_id, "
                "principal = excluded.principal, status = excluded.status, updated_at = excluded.updated_at, "
                "body = excluded.body",
                (
                    trace.run_id, trace.session_id, trace.principal, trace.status, trace.started_at,
                    time.time(), body,
                ),
            )  # fmt: skip

    def get(self, run_id: str) -> RunTrace | None:
        with self._lock:
            row = self._db.execute("SELECT body FROM run_traces WHERE run_id = ?", (run_id,)).fetchone()
        return RunTrace.model_validate_json(row[0]) if row is not None else None

    def for_session(self, session_id: str, limit: int = 100) -> list[RunTrace]:
        """The session's runs, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT body FROM run_traces WHERE session_id = ? ORDER BY started_at LIMIT ?", (session_id, limit)
            ).fetchall()
        return [RunTrace.model_validate_json(row[0]) for row in rows]

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._db.close()
                self._closed = True

    def __enter__(self) -> TraceStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
