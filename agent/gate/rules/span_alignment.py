"""Span alignment: every number, amount, percentage, date, time, section token and code the user sees is in a
verified quote, or is a value the gate recomputed itself from quoted operands.

Figures are what a reader acts on, and the easiest thing for a model to get subtly wrong ("$352" for "$325").
A figure in a fact must come from that fact's own quotes (or its verified calc); a figure in the levels, the
answer or the analysis may come from any verified quote of the draft. A quote is read with what frames it: the
title of its source ("the FY2025 budget" under "Annual Budget, Fiscal Year 2025") and, for a table row, its table's
headings (the year, date and unit of each column: `layout.py`). The source ids of verified quotes are masked
first, so the digits in a name like "minutes-2025.md" are not claims; the draft's `citations_index` masks nothing
(`inputs.cited_ids`).
"""

from __future__ import annotations

from quotebound.agent.core.contracts import Fact
from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.derivation import calc_operands, derived_value, fact_pool
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs, cited_ids
from quotebound.agent.gate.layout import column_unit_cells, row_label_dates
from quotebound.agent.gate.memo import per_draft
from quotebound.agent.gate.tokens import TokenPool, extract_tokens, mask, operand_key


def _add_derivation(pool: TokenPool, fact: Fact, own: TokenPool) -> None:
    value = derived_value(fact, own)
    if value is None or fact.calc is None:
        return
    pool.add_calc(value)
    for operand in calc_operands(fact.calc.expr):  # "multiplied by 12": a verified derivation's operands may be said
        key = operand_key(operand)
        if key is not None:
            pool.keys.add(key)


def build_pools(inputs: GateInputs) -> tuple[TokenPool, list[TokenPool]]:
    """(the union over all verified quotes and derivations, each fact's own pool): the caller's own copies, built
    once per draft (the claim-support rule reads them too)."""
    union, per_fact = _pools(inputs)
    return union.copy(), [pool.copy() for pool in per_fact]


@per_draft
def _pools(inputs: GateInputs) -> tuple[TokenPool, tuple[TokenPool, ...]]:
    evidence = inputs.draft.evidence
    titles = {s.source_id: s.title for s in inputs.sources}
    union = TokenPool.empty()
    per_fact: list[TokenPool] = []
    for fact, checks in zip(evidence.facts, inputs.support_checks, strict=True):
        check_deadline()
        own = fact_pool(fact, checks)  # the quotes, with their tables' headings
        for support, check in zip(fact.support, checks, strict=True):
            if check.ok and titles.get(support.source_id):
                own.add_quote(titles[support.source_id])
        quoted = TokenPool(set(own.keys), set())
        _add_derivation(own, fact, quoted)
        union.keys |= own.keys
        union.calc_values |= own.calc_values
        per_fact.append(own)
    for conflict, checks in zip(evidence.conflicts, inputs.conflict_checks, strict=True):
        for value, verification in zip(conflict.values, checks, strict=True):
            if verification.ok:
                union.add_quote(value.quote)
                for frame in (verification.headings, titles.get(value.source_id, "")):
                    if frame:
                        union.add_quote(frame)
                if verification.headings:
                    union.add_quote(column_unit_cells(value.quote, verification.headings))
                    union.add_quote(row_label_dates(value.quote, verification.headings))
    return union, tuple(per_fact)


def _unsupported(where: str, text: str, pool: TokenPool, cited: frozenset[str], fact: int | None) -> list[Finding]:
    check_deadline()
    findings: list[Finding] = []
    seen: set[object] = set()
    for token in extract_tokens(mask(text, cited)):
        if token.key in seen or pool.supports(token):
            continue
        seen.add(token.key)
        findings.append(
            Finding(
                code=FindingCode.UNSUPPORTED_TOKEN,
                message=f"{where} says {token.text!r}, which no verified quote contains and no verified calc "
                "produced; quote the passage that states it, or move the claim to gaps",
                fact_index=fact,
                token=token.text,
            )
        )
    return findings


def check(inputs: GateInputs) -> list[Finding]:
    draft = inputs.draft
    union, per_fact = _pools(inputs)  # only read here
    cited = frozenset(cited_ids(inputs))
    evidence = draft.evidence
    texts = [
        ("level1", draft.levels.level1),
        ("level2", draft.levels.level2),
        ("level3", draft.levels.level3),  # citations (masked), but the user sees it: a figure in it is a claim
        ("evidence.answer", evidence.answer),
        ("evidence.analysis", evidence.analysis),
    ]
    findings = [f for where, text in texts for f in _unsupported(where, text, union, cited, None)]
    for i, fact in enumerate(evidence.facts):
        findings += _unsupported(f"fact {i} text", fact.text, per_fact[i], cited, i)
        if fact.value is not None:
            findings += _unsupported(f"fact {i} value", fact.value, per_fact[i], cited, i)
    return findings
