"""Calc facts: the gate recomputes a derived number itself and checks that its operands were quoted.

Shared by the calc rule (which blocks a wrong result or an unquoted operand) and the span-alignment rule (which
lets a draft say a number the gate recomputed from quoted operands).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from quotebound.agent.core.contracts import Fact
from quotebound.agent.core.errors import ModelError
from quotebound.agent.gate.tokens import TokenPool, operand_key
from quotebound.agent.gate.verification import Verification
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


def calc_operands(expr: str) -> list[str]:
    """The numbers written in a calc expression (none when the expression does not parse)."""
    try:
        return numbers_in(expr)
    except ModelError:
        return []


def unquoted_operands(fact: Fact, pool: TokenPool) -> list[str]:
    """The operands of a calc fact found in none of `pool`'s quotes, unit conversions aside."""
    assert fact.calc is not None
    missing: list[str] = []
    for operand in calc_operands(fact.calc.expr):
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
