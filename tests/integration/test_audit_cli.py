"""`quotebound audit verify|show` and the ask command's error envelope, as an operator runs them."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.audit.sqlite import SqliteLedger
from quotebound.agent.cli.main import EXIT_FAILED, EXIT_OK, EXIT_OPERATOR, main
from quotebound.agent.core.errors import ErrorCode, OperatorError

RULES = "# House rules\n\nQuiet hours start at 22:00.\nGuests may park for 72 hours.\n"
STAFF = "# Staff guests\n\nStaff guests may park in lot B for 24 hours.\nStaff permits come from the desk.\n"
POLICY = """\
version: 1
roles:
  public: {labels: [public]}
  auditor: {labels: [public], read_audit: true}
  steward: {labels: [public, hr], read_audit: true, keep_query_text: true}
"""
QUESTION = "How many hours may guests park?"
TRIGGERS = ("audit_receipts_no_update", "audit_receipts_no_delete", "audit_tip_advances", "audit_tip_no_delete")


@pytest.fixture
def setup(tmp_path: Path, make_files: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A store with a public and an `hr` source, and the policy file that governs them."""
    monkeypatch.setenv("QUOTEBOUND_EMBEDDER", "hashing")
    monkeypatch.delenv("QUOTEBOUND_AUDIT_DSN", raising=False)
    monkeypatch.delenv("QUOTEBOUND_POLICY", raising=False)
    root = make_files({"rules.md": RULES, "hr/staff.md": STAFF, "hr/staff.md.meta.yaml": "policy_label: hr\n"})
    store = tmp_path / "store"
    assert main(["ingest", str(root), "--store", str(store)]) == EXIT_OK
    policy = tmp_path / "policy.yaml"
    policy.write_text(POLICY, encoding="utf-8")
    return store, policy


def ask(store: Path, policy: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["ask", *args, "--store", str(store), "--policy", str(policy), "--json"])
    return code, json.loads(capsys.readouterr().out)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def tamper(store: Path, *statements: str) -> None:
    conn = sqlite3.connect(store / "audit.sqlite", isolation_level=None)
    for trigger in TRIGGERS:
        conn.execute(f"DROP TRIGGER {trigger}")
    for statement in statements:
        conn.execute(statement)
    conn.close()


def test_verify_prints_one_line_and_names_the_first_tampered_receipt(
    setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    store, policy = setup
    refs = [ask(store, policy, capsys, QUESTION, "--role", "steward")[1]["audit_ref"] for _ in range(3)]
    code, out, _ = run(capsys, "audit", "verify", "--store", str(store))
    assert code == EXIT_OK and out.startswith("3 receipts, chain intact") and len(out.splitlines()) == 1
    tamper(store, "UPDATE audit_receipts SET body = replace(body, 'steward', 'public') WHERE seq = 2")
    code, out, _ = run(capsys, "audit", "verify", "--store", str(store))
    assert code == EXIT_FAILED
    assert f"seq 2 ({refs[1]})" in out and "content" in out
    code, out, _ = run(capsys, "audit", "verify", "--store", str(store), "--json")
    report = json.loads(out)
    assert (report["ok"], report["first_bad_seq"], report["first_bad_ref"], report["problem"]) == (
        False,
        2,
        refs[1],
        "altered",
    )


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("DELETE FROM audit_receipts WHERE seq = 2", "seq 2 (audit_ref unknown): the receipt with this seq is missing"),
        ("DELETE FROM audit_receipts WHERE seq = 3", "seq 3 (REF3): receipts from this seq on are missing"),
        ("UPDATE audit_receipts SET hash = 'sha256:' || substr(hash, 9, 63) || '0' WHERE seq = 1", "seq 1 (REF1)"),
    ],
)
def test_verify_through_the_cli_for_each_kind(
    setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str], statement: str, expected: str
) -> None:
    store, policy = setup
    refs = [ask(store, policy, capsys, QUESTION)[1]["audit_ref"] for _ in range(3)]
    tamper(store, statement)
    code, out, _ = run(capsys, "audit", "verify", "--store", str(store))
    assert code == EXIT_FAILED
    assert expected.replace("REF1", refs[0]).replace("REF3", refs[2]) in out, out


