"""Calc: a derived number is recomputed by the gate, and each of its operands is quoted in the fact's own support.

A model that says "$325 a month is $3,900 a year" has done arithmetic the documents did not. The gate redoes
it: the claimed result (and the fact's value) must equal the recomputation, and every operand must appear in a
verified quote of that fact, except plain unit conversions (12 months, 100 percent, 7 days...).
"""

from __future__ import annotations

from quotebound.agent.gate.derivation import calc_problem, fact_pool, unquoted_operands
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs


def check(inputs: GateInputs) -> list[Finding]:
    findings: list[Finding] = []
    for i, (fact, checks) in enumerate(zip(inputs.draft.evidence.facts, inputs.support_checks, strict=True)):
        if fact.calc is None:
            continue
        pool = fact_pool(fact, checks)
        problem = calc_problem(fact, pool)
        if problem is not None:
            findings.append(
                Finding(
                    code=FindingCode.CALC_MISMATCH,
                    message=f"fact {i}: {problem}; report the value calc returns",
                    fact_index=i,
                    token=fact.calc.value,
                )
            )
        for operand in unquoted_operands(fact, pool):
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
