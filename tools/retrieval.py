"""Hybrid retrieval: lexical (FTS5/BM25, exact numbers and section tokens) and dense (Qdrant), fused by rank.

Retrieval returns pointers (source_id, version, locator, score), never text: text is only read through the
tools, under policy. Policy filtering happens here in Python, before ranking, so the vector query stays an
unfiltered (fast) query in Qdrant's local mode. Ranking statistics (BM25's document frequencies) are shared by
every label in a store: where even that must not be shared, ingest each label into its own store.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from quotebound.agent.core.contracts import RetrievalHit
from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.core.settings import RetrievalSettings
from quotebound.tools.corpus import Corpus, mentions, query_terms
from quotebound.tools.store import Store


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
        self._vectors_checked = False

    def _check_vectors(self) -> None:
        """Once per retriever: the vector index must hold a point for every current chunk. A deleted or partial
        Qdrant folder opens as an empty (or short) collection; searching it would quietly drop the dense half of
        retrieval, so it is refused as unavailable instead."""
        if self._vectors_checked:
            return
        held, expected = self.store.vectors.count(), self.corpus.current_chunk_count()
        if held < expected:
            raise OperatorError(
                ErrorCode.RETRIEVAL_UNAVAILABLE,
                f"the vector index holds {held} vectors for {expected} chunks: it is missing or incomplete; "
                "re-ingest into a new store",
            )
        self._vectors_checked = True

    def search(
        self,
        query: str,
        *,
        top_k: int | None = None,
        allow: Callable[[str], bool] | None = None,
        changed: Callable[[], dict[int, str]] | None = None,
        lexical: bool = True,
        dense: bool = True,
    ) -> list[RetrievalHit]:
        limit = top_k or self.settings.top_k
        candidates = max(self.settings.candidates, limit)
        lexical_ids = [cid for cid, _ in self.corpus.lexical_search(query, candidates)] if lexical else []
        dense_scored: list[tuple[int, float]] = []
        vector: list[float] = []
        if dense:
            self._check_vectors()
            vector = self.store.embedder.embed([query])[0]
            dense_scored = self.store.vectors.query(vector, candidates)
        dense_ids = [cid for cid, _ in dense_scored]
        pointers = self.corpus.chunk_pointers([*lexical_ids, *dense_ids])
        readable: dict[str, bool] = {}
        terms = query_terms(query)

        decided: dict[int, bool] = {}

        def admissible(chunk_id: int) -> bool:
            if chunk_id not in decided:
                decided[chunk_id] = _admissible(chunk_id)
            return decided[chunk_id]

        def _admissible(chunk_id: int) -> bool:
            # Retired versions' chunks (stale vectors) and sources the caller may not read are dropped
            # *before* ranking, so neither ranks nor scores reveal that a hidden source exists.
            pointer = pointers.get(chunk_id)
            if pointer is None:
                return False
            if allow is not None and pointer.source_id not in readable:
                readable[pointer.source_id] = allow(pointer.source_id)
            return allow is None or readable[pointer.source_id]

        # A chunk whose text the caller's obligations change (a masked email, a rounded coordinate) is ranked by
        # its visible text alone: its stored vector and BM25 entry embed the withheld text, so it leaves both raw
        # rankings and rejoins by how many query terms its visible text holds (lexical) and by the similarity of
        # its visible text, embedded now (dense). A guess at a withheld value and a wrong guess rank it the same.
        visible = changed() if changed is not None else {}
        lexical_ids = [cid for cid in lexical_ids if admissible(cid) and cid not in visible]
        dense_ids = [cid for cid in dense_ids if admissible(cid) and cid not in visible]
        if visible:
            lexical_ids = _rank_changed(lexical_ids, visible, terms, self.corpus)
            if dense:
                # the changed chunks the visible text matches, embedded as the caller sees them
                shown = [cid for cid in lexical_ids if cid in visible]
                scores = dict(dense_scored)
                for cid, emb in zip(shown, self.store.embedder.embed([visible[cid] for cid in shown]), strict=True):
                    scores[cid] = _cosine(vector, emb)
                dense_ids = sorted([*dense_ids, *shown], key=lambda cid: (-scores[cid], cid))
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


def _rank_changed(
    lexical_ids: list[int], visible: dict[int, str], terms: list[tuple[str, ...]], corpus: Corpus
) -> list[int]:
    """The lexical ranking with each changed chunk placed by the number of query terms its *visible* text holds:
    before the first unchanged hit that holds fewer (unchanged hits keep their BM25 order); dropped at zero."""
    unchanged = lexical_ids
    texts = {**corpus.chunk_texts(unchanged), **visible}
    count = {cid: sum(mentions(texts.get(cid, ""), term) for term in terms) for cid in [*unchanged, *visible]}
    pending = sorted((cid for cid in visible if count[cid]), key=lambda cid: (-count[cid], cid))
    ranked: list[int] = []
    for cid in unchanged:
        while pending and count[pending[0]] > count[cid]:
            ranked.append(pending.pop(0))
        ranked.append(cid)
    return ranked + pending


def _cosine(a: list[float], b: list[float]) -> float:
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / norm if norm else 0.0
