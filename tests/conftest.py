"""Shared fixtures: small stores built in temp folders with the hashing embedder (fast, deterministic)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from quotebound.agent.core.settings import Settings
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import Ingestor, IngestReport
from quotebound.tools.store import Store

MakeFiles = Callable[[dict[str, str | bytes]], Path]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--require-llm",
        action="store_true",
        help="fail the `llm` tests (instead of skipping them) when the local SmolLM2 server cannot be installed",
    )


@pytest.fixture
def make_files(tmp_path: Path) -> MakeFiles:
    """Write {relative path: content} under a fresh folder and return the folder."""

    def make(files: dict[str, str | bytes]) -> Path:
        root = tmp_path / "docs"
        for name, content in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        return root

    return make


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(store=tmp_path / "store", embedder="hashing")


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    with Store(settings, create=True) as opened:
        yield opened


@pytest.fixture
def corpus(store: Store) -> Corpus:
    return Corpus(store)


@pytest.fixture
def ingest(store: Store) -> Callable[..., IngestReport]:
    def run(*paths: Path, label: str | None = None) -> IngestReport:
        return Ingestor(store).ingest(list(paths), label=label)

    return run
