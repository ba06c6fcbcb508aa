"""Calc recomputation and span alignment (hoa §3.1): every number, date, § token and code a user sees must be
in a verified quote, or be a value the gate recomputed itself from quoted operands.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from quotebound.agent.core.contracts import Draft, Fact
from quotebound.agent.core.errors import ModelError
from quotebound.agent.gate.checks import Checked
from quotebound.agent.gate.evidence import Verification
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.tokens import TokenPool, extract_tokens, mask, operand_key
from quotebound.tools.calc import numbers_in, recompute

# Unit conversions a calc may use without quoting them (months in a year, percent, weeks, days, hours...).
CONVERSION_CONSTANTS: frozenset[Decimal] = frozenset(Decimal(n) for n in (1, 7, 12, 24, 52, 60, 100, 365, 1000))


def _number(text: str) -> Decimal | None:
    key = operand_key(text.strip().lstrip("$€£¥₹"))
    return key[1] if key is not None and isinstance(key[1], Decimal) else None


def fact_pool(fact: Fact, checks: Sequence[Verification]) -> TokenPool:
    """The keys of a fact's own verified quotes."""
    pool = TokenPool.empty()
    for support, check in zip(fact.support, checks, strict=True):
        if check.ok:
            pool.add_quote(support.quote)
    return pool


def _operands(expr: str) -> list[str]:
    try:
        return numbers_in(expr)
    except ModelError:
        return []


def unquoted_operands(fact: Fact, pool: TokenPool) -> list[str]:
    assert fact.calc is not None
    missing: list[str] = []
    for operand in _operands(fact.calc.expr):
        key = operand_key(operand)
        if key is None or (key not in pool.keys and not (key[0] == "num" and key[1] in CONVERSION_CONSTANTS)):
            missing.append(operand)
    return missing


def calc_problem(fact: Fact) -> str | None:
    """Why a calc fact's claimed result is wrong, or None when the gate's own recomputation agrees."""
    assert fact.calc is not None
    got = recompute(fact.calc.expr)
    if got is None:
        return f"the expression {fact.calc.expr!r} does not evaluate (see the calc tool's grammar)"
    value = Decimal(got)
    claims = [("calc.value", fact.calc.value)] + ([("value", fact.value)] if fact.value is not None else [])
    for name, claimed in claims:
        number = _number(claimed)
        if number is None or number != value:
            return f"{name} {claimed!r} does not equal {got}, the result of {fact.calc.expr!r}"
    return None


def derived_value(fact: Fact, pool: TokenPool) -> Decimal | None:
    """A calc fact's value, when the gate recomputed it and every operand is quoted in the fact's support."""
    if fact.calc is None or calc_problem(fact) is not None or unquoted_operands(fact, pool):
        return None
    got = recompute(fact.calc.expr)
    return Decimal(got) if got is not None else None


def check_calc(draft: Draft, checked: Checked) -> list[Finding]:
    findings: list[Finding] = []
    for i, fact in enumerate(draft.evidence.facts):
        if fact.calc is None:
            continue
        problem = calc_problem(fact)
        if problem is not None:
            findings.append(
                Finding(
                    code=FindingCode.CALC_MISMATCH,
                    message=f"fact {i}: {problem}; report the value calc returns",
                    fact_index=i,
                    token=fact.calc.value,
                )
            )
        for operand in unquoted_operands(fact, fact_pool(fact, checked.support[i])):
            findings.append(
                Finding(
                    code=FindingCode.CALC_OPERAND_UNQUOTED,
                    message=f"fact {i}: calc operand {operand!r} is in none of the fact's verified quotes; "
                    "cite the passage that states it",
                    fact_index=i,
                    token=operand,
                )
            )
    return findings


def _add_derivation(pool: TokenPool, fact: Fact, own: TokenPool) -> None:
    value = derived_value(fact, own)
    if value is None or fact.calc is None:
        return
    pool.add_calc(value)
    for operand in _operands(fact.calc.expr):  # "multiplied by 12": a verified derivation's operands may be said
        key = operand_key(operand)
        if key is not None:
            pool.keys.add(key)


def build_pools(draft: Draft, checked: Checked) -> tuple[TokenPool, list[TokenPool]]:
    """(the union over all verified quotes and derivations, each fact's own pool)."""
    union = TokenPool.empty()
    per_fact: list[TokenPool] = []
    for i, fact in enumerate(draft.evidence.facts):
        own = fact_pool(fact, checked.support[i])
        quoted = TokenPool(set(own.keys), set())
        _add_derivation(own, fact, quoted)
        union.keys |= own.keys
        union.calc_values |= own.calc_values
        per_fact.append(own)
    for conflict, checks in zip(draft.evidence.conflicts, checked.conflicts, strict=True):
        for value, check in zip(conflict.values, checks, strict=True):
            if check.ok:
                union.add_quote(value.quote)
    return union, per_fact


def cited_ids(draft: Draft) -> set[str]:
    evidence = draft.evidence
    ids = {s.source_id for f in evidence.facts for s in f.support}
    ids |= {v.source_id for c in evidence.conflicts for v in c.values}
    return ids | {c.source_id for c in evidence.citations_index}


def _unsupported(where: str, text: str, pool: TokenPool, cited: set[str], fact: int | None) -> list[Finding]:
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


def check_span_alignment(draft: Draft, checked: Checked) -> list[Finding]:
    union, per_fact = build_pools(draft, checked)
    cited = cited_ids(draft)
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
