"""The whole graph writing its receipts to PostgreSQL, from several "servers" at once, and the CLI reading them.
Runs only when QUOTEBOUND_TEST_POSTGRES_DSN is set: `export QUOTEBOUND_TEST_POSTGRES_DSN="$(bash .ci/postgres.sh)"`."""

from __future__ import annotations

import json
import os
import shutil
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from quotebound.agent.cli.main import EXIT_FAILED, EXIT_OK, main
from quotebound.agent.core.contracts import AnswerEnvelope, AskRequest
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

PG_ENV = "QUOTEBOUND_TEST_POSTGRES_DSN"
PG_DSN = os.environ.get(PG_ENV)
pytestmark = pytest.mark.skipif(
    not PG_DSN, reason=f"{PG_ENV} is not set: run `bash .ci/postgres.sh` and export its DSN to run these"
)
RULES = "# House rules\n\nQuiet hours start at 22:00.\nGuests may park for 72 hours.\n"


@pytest.fixture
def dsn() -> Iterator[str]:
    import psycopg
    from psycopg.conninfo import make_conninfo

    assert PG_DSN is not None
    schema = f"qb_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_DSN, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]
        yield make_conninfo(PG_DSN, options=f"-c search_path={schema}")
        admin.execute(f"DROP SCHEMA {schema} CASCADE")  # type: ignore[arg-type]


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text(RULES, encoding="utf-8")
    with Store(Settings(store=tmp_path / "store", embedder="hashing"), create=True) as store:
        assert Ingestor(store).ingest([tmp_path / "docs"]).ok
    return tmp_path / "store"


def test_runs_write_their_receipts_to_postgres(store_dir: Path, dsn: str) -> None:
    with Agent(Settings(store=store_dir, embedder="hashing", audit_dsn=dsn)) as agent:
        answer = agent.ask("How many hours may guests park?")
        clarify = agent.ask(AskRequest(question="How long may guests park this week?", session_id="s1"))
        assert isinstance(answer, AnswerEnvelope) and clarify.status == "clarify"
        for envelope in (answer, clarify):
            entry = agent.ledger.get(envelope.audit_ref)
            assert entry is not None and entry["body"]["status"] == envelope.status
        report = agent.ledger.verify()
        assert report.ok and report.count == 2
    assert not (store_dir / "audit.sqlite").exists()  # the DSN replaces the SQLite ledger, it does not add one


def test_several_servers_chain_into_one_ledger(store_dir: Path, dsn: str, tmp_path: Path) -> None:
    servers = []
    for n in range(3):  # each server has its own copy of the store, one shared audit ledger
        copy = tmp_path / f"server-{n}"
        shutil.copytree(store_dir, copy)
        settings = Settings(store=copy, embedder="hashing", audit_dsn=dsn)
        servers.append(Agent(settings, checkpointer=InMemorySaver()))
    per_server = 4
    refs: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(len(servers))

    def serve(agent: Agent) -> None:
        try:
            start.wait()
            for _ in range(per_server):
                refs.append(
                    agent.ask(
                        AskRequest(question="How many hours may guests park?", session_id=uuid.uuid4().hex)
                    ).audit_ref
                )
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=serve, args=(agent,)) for agent in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    try:
        assert not errors, errors
        report = servers[0].ledger.verify()
        assert report.ok and report.count == len(servers) * per_server == len(set(refs)), report
        assert all(servers[1].ledger.get(ref) is not None for ref in refs)
    finally:
        for agent in servers:
            agent.close()


def test_the_cli_verifies_a_postgres_ledger_and_names_tampering(
    store_dir: Path, dsn: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import psycopg

    monkeypatch.setenv("QUOTEBOUND_AUDIT_DSN", dsn)
    monkeypatch.setenv("QUOTEBOUND_EMBEDDER", "hashing")
    refs = []
    for _ in range(3):
        assert main(["ask", "How many hours may guests park?", "--store", str(store_dir), "--json"]) == EXIT_OK
        refs.append(json.loads(capsys.readouterr().out)["audit_ref"])
    assert main(["audit", "verify", "--store", str(store_dir)]) == EXIT_OK
    assert capsys.readouterr().out.startswith("3 receipts, chain intact")
    assert main(["audit", "show", refs[0], "--store", str(store_dir), "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["body"]["audit_ref"] == refs[0]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("ALTER TABLE audit_receipts DISABLE TRIGGER USER")
        conn.execute("UPDATE audit_receipts SET body = replace(body, 'public', 'steward') WHERE seq = 2")
    assert main(["audit", "verify", "--store", str(store_dir)]) == EXIT_FAILED
    assert f"seq 2 ({refs[1]})" in capsys.readouterr().out


def test_a_recreated_postgres_ledger_answers_nothing_and_verify_says_replaced(
    store_dir: Path, dsn: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The store knows its ledger on Postgres too: the database's tables dropped and recreated (a new, empty,
    intact chain) is another ledger, not a fresh start."""
    import psycopg

    from quotebound.agent.core.errors import ErrorCode, OperatorError

    monkeypatch.setenv("QUOTEBOUND_AUDIT_DSN", dsn)
    monkeypatch.setenv("QUOTEBOUND_EMBEDDER", "hashing")
    for _ in range(2):
        assert main(["ask", "How many hours may guests park?", "--store", str(store_dir), "--json"]) == EXIT_OK
    capsys.readouterr()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP TABLE audit_receipts, audit_tip, audit_ledger")
    with pytest.raises(OperatorError) as raised:
        Agent(Settings(store=store_dir, embedder="hashing", audit_dsn=dsn))
    assert raised.value.code is ErrorCode.AUDIT_UNAVAILABLE and "ledger replaced" in raised.value.message
    assert main(["ask", "How many hours may guests park?", "--store", str(store_dir), "--json"]) != EXIT_OK
    assert "72 hours" not in capsys.readouterr().out
    assert main(["audit", "verify", "--store", str(store_dir)]) == EXIT_FAILED
    out = capsys.readouterr().out
    assert out.startswith("ledger replaced") and "with 2 receipts" in out and "chain intact" not in out
