"""`quotebound trace`, `replay` and `recheck` on a real store: the timeline, the state at a step (from its
checkpoint, or the stored summary when the checkpoint is gone), JSON for tools, a replay from a node into a new
thread, and a past answer re-verified after its source changed, lost its locator, or was removed."""

from __future__ import annotations

import json
import shutil
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.cli.main import main
from quotebound.agent.core.contracts import AskRequest
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hoa"
LEASE = "What is the minimum lease term for renting out a unit?"
CITED_LINE = "The minimum lease term is twelve (12) months."


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def asked(store_dir: Path, question: str = LEASE, **kwargs: Any) -> Any:
    with Agent(Settings(store=store_dir, embedder="hashing")) as agent:
        return agent.ask(AskRequest(question=question, **kwargs))


def test_trace_prints_the_timeline(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    envelope = asked(store_dir)
    code, out, _ = run(capsys, "trace", envelope.meta.run_id, "--store", str(store_dir))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"run {envelope.meta.run_id}") and "status answer" in lines[0]
    assert f"receipt: {envelope.audit_ref}" in out and repr(LEASE) in out
    steps = [line.split()[:2] for line in lines if line[:3].strip().isdigit()]
    assert steps == [[str(n), node] for n, node in enumerate(
        ["preflight", "retrieve", "resolve", "draft", "validate", "verified_answer"], start=1
    )]  # fmt: skip
    assert "gate=proceed" in out and "hits=8" in out and "ok=True" in out and "status=answer" in out
    assert "       tool search_source(" in out and '"source_id": "declaration.md"' in out


