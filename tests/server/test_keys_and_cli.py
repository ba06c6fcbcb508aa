"""API keys in the settings (a YAML file, QUOTEBOUND_API_KEYS_FILE) and `quotebound serve`."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from quotebound.agent.core.errors import OperatorError
from quotebound.agent.core.settings import ApiKey, Settings, load_api_keys
from quotebound.agent.server import ApiKeys
from quotebound.agent.server.auth import fingerprint

from .conftest import POLICY, STEWARD_KEY

GOOD = """keys:
  - {key: "alice-key-7c1e9a0b3d5f", role: steward, name: alice}
  - {key: "bob-key-2a4c6e8f0b1d3f", role: member, labels: [restricted]}
"""


def test_keys_load_from_a_file_and_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    path.write_text(GOOD)
    keys = load_api_keys(path)
    assert [(k.role, k.name, k.labels) for k in keys] == [("steward", "alice", []), ("member", None, ["restricted"])]
    settings = Settings.from_env({"QUOTEBOUND_API_KEYS_FILE": str(path)})
    assert [k.key.get_secret_value() for k in settings.api_keys] == ["alice-key-7c1e9a0b3d5f", "bob-key-2a4c6e8f0b1d3f"]
    assert "alice-key" not in repr(settings) and "alice-key" not in str(settings.api_keys)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("keys:\n  - {key: short, role: steward}\n", "keys[0].key: "),
        ("keys:\n  - {key: long-enough-key-123456, role: 'no spaces'}\n", "keys[0].role: "),
        ("keys:\n  - {key: long-enough-key-123456, rol: steward}\n", "keys[0].rol: "),
        ("keys:\n  - {key: long-enough-key-123456}\n  - {key: long-enough-key-123456}\n", "keys[1].key: the same key"),
        ("- {key: long-enough-key-123456}\n", "expected a mapping with one key, `keys`"),
        ("keys: [\n  {key: secret-value-never-shown\n", "not valid YAML at line"),
    ],
)
def test_a_bad_keys_file_names_the_file_and_the_entry_but_never_a_key(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "keys.yaml"
    path.write_text(text)
    with pytest.raises(OperatorError) as raised:
        load_api_keys(path)
    message = str(raised.value)
    assert str(path) in message and expected in message, message
    for secret in ("long-enough-key-123456", "secret-value-never-shown", "short"):
        assert secret not in message.replace("too short", ""), message


def test_a_missing_keys_file_is_an_operator_error(tmp_path: Path) -> None:
    with pytest.raises(OperatorError, match=r"keys\.yaml: cannot be read"):
        load_api_keys(tmp_path / "keys.yaml")


def test_a_principal_is_a_fingerprint_never_the_key() -> None:
    keys = ApiKeys([ApiKey(key="alice-key-7c1e9a0b3d5f", role="steward", name="alice")])
    principal = keys.authenticate("alice-key-7c1e9a0b3d5f")
    assert principal is not None and principal.role == "steward"
    assert principal.tag == fingerprint("alice-key-7c1e9a0b3d5f") and "alice-key" not in principal.tag
    assert principal.namespace == principal.tag.replace(":", "") and len(principal.namespace) == 19
    assert keys.authenticate("alice-key-7c1e9a0b3d5") is None and keys.authenticate("") is None


def test_serve_prints_its_url_and_answers(store_dir: Path, tmp_path: Path) -> None:
    keys = tmp_path / "keys.yaml"
    keys.write_text(f"keys:\n  - {{key: {STEWARD_KEY}, role: steward}}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUOTEBOUND_")}
    command = [sys.executable, "-m", "quotebound.agent.cli", "serve", "--store", str(store_dir), "--port", "0"]
    command += ["--keys", str(keys), "--policy", str(POLICY), "--log-level", "warning"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # blocks until the server listens (or exits)
        assert line.startswith("quotebound serving on http://127.0.0.1:"), (line, process.poll())
        url = line.split()[3]
        assert "1 API keys" in line
        health = httpx.get(url + "healthz", timeout=30).json()
        assert health["status"] == "ok" and health["sources"] == 7
        steward = httpx.get(url + "healthz", headers={"X-API-Key": STEWARD_KEY}, timeout=30).json()
        assert steward["sources"] == 9
        answer = httpx.post(url + "ask", json={"question": "What is the minimum lease term?"}, timeout=60).json()
        assert answer["status"] == "answer"
    finally:
        process.terminate()
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
    assert process.returncode in (0, -15), process.returncode


def test_serve_refuses_a_bad_keys_file(store_dir: Path, tmp_path: Path) -> None:
    keys = tmp_path / "keys.yaml"
    keys.write_text("keys: [{key: short}]\n")
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "quotebound.agent.cli", "serve", "--store", str(store_dir), "--keys", str(keys)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 3 and "keys.yaml: keys[0].key:" in result.stderr, result.stderr
    assert time.monotonic() - started < 60


def test_the_cli_help_does_not_import_the_server() -> None:
    code = (
        "import sys; from quotebound.agent.cli.main import build_parser; build_parser(); "
        "print(any(m.split('.')[0] in ('fastapi', 'uvicorn', 'sse_starlette') for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result
