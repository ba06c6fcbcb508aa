"""The audit ledger on both backends: the chain, every kind of tampering `verify` must name, the append-only
triggers, fail-closed appends and concurrent writers. The Postgres cases run only when
QUOTEBOUND_TEST_POSTGRES_DSN is set (`bash .ci/postgres.sh` prints one)."""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.audit import GENESIS, ChainedLedger, LedgerBackend, chain_hash, sha256_text
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


# --- the ledger's identity, held by a witness (the store) ------------------------------------------------------


@dataclass
class MemoryWitness:
    """A store's record of its ledger, in memory: names one ledger, and only ever moves its tip forward."""

    record: tuple[str, int, str] | None = None

    def recorded_ledger(self) -> tuple[str, int, str] | None:
        return self.record

    def record_ledger(self, ledger_id: str, seq: int, tip_hash: str) -> None:
        if self.record is None or (self.record[0] == ledger_id and self.record[1] < seq):
            self.record = (ledger_id, seq, tip_hash)


def bound(backend: Backend, witness: MemoryWitness) -> ChainedLedger:
    ledger = backend.ledger()
    assert isinstance(ledger, ChainedLedger)
    ledger.bind(witness)
    return ledger


def _recreate(backend: Backend) -> None:
    """The ledger's storage recreated behind the store's back: a new file, a dropped and recreated database."""
    backend.sql("DROP TABLE audit_receipts")
    backend.sql("DROP TABLE audit_tip")
    backend.sql("DROP TABLE audit_ledger")


def test_a_bound_ledger_records_its_id_and_tip_after_every_append(backend: Backend) -> None:
    witness = MemoryWitness()
    ledger = bound(backend, witness)
    assert ledger.ledger_id and len(ledger.ledger_id) == 32
    ledger.check_identity()  # nothing recorded yet: a new store adopts its ledger
    fill(ledger, 3)
    row = ledger.find("audit://test/3")
    assert row is not None and witness.record == (ledger.ledger_id, 3, row.hash)
    assert backend.ledger().ledger_id == ledger.ledger_id  # the id is the ledger's own, not the connection's
    report = ledger.verify()
    assert report.ok and report.ledger_id == ledger.ledger_id


def test_a_replaced_ledger_takes_no_receipt_and_verify_says_replaced(backend: Backend) -> None:
    witness = MemoryWitness()
    fill(bound(backend, witness), 3)
    backend.unguard()
    _recreate(backend)
    fresh = bound(backend, witness)  # opening it as a writer recreates the tables, under a new id
    with pytest.raises(OperatorError) as raised:
        fresh.check_identity()
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE and "ledger replaced" in raised.value.message
    with pytest.raises(OperatorError, match="ledger replaced"):
        fresh.append("audit://test/new", "run-new", {"n": 1})
    assert backend.sql("SELECT COUNT(*) FROM audit_receipts")[0][0] == 0  # nothing was chained on
    report = fresh.verify()
    assert not report.ok and report.problem == "ledger_replaced" and "chain intact" not in report.summary()
    assert "ledger replaced" in report.summary() and "with 3 receipts" in report.summary()


@pytest.mark.parametrize(
    ("recorded_seq", "problem", "words"),
    [(5, "ledger_restarted", "ledger restarted"), (2, "ledger_replaced", "ledger rewritten")],
)
def test_a_ledger_behind_or_beside_the_recorded_tip_is_refused(
    backend: Backend, recorded_seq: int, problem: str, words: str
) -> None:
    """The store recorded 5 receipts and the ledger has 3 (restored from an old copy, restarted); or the store's
    receipt 2 is not the ledger's receipt 2 (rewritten with a valid chain)."""
    witness = MemoryWitness()
    ledger = bound(backend, witness)
    fill(ledger, 3)
    assert ledger.ledger_id is not None
    witness.record = (ledger.ledger_id, recorded_seq, sha256_text("a receipt this ledger never had"))
    with pytest.raises(OperatorError, match=words):
        ledger.check_identity()
    with pytest.raises(OperatorError, match=words):
        ledger.append("audit://test/4", "run-4", {"n": 4})
    report = ledger.verify()
    assert (report.ok, report.problem, report.count) == (False, problem, 3)
    assert words in report.summary()


def test_an_unidentified_ledger_gets_an_id_once(tmp_path: Path) -> None:
    """A ledger made before ledgers had ids: a reader sees none; the first writer gives it one, and keeps it."""
    path = tmp_path / "audit.sqlite"
    fill(SqliteLedger(path), 2)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER audit_ledger_no_delete")
    conn.execute("DROP TABLE audit_ledger")
    conn.close()
    assert SqliteLedger(path, create=False).ledger_id is None
    first = SqliteLedger(path).ledger_id
    assert first is not None and SqliteLedger(path).ledger_id == first
    assert SqliteLedger(path).verify().ok
    with pytest.raises(sqlite3.DatabaseError, match="fixed"):
        sqlite3.connect(path, isolation_level=None).execute("UPDATE audit_ledger SET ledger_id = 'other'")


def test_a_ledger_file_removed_or_replaced_while_open_takes_no_receipt(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite"
    ledger = SqliteLedger(path)
    fill(ledger, 1)
    path.unlink()  # the writer's connection would go on writing to a file no one can see
    with pytest.raises(OperatorError, match="removed or replaced while open"):
        ledger.append("audit://test/2", "run-2", {"n": 2})
    SqliteLedger(path).close()  # another ledger at the same path
    with pytest.raises(OperatorError, match="removed or replaced while open"):
        ledger.append("audit://test/2", "run-2", {"n": 2})
    ledger.close()


def test_a_damaged_ledger_file_cannot_be_opened_for_writing(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite"
    ledger = SqliteLedger(path)
    for i in range(40):
        ledger.append(f"audit://test/{i}", f"run-{i}", {"n": i, "text": "receipt " * 200})
    ledger.close()
    damage_middle_page(path)
    with pytest.raises(OperatorError) as raised:
        SqliteLedger(path)
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE and "restore it from a backup" in raised.value.message


def damage_middle_page(path: Path) -> None:
    """4 KB of random bytes over a page in the middle of the file (a bad disk, a stray write)."""
    with closing(sqlite3.connect(path)) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    with path.open("r+b") as file:
        file.seek((pages // 2) * page_size)
        file.write(random.Random(14).randbytes(4096))
