"""Write a dataset's documents as source files and ingest them into stores where scoping, not ranking, decides
what a question sees.

Retrieval takes `candidates` chunks from each retriever over the whole store *before* the scope filter
(`ScopedPolicy`), so a store holding more chunks than that could cut a question's own documents before they are
ever considered. Documents are therefore ingested in shards of whole questions holding at most
`RETRIEVAL.candidates` chunks (counted with the ingester's own chunker), as `benchmarks/bench_bipia.py` shards
its emails. Stores use the hashing embedder by default (`evals/bipia_run.py`'s `settings_for`): fast and
deterministic; `embedder="minilm"` builds them as `quotebound ingest` does.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml

from quotebound.agent.core.contracts import ProvenanceKind
from quotebound.agent.core.settings import EmbedderKind
from quotebound.evals.bipia_run import RETRIEVAL, settings_for
from quotebound.tools.chunking import chunk_pages
from quotebound.tools.ingest import Ingestor
from quotebound.tools.readers import read_document
from quotebound.tools.store import Store

License = Literal["MIT", "CC BY 4.0"]


@dataclass(frozen=True)
class Unit:
    """The documents one or more questions are scoped to (ingested together, in one shard)."""

    key: str
    documents: Mapping[str, str]  # source_id -> file text


@dataclass(frozen=True)
class Shard:
    keys: tuple[str, ...]
    store_dir: Path
    chunks: int
    ingest_seconds: float


def write_documents(
    documents: Mapping[str, str], folder: Path, *, license: License, attribution: str, provenance: ProvenanceKind
) -> list[Path]:
    """One file per document, each with a `public` sidecar keeping the dataset's license and attribution."""
    folder.mkdir(parents=True, exist_ok=True)
    sidecar = yaml.safe_dump(
        {"policy_label": "public", "license": license, "attribution": attribution, "provenance_kind": provenance}
    )
    written: list[Path] = []
    for source_id, text in documents.items():
        path = folder / source_id
        path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
        path.with_name(path.name + ".meta.yaml").write_text(sidecar, encoding="utf-8")
        written.append(path)
    return written


def chunk_count(path: Path) -> int:
    """The chunks the ingester will make of `path` (same reader, same chunker, same limits)."""
    pages = read_document(path).pages
    return len(chunk_pages(pages, max_lines=RETRIEVAL.chunk_max_lines, max_chars=RETRIEVAL.chunk_max_chars))


def pack(sizes: Sequence[tuple[str, int]], limit: int) -> list[list[str]]:
    """Greedy, in order: consecutive units while their chunks fit under `limit` (a larger unit goes alone)."""
    shards: list[list[str]] = []
    current: list[str] = []
    used = 0
    for key, size in sizes:
        if current and used + size > limit:
            shards.append(current)
            current, used = [], 0
        current.append(key)
        used += size
    if current:
        shards.append(current)
    return shards


def build_shards(
    units: Iterable[Unit],
    root: Path,
    *,
    license: License,
    attribution: str,
    provenance: ProvenanceKind,
    embedder: EmbedderKind = "hashing",
) -> Iterator[Shard]:
    """Write every unit's documents under `root/docs`, then ingest one shard at a time into `root/store-N`
    (lazily: the caller runs a shard's questions before the next one is built)."""
    units = list(units)
    docs = root / "docs"
    paths: dict[str, list[Path]] = {}
    for unit in units:
        paths[unit.key] = write_documents(
            unit.documents, docs, license=license, attribution=attribution, provenance=provenance
        )
    sizes = [(unit.key, sum(chunk_count(p) for p in paths[unit.key])) for unit in units]
    chunks = dict(sizes)
    for number, keys in enumerate(pack(sizes, RETRIEVAL.candidates)):
        started = time.perf_counter()
        store_dir = root / f"store-{number}"
        files = [p for key in keys for p in paths[key]]
        with Store(settings_for(store_dir, embedder), create=True) as store:
            report = Ingestor(store).ingest(files)
        if report.failed or len(report.added) != len(files):
            raise RuntimeError(f"ingest of shard {number} failed: {report.failed[:3]}")
        yield Shard(tuple(keys), store_dir, sum(chunks[k] for k in keys), time.perf_counter() - started)
