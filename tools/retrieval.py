"""Hybrid retrieval: lexical (FTS5/BM25, exact numbers and section tokens) and dense (Qdrant), fused by rank.

Retrieval returns pointers (source_id, version, locator, score), never text: text is only read through the
tools, under policy. Policy filtering happens here in Python, after fusion, so the vector query stays an
unfiltered (fast) query in Qdrant's local mode.
"""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.contracts import RetrievalHit
from quotebound.agent.settings import RetrievalSettings

from .corpus import Corpus
from .store import Store


def reciprocal_rank_fusion(rankings: list[list[int]], k: int) -> dict[int, float]:
    """Sum of 1/(k + rank) over the rankings an item appears in (Cormack et al., 2009)."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return scores


class HybridRetriever:
    def __init__(self, store: Store, settings: RetrievalSettings | None = None) -> None:
        self.store = store
        self.corpus = Corpus(store)
        self.settings = settings or store.settings.retrieval

    def search(
        self,
        query: str,
        *,
        top_k: int | None = None,
        allow: Callable[[str], bool] | None = None,
        lexical: bool = True,
        dense: bool = True,
    ) -> list[RetrievalHit]:
        limit = top_k or self.settings.top_k
        candidates = max(self.settings.candidates, limit)
        lexical_ids = [cid for cid, _ in self.corpus.lexical_search(query, candidates)] if lexical else []
        dense_ids: list[int] = []
        if dense:
            vector = self.store.embedder.embed([query])[0]
            dense_ids = [cid for cid, _ in self.store.vectors.query(vector, candidates)]
        pointers = self.corpus.chunk_pointers([*lexical_ids, *dense_ids])
        readable: dict[str, bool] = {}

        def admissible(chunk_id: int) -> bool:
            # Retired versions' chunks (stale vectors) and sources the caller may not read are dropped
            # *before* ranking, so neither ranks nor scores reveal that a hidden source exists.
            pointer = pointers.get(chunk_id)
            if pointer is None:
                return False
            if allow is not None and pointer.source_id not in readable:
                readable[pointer.source_id] = allow(pointer.source_id)
            return allow is None or readable[pointer.source_id]

        lexical_ids = [cid for cid in lexical_ids if admissible(cid)]
        dense_ids = [cid for cid in dense_ids if admissible(cid)]
        fused = reciprocal_rank_fusion([lexical_ids, dense_ids], self.settings.rrf_k)
        lexical_rank = {cid: rank for rank, cid in enumerate(lexical_ids, start=1)}
        dense_rank = {cid: rank for rank, cid in enumerate(dense_ids, start=1)}
        hits: list[RetrievalHit] = []
        for chunk_id in sorted(fused, key=lambda cid: (-fused[cid], cid))[:limit]:
            pointer = pointers[chunk_id]
            hits.append(
                RetrievalHit(
                    source_id=pointer.source_id,
                    version=pointer.version,
                    locator=pointer.locator,
                    score=round(fused[chunk_id], 6),
                    lexical_rank=lexical_rank.get(chunk_id),
                    dense_rank=dense_rank.get(chunk_id),
                )
            )
        return hits
