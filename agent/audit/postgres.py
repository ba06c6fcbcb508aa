"""`PostgresLedger`: the audit ledger in PostgreSQL, for several servers writing one trail.

Same tables and chain as `SqliteLedger`. An append is one transaction that locks the tip row
(`SELECT ... FOR UPDATE`): a second server's append waits on that lock, then reads the tip the first one moved,
so the chain never forks; the primary key on `seq` would refuse a fork anyway. Schema creation takes a
transaction-scoped advisory lock so servers starting together do not race on DDL. `audit_ledger` holds the
ledger's random id, given when its tables are created (or the first time a writer opens a ledger made before
ids): a database recreated behind the stores' backs is another ledger (`identity.py`).

Needs the optional extra: `pip install 'quotebound[postgres]'` (psycopg 3).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from quotebound.agent.audit.chain import GENESIS, LedgerRow, LedgerSnapshot, LedgerTip, canonical_json, chain_hash
from quotebound.agent.audit.ledger import ChainedLedger
from quotebound.agent.audit.sqlite import new_ledger_id, utc_now
from quotebound.agent.core.errors import ErrorCode, OperatorError

if TYPE_CHECKING:
    import psycopg

CONNECT_TIMEOUT_S = 10
SCHEMA_LOCK_KEY = 0x71756F7465  # "quote": one advisory lock id for quotebound's DDL
_COLUMNS = "seq, audit_ref, run_id, created_at, body, prev_hash, hash"
_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS audit_receipts (
        seq BIGINT PRIMARY KEY CHECK (seq >= 1),
        audit_ref TEXT NOT NULL UNIQUE,
        run_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        body TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS audit_tip (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        seq BIGINT NOT NULL,
        audit_ref TEXT NOT NULL,
        hash TEXT NOT NULL
    )""",
    # Only a new ledger gets a tip: a tip deleted from a used ledger must stay missing (verify reports it).
    f"""INSERT INTO audit_tip (id, seq, audit_ref, hash)
        SELECT 1, 0, '', '{GENESIS}' WHERE NOT EXISTS (SELECT 1 FROM audit_receipts)
        ON CONFLICT (id) DO NOTHING""",
    """CREATE OR REPLACE FUNCTION quotebound_audit_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- Nested: plpgsql does not short-circuit AND, and NEW has no `id` on audit_receipts.
        IF TG_TABLE_NAME = 'audit_tip' AND TG_OP = 'UPDATE' THEN
            IF NEW.id = OLD.id AND NEW.seq = OLD.seq + 1 THEN
                RETURN NEW;
            END IF;
        END IF;
        RAISE EXCEPTION 'audit ledger: % on % refused (append-only)', TG_OP, TG_TABLE_NAME;
    END $$""",
    """CREATE OR REPLACE TRIGGER audit_receipts_append_only BEFORE UPDATE OR DELETE ON audit_receipts
        FOR EACH ROW EXECUTE FUNCTION quotebound_audit_guard()""",
    """CREATE OR REPLACE TRIGGER audit_tip_advances BEFORE UPDATE OR DELETE ON audit_tip
        FOR EACH ROW EXECUTE FUNCTION quotebound_audit_guard()""",
    """CREATE TABLE IF NOT EXISTS audit_ledger (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        ledger_id TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    """CREATE OR REPLACE TRIGGER audit_ledger_fixed BEFORE UPDATE OR DELETE ON audit_ledger
        FOR EACH ROW EXECUTE FUNCTION quotebound_audit_guard()""",
]
# The ledger's id: given once (a ledger made before ids gets one the first time a writer opens it).
_LEDGER_ID = "INSERT INTO audit_ledger (id, ledger_id, created_at) VALUES (1, %s, %s) ON CONFLICT (id) DO NOTHING"


class PostgresLedger(ChainedLedger):
    """Append-only receipts in PostgreSQL. One connection per instance, serialized by a lock; reconnects once a
    connection breaks (a failed append still raises: the run that needed it gets an error envelope)."""

    def __init__(self, dsn: str) -> None:
        try:
            import psycopg  # noqa: F401  (fail here, with the fix, rather than on the first append)
        except ImportError as exc:
            raise OperatorError(
                ErrorCode.MISCONFIGURED,
                "an audit DSN is set but psycopg is not installed: pip install 'quotebound[postgres]'",
            ) from exc
        self._dsn = dsn
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        with self._lock, self._errors("the audit ledger cannot be opened"):
            conn = self._connection()
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute(_LEDGER_ID, (new_ledger_id(), utc_now()))
                found = conn.execute("SELECT ledger_id FROM audit_ledger WHERE id = 1").fetchone()
            self.ledger_id = str(found[0]) if found else None

    @contextmanager
    def _errors(self, message: str) -> Iterator[None]:
        import psycopg  # optional (quotebound[postgres]); __init__ already checked it is installed

        try:
            yield
        except psycopg.Error as exc:
            # Never the exception text: it may carry the DSN's host or user.
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, message) from exc

    def _connection(self) -> psycopg.Connection[Any]:
        import psycopg  # optional (quotebound[postgres]); __init__ already checked it is installed

        if self._conn is None or self._conn.closed or self._conn.broken:
            self._conn = psycopg.connect(self._dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
        return self._conn

    def append(self, audit_ref: str, run_id: str, body: Mapping[str, Any]) -> LedgerRow:
        text = canonical_json(body)
        with self._lock, self._errors("the audit receipt could not be written"):
            record = self.recorded()
            conn = self._connection()
            with conn.transaction():
                found = conn.execute("SELECT seq, audit_ref, hash FROM audit_tip WHERE id = 1 FOR UPDATE").fetchone()
                if found is None:
                    raise OperatorError(
                        ErrorCode.AUDIT_UNAVAILABLE, "the audit ledger's tip is missing; run audit verify"
                    )
                tip = LedgerTip(int(found[0]), str(found[1]), str(found[2]))
                self._refuse_mismatch(record, tip, lambda seq: _hash_at(conn, seq))
                prev_seq, prev_hash = tip.seq, tip.hash
                seq, created = prev_seq + 1, utc_now()
                digest = chain_hash(seq, prev_hash, audit_ref, run_id, created, text)
                row = LedgerRow(seq, audit_ref, run_id, created, text, prev_hash, digest)
                conn.execute(
                    f"INSERT INTO audit_receipts ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (row.seq, row.audit_ref, row.run_id, row.created_at, row.body, row.prev_hash, row.hash),
                )
                conn.execute(
                    "UPDATE audit_tip SET seq = %s, audit_ref = %s, hash = %s WHERE id = 1", (seq, audit_ref, digest)
                )
        self._witness_append(row)
        return row

    def _position(self, seq: int) -> tuple[LedgerTip | None, str | None]:
        with self._lock, self._errors("the audit ledger cannot be read"):
            conn = self._connection()
            with conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                found = conn.execute("SELECT seq, audit_ref, hash FROM audit_tip WHERE id = 1").fetchone()
                tip = LedgerTip(int(found[0]), str(found[1]), str(found[2])) if found else None
                return tip, _hash_at(conn, seq)

    def find(self, audit_ref: str) -> LedgerRow | None:
        with self._lock, self._errors("the audit ledger cannot be read"):
            found = (
                self._connection()
                .execute(f"SELECT {_COLUMNS} FROM audit_receipts WHERE audit_ref = %s", (audit_ref,))
                .fetchone()
            )
        return _row(found) if found else None

    @contextmanager
    def snapshot(self) -> Iterator[LedgerSnapshot]:
        """A REPEATABLE READ transaction and a server-side cursor: one fixed view, streamed in pages."""
        with self._lock, self._errors("the audit ledger cannot be read"):
            conn = self._connection()
            with conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                tip_row = conn.execute("SELECT seq, audit_ref, hash FROM audit_tip WHERE id = 1").fetchone()
                tip = LedgerTip(int(tip_row[0]), str(tip_row[1]), str(tip_row[2])) if tip_row else None
                with conn.cursor(name="quotebound_audit_scan") as cursor:
                    cursor.itersize = 500
                    cursor.execute(f"SELECT {_COLUMNS} FROM audit_receipts ORDER BY seq")
                    yield LedgerSnapshot(tip=tip, rows=(_row(found) for found in cursor))

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _hash_at(conn: psycopg.Connection[Any], seq: int) -> str | None:
    found = conn.execute("SELECT hash FROM audit_receipts WHERE seq = %s", (seq,)).fetchone()
    return str(found[0]) if found else None


def _row(found: tuple[Any, ...]) -> LedgerRow:
    seq, audit_ref, run_id, created_at, body, prev_hash, digest = found
    return LedgerRow(int(seq), str(audit_ref), str(run_id), str(created_at), str(body), str(prev_hash), str(digest))
