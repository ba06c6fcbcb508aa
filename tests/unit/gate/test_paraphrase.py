"""The paraphrase scorer over an embedder: cosines, one batch per call, a cache, and None for a spelling embedder."""

from __future__ import annotations

import math
from collections.abc import Sequence

from quotebound.agent.gate.paraphrase import EmbedderParaphrase, paraphrase_scorer
from quotebound.tools.embedders import HashingEmbedder


class Toy:
    """An embedder of three meanings: every word maps to one axis (or the unit diagonal when unknown)."""

    name = "minilm-toy"
    dim = 3

    def __init__(self) -> None:
        self.axes = {"allowed": 0, "permitted": 0, "pets": 1, "animals": 1, "boats": 2}
        self.batches: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        out = []
        for text in texts:
            axis = self.axes.get(text)
            out.append([1.0 if i == axis else 0.0 for i in range(3)] if axis is not None else [1 / math.sqrt(3)] * 3)
        return out


def test_scores_are_cosines_and_vectors_are_cached() -> None:
    toy = Toy()
    scorer = EmbedderParaphrase(toy)
    assert scorer("allowed", "permitted") == 1.0
    assert scorer("pets", "boats") == 0.0
    assert scorer.best("animals", ["boats", "pets"]) == 1.0
    assert scorer.best("animals", []) == 0.0
    assert toy.batches == [["allowed", "permitted"], ["pets", "boats"], ["animals"]]  # each text embedded once


def test_the_cache_is_bounded() -> None:
    toy = Toy()
    scorer = EmbedderParaphrase(toy, cache_size=2)
    scorer.vectors(["allowed", "permitted", "pets"])
    scorer.vectors(["allowed"])
    assert toy.batches[-1] == ["allowed"]  # evicted, so embedded again


def test_only_an_embedder_of_meaning_gives_a_scorer() -> None:
    assert paraphrase_scorer(None) is None
    assert paraphrase_scorer(HashingEmbedder()) is None  # it scores spelling, not meaning
    toy = Toy()
    scorer = paraphrase_scorer(toy)
    assert isinstance(scorer, EmbedderParaphrase) and paraphrase_scorer(toy) is scorer  # one per embedder


def test_a_scorer_never_keeps_its_embedder_alive() -> None:
    import gc
    import weakref

    toy = Toy()
    assert paraphrase_scorer(toy) is not None
    gone = weakref.ref(toy)
    del toy
    gc.collect()
    assert gone() is None  # one scorer per embedder, held weakly: a run's embedder is freed with the run
