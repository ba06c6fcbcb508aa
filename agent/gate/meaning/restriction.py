"""Widened restrictions. A quote clause that restricts what it says with "only" ("Creditors of IMFT have recourse
only to IMFT's assets") is not kept by a claim that pairs with it, drops the restriction and says "all", "any" or
"every" instead ("creditors have recourse to all of the company's assets"): the claim states the opposite of the
limit. Both word sets are closed grammatical classes (focus adverbs of restriction, universal quantifiers)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from quotebound.agent.gate.meaning.lexicon import word_set
from quotebound.agent.gate.meaning.model import Clause, Problem, QuoteSentence, Sentence
from quotebound.agent.gate.meaning.pairing import candidates

RESTRICTIVE: Final = word_set("only solely exclusively merely")
UNIVERSAL: Final = word_set("all every any entire whole")


def _lows(s: Sentence, c: Clause) -> frozenset[str]:
    return frozenset(t.low for t in s.toks[c.start : c.end] if t.value < 0)


def restriction_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """Each claim clause with a universal and no restriction whose paired quote clauses all restrict with "only"
    and none says that universal."""
    problems: list[Problem] = []
    for c in claim.clauses:
        mine = _lows(claim, c)
        universal = mine & UNIVERSAL
        if not universal or mine & RESTRICTIVE:
            continue
        pairs = candidates(c, quotes)
        theirs = [_lows(qs.sentence, qc) for qs, qc in pairs]
        if pairs and all(t & RESTRICTIVE and not t & universal for t in theirs):
            word = sorted(universal)[0]
            problems.append(
                Problem("meaning", f"says {word!r} where the quote restricts it with 'only'", pairs[0][0].sentence.text)
            )
    return problems
