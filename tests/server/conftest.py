"""The HTTP service over the example corpus: examples/hoa ingested with the hashing embedder, its policy
(examples/hoa/policy.yaml), and two API keys (a member and a steward). No key = public."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from quotebound.agent.core.settings import ApiKey, Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.server import create_app
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "hoa"
POLICY = EXAMPLES / "policy.yaml"
MEMBER_KEY = "member-key-0f3a9c2e7b1d4a65"
STEWARD_KEY = "steward-key-8e2b6d1f0a9c3b47"
MEMBER = {"Authorization": f"Bearer {MEMBER_KEY}"}
STEWARD = {"X-API-Key": STEWARD_KEY}
PUBLIC: dict[str, str] = {}


def server_settings(store: Path) -> Settings:
    return Settings(
        store=store,
        embedder="hashing",
        policy_file=POLICY,
        api_keys=[
            ApiKey(key=MEMBER_KEY, role="member", name="mia"),
            ApiKey(key=STEWARD_KEY, role="steward", name="sam"),
        ],
    )


@pytest.fixture(scope="session")
def hoa_ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/hoa ingested once per test session (hashing embedder: fast, deterministic)."""
    root = tmp_path_factory.mktemp("server-hoa") / "store"
    with Store(Settings(store=root, embedder="hashing"), create=True) as store:
        assert Ingestor(store).ingest([EXAMPLES]).ok
    return root


@pytest.fixture
def store_dir(hoa_ingested: Path, tmp_path: Path) -> Path:
    """A private copy of the ingested store: a test may write receipts, checkpoints or corrupt it."""
    copy = tmp_path / "store"
    shutil.copytree(hoa_ingested, copy)
    return copy


@pytest.fixture(scope="module")
def module_store(hoa_ingested: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("server-module") / "store"
    shutil.copytree(hoa_ingested, copy)
    return copy


@pytest.fixture(scope="module")
def agent(module_store: Path) -> Iterator[Agent]:
    """One agent per test module (its receipts and sessions accumulate; tests use their own session ids)."""
    with Agent(server_settings(module_store)) as opened:
        yield opened


@pytest.fixture(scope="module")
def app(agent: Agent) -> FastAPI:
    return create_app(agent)


@pytest.fixture(scope="module")
def client(app: FastAPI) -> Iterator[TestClient]:
    """One event loop for the module's requests; server errors come back as responses, as a real client sees them."""
    with TestClient(app, raise_server_exceptions=False) as opened:
        yield opened


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def live_server(store_dir: Path) -> Iterator[tuple[str, Agent]]:
    """The real app under uvicorn in a background thread, on a free loopback port: (base URL, its agent)."""
    with Agent(server_settings(store_dir)) as agent:
        port = _free_port()
        config = uvicorn.Config(
            create_app(agent),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws="none",
            lifespan="off",
            server_header=False,  # as `quotebound serve` runs it
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}", agent
        finally:
            server.should_exit = True
            thread.join(timeout=30)
            assert not thread.is_alive()
