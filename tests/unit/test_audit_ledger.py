"""The audit ledger on both backends: the chain, every kind of tampering `verify` must name, the append-only
triggers, fail-closed appends and concurrent writers. The Postgres cases run only when
QUOTEBOUND_TEST_POSTGRES_DSN is set (`bash .ci/postgres.sh` prints one)."""

from __future__ import annotations

import os
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.audit import GENESIS, LedgerBackend, chain_hash, sha256_text
from quotebound.agent.audit.sqlite import SqliteLedger
from quotebound.agent.core.errors import ErrorCode, OperatorError

PG_ENV = "QUOTEBOUND_TEST_POSTGRES_DSN"
PG_DSN = os.environ.get(PG_ENV)
SKIP_PG = f"{PG_ENV} is not set: run `bash .ci/postgres.sh` and export its DSN to run the Postgres ledger tests"
SQLITE_TRIGGERS = ("audit_receipts_no_update", "audit_receipts_no_delete", "audit_tip_advances", "audit_tip_no_delete")


@dataclass
class Backend:
    """A ledger's opener and a raw connection to its tables: what someone with access to the store can do."""

    name: str
    open: Callable[[], LedgerBackend]
    execute: Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]
    placeholder: str
    unguard: Callable[[], None]
    opened: list[LedgerBackend] = field(default_factory=list)

    def ledger(self) -> LedgerBackend:
        self.opened.append(self.open())
        return self.opened[-1]

    def sql(self, text: str, *params: Any) -> list[tuple[Any, ...]]:
        return self.execute(text.replace("?", self.placeholder), params)


def _sqlite(tmp_path: Path) -> Iterator[Backend]:
    path = tmp_path / "audit.sqlite"
    SqliteLedger(path).close()
    conn = sqlite3.connect(path, isolation_level=None)

    def unguard() -> None:
        for trigger in SQLITE_TRIGGERS:
            conn.execute(f"DROP TRIGGER {trigger}")

    yield Backend("sqlite", lambda: SqliteLedger(path), lambda q, p: conn.execute(q, p).fetchall(), "?", unguard)
    conn.close()


def _postgres() -> Iterator[Backend]:
    import psycopg
    from psycopg.conninfo import make_conninfo

    from quotebound.agent.audit.postgres import PostgresLedger

    assert PG_DSN is not None
    schema = f"qb_test_{uuid.uuid4().hex[:12]}"  # one schema per test: tests never see each other's receipts
    admin = psycopg.connect(PG_DSN, autocommit=True)
    admin.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]
    dsn = make_conninfo(PG_DSN, options=f"-c search_path={schema}")
    PostgresLedger(dsn).close()
    conn = psycopg.connect(dsn, autocommit=True)

    def execute(query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        cursor = conn.execute(query, params)  # type: ignore[arg-type]
        return cursor.fetchall() if cursor.description else []

    def unguard() -> None:
        conn.execute("ALTER TABLE audit_receipts DISABLE TRIGGER USER")
        conn.execute("ALTER TABLE audit_tip DISABLE TRIGGER USER")

    yield Backend("postgres", lambda: PostgresLedger(dsn), execute, "%s", unguard)
    conn.close()
    admin.execute(f"DROP SCHEMA {schema} CASCADE")  # type: ignore[arg-type]
    admin.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(not PG_DSN, reason=SKIP_PG))])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    made = _sqlite(tmp_path) if request.param == "sqlite" else _postgres()
    opened = next(made)
    yield opened
    for ledger in opened.opened:
        ledger.close()
    next(made, None)


def fill(ledger: LedgerBackend, n: int) -> list[str]:
    refs = [f"audit://test/{i}" for i in range(1, n + 1)]
    for i, ref in enumerate(refs, start=1):
        ledger.append(ref, f"run-{i}", {"n": i, "text": f"receipt {i}"})
    return refs


# --- the chain --------------------------------------------------------------------------------------------


def test_each_receipt_chains_to_the_one_before(backend: Backend) -> None:
    ledger = backend.ledger()
    refs = fill(ledger, 3)
    rows = [ledger.find(ref) for ref in refs]
    assert [row.seq for row in rows if row] == [1, 2, 3]
    prev = GENESIS
    for row in rows:
        assert row is not None and row.prev_hash == prev
        assert row.hash == chain_hash(row.seq, prev, row.audit_ref, row.run_id, row.created_at, row.body)
        prev = row.hash
    entry = ledger.get(refs[1])
    assert entry is not None and entry["body"] == {"n": 2, "text": "receipt 2"} and entry["run_id"] == "run-2"
    report = ledger.verify()
    assert report.ok and report.count == 3 and report.tip_hash == prev
    assert report.summary().startswith("3 receipts, chain intact")
    assert ledger.get("audit://test/none") is None


def test_an_empty_ledger_verifies(backend: Backend) -> None:
    report = backend.ledger().verify()
    assert report.ok and report.count == 0 and report.summary().startswith("0 receipts, chain intact")