def test_the_entry_point_runs_in_a_subprocess(setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    store, policy = setup
    ask(store, policy, capsys, QUESTION)
    command = [sys.executable, "-m", "quotebound.agent.cli.main", "audit", "verify", "--store", str(store)]
    intact = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert intact.returncode == 0 and intact.stdout.startswith("1 receipts, chain intact"), intact
    tamper(store, "UPDATE audit_receipts SET created_at = '2020-01-01T00:00:00+00:00'")
    broken = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert broken.returncode == 1 and "chain broken at receipt seq 1" in broken.stdout, broken


def show(store: Path, policy: Path, capsys: pytest.CaptureFixture[str], ref: str, role: str) -> dict[str, Any]:
    code, out, _ = run(
        capsys, "audit", "show", ref, "--store", str(store), "--policy", str(policy), "--role", role, "--json"
    )
    assert code == EXIT_OK
    return json.loads(out)


def test_show_redacts_per_viewing_role(setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    store, policy = setup
    code, envelope = ask(store, policy, capsys, QUESTION, "--role", "steward")
    assert code == EXIT_OK
    ref = envelope["audit_ref"]

    steward = show(store, policy, capsys, ref, "steward")["body"]
    assert steward["query"]["text"] == QUESTION
    assert any(b["source_id"] == "hr/staff.md" for b in steward["bundles"]), steward["bundles"]

    auditor = show(store, policy, capsys, ref, "auditor")
    assert auditor["body"]["query"]["text"] == QUESTION  # reads audit...
    assert "hr/staff.md" not in json.dumps(auditor)  # ...but not the hr source
    assert "[withheld]" in {b["ref"] for b in auditor["body"]["bundles"]}

    public = show(store, policy, capsys, ref, "public")
    text = json.dumps(public)
    assert public["body"]["query"]["text"] is None and QUESTION not in text
    assert "hr/staff.md" not in text and '"hr"' not in text
    assert public["body"]["query"]["sha256"] == steward["query"]["sha256"]
    assert public["hash_ok"] is True and public["audit_ref"] == ref
    visible = {b["source_id"] for b in public["body"]["bundles"]}
    assert visible == {"rules.md", "[withheld]"}, visible

    code, out, _ = run(capsys, "audit", "show", ref, "--store", str(store), "--policy", str(policy))
    assert code == EXIT_OK and "(text not shown)" in out and "hr/staff.md" not in out and "[withheld]" in out
    assert out.splitlines()[0].startswith("receipt #1") and "status: answer" in out


def test_an_unknown_receipt_reads_the_same_for_every_role(
    setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    store, policy = setup
    ask(store, policy, capsys, QUESTION)
    outputs = set()
    for role in ("public", "steward"):
        code, out, err = run(capsys, "audit", "show", "audit://quotebound/nope", "--store", str(store), "--role", role)
        assert code == EXIT_FAILED and out == ""
        outputs.add(err)
    assert outputs == {"no such receipt\n"}


def test_audit_on_a_store_without_a_ledger_is_an_operator_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "audit", "verify", "--store", str(tmp_path / "nothing"))
    assert code == EXIT_OPERATOR and "audit_unavailable" in err
    assert not (tmp_path / "nothing").exists()


def test_ask_prints_an_error_envelope_and_exits_3_when_the_receipt_cannot_be_written(
    setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, policy = setup

    def refuse(self: SqliteLedger, audit_ref: str, run_id: str, body: Any) -> Any:
        raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, f"the audit receipt could not be written ({self.path})")

    monkeypatch.setattr(SqliteLedger, "append", refuse)
    code, envelope = ask(store, policy, capsys, QUESTION)
    assert code == EXIT_OPERATOR
    assert envelope["status"] == "error" and envelope["code"] == "audit_unavailable" and envelope["retryable"]
    assert (
        "answer" not in envelope and "72 hours" not in json.dumps(envelope) and str(store) not in json.dumps(envelope)
    )
    code, out, _ = run(capsys, "ask", QUESTION, "--store", str(store))
    assert code == EXIT_OPERATOR and out.startswith("ERROR (audit_unavailable)") and "audit_ref: audit://" in out


def test_ask_refuses_to_run_without_a_ledger(setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    store, _ = setup
    (store / "audit.sqlite").mkdir()
    code, out, err = run(capsys, "ask", QUESTION, "--store", str(store), "--json")
    assert code == EXIT_OPERATOR and "audit_unavailable" in err
    # With --json, stdout has exactly one envelope even then (issue 14): the error, and no answer.
    assert json.loads(out)["status"] == "error" and json.loads(out)["code"] == "audit_unavailable"


def test_help_documents_audit_and_the_error_exit(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["ask", "--help"], ["audit", "verify", "--help"], ["audit", "show", "--help"]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "quotebound audit verify" in out and "exits 3" in out and "[withheld]" in out
