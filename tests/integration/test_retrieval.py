"""Hybrid retrieval: pointers only, policy-filtered, and exact numbers found lexically."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.core.contracts import RetrievalHit
from quotebound.agent.core.settings import Settings
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus, fts_query
from quotebound.tools.ingest import Ingestor, IngestReport
from quotebound.tools.retrieval import HybridRetriever, reciprocal_rank_fusion
from quotebound.tools.store import Store

Ingest = Callable[..., IngestReport]


def _corpus_files() -> dict[str, str]:
    files = {}
    for i in range(30):
        files[f"ledger-{i:02d}.md"] = (
            f"# Ledger {i}\n\nInvoice {1000 + i} for landscaping services was paid in full.\n"
            f"Invoice amount recorded as {4000 + i * 13}.50 dollars for the quarter.\n"
        )
    files["gate.md"] = "# Gates\n\nInvoice 1017 gate code 4471 for landscaping services.\n"
    files["gate.md.meta.yaml"] = "policy_label: restricted\n"
    return files


def test_fts_query_keeps_numbers_and_section_tokens_exact() -> None:
    assert fts_query("What does § 4.2 say about $1,200?") == '"4 2" OR "say" OR "about" OR "1 200"'
    assert fts_query("the of and") is None


def test_rrf_rewards_agreement() -> None:
    scores = reciprocal_rank_fusion([[1, 2, 3], [3, 1]], k=60)
    assert max(scores, key=scores.__getitem__) == 1
    assert scores[3] > scores[2]


@pytest.mark.slow
def test_exact_number_found_lexically_that_dense_alone_misses(make_files, tmp_path: Path) -> None:
    """With the real embedding model: thirty ledgers read alike, so the dense side alone cannot single out
    one invoice number; BM25 matches it exactly and fusion puts it first."""
    with Store(Settings(store=tmp_path / "minilm-store", embedder="minilm"), create=True) as store:
        assert Ingestor(store).ingest([make_files(_corpus_files())]).ok
        retriever = HybridRetriever(store)
        target, query = "ledger-17.md", "invoice 1017"
        public = ToolContext(Corpus(store)).can_read
        dense_only = retriever.search(query, top_k=5, lexical=False, allow=public)
        hybrid = retriever.search(query, top_k=5, allow=public)
    assert dense_only[0].source_id != target
    assert hybrid[0].source_id == target and hybrid[0].lexical_rank == 1
    assert all(isinstance(hit, RetrievalHit) for hit in hybrid)


def test_retrieval_returns_pointers_and_respects_policy(make_files, ingest: Ingest, store, corpus: Corpus) -> None:
    assert ingest(make_files(_corpus_files())).ok
    ctx = ToolContext(corpus)
    hits = HybridRetriever(store).search("gate code 4471 invoice 1017", top_k=10, allow=ctx.can_read)
    assert hits and all(hit.source_id != "gate.md" for hit in hits)
    unfiltered = HybridRetriever(store).search("gate code 4471", top_k=10)
    assert unfiltered[0].source_id == "gate.md"
    dumped = hits[0].model_dump()
    assert set(dumped) == {"source_id", "version", "locator", "score", "lexical_rank", "dense_rank"}
    assert corpus.locator_exists(hits[0].source_id, hits[0].locator)


def test_vector_index_opens_once_when_runs_start_together(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Concurrent runs (the eval harness's threads) used to open embedded Qdrant twice; the second found its
    folder locked and the run abstained `retrieval_unavailable`."""
    import threading
    import time

    from quotebound.tools import vectors

    opened: list[object] = []
    original = vectors.VectorIndex.__init__

    def slow_init(self: vectors.VectorIndex, *args: Any, **kwargs: Any) -> None:
        time.sleep(0.2)  # widen the window the race needs
        opened.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(vectors.VectorIndex, "__init__", slow_init)
    seen: list[object] = []
    threads = [threading.Thread(target=lambda: seen.append(store.vectors)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(opened) == 1 and len(seen) == 4 and all(index is seen[0] for index in seen)