def _rehash(backend: Backend, seq: int, body: str) -> None:
    """Rewrite receipt `seq` with a new body *and* a hash that matches it: only the next link can tell."""
    seq_, ref, run_id, created, _, prev, _ = backend.sql(
        "SELECT seq, audit_ref, run_id, created_at, body, prev_hash, hash FROM audit_receipts WHERE seq = ?", seq
    )[0]
    backend.sql(
        "UPDATE audit_receipts SET body = ?, hash = ? WHERE seq = ?",
        body,
        chain_hash(seq_, prev, ref, run_id, created, body),
        seq,
    )


def _append_behind_the_back(backend: Backend) -> None:
    """A well-formed receipt 6 chained to 5, inserted without moving the tip."""
    prev = backend.sql("SELECT hash FROM audit_receipts WHERE seq = 5")[0][0]
    digest = chain_hash(6, prev, "audit://test/6", "run-6", "2026-01-01T00:00:00+00:00", "{}")
    backend.sql(
        "INSERT INTO audit_receipts (seq, audit_ref, run_id, created_at, body, prev_hash, hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        6, "audit://test/6", "run-6", "2026-01-01T00:00:00+00:00", "{}", prev, digest,
    )  # fmt: skip


def _swap(backend: Backend, a: int, b: int) -> None:
    backend.sql("UPDATE audit_receipts SET seq = 1000000 WHERE seq = ?", a)
    backend.sql("UPDATE audit_receipts SET seq = ? WHERE seq = ?", a, b)
    backend.sql("UPDATE audit_receipts SET seq = ? WHERE seq = 1000000", b)


