"""Error paths a new user hits, through the CLI: a model nobody serves, a question too long, a store on a read-only
or full disk. Each ends in one clear line on stderr, a non-zero exit and, with `--json`, exactly one envelope on
stdout; none of them reads like missing evidence, an unreadable index or a traceback.

The model, the read-only store and the full disk are real where the machine allows: a closed port on 127.0.0.1,
a store the process may not write (`setpriv` drops root's override of file permissions), a tmpfs filled to the
last block in a private mount namespace (`unshare -m`). A full disk is also simulated at SQLite's boundary, with
SQLite's own page limit, so it is covered where mounting is not allowed.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from quotebound.agent.cli.main import EXIT_FAILED, EXIT_OPERATOR, EXIT_USAGE, main
from quotebound.agent.core.contracts import Envelope

QUESTION = "What is the minimum lease term for renting out a unit?"
ENVELOPE: TypeAdapter[Any] = TypeAdapter(Envelope)
# Drops what lets root write files whatever their mode: the process is then refused like any other user.
NO_ROOT_OVERRIDE = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]


def cli(*args: str, prefix: list[str] | None = None, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """`quotebound ARGS` in a fresh process, as a user runs it (its stderr is what a terminal shows)."""
    env = {**os.environ, "QUOTEBOUND_EMBEDDER": "hashing"}
    command = [*(prefix or []), sys.executable, "-m", "quotebound.agent.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)


def one_envelope(stdout: str) -> dict[str, Any]:
    """stdout is exactly one JSON document, and it validates as an envelope."""
    data = json.loads(stdout)  # raises on an empty stdout or on two documents
    ENVELOPE.validate_python(data)
    return dict(data)


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 that is bound but not listening: a connection to it is refused, and no other process
    can take it while the test runs."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    try:
        yield int(sock.getsockname()[1])
    finally:
        sock.close()


# --- a model that cannot be reached -----------------------------------------------------------------------------


def test_an_unreachable_model_is_a_model_error_not_missing_evidence(store_dir: Path, closed_port: int) -> None:
    model = f"openai:foo@http://127.0.0.1:{closed_port}"
    result = cli("ask", QUESTION, "--store", str(store_dir), "--model", model, "--json")
    assert result.returncode == EXIT_OPERATOR, result.stderr
    envelope = one_envelope(result.stdout)
    assert envelope["status"] == "abstain" and envelope["reason_code"] == "model_error"
    assert envelope["gaps"] == [], "a model that failed is not missing evidence"
    assert "Insufficient evidence" not in json.dumps(envelope)
    line = one_line(result.stderr)
    assert "could not be reached" in line and "connection refused" in line and model in line

    human = cli("ask", QUESTION, "--store", str(store_dir), "--model", model)
    assert human.returncode == EXIT_OPERATOR
    assert "ABSTAINED (model_error)" in human.stdout
    assert "Insufficient evidence" not in human.stdout and "no_quote_found" not in human.stdout
    assert "connection refused" in one_line(human.stderr)


class _Unavailable(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = b'{"error": {"message": "overloaded"}}'
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def test_a_model_server_answering_5xx_is_a_model_error(
    store_dir: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Unavailable)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        model = f"openai:foo@http://127.0.0.1:{server.server_address[1]}"
        with caplog.at_level(logging.WARNING, logger="quotebound.faults"):
            code = main(["ask", QUESTION, "--store", str(store_dir), "--model", model, "--json"])
    finally:
        server.shutdown()
        server.server_close()
    assert code == EXIT_OPERATOR
    envelope = one_envelope(capsys.readouterr().out)
    assert envelope["reason_code"] == "model_error" and envelope["gaps"] == []
    [record] = [r for r in caplog.records if "could not be reached" in r.getMessage()]
    assert "HTTP 503" in record.getMessage() and record.exc_info is None


# --- a request the agent refuses --------------------------------------------------------------------------------


def test_a_question_too_long_is_one_line_and_one_envelope(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    question = "How long may guests park? " * 400  # 10,400 characters
    capsys.readouterr()
    assert main(["ask", question, "--store", str(store_dir), "--json"]) == EXIT_USAGE
    captured = capsys.readouterr()
    envelope = one_envelope(captured.out)
    assert envelope["status"] == "error" and envelope["code"] == "bad_request" and not envelope["retryable"]
    assert "question" in envelope["message"] and "4000" in envelope["message"]
    assert question[:200] not in envelope["message"], "the input is not echoed back"

    assert main(["ask", question, "--store", str(store_dir)]) == EXIT_USAGE
    captured = capsys.readouterr()
    assert captured.out == ""
    line = one_line(captured.err)
    assert line.startswith("error: ") and "at most 4000 characters" in line
    assert "pydantic" not in line and "validation error for" not in line and len(line) < 300


@pytest.mark.parametrize(
    "argv",
    [
        ["sources", "--json"],
        ["search", "parking", "--json"],
        ["ask", QUESTION, "--json"],
        ["ask", QUESTION, "--json", "--model", "nonsense"],
        ["audit", "verify", "--json"],
        ["ingest", "--json"],  # a usage error: no PATH
        ["search", "--json"],  # a usage error: no QUERY
    ],
)
def test_every_json_run_prints_one_envelope_even_for_an_error(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([*argv, "--store", str(tmp_path / "no-store")])
    captured = capsys.readouterr()
    assert code in (EXIT_USAGE, EXIT_OPERATOR)
    envelope = one_envelope(captured.out)
    assert envelope["status"] == "error" and envelope["message"]
    assert "Traceback" not in captured.err


def test_record_readers_print_one_envelope_for_what_they_cannot_find(
    store_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["ask", QUESTION, "--store", str(store_dir)])  # a ledger and a trace store to look in
    capsys.readouterr()
    for argv in (
        ["trace", "nope"],
        ["replay", "nope"],
        ["recheck", "audit://quotebound/nope"],
        ["audit", "show", "audit://quotebound/nope"],
    ):
        assert main([*argv, "--store", str(store_dir), "--json"]) == EXIT_FAILED, argv
        captured = capsys.readouterr()
        envelope = one_envelope(captured.out)
        assert envelope["status"] == "error" and envelope["code"] == "bad_request", argv
        assert envelope["message"] == one_line(captured.err), argv


# --- a store on a disk that refuses writes ----------------------------------------------------------------------


def _without_write_access(path: Path) -> list[str]:
    """The prefix that runs a command unable to write `path` (made read-only here), or skip."""
    for item in [path, *path.rglob("*")]:
        item.chmod(item.stat().st_mode & ~0o222)
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("root writes read-only files, and setpriv (to drop that) is not installed")
    probe = subprocess.run([*NO_ROOT_OVERRIDE, "sh", "-c", f"touch {path}/probe"], capture_output=True)
    if probe.returncode == 0:
        pytest.skip("setpriv could not take root's override of file permissions away here")
    return NO_ROOT_OVERRIDE


def test_a_read_only_store_says_read_only_and_where(store_dir: Path) -> None:
    prefix = _without_write_access(store_dir)
    try:
        result = cli("ask", QUESTION, "--store", str(store_dir), "--json", prefix=prefix)
        assert result.returncode == EXIT_OPERATOR, result.stderr
        envelope = one_envelope(result.stdout)
        assert envelope["status"] == "error" and envelope["code"] == "store_unavailable"
        for text in (envelope["message"], one_line(result.stderr)):
            assert "read-only" in text and str(store_dir) in text and "unreadable" not in text

        listing = cli("sources", "--store", str(store_dir), prefix=prefix)
        assert listing.returncode == EXIT_OPERATOR
        line = one_line(listing.stderr)
        assert "read-only" in line and str(store_dir) in line
    finally:
        for item in [store_dir, *store_dir.rglob("*")]:
            item.chmod(item.stat().st_mode | 0o200)


def test_a_full_disk_says_no_space_at_sqlites_boundary(
    tmp_path: Path, make_files: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # SQLite's own page limit: every write past the store's first page fails with SQLITE_FULL, as on a full disk.
    connect = sqlite3.connect
    store = tmp_path / "store"

    def full_disk(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        db = connect(database, *args, **kwargs)
        if str(database).startswith(str(store)):
            db.execute("PRAGMA max_page_count = 1")
        return db

    monkeypatch.setattr(sqlite3, "connect", full_disk)
    monkeypatch.setenv("QUOTEBOUND_EMBEDDER", "hashing")
    docs = make_files({"rules.md": "# Rules\n\nQuiet hours start at 22:00.\n"})
    assert main(["ingest", str(docs), "--store", str(store), "--json"]) == EXIT_OPERATOR
    captured = capsys.readouterr()
    envelope = one_envelope(captured.out)
    assert envelope["code"] == "store_unavailable"
    for text in (envelope["message"], one_line(captured.err)):
        assert "no space left" in text and str(store / "index.sqlite") in text and "unreadable" not in text


def test_a_full_disk_says_no_space_on_a_real_full_tmpfs(store_dir: Path, tmp_path: Path) -> None:
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    mount = tmp_path / "mnt"
    mount.mkdir()
    files = " ".join(str(p) for p in store_dir.glob("*.sqlite"))
    # A private mount namespace: the tmpfs exists for this command only and vanishes with it.
    script = (
        f"mount -t tmpfs -o size=2m tmpfs {mount} || exit 99; cp {files} {mount}/; "
        f"dd if=/dev/zero of={mount}/filler bs=4k 2>/dev/null; "
        f'exec "$@"'
    )
    args = ["ask", QUESTION, "--store", str(mount), "--json"]
    result = cli(*args, prefix=["unshare", "-m", "sh", "-c", script, "sh"])
    if result.returncode == 99:
        pytest.skip(f"no tmpfs can be mounted here: {result.stderr.strip()[:200]}")
    assert result.returncode == EXIT_OPERATOR, result.stderr
    envelope = one_envelope(result.stdout)
    assert envelope["status"] == "error" and envelope["code"] == "store_unavailable"
    line = one_line(result.stderr)
    assert "no space left" in line and str(mount) in line and "unreadable" not in line
