"""Close paraphrase: a claim word no quote writes may still stand for a word of its quotes the claim did not use,
when the shipped embedder rates the two close enough ("animals" for "pets"). Never for a word whose meaning
closeness cannot be trusted with (polarity, modality, direction, months, number words: `vocabulary.STRICT_WORDS`)
or a name, and never for a claim that misses more words than a rewording would.

Each claim's candidates are gathered first (`candidates`), then a whole draft is settled against the scorer in one
batch (`settle`), so a draft costs the embedder one call at most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from quotebound.agent.gate.inputs import Paraphrase
from quotebound.agent.gate.quoted import Evidence, Word, strict, words
from quotebound.agent.gate.vocabulary import fold, vocabulary_of

# How close (the shipped embedder's cosine of the two words) a claim word must be to a word of its quotes to count
# as a paraphrase of it. Calibrated on the gate calibration set with all-MiniLM-L6-v2 (see the CHANGELOG).
PARAPHRASE_MIN: Final = 0.88
# In a field that only names a slot (a key, a gap's need) a word asserts nothing: closeness to a word of the quotes
# or the question may be looser there ("birth" for "born").
DESCRIPTIVE_PARAPHRASE_MIN: Final = 0.80
# A claim with more unsupported words than this is another statement, not a rewording: paraphrase is not tried
# (which also bounds what one draft may cost the embedder). A word is compared with at most this many quote words.
PARAPHRASE_WORDS: Final = 3
_CANDIDATES: Final = 256

Closeness = tuple[tuple[str, tuple[str, ...], float], ...]  # (word, the words it may stand for, least score)


@dataclass(frozen=True)
class Unsupported:
    """What a claim's quotes do not say: words nothing supports, and words only a paraphrase could still support,
    each with the words it may be a paraphrase of and how close it must be."""

    words: tuple[str, ...]  # every unsupported word, in order (folded)
    closeness: Closeness = ()


def candidates(
    text: str, found: Sequence[Word], missing: Sequence[int], evidence: Evidence, question: str, naming_until: int
) -> Closeness:
    """For each missing word of a claim (`text`, content words `found`) a paraphrase may stand for: the quote words
    it may stand for (those the claim did not use) and how close it must be; words before `naming_until` only name
    a slot, so they may also be close to a word of the question, and more loosely."""
    closeness: list[tuple[str, tuple[str, ...], float]] = []
    said = vocabulary_of(text)
    for i in missing:
        w = found[i]
        if w.name or strict(w.text):
            continue
        against = tuple(q for q in evidence.plain if not said.covers(q))
        least = PARAPHRASE_MIN
        if w.start < naming_until:
            against = (*against, *(fold(q.text) for q in words(question)))
            least = DESCRIPTIVE_PARAPHRASE_MIN
        closeness.append((fold(w.text), against[:_CANDIDATES], least))
    return tuple(closeness)


def closest(paraphrase: Paraphrase, word: str, against: Sequence[str]) -> float:
    """The best paraphrase score of `word` against any of `against` (one batch when the scorer offers `best`)."""
    if not against:
        return 0.0
    best = getattr(paraphrase, "best", None)
    if callable(best):
        return float(best(word, against))
    return max(paraphrase(word, c) for c in against)


def settle(found: Sequence[Unsupported], paraphrase: Paraphrase | None) -> list[list[str]]:
    """Each claim's unsupported words once paraphrase has had its say: all the candidate words of every claim are
    embedded in one batch first (when the scorer can), so a draft costs one call to the embedder at most."""
    if paraphrase is None:
        return [list(u.words) for u in found]
    warm = getattr(paraphrase, "vectors", None)
    if callable(warm):
        texts = [t for u in found for word, against, _ in u.closeness for t in (word, *against)]
        if texts:
            warm(list(dict.fromkeys(texts)))
    settled: list[list[str]] = []
    for u in found:
        close = {word for word, against, least in u.closeness if closest(paraphrase, word, against) >= least}
        settled.append([w for w in u.words if w not in close])
    return settled


__all__ = [
    "DESCRIPTIVE_PARAPHRASE_MIN",
    "PARAPHRASE_MIN",
    "PARAPHRASE_WORDS",
    "Unsupported",
    "candidates",
    "closest",
    "settle",
]
