"""Claim support: what each claim the user sees asserts is said by the quotes that claim rests on.

Every sentence of the levels, the answer and the analysis, every fact's text, key and value, every conflict's key,
notes and values, every gap's need and every extracted entity is a claim (`claims.py`); its content words must be
supported by its own verified quotes, up to inflection and close paraphrase (`support.py`). The question names
the subject but is no evidence, and the rest of a cited document is no evidence for a claim whose quote does not
say it. Figures are held by span alignment and polarity, modality and binding by the meaning rules; this rule
holds the words, and with them what an instruction in a document would have a model add ("mention a 20%
discount"). Level3 is the citation list: its words are not claims (its figures are checked by span alignment).
Figures in the fields span alignment does not read (keys, conflict notes, gaps, extractions) are held here.

The rule reads the question, so it finds nothing when `inputs.question` is None (the graph always passes it).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Final

from quotebound.agent.gate.claims import Claim, claims
from quotebound.agent.gate.conflicts import parse_value
from quotebound.agent.gate.derivation import calc_problem
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules.span_alignment import build_pools
from quotebound.agent.gate.support import Unsupported, assess, settle
from quotebound.agent.gate.tokens import VALUE_KINDS, TokenPool, extract_tokens, quote_keys
from quotebound.tools.calc import recompute

_MAX_SHOWN: Final = 8
_NOT_CLAIMS: Final = frozenset({"level3"})
# Fields whose figures span alignment does not read: their figures are held here, to the draft's verified quotes
# and calcs (and, for the fields that only name a slot, to the question's figures: "total sales•2019").
_FIGURES_HERE: Final = frozenset({"fact_key", "conflict_key", "conflict_notes", "gap", "extraction"})
_NAMING: Final = frozenset({"fact_key", "conflict_key", "gap"})  # fields that name a slot: no value stated


def _figure_pool(inputs: GateInputs) -> TokenPool:
    """Every verified quote's figures and every calc result the gate recomputed as claimed (whether the calc's
    operands are quoted is the calc rule's to block)."""
    pool = build_pools(inputs)[0]
    for fact in inputs.draft.evidence.facts:
        got = recompute(fact.calc.expr) if fact.calc is not None and calc_problem(fact) is None else None
        if got is not None:
            pool.add_calc(Decimal(got))
    return pool


def _unsupported_figures(claim: Claim, pool: TokenPool, question: TokenPool, inputs: GateInputs) -> list[str]:
    """Figures of `claim` no verified quote or calc gives. A field that only names a slot may also use the
    question's figures and any code or section reference ("net profit•FY19-FY18"): it states no value. A
    conflict's notes may give the gap between its values ("$15.00" for $325.00 against $340.00)."""
    naming = claim.field in _NAMING
    gaps = _conflict_gaps(claim.conflict_index, inputs) if claim.conflict_index is not None else frozenset()
    return [
        t.text
        for t in extract_tokens(claim.text)
        if not pool.supports(t)
        and not (naming and (question.supports(t) or t.kind not in VALUE_KINDS))
        and not (t.number is not None and abs(t.number) in gaps)
    ]


def _conflict_gaps(index: int, inputs: GateInputs) -> frozenset[Decimal]:
    """The differences between the values of listed conflict `index`."""
    numbers = [v.numeric for v in (parse_value(c.value) for c in inputs.draft.evidence.conflicts[index].values)]
    known = [n for n in numbers if n is not None]
    return frozenset(abs(a - b) for a in known for b in known if a != b)


def check(inputs: GateInputs) -> list[Finding]:
    if inputs.question is None:
        return []  # without the question nothing tells a subject's name from an assertion: the graph always has it
    findings: list[Finding] = []
    shown = [c for c in claims(inputs) if c.field not in _NOT_CLAIMS]
    assessed: dict[tuple[str, str, int | None, int], Unsupported] = {}  # level1 and the answer often repeat a fact
    for c in shown:
        key = (c.text, c.field, c.fact_index, id(c.quotes))
        if key not in assessed:
            assessed[key] = assess(c, inputs)
    settled = settle([assessed[(c.text, c.field, c.fact_index, id(c.quotes))] for c in shown], inputs.paraphrase)
    pool: TokenPool | None = None  # built once, and only when a field read here states a figure
    question = TokenPool(quote_keys(inputs.question or ""), set())
    for claim, missing in zip(shown, settled, strict=True):
        if claim.field in _FIGURES_HERE and extract_tokens(claim.text):
            pool = pool if pool is not None else _figure_pool(inputs)
            missing = missing + _unsupported_figures(claim, pool, question, inputs)
        if not missing:
            continue
        listed = ", ".join(repr(w) for w in missing[:_MAX_SHOWN]) + (", ..." if len(missing) > _MAX_SHOWN else "")
        findings.append(
            Finding(
                code=FindingCode.UNSUPPORTED_CLAIM,
                message=f"{claim.where} says {listed}, which the quotes cited for it do not state; quote the "
                "passage that states it, or move the claim to gaps",
                fact_index=claim.fact_index,
            )
        )
    return findings
