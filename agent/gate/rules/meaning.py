"""Meaning: every claim the user sees keeps the meaning of the quote sentences it rests on (`gate/meaning.py`):
its polarity and modality, its directions and the order of its ranges, its units, and which subject each figure
and name belongs to.

Claim support holds a claim's words to its quotes; a claim made of quoted words can still say the opposite
("Short-term rentals are permitted" over "... are prohibited"), move a figure to another subject ("The late charge
is $325.00" over the monthly assessment's line), swap its unit ("15 months" over "15 days") or reverse a range.
Polarity, modality, direction and order changes are `meaning_changed`; a unit, figure or name bound to what its
quote does not give it to is `value_unbound`.

Descriptive fields (a fact's or conflict's key, a gap's need, extracted entities) name a slot and assert nothing;
conflict notes compare two sources on purpose; level3 lists citations. Those are not read here.
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.gate import meaning
from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.claims import claims
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs

# The fields whose claims state facts from their quotes.
CHECKED_FIELDS: Final = frozenset(
    {"level1", "level2", "answer", "analysis", "fact_text", "fact_value", "conflict_value"}
)
_CODES: Final = {"meaning": FindingCode.MEANING_CHANGED, "unbound": FindingCode.VALUE_UNBOUND}
_NAME: Final = re.compile(r"[^\W\d_]+")
_MAX_SHOWN: Final = 300


def _names_and_documents(inputs: GateInputs) -> tuple[frozenset[str], frozenset[str]]:
    """(words that may name a document or the question's subject anywhere: the cited sources' ids and titles and
    the question's capitalized words; the words of the cited sources' ids, which refer to a document)."""
    cited = {quote.source_id for claim in claims(inputs) for quote in claim.quotes}
    ids = {w for source_id in cited for w in _NAME.findall(source_id)}
    names = set(ids)
    for source in inputs.sources:
        if source.source_id in cited:
            names.update(_NAME.findall(source.title))
    if inputs.question:
        names.update(w for w in _NAME.findall(inputs.question) if w[0].isupper())
    return frozenset(names), frozenset(ids)


def check(inputs: GateInputs) -> list[Finding]:
    names, documents = _names_and_documents(inputs)
    findings: list[Finding] = []
    for claim in claims(inputs):
        if claim.field not in CHECKED_FIELDS or not claim.quotes:
            continue
        check_deadline()
        if len(claim.text) > meaning.MAX_SENTENCE_CHARS:
            findings.append(
                Finding(
                    code=FindingCode.INPUT_BOUNDS,
                    message=f"{claim.where} is one sentence of {len(claim.text):,} characters, too long to check "
                    f"against its quotes (at most {meaning.MAX_SENTENCE_CHARS:,}); write it as shorter sentences",
                    fact_index=claim.fact_index,
                )
            )
            continue
        for problem in meaning.problems(claim.text, claim.quotes, inputs.question, names, documents):
            quote = problem.quote if len(problem.quote) <= _MAX_SHOWN else problem.quote[: _MAX_SHOWN - 3] + "..."
            findings.append(
                Finding(
                    code=_CODES[problem.code],
                    message=f"{claim.where} {problem.detail}: {quote!r}; state it as the quote does, or move the "
                    "claim to gaps",
                    fact_index=claim.fact_index,
                )
            )
    return findings
