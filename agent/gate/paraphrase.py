"""A paraphrase scorer from a dense embedder: how close two short texts are, as the cosine of their vectors.

The claim-support rule asks it whether a word of a claim says what a word of its quotes says ("permitted" for
"allowed"). Vectors are cached per text (LRU), so a word the gate has seen costs a dictionary lookup; the words
one question needs are embedded in one batch. Only an embedder that models meaning may judge paraphrase: a
hashing embedder scores spelling, not meaning, so `paraphrase_scorer` gives None for it and the rule then accepts
inflections only.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from quotebound.agent.gate.inputs import Paraphrase
from quotebound.tools.embedders import Embedder

_CACHE_SIZE: Final = 50_000  # words and short phrases: a few hundred bytes each
_MATRICES: Final = 512  # the stacked vectors of recent candidate lists (one claim's quote words each)
_MEANING_EMBEDDERS: Final = ("minilm",)  # embedder names (prefixes) whose cosines measure meaning


Vector = npt.NDArray[np.float32]


class EmbedderParaphrase:
    """`(a, b) -> cosine` over an embedder's L2-normalized vectors, with an LRU cache of vectors."""

    def __init__(self, embedder: Embedder, cache_size: int = _CACHE_SIZE) -> None:
        # Weakly: `paraphrase_scorer` keeps one scorer per embedder in a WeakKeyDictionary, and a value holding its
        # key strongly would keep every embedder (an ONNX session, ~100 MB) alive for the life of the process.
        self._embedder = weakref.ref(embedder)
        self._cache: OrderedDict[str, Vector] = OrderedDict()
        self._matrices: OrderedDict[tuple[str, ...], Vector] = OrderedDict()
        self._size = cache_size
        self._lock = threading.Lock()

    def embedder(self) -> Embedder:
        """The embedder this scorer reads vectors from; a scorer outliving its embedder is a programming error."""
        embedder = self._embedder()
        if embedder is None:
            raise RuntimeError("the embedder of this paraphrase scorer was garbage-collected; keep it alive")
        return embedder

    def vectors(self, texts: Sequence[str]) -> list[Vector]:
        """The vector of each text, embedding the ones not cached in one batch (under the lock: concurrent runs
        wait rather than embed the same words twice)."""
        with self._lock:
            wanted = [t for t in dict.fromkeys(texts) if t not in self._cache]
            for text, vector in zip(wanted, self.embedder().embed(wanted) if wanted else [], strict=True):
                self._cache[text] = np.asarray(vector, dtype=np.float32)
            found = [self._cache[text] for text in texts]
            for text in texts:
                self._cache.move_to_end(text)
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)
        return found

    def __call__(self, a: str, b: str) -> float:
        x, y = self.vectors([a, b])
        return float(x @ y)

    def best(self, word: str, candidates: Sequence[str]) -> float:
        """The highest score of `word` against any of `candidates` (0.0 without candidates)."""
        if not candidates:
            return 0.0
        key = tuple(candidates)
        with self._lock:
            matrix = self._matrices.get(key)
        if matrix is None:
            matrix = np.stack(self.vectors(key))
            with self._lock:
                self._matrices[key] = matrix
                while len(self._matrices) > _MATRICES:
                    self._matrices.popitem(last=False)
        return float(np.max(matrix @ self.vectors([word])[0]))


_scorers: weakref.WeakKeyDictionary[Embedder, EmbedderParaphrase] = weakref.WeakKeyDictionary()
_scorers_lock = threading.Lock()


def paraphrase_scorer(embedder: Embedder | None) -> Paraphrase | None:
    """A scorer over `embedder` when its cosines measure meaning (MiniLM), else None (hashing: spelling only).
    One scorer (and one vector cache) per embedder, however many runs ask."""
    if embedder is None or not embedder.name.startswith(_MEANING_EMBEDDERS):
        return None
    with _scorers_lock:
        scorer = _scorers.get(embedder)
        if scorer is None:
            scorer = _scorers[embedder] = EmbedderParaphrase(embedder)
    return scorer
