"""Question words a line says in other words: "allowed" read as "permitted", "maintaining" as "maintains".

Lexical coverage misses every paraphrase and every inflection `normalize` does not strip, and a question's words
are rarely the document's. Each question word is compared, by the shipped embedder's cosine, with every word the
readable lines hold; a line word at or above the floor stands in for the question word, credited at its cosine, so
a rewording ("permitted", 0.9) counts nearly in full and a loose relative near the floor counts for less.
Numbers, codes, short words, units of time and month names match exactly or not at all: "year" is not "annual"
(a rate), nor "month", however close their vectors; a figure or an identifier has no paraphrase.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from quotebound.agent.gate.question_words import MONTHS, TIME_UNITS
from quotebound.agent.models.base import Meaning
from quotebound.agent.models.extractive_words import STOPWORDS

Senses = Mapping[str, Mapping[str, float]]  # question word -> {line word: cosine at or above the floor}

_MIN_CHARS = 3  # "of", "to": too short to carry a meaning of their own


def _readable(word: str) -> bool:
    exact = word in STOPWORDS or word in TIME_UNITS or word in MONTHS
    return word.isalpha() and len(word) >= _MIN_CHARS and not exact


def senses(words: Sequence[str], vocabulary: Iterable[str], meaning: Meaning | None, floor: float) -> Senses:
    """For each question word, the vocabulary words close to it in meaning (itself excluded)."""
    asked = [w for w in dict.fromkeys(words) if _readable(w)]
    vocab = sorted({w for w in vocabulary if _readable(w)})
    if meaning is None or not asked or not vocab:
        return {}
    vectors = meaning.vectors([*asked, *vocab])
    question = np.stack([np.asarray(v, dtype=np.float32) for v in vectors[: len(asked)]])
    lines = np.stack([np.asarray(v, dtype=np.float32) for v in vectors[len(asked) :]])
    cosines = question @ lines.T
    found: dict[str, dict[str, float]] = {}
    for i, word in enumerate(asked):
        close = {vocab[j]: float(cosines[i, j]) for j in np.flatnonzero(cosines[i] >= floor) if vocab[j] != word}
        if close:
            found[word] = close
    return found


def sense_credit(word: str, line_words: set[str], found: Senses, floor: float) -> float:
    """How much of `word` a line says in other words: the cosine of its closest line word, 0 below the floor."""
    close = found.get(word, {})
    best = max((cosine for other, cosine in close.items() if other in line_words), default=0.0)
    return min(1.0, best) if best >= floor else 0.0
