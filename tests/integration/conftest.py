"""The example corpus as a store, shared by the integration tests that run the whole graph over it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from quotebound.agent.core.settings import Settings
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import Ingestor
from quotebound.tools.policy import Caller
from quotebound.tools.store import Store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hoa"


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/hoa ingested once per module (hashing embedder: fast, deterministic)."""
    root = tmp_path_factory.mktemp("hoa-store") / "store"
    with Store(Settings(store=root, embedder="hashing"), create=True) as store:
        assert Ingestor(store).ingest([EXAMPLES]).ok
    return root


@pytest.fixture
def store_dir(ingested: Path, tmp_path: Path) -> Path:
    """A private copy of the ingested store: a test may write receipts, checkpoints or corrupt it."""
    copy = tmp_path / "store"
    shutil.copytree(ingested, copy)
    return copy


@pytest.fixture(scope="module")
def hoa_store(ingested: Path) -> Iterator[Store]:
    """The ingested example store, open for the module: for tests that only read it."""
    with Store(Settings(store=ingested, embedder="hashing")) as opened:
        yield opened


@pytest.fixture
def public_ctx(hoa_store: Store) -> ToolContext:
    """The four tools' context over the example store for the `public` role."""
    return ToolContext(Corpus(hoa_store), caller=Caller(role="public"))
