"""The store knows its ledger. A store with history whose ledger is deleted, swapped for another, rolled back to an
old copy or damaged answers nothing (`audit_unavailable`) and `audit verify` says what happened, never "chain
intact"; a new store, and a store made before ledgers had ids, adopt the ledger they find. Through the CLI, as an
operator (or a careless script) would do it, and through the Python API."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.audit import ledger_path
from quotebound.agent.audit.sqlite import SqliteLedger
from quotebound.agent.cli.main import EXIT_FAILED, EXIT_OK, EXIT_OPERATOR, main
from quotebound.agent.core.contracts import AnswerEnvelope, ErrorEnvelope
from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.tools.store import Store

RULES = "# House rules\n\nQuiet hours start at 22:00.\nGuests may park for 72 hours.\n"
QUESTION = "How many hours may guests park?"


@pytest.fixture
def store(tmp_path: Path, make_files: Any, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("QUOTEBOUND_EMBEDDER", "hashing")
    monkeypatch.delenv("QUOTEBOUND_AUDIT_DSN", raising=False)
    monkeypatch.delenv("QUOTEBOUND_POLICY", raising=False)
    root = make_files({"rules.md": RULES})
    folder = tmp_path / "store"
    assert main(["ingest", str(root), "--store", str(folder)]) == EXIT_OK
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def ask(capsys: pytest.CaptureFixture[str], store: Path) -> tuple[int, str, str]:
    return run(capsys, "ask", QUESTION, "--store", str(store), "--json")


def answered(capsys: pytest.CaptureFixture[str], store: Path, times: int = 1) -> None:
    for _ in range(times):
        code, out, _ = ask(capsys, store)
        assert code == EXIT_OK and json.loads(out)["status"] == "answer"


def assert_refused(capsys: pytest.CaptureFixture[str], store: Path, words: str) -> None:
    """An ask on this store answers nothing and records nothing: exit 3, audit_unavailable, saying `words`."""
    code, out, err = ask(capsys, store)
    assert code == EXIT_OPERATOR, (out, err)
    assert "72 hours" not in out and '"status": "answer"' not in out
    assert "audit_unavailable" in out + err and words in out + err


def recorded(store: Path) -> dict[str, Any] | None:
    with closing(sqlite3.connect(store / "index.sqlite")) as db:
        found = db.execute("SELECT value FROM meta WHERE key = 'ledger'").fetchone()
    return json.loads(found[0]) if found else None


def test_the_first_receipt_records_the_ledger_and_every_receipt_its_tip(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert recorded(store) is None and not ledger_path(Settings(store=store)).exists()  # a new store
    answered(capsys, store, 2)
    record = recorded(store)
    with SqliteLedger(ledger_path(Settings(store=store)), create=False) as ledger:
        report = ledger.verify()
    assert record is not None and record["id"] == ledger.ledger_id and record["seq"] == 2
    assert record["hash"] == report.tip_hash
    code, out, _ = run(capsys, "audit", "verify", "--store", str(store), "--json")
    assert code == EXIT_OK and json.loads(out)["ledger_id"] == record["id"]


def test_a_deleted_ledger_stops_every_ask_and_verify_says_it_is_missing(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue: deleting STORE/audit.sqlite lost every receipt without a sign, and the next ask started a new
    chain that `audit verify` called intact."""
    answered(capsys, store, 2)
    ledger_path(Settings(store=store)).unlink()
    assert_refused(capsys, store, "is missing: the store recorded ledger")
    assert not ledger_path(Settings(store=store)).exists()  # no new chain was started in its place
    code, out, err = run(capsys, "audit", "verify", "--store", str(store))
    assert code != EXIT_OK and "chain intact" not in out
    assert code == EXIT_OPERATOR and "is missing" in err and "with 2 receipts" in err