def test_trace_json_is_the_run_trace(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    envelope = asked(store_dir)
    code, out, _ = run(capsys, "trace", envelope.meta.run_id, "--store", str(store_dir), "--json")
    data = json.loads(out)
    assert code == 0 and data["run_id"] == envelope.meta.run_id and data["envelope"]["audit_ref"] == envelope.audit_ref
    assert [step["index"] for step in data["steps"]] == [1, 2, 3, 4, 5, 6]
    assert set(data) == {
        "run_id", "session_id", "principal", "role", "labels", "question", "status", "audit_ref", "started_at",
        "ms", "envelope", "steps",
    }  # fmt: skip


def test_trace_step_reads_the_checkpoint_else_the_summary(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    envelope = asked(store_dir)
    store = str(store_dir)
    code, out, _ = run(capsys, "trace", envelope.meta.run_id, "--store", store, "--step", "4")
    assert code == 0 and out.startswith(f"step 4 of run {envelope.meta.run_id}: draft")
    assert "from checkpoint" in out and "path: " in out and '"draft"]' in out and "branch:" not in out
    code, out, _ = run(capsys, "trace", envelope.meta.run_id, "--store", store, "--step", "4", "--json")
    data = json.loads(out)
    assert code == 0 and data["source"] == "checkpoint" and data["step"]["node"] == "draft"
    assert data["state"]["path"] == ["preflight", "retrieve", "resolve", "draft"]
    assert data["state"]["draft"]["levels"]["level1"] == envelope.answer.level1
    assert data["state"]["envelope"] is None  # the state after draft, not the run's end
    # The session's checkpoints deleted: the trace's own summary, and it says so.
    with sqlite3.connect(store_dir / "checkpoints.sqlite") as db:
        db.execute("DELETE FROM checkpoints")
    db.close()
    code, out, _ = run(capsys, "trace", envelope.meta.run_id, "--store", store, "--step", "4")
    assert code == 0 and "its checkpoint is gone" in out and "the trace's stored summary" in out
    code, out, _ = run(capsys, "trace", envelope.meta.run_id, "--store", store, "--step", "4", "--json")
    data = json.loads(out)
    assert data["source"] == "summary" and data["state"] is None and data["step"]["output"]["mode"] == "answer"
    code, _, err = run(capsys, "trace", envelope.meta.run_id, "--store", store, "--step", "7")
    assert code == 1 and "has steps 1..6, not 7" in err


def test_unknown_ids_are_a_clear_exit_1(store_dir: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    store = str(store_dir)
    assert run(capsys, "trace", "nope", "--store", store) == (1, "", f"no trace of run nope in {store}\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(capsys, "trace", "nope", "--store", str(empty))[0] == 1
    assert run(capsys, "replay", "nope", "--store", store) == (1, "", f"no trace of run nope in {store}\n")
    asked(store_dir)  # the ledger exists
    assert run(capsys, "recheck", "audit://quotebound/nope", "--store", store) == (1, "", "no such receipt\n")


def test_replay_from_draft_prints_what_changed(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    envelope = asked(store_dir, session_id="alice")
    store = str(store_dir)
    code, out, _ = run(capsys, "replay", envelope.meta.run_id, "--from", "draft", "--store", store)
    assert code == 0, out
    assert out.startswith(f"replayed run {envelope.meta.run_id} from draft (checkpoint ")
    assert "what changed: nothing the caller reads" in out and "status: answer -> answer" in out
    assert "answer: unchanged" in out
    code, out, _ = run(
        capsys,
        "replay",
        envelope.meta.run_id,
        "--from",
        "retrieve",
        "--model",
        "extractive",
        "--store",
        store,
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["from"] == "retrieve" and data["original_run_id"] == envelope.meta.run_id
    assert data["run_id"] != envelope.meta.run_id and data["session_id"] != "alice"
    assert data["envelope"]["meta"]["run_id"] == data["run_id"] and data["changes"]["changed"] is False
    code, out, _ = run(capsys, "trace", data["run_id"], "--store", store, "--json")
    assert code == 0 and json.loads(out)["steps"][0]["node"] == "retrieve"
    assert run(capsys, "audit", "show", data["envelope"]["audit_ref"], "--store", store)[0] == 0  # its own receipt
    code, _, err = run(capsys, "replay", envelope.meta.run_id, "--from", "repair", "--store", store)
    assert code == 2 and "never ran 'repair'" in err


# --- recheck ------------------------------------------------------------------------------------------------


def reingest(store_dir: Path, tmp_path: Path, edit: Any) -> None:
    """Ingest a changed copy of declaration.md (with its sidecar) as another ingest run would."""
    folder = tmp_path / f"docs-{uuid.uuid4().hex[:6]}"
    folder.mkdir()
    shutil.copy(EXAMPLES / "declaration.md.meta.yaml", folder)
    text = (EXAMPLES / "declaration.md").read_text(encoding="utf-8")
    (folder / "declaration.md").write_text(edit(text), encoding="utf-8")
    with Store(Settings(store=store_dir, embedder="hashing")) as store:
        report = Ingestor(store).ingest([folder])
    assert report.ok and report.updated == ["declaration.md"], report


def recheck(capsys: pytest.CaptureFixture[str], store_dir: Path, audit_ref: str) -> tuple[int, dict[str, Any], str]:
    code, out, _ = run(capsys, "recheck", audit_ref, "--store", str(store_dir), "--json")
    text_code, text, _ = run(capsys, "recheck", audit_ref, "--store", str(store_dir))
    assert text_code == code
    return code, json.loads(out), text


def test_recheck_ok_then_changed(store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    envelope = asked(store_dir)
    cited = [c.ref for c in envelope.citations]
    assert cited == ["doc://declaration.md@v1#p.1 L51-L51"]
    code, report, text = recheck(capsys, store_dir, envelope.audit_ref)
    assert code == 0 and report["ok"] and [c["status"] for c in report["citations"]] == ["ok"]
    assert "all citations hold" in text and f"ok       {cited[0]}" in text
    reingest(store_dir, tmp_path, lambda text: text.replace("twelve (12) months", "six (6) months"))
    code, report, text = recheck(capsys, store_dir, envelope.audit_ref)
    (check,) = report["citations"]
    assert code == 1 and not report["ok"]
    assert check["status"] == "changed" and check["quote_changed"] is True
    assert (check["cited_version"], check["current_version"]) == (1, 2)
    assert "the quoted text differs in v2" in text and "1 of 1 citations broke" in text


def test_recheck_a_new_version_with_the_same_quote_is_changed_but_says_so(
    store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    envelope = asked(store_dir)
    reingest(store_dir, tmp_path, lambda text: text + "\nAn appended line.\n")
    code, report, _ = recheck(capsys, store_dir, envelope.audit_ref)
    (check,) = report["citations"]
    assert code == 1 and check["status"] == "changed" and check["quote_changed"] is False
    assert "new version (v2); the quoted text is unchanged" in check["detail"]


def test_recheck_vanished_locator(store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    envelope = asked(store_dir)
    reingest(store_dir, tmp_path, lambda text: "\n".join(text.splitlines()[:20]) + "\n")  # L51 is gone
    code, report, text = recheck(capsys, store_dir, envelope.audit_ref)
    (check,) = report["citations"]
    assert code == 1 and check["status"] == "vanished" and check["current_version"] == 2
    assert "the locator is no longer in the source" in check["detail"] and "vanished" in text


def test_recheck_vanished_source(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    envelope = asked(store_dir)
    with sqlite3.connect(store_dir / "index.sqlite") as db:  # the source retired, as a removal would
        db.execute("UPDATE sources SET current = 0 WHERE source_id = 'declaration.md'")
    db.close()
    code, report, _ = recheck(capsys, store_dir, envelope.audit_ref)
    (check,) = report["citations"]
    assert code == 1 and check["status"] == "vanished" and check["detail"] == "the source is no longer in the corpus"


def test_recheck_of_a_run_without_citations(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    envelope = asked(store_dir, "What is the airspeed velocity of an unladen swallow?")
    assert envelope.status == "abstain"
    code, report, text = recheck(capsys, store_dir, envelope.audit_ref)
    assert code == 0 and report["citations"] == [] and "no citations to recheck" in text


def test_trace_of_a_failed_run_shows_the_error_and_its_step_summary(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from quotebound.agent.audit import ledger_path
    from quotebound.agent.audit.sqlite import SqliteLedger
    from quotebound.agent.core.errors import ErrorCode, OperatorError

    class DownLedger(SqliteLedger):
        def append(self, audit_ref: str, run_id: str, body: Any) -> Any:
            raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "down")

    with Agent(
        Settings(store=store_dir, embedder="hashing"), ledger=DownLedger(ledger_path(Settings(store=store_dir)))
    ) as agent:
        envelope = agent.ask(LEASE)
    assert envelope.status == "error"
    store = str(store_dir)
    code, out, _ = run(capsys, "trace", envelope.meta.run_id, "--store", store)
    assert code == 0 and "status error" in out.splitlines()[0]
    assert "verified_answer" in out.splitlines()[-1] and out.rstrip().endswith("ERROR audit_unavailable")
    code, out, _ = run(capsys, "trace", envelope.meta.run_id, "--store", store, "--step", "6")
    assert code == 0 and "no checkpoint for this step (the node failed before a checkpoint)" in out


def test_a_reader_that_goes_away_is_no_error(store_dir: Path) -> None:
    """`quotebound trace ID | true`: a closed pipe ends the command quietly (exit 0, no traceback)."""
    import subprocess
    import sys

    envelope = asked(store_dir)
    command = [
        sys.executable,
        "-m",
        "quotebound.agent.cli.main",
        "trace",
        envelope.meta.run_id,
        "--store",
        str(store_dir),
    ]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # the reader is gone before the command prints a byte (it takes a second to start)
        err = process.stderr.read().decode()
        assert process.wait(timeout=60) == 0, err
    assert "Traceback" not in err and "BrokenPipeError" not in err


# --- replay never reaches a terminal without a fresh gate pass ----------------------------------------------------


def receipt_of(capsys: pytest.CaptureFixture[str], store_dir: Path, audit_ref: str) -> dict[str, Any]:
    code, out, _ = run(capsys, "audit", "show", audit_ref, "--store", str(store_dir), "--role", "public", "--json")
    assert code == 0, out
    body: dict[str, Any] = json.loads(out)["body"]
    return body


@pytest.mark.parametrize("terminal", ["verified_answer", "abstain"])
def test_replay_from_a_terminal_is_refused_after_the_cited_line_changed(
    store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], terminal: str
) -> None:
    """The issue's case: answer, change the cited line and re-ingest, replay from the terminal. The terminal would
    ship what the original run's gate passed against v1 (citing @v2, which now says six months): refused."""
    question = LEASE if terminal == "verified_answer" else "What is the airspeed velocity of an unladen swallow?"
    envelope = asked(store_dir, question)
    assert envelope.status == ("answer" if terminal == "verified_answer" else "abstain")
    reingest(store_dir, tmp_path, lambda text: text.replace("twelve (12) months", "six (6) months"))
    code, out, err = run(capsys, "replay", envelope.meta.run_id, "--from", terminal, "--store", str(store_dir))
    assert code == 2 and out == ""
    assert f"a replay cannot start at the terminal {terminal!r}" in err and "Replay from 'validate'" in err
    code, out, err = run(
        capsys, "replay", envelope.meta.run_id, "--from", terminal, "--store", str(store_dir), "--json"
    )
    assert code == 2 and "twelve" not in out and "cannot start at the terminal" in err


def test_replay_through_the_gate_does_not_ship_the_old_answer(
    store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    envelope = asked(store_dir)
    assert envelope.status == "answer" and "twelve (12) months" in envelope.answer.level1
    reingest(store_dir, tmp_path, lambda text: text.replace("twelve (12) months", "six (6) months"))
    store = str(store_dir)
    for node in ("validate", "draft"):  # the same draft re-checked; a fresh draft from the same evidence
        code, out, _ = run(capsys, "replay", envelope.meta.run_id, "--from", node, "--store", store, "--json")
        data = json.loads(out)
        shipped = data["envelope"]
        assert code == 0 and shipped["status"] == "abstain" and shipped["reason_code"] == "verification_failed"
        assert "twelve" not in json.dumps(shipped) and not shipped.get("citations")
        assert data["changes"]["citations"]["removed"] == ["doc://declaration.md@v1#p.1 L51-L51"]
        receipt = receipt_of(capsys, store_dir, shipped["audit_ref"])
        # The path this run took, from the node it started at; never the original run's nodes before it.
        assert receipt["path"][0] == node and receipt["path"][-1] == "abstain" and "validate" in receipt["path"]
        assert "preflight" not in receipt["path"] and receipt["gate"]["passed"] is False
        assert receipt["run_id"] == data["run_id"]
        assert {call["node"] for call in receipt["tool_calls"]} <= set(receipt["path"]) - {"validate"}  # its own


def test_a_replayed_receipt_records_the_path_this_run_took(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    envelope = asked(store_dir)
    store = str(store_dir)
    code, out, _ = run(capsys, "replay", envelope.meta.run_id, "--from", "validate", "--store", store, "--json")
    data = json.loads(out)
    assert code == 0 and data["envelope"]["status"] == "answer"
    receipt = receipt_of(capsys, store_dir, data["envelope"]["audit_ref"])
    assert receipt["path"] == ["validate", "verified_answer"] and receipt["gate"]["passed"] is True
    assert receipt["tool_calls"] == []  # the original's draft made the tool calls, not this run
    original = receipt_of(capsys, store_dir, envelope.audit_ref)
    assert original["path"] == ["preflight", "retrieve", "resolve", "draft", "validate", "verified_answer"]
    assert original["tool_calls"]
