"""The CLI as a user runs it: ingest, sources, search, tool; exit codes and messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quotebound.agent.cli.main import EXIT_FAILED, EXIT_OK, EXIT_OPERATOR, EXIT_USAGE, main

DOC = "# Rules\n\nQuiet hours start at 22:00.\nGuests may park for 72 hours.\n"


@pytest.fixture
def store_dir(tmp_path: Path, make_files, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("QUOTEBOUND_EMBEDDER", "hashing")
    root = make_files({"rules.md": DOC, "broken.txt": b"\x00\x01"})
    store = tmp_path / "cli-store"
    assert main(["ingest", str(root), "--store", str(store)]) == EXIT_FAILED  # broken.txt fails, rules.md ingests
    return store


def test_ingest_reports_the_bad_file_and_keeps_the_good(
    tmp_path: Path, make_files, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("QUOTEBOUND_EMBEDDER", "hashing")
    root = make_files({"rules.md": DOC, "broken.txt": b"\x00\x01"})
    store_dir = tmp_path / "cli-store"
    assert main(["ingest", str(root), "--store", str(store_dir)]) == EXIT_FAILED
    captured = capsys.readouterr()
    assert "broken.txt" in captured.err and "binary" in captured.err
    assert "1 added" in captured.out and "1 failed" in captured.out
    assert main(["sources", "--store", str(store_dir), "--json"]) == EXIT_OK
    sources = json.loads(capsys.readouterr().out)
    assert [s["source_id"] for s in sources] == ["rules.md"]


def test_tool_prints_json_and_exit_codes(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    args = json.dumps({"source_id": "rules.md", "pattern": "park"})
    assert main(["tool", "quote_fetch", args, "--store", str(store_dir)]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["result"]["quote"] == "Guests may park for 72 hours."
    assert main(["tool", "rm", "{}", "--store", str(store_dir)]) == EXIT_FAILED
    assert json.loads(capsys.readouterr().out)["error"] == "tool_not_allowed"
    assert main(["tool", "calc", "{not json", "--store", str(store_dir)]) == EXIT_USAGE
    assert "not valid JSON" in capsys.readouterr().err


def test_search_prints_refs(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["search", "park 72 hours", "--store", str(store_dir), "--json"]) == EXIT_OK
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["source_id"] == "rules.md" and hits[0]["locator"].startswith("p.1 L")


def test_missing_store_is_an_operator_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sources", "--store", str(tmp_path / "none")]) == EXIT_OPERATOR
    assert "quotebound ingest" in capsys.readouterr().err


def test_help_teaches_the_tool(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for word in ("ingest", "search", "tool", "quote_fetch", "Exit codes"):
        assert word in out


def test_ask_prints_one_envelope_and_resumes_a_clarify(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["ask", "How many hours may guests park?", "--store", str(store_dir), "--json"]) == EXIT_OK
    envelope = json.loads(capsys.readouterr().out)
    assert envelope["status"] == "answer" and "72 hours" in envelope["answer"]["level1"]
    ambiguous = "How long may guests park this week?"  # "this week": only the user can say which one
    assert main(["ask", ambiguous, "--store", str(store_dir), "--session", "s1", "--json"]) == 0
    clarify = json.loads(capsys.readouterr().out)
    assert clarify["status"] == "clarify" and clarify["questions"][0]["field"] == "time_scope"
    reply = "time_scope=2025-06-02"
    assert main(["ask", "--store", str(store_dir), "--session", "s1", "--reply", reply, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] in {"answer", "abstain"}
    assert main(["ask", "--store", str(store_dir), "--reply", reply]) == EXIT_USAGE
