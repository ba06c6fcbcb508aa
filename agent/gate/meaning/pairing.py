"""Pairing a claim clause with the quote clauses that share most of its content words (ties kept), or with none
when too few are shared to say the two clauses speak of the same thing."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.meaning.model import Clause, QuoteSentence, words_of

MIN_ALIGN: Final = 2  # shared content words that pair two clauses outright (fewer: at least half the claim's)


def _in_order(a: Clause, b: Clause) -> int:
    """The longest run of the words two clauses share that both say in the same order ("The Board has discretion
    over dividends" and "The Board does not have discretion over dividends", not "Dividends are declared at the
    discretion of the Board")."""
    shared = words_of(a) & words_of(b)
    x = [w for w, _ in a.words if w in shared]
    y = [w for w, _ in b.words if w in shared]
    row = [0] * (len(y) + 1)
    for wx in x:
        previous = 0
        for j, wy in enumerate(y, start=1):
            previous, row[j] = row[j], previous + 1 if wx == wy else max(row[j], row[j - 1])
    return row[-1]


@lru_cache(maxsize=512)
def prose_of(quotes: tuple[QuoteSentence, ...]) -> tuple[QuoteSentence, ...]:
    """The quotes' sentences that are not table rows."""
    return tuple(qs for qs in quotes if not qs.sentence.row)


@lru_cache(maxsize=512)
def _clause_index(quotes: tuple[QuoteSentence, ...]) -> dict[str, tuple[tuple[QuoteSentence, Clause], ...]]:
    """Each content word of the quotes' clauses, with the clauses that have it (once per set of quotes: a draft's
    level sentences all rest on the same quotes)."""
    index: dict[str, list[tuple[QuoteSentence, Clause]]] = {}
    for qs in quotes:
        for qc in qs.sentence.clauses:
            for word in qc.stems:
                index.setdefault(word, []).append((qs, qc))
    return {word: tuple(pairs) for word, pairs in index.items()}


def candidates(
    claim: Clause, quotes: Sequence[QuoteSentence], best_only: bool = True
) -> list[tuple[QuoteSentence, Clause]]:
    return list(_paired(claim, tuple(quotes), best_only))


@lru_cache(maxsize=4096)  # several checks pair the same clause with the same quotes
def _paired(
    claim: Clause, quotes: tuple[QuoteSentence, ...], best_only: bool
) -> tuple[tuple[QuoteSentence, Clause], ...]:
    """The quote clauses `claim` pairs with: those sharing most of its content words (ties all kept; with
    `best_only` False, every clause sharing enough), or none when too few are shared to say the two clauses speak
    of the same thing."""
    index = _clause_index(quotes)
    shared: dict[int, tuple[QuoteSentence, Clause]] = {}
    for word in claim.stems:
        for qs, qc in index.get(word, ()):
            shared.setdefault(id(qc), (qs, qc))
    scored: list[tuple[tuple[int, int, int], QuoteSentence, Clause]] = []
    for qs, qc in shared.values():
        common = len(claim.stems & qc.stems)
        if common < MIN_ALIGN and 2 * common < len(claim.stems):
            continue  # too few shared to pair: its order of words (a quadratic pass) is never read
        # words shared, then names, then how many of them come in the same order
        scored.append(((common, len(claim.names & qc.names), _in_order(claim, qc)), qs, qc))
    if not scored:
        return ()
    if not best_only:
        return tuple((qs, qc) for _, qs, qc in scored)
    best = max(score for score, _, _ in scored)
    return tuple((qs, qc) for score, qs, qc in scored if score == best)
