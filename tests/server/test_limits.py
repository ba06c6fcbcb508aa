"""The server's limits (issue 14), against a real uvicorn on loopback with raw sockets, as a hostile client comes:
a body shorter than its Content-Length, a connection that never finishes its headers, a body over the size limit.
Each is answered in bounded time with the service's JSON error body, and the server keeps serving."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from quotebound.agent.core.settings import ServerLimits
from quotebound.agent.facade.agent import Agent
from quotebound.agent.server import create_app
from quotebound.agent.server.transport import uvicorn_options

from .conftest import server_settings

LIMITS = ServerLimits(max_body_bytes=4096, body_timeout_s=1.0, idle_timeout_s=1.0)
HEAD = b"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
WAIT_S = 10.0  # a client gives up after this: every answer below must come well before


@pytest.fixture
def server(store_dir: Path) -> Iterator[tuple[str, int]]:
    """The app under uvicorn as `quotebound serve` runs it (its limits), on 127.0.0.1, port 0."""
    settings = server_settings(store_dir).model_copy(update={"server": LIMITS})
    with Agent(settings) as agent:
        config = uvicorn.Config(
            create_app(agent),
            host="127.0.0.1",
            port=0,
            log_level="warning",
            lifespan="off",
            server_header=False,
            **uvicorn_options(settings.server),
        )
        running = uvicorn.Server(config)
        thread = threading.Thread(target=running.run, name="uvicorn-limits", daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not running.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        port = int(running.servers[0].sockets[0].getsockname()[1])
        try:
            yield "127.0.0.1", port
        finally:
            running.should_exit = True
            thread.join(timeout=30)


def _exchange(address: tuple[str, int], raw: bytes) -> tuple[int, dict[str, str], bytes, float]:
    """Send `raw` and read until the server closes: (status, headers, body, seconds until closed)."""
    started = time.monotonic()
    with socket.create_connection(address, timeout=WAIT_S) as sock:
        if raw:
            sock.sendall(raw)
        data = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                pytest.fail(f"the server held the connection for {WAIT_S} s; got {data!r}")
            if not chunk:
                break
            data += chunk
    elapsed = time.monotonic() - started
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines and lines[0].startswith("HTTP/1.1 "), data
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body, elapsed


def _error(body: bytes) -> dict[str, str]:
    payload = json.loads(body)
    assert set(payload) == {"error"}, payload
    return dict(payload["error"])


def test_a_body_shorter_than_its_content_length_gets_408(server: tuple[str, int]) -> None:
    raw = (
        b"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n"
        b'{"question": "What is the minimum'
    )
    status, headers, body, elapsed = _exchange(server, raw)
    assert status == 408 and headers["content-type"] == "application/json"
    error = _error(body)
    assert error["code"] == "timeout" and "Content-Length" in error["message"]
    assert elapsed < WAIT_S


def test_a_trickled_body_gets_408_too(server: tuple[str, int]) -> None:
    """A byte now and then must not reset the clock: the whole body has its deadline."""
    started = time.monotonic()
    with socket.create_connection(server, timeout=WAIT_S) as sock:
        sock.sendall(b"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        for _ in range(40):
            try:
                sock.sendall(b" ")
            except OSError:
                break  # closed by the server
            time.sleep(0.1)
            sock.settimeout(0.01)
            try:
                if sock.recv(1, socket.MSG_PEEK):
                    break
            except (TimeoutError, BlockingIOError):
                pass
            finally:
                sock.settimeout(WAIT_S)
        data = sock.recv(65536)
    assert data.startswith(b"HTTP/1.1 408"), data
    assert time.monotonic() - started < 4.0 + LIMITS.body_timeout_s


@pytest.mark.parametrize("raw", [b"", b"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Le"], ids=["silent", "half-headers"])
def test_an_idle_connection_is_closed_with_408(server: tuple[str, int], raw: bytes) -> None:
    status, headers, body, elapsed = _exchange(server, raw)
    assert status == 408 and headers["connection"] == "close"
    assert _error(body)["code"] == "timeout"
    assert elapsed < WAIT_S


def test_a_body_over_the_limit_gets_413(server: tuple[str, int]) -> None:
    size = LIMITS.max_body_bytes + 1
    raw = f"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
    status, _, body, _ = _exchange(server, raw.encode() + b"x" * 100)
    assert status == 413
    error = _error(body)
    assert error["code"] == "too_large" and str(LIMITS.max_body_bytes) in error["message"]
    # chunked (no Content-Length): refused once it passes the limit
    chunk = b"x" * 3000
    framed = b"".join(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n" for _ in range(3)) + b"0\r\n\r\n"
    raw_chunked = (
        b"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    status, _, body, _ = _exchange(server, raw_chunked + framed)
    assert status == 413 and _error(body)["code"] == "too_large"


def test_the_server_keeps_serving_while_a_slow_client_waits(server: tuple[str, int]) -> None:
    host, port = server
    with socket.create_connection(server, timeout=WAIT_S) as stalled:
        stalled.sendall(HEAD + b"Content-Length: 50\r\n\r\n")
        answer = httpx.post(f"http://{host}:{port}/ask", json={"question": "What is the minimum lease term?"})
        assert answer.status_code == 200 and answer.json()["status"] == "answer"
        assert stalled.recv(65536).startswith(b"HTTP/1.1 408")
