"""Negating prefixes: a claim restating a quote keeps the quote's "non-" or "un-" ("a non-fee paying school" is not
"a fee paying school", "an unsuccessful candidate" is not "a successful candidate").

The words of such a claim are all the quote's own ("fee", "paying", "school"), so neither claim support nor the
polarity reading of `meaning/` (which reads negators as words) sees the flip: the prefix is the only mark of it.
A claim counts as restating a quote when it shares at least `_SHARED` other content words with it; it then keeps
the prefix ("non-fee", "non fee") or negates the word itself ("charges no fee").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.claims import claims
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.meaning import NEGATORS
from quotebound.agent.gate.rules.meaning import CHECKED_FIELDS
from quotebound.agent.gate.vocabulary import STOPWORDS, WORD, fold, is_content, stem

# The prefixes that negate the word they form, and that leave a word of its own when taken off: "non-" ("non-fee",
# "non fee") and "un-" ("unsuccessful", "unpaid"). "in-", "im-" and "dis-" are left out: taken off, they leave other
# words as often as opposites ("income", "impose", "discount").
_PREFIXED: Final = re.compile(r"\b(non[-\s]?|un-?)([^\W\d_]{3,})", re.I)
_SHARED: Final = 2


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in WORD.findall(text) if is_content(w))


@lru_cache(maxsize=4096)
def _prefixed(quote: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the words `quote` gives a negating prefix, as `_key`s, its other content stems); both empty when it has
    none (most quotes: a draft's claims are each compared with every quote, so this is read once per quote). A word
    the quote also says without the prefix ("unrecognized cost ... is expected to be recognized") is not one: a
    claim saying it may be saying the bare one."""
    matches = _prefix_matches(quote)
    if not matches:
        return frozenset(), frozenset()
    rest = _without(quote, matches)
    bare = {k for w in WORD.findall(rest) for k in _keys(w)}
    prefixed = frozenset(_key(m) for m in matches) - bare
    return prefixed, (_stems(rest) - {stem(m.group(2)) for m in matches} if prefixed else frozenset())


def _key(m: re.Match[str]) -> str:
    """How a prefixed word is matched to a claim's bare word: by stem after "non-" ("non-fee", "fees"), by the same
    word after "un-" ("unsuccessful", "successful"; not "unsourced", "sources")."""
    return stem(m.group(2)) if m.group(1).lower().startswith("non") else "=" + fold(m.group(2))


def _keys(word: str) -> tuple[str, str]:
    """The `_key`s a bare word may match."""
    return stem(word), "=" + fold(word)


def _without(text: str, matches: list[re.Match[str]]) -> str:
    for m in reversed(matches):
        text = text[: m.start()] + " " + text[m.end() :]
    return text


def _prefix_matches(text: str) -> list[re.Match[str]]:
    """The words of `text` formed with a negating prefix: any "non-" word, and an "un-" word of at least four
    letters past the prefix that is not itself a function word ("unless", "until", "under")."""
    return [
        m
        for m in _PREFIXED.finditer(text)
        if m.group(1).lower().startswith("non") or (len(m.group(2)) >= 4 and fold(m.group()) not in STOPWORDS)
    ]


@lru_cache(maxsize=4096)
def _negated(text: str) -> bool:
    return "n't" in fold(text) or any(fold(w) in NEGATORS for w in WORD.findall(text))


def _dropped(claim: str, quote: str) -> tuple[str, str] | None:
    """(the word whose negating prefix the claim drops, the quote's prefixed word), if it restates `quote` without
    it."""
    prefixed, others = _prefixed(quote)
    if not prefixed or _negated(claim):
        return None
    own = _prefix_matches(claim)
    kept = {_key(m) for m in own}
    bare = [w for w in WORD.findall(_without(claim, own)) if set(_keys(w)) & (prefixed - kept)]
    if not bare or len(_stems(claim) & others) < _SHARED:
        return None
    word = bare[0]
    whole = next(m.group() for m in _prefix_matches(quote) if _key(m) in _keys(word))
    return word, whole


def check(inputs: GateInputs) -> list[Finding]:
    findings: list[Finding] = []
    with_prefix: dict[int, list[str]] = {}  # the quotes with a "non-", per set of quotes (the levels share one)
    for claim in claims(inputs):
        if claim.field not in CHECKED_FIELDS:
            continue
        quotes = with_prefix.get(id(claim.quotes))
        if quotes is None:
            quotes = with_prefix[id(claim.quotes)] = [q.quote for q in claim.quotes if _prefixed(q.quote)[0]]
        for quote in quotes:
            dropped = _dropped(claim.text, quote)
            if dropped is not None:
                word, whole = dropped
                findings.append(
                    Finding(
                        code=FindingCode.MEANING_CHANGED,
                        message=f"{claim.where} says {word!r} where its quote says {whole!r}; keep the quote's "
                        "negation, or move the claim to gaps",
                        fact_index=claim.fact_index,
                    )
                )
                break
    return findings