TAMPERING: dict[str, tuple[Callable[[Backend], object], str, int, str | None]] = {
    # name: (what is done, the problem verify reports, the first bad seq, its audit_ref)
    "edited body": (
        lambda b: b.sql("UPDATE audit_receipts SET body = ? WHERE seq = 3", '{"n":3,"text":"edited"}'),
        "altered", 3, "audit://test/3",
    ),
    "edited hash": (
        lambda b: b.sql("UPDATE audit_receipts SET hash = ? WHERE seq = 3", sha256_text("forged")),
        "altered", 3, "audit://test/3",
    ),
    "edited time": (
        lambda b: b.sql("UPDATE audit_receipts SET created_at = ? WHERE seq = 2", "2020-01-01T00:00:00+00:00"),
        "altered", 2, "audit://test/2",
    ),
    "body rewritten with a fresh hash": (lambda b: _rehash(b, 3, '{"n":3}'), "rewritten", 3, "audit://test/3"),
    "deleted in the middle": (lambda b: b.sql("DELETE FROM audit_receipts WHERE seq = 3"), "missing", 3, None),
    "reordered": (lambda b: _swap(b, 2, 3), "altered", 2, "audit://test/3"),
    "tail truncated by one": (lambda b: b.sql("DELETE FROM audit_receipts WHERE seq = 5"), "truncated", 5, "audit://test/5"),
    "tail truncated by two": (lambda b: b.sql("DELETE FROM audit_receipts WHERE seq >= 4"), "truncated", 4, None),
    "tip deleted": (lambda b: b.sql("DELETE FROM audit_tip"), "no_tip", 5, "audit://test/5"),
    "tip edited": (lambda b: b.sql("UPDATE audit_tip SET hash = ?", sha256_text("forged")), "tip_mismatch", 5, "audit://test/5"),
    "appended behind the ledger's back": (_append_behind_the_back, "untracked", 6, "audit://test/6"),
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_verify_names_the_first_tampered_receipt(backend: Backend, kind: str) -> None:
    ledger = backend.ledger()
    fill(ledger, 5)
    assert ledger.verify().ok
    tamper, problem, seq, ref = TAMPERING[kind]
    backend.unguard()
    tamper(backend)
    report = backend.ledger().verify()  # a fresh connection: nothing cached
    assert not report.ok
    assert (report.problem, report.first_bad_seq, report.first_bad_ref) == (problem, seq, ref), report
    assert f"seq {seq}" in report.summary() and (ref or "audit_ref unknown") in report.summary()


def test_triggers_refuse_to_edit_or_delete_receipts_and_to_move_the_tip_back(backend: Backend) -> None:
    ledger = backend.ledger()
    fill(ledger, 2)
    for statement in (
        ("UPDATE audit_receipts SET body = ? WHERE seq = 1", "{}"),
        ("DELETE FROM audit_receipts WHERE seq = 2",),
        ("UPDATE audit_tip SET seq = 1",),
        ("DELETE FROM audit_tip",),
    ):
        with pytest.raises(Exception, match=r"append-only|only advances|cannot be deleted|refused"):
            backend.sql(*statement)
    assert ledger.verify().ok and ledger.verify().count == 2


def test_an_append_after_a_truncation_keeps_the_gap_visible(backend: Backend) -> None:
    ledger = backend.ledger()
    fill(ledger, 5)
    backend.unguard()
    backend.sql("DELETE FROM audit_receipts WHERE seq = 5")
    ledger.append("audit://test/after", "run-x", {"n": 6})  # chains to the tip, not to the last row left
    report = ledger.verify()
    assert (report.ok, report.problem, report.first_bad_seq) == (False, "missing", 5)


def test_an_append_fails_closed_when_the_tip_is_gone(backend: Backend) -> None:
    ledger = backend.ledger()
    fill(ledger, 2)
    backend.unguard()
    backend.sql("DELETE FROM audit_tip")
    with pytest.raises(OperatorError) as raised:
        ledger.append("audit://test/3", "run-3", {"n": 3})
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE
    assert backend.sql("SELECT COUNT(*) FROM audit_receipts")[0][0] == 2


def test_a_duplicate_audit_ref_is_refused_and_changes_nothing(backend: Backend) -> None:
    ledger = backend.ledger()
    fill(ledger, 2)
    with pytest.raises(OperatorError) as raised:
        ledger.append("audit://test/1", "run-again", {"n": 99})
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE
    report = ledger.verify()
    assert report.ok and report.count == 2
    ledger.append("audit://test/3", "run-3", {"n": 3})  # the failed append left the ledger writable
    assert ledger.verify().count == 3


def test_concurrent_appends_from_threads_and_connections_keep_one_chain(backend: Backend) -> None:
    ledgers = [backend.ledger() for _ in range(3)]  # three "servers", each with its own connection
    per_thread, threads_per_ledger = 12, 2
    errors: list[BaseException] = []
    start = threading.Barrier(len(ledgers) * threads_per_ledger)

    def work(ledger: LedgerBackend, tag: str) -> None:
        try:
            start.wait()
            for i in range(per_thread):
                ledger.append(f"audit://test/{tag}-{i}", tag, {"tag": tag, "i": i})
        except BaseException as exc:  # reported below; a thread's exception is otherwise lost
            errors.append(exc)

    threads = [
        threading.Thread(target=work, args=(ledger, f"L{n}T{t}"))
        for n, ledger in enumerate(ledgers)
        for t in range(threads_per_ledger)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    total = len(threads) * per_thread
    report = ledgers[0].verify()
    assert report.ok and report.count == total, report
    seqs = [row[0] for row in backend.sql("SELECT seq FROM audit_receipts ORDER BY seq")]
    assert seqs == list(range(1, total + 1))


# --- SQLite specifics ---------------------------------------------------------------------------------------


def test_reading_a_missing_ledger_never_creates_one(tmp_path: Path) -> None:
    with pytest.raises(OperatorError) as raised:
        SqliteLedger(tmp_path / "store" / "audit.sqlite", create=False)
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE
    assert not (tmp_path / "store").exists()


@pytest.mark.parametrize("what", ["directory", "not sqlite", "another database"])
def test_a_path_that_is_no_ledger_cannot_be_opened(tmp_path: Path, what: str) -> None:
    path = tmp_path / "audit.sqlite"
    if what == "directory":
        path.mkdir()
    elif what == "not sqlite":
        path.write_bytes(b"this is not a database file at all, just text" * 20)
    else:
        sqlite3.connect(path).execute("CREATE TABLE other (x)").connection.close()
    with pytest.raises(OperatorError) as raised:
        SqliteLedger(path, create=what != "another database")
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE


def test_an_append_blocked_by_another_writer_fails_then_recovers(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite"
    ledger = SqliteLedger(path, busy_timeout_s=0.2)
    fill(ledger, 1)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process holds the write lock past our patience
    with pytest.raises(OperatorError) as raised:
        ledger.append("audit://test/2", "run-2", {"n": 2})
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE
    other.execute("ROLLBACK")
    other.close()
    ledger.append("audit://test/2", "run-2", {"n": 2})
    assert ledger.verify().count == 2
    ledger.close()


# --- Postgres without a server --------------------------------------------------------------------------------


def test_postgres_without_psycopg_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from quotebound.agent.audit.postgres import PostgresLedger

    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg -> ImportError
    with pytest.raises(OperatorError) as raised:
        PostgresLedger("postgresql:///nowhere")
    assert raised.value.code is ErrorCode.MISCONFIGURED and "quotebound[postgres]" in raised.value.message


def test_an_unreachable_postgres_fails_without_echoing_the_dsn(tmp_path: Path) -> None:
    pytest.importorskip("psycopg")
    from quotebound.agent.audit.postgres import PostgresLedger

    dsn = f"postgresql://auditor:s3cret-pw@/audit?host={tmp_path / 'no-socket-here'}&connect_timeout=2"
    with pytest.raises(OperatorError) as raised:
        PostgresLedger(dsn)
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE
    assert "s3cret" not in str(raised.value) and "auditor" not in str(raised.value)
