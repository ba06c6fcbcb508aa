"""Negating prefixes: a claim restating a quote keeps the quote's "non-" ("a non-fee paying school" is not "a fee
paying school").

The words of such a claim are all the quote's own ("fee", "paying", "school"), so neither claim support nor the
polarity reading of `meaning.py` (which reads negators as words) sees the flip: the prefix is the only mark of it.
A claim counts as restating a quote when it shares at least `_SHARED` other content words with it; it then keeps
the prefix ("non-fee", "non fee") or negates the word itself ("charges no fee").
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.gate.claims import claims
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.meaning import NEGATORS
from quotebound.agent.gate.rules.meaning import CHECKED_FIELDS
from quotebound.agent.gate.vocabulary import WORD, fold, is_content, stem

_PREFIXED: Final = re.compile(r"\bnon[-\s]?([^\W\d_]{3,})", re.I)
_SHARED: Final = 2


def _stems(text: str) -> set[str]:
    return {stem(w) for w in WORD.findall(text) if is_content(w)}


def _negated(text: str) -> bool:
    return "n't" in fold(text) or any(fold(w) in NEGATORS for w in WORD.findall(text))


def _dropped(claim: str, quote: str) -> str | None:
    """The word whose "non-" the claim drops, if it restates `quote` without it."""
    prefixed = {stem(m.group(1)) for m in _PREFIXED.finditer(quote)}
    if not prefixed or _negated(claim):
        return None
    kept = {stem(m.group(1)) for m in _PREFIXED.finditer(claim)}
    bare = [w for w in WORD.findall(_PREFIXED.sub(" ", claim)) if stem(w) in prefixed - kept]
    if not bare:
        return None
    shared = (_stems(claim) & _stems(_PREFIXED.sub(" ", quote))) - prefixed
    return bare[0] if len(shared) >= _SHARED else None


def check(inputs: GateInputs) -> list[Finding]:
    findings: list[Finding] = []
    for claim in claims(inputs):
        if claim.field not in CHECKED_FIELDS:
            continue
        for quote in claim.quotes:
            word = _dropped(claim.text, quote.quote)
            if word is not None:
                findings.append(
                    Finding(
                        code=FindingCode.MEANING_CHANGED,
                        message=f"{claim.where} says {word!r} where its quote says 'non-{word}'; keep the quote's "
                        "negation, or move the claim to gaps",
                        fact_index=claim.fact_index,
                    )
                )
                break
    return findings