def test_a_ledger_swapped_for_another_stops_asks_and_verify_says_replaced(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answered(capsys, store, 2)
    other = tmp_path / "other"
    shutil.copytree(store, other)
    ledger_path(Settings(store=other)).unlink()
    (other / "index.sqlite").unlink()
    SqliteLedger(ledger_path(Settings(store=other))).close()  # a fresh, intact ledger of nothing
    shutil.copy(ledger_path(Settings(store=other)), ledger_path(Settings(store=store)))
    assert_refused(capsys, store, "ledger replaced")
    code, out, _ = run(capsys, "audit", "verify", "--store", str(store))
    assert code == EXIT_FAILED and "chain intact" not in out
    assert out.startswith("ledger replaced: the store recorded ledger ") and "with 2 receipts" in out
    code, out, _ = run(capsys, "audit", "verify", "--store", str(store), "--json")
    assert code == EXIT_FAILED and json.loads(out)["problem"] == "ledger_replaced"


def test_a_ledger_rolled_back_to_an_old_copy_stops_asks_and_verify_says_restarted(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answered(capsys, store)
    backup = tmp_path / "audit.backup.sqlite"
    shutil.copy(ledger_path(Settings(store=store)), backup)  # closed: the WAL is folded into the file
    answered(capsys, store, 2)
    shutil.copy(backup, ledger_path(Settings(store=store)))  # two receipts gone, and the chain still holds
    assert_refused(capsys, store, "ledger restarted")
    code, out, _ = run(capsys, "audit", "verify", "--store", str(store), "--json")
    report = json.loads(out)
    assert code == EXIT_FAILED and (report["ok"], report["problem"], report["count"]) == (False, "ledger_restarted", 1)
    assert "with 3 receipts" in report["summary"] and "this ledger has 1" in report["summary"]


def damage_middle_page(path: Path) -> None:
    """The issue's corruption: 4 KB of random bytes written into the middle of audit.sqlite."""
    with closing(sqlite3.connect(path)) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    with path.open("r+b") as file:
        file.seek((pages // 2) * page_size)
        file.write(random.Random(14).randbytes(4096))


def test_a_damaged_ledger_fails_asks_closed(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: asks kept answering and appending to a ledger `audit verify` could not read (exit 3)."""
    answered(capsys, store, 6)
    path = ledger_path(Settings(store=store))
    damage_middle_page(path)
    size = path.stat().st_size
    assert_refused(capsys, store, "restore it from a backup")
    assert path.stat().st_size == size and not Path(f"{path}-wal").exists()  # nothing was appended
    code, _, _ = run(capsys, "audit", "verify", "--store", str(store))
    assert code == EXIT_OPERATOR
    with pytest.raises(OperatorError) as raised:  # the Python API: the agent does not open on it
        Agent(Settings(store=store, embedder="hashing"))
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE


# --- through the Python API ----------------------------------------------------------------------------------


def open_agent(store: Path) -> Agent:
    return Agent(Settings(store=store, embedder="hashing"))


def test_a_ledger_deleted_under_a_running_agent_fails_its_next_ask_closed(store: Path) -> None:
    with open_agent(store) as agent:
        assert isinstance(agent.ask(QUESTION), AnswerEnvelope)
        ledger_path(Settings(store=store)).unlink()
        envelope = agent.ask(QUESTION)
        assert isinstance(envelope, ErrorEnvelope) and envelope.code is ErrorCode.AUDIT_UNAVAILABLE
        assert "72 hours" not in envelope.model_dump_json()
    with pytest.raises(OperatorError) as raised:  # and the next agent does not start a new chain
        open_agent(store)
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE and "is missing" in raised.value.message
    assert not ledger_path(Settings(store=store)).exists()


def test_a_ledger_replaced_under_a_running_agent_fails_its_next_ask_closed(store: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    SqliteLedger(other).close()
    with open_agent(store) as agent:
        assert isinstance(agent.ask(QUESTION), AnswerEnvelope)
        shutil.copy(other, tmp_path / "swap.sqlite")
        (tmp_path / "swap.sqlite").replace(ledger_path(Settings(store=store)))
        envelope = agent.ask(QUESTION)
        assert isinstance(envelope, ErrorEnvelope) and envelope.code is ErrorCode.AUDIT_UNAVAILABLE
        assert "72 hours" not in envelope.model_dump_json()
    with SqliteLedger(ledger_path(Settings(store=store)), create=False) as swapped:
        assert swapped.find(envelope.audit_ref) is None  # the refused run was written nowhere


def test_a_store_made_before_ledger_ids_adopts_its_ledger_once(store: Path) -> None:
    """The upgrade: a store and ledger with history but no recorded identity (made before this change)."""
    with open_agent(store) as agent:
        assert isinstance(agent.ask(QUESTION), AnswerEnvelope)
    path = ledger_path(Settings(store=store))
    with closing(sqlite3.connect(path, isolation_level=None)) as db:  # the ledger as it was made before ids
        db.execute("DROP TABLE audit_ledger")
    with closing(sqlite3.connect(store / "index.sqlite", isolation_level=None)) as db:
        db.execute("DELETE FROM meta WHERE key = 'ledger'")
    with open_agent(store) as agent:
        adopted = agent.ask(QUESTION)
        assert isinstance(adopted, AnswerEnvelope)
        report = agent.ledger.verify()
        ledger_id = getattr(agent.ledger, "ledger_id", None)
    assert report.ok and report.count == 2  # the old receipts are kept, the chain goes on
    assert recorded(store) == {"id": ledger_id, "seq": 2, "hash": report.tip_hash}
    with open_agent(store) as agent:  # adopted once: the id stays
        assert isinstance(agent.ask(QUESTION), AnswerEnvelope)
        assert getattr(agent.ledger, "ledger_id", None) == ledger_id
    path.unlink()
    with pytest.raises(OperatorError, match="is missing"):
        open_agent(store)


def test_the_store_only_moves_its_recorded_tip_forward(store: Path) -> None:
    """Appends from several processes may record their tips out of order; a record never goes back, nor names a
    second ledger."""
    with Store(Settings(store=store, embedder="hashing")) as index:
        index.record_ledger("ledger-a", 5, "sha256:five")
        index.record_ledger("ledger-a", 3, "sha256:three")
        index.record_ledger("ledger-b", 9, "sha256:nine")
        assert index.recorded_ledger() == ("ledger-a", 5, "sha256:five")
        index.record_ledger("ledger-a", 6, "sha256:six")
        assert index.recorded_ledger() == ("ledger-a", 6, "sha256:six")
