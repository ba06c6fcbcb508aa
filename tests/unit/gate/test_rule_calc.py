"""The calc rule: the gate recomputes a derived number, and its operands must be quoted by the fact itself."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import CalcDerivation, Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import calc
from quotebound.agent.gate.verification import Status, Verification

QUOTE = "The monthly assessment is $325.00 per unit."
SUPPORT = Support(source_id="budget.md", locator="p.1 L3-L3", quote=QUOTE)


def derived(expr: str, value: str, *, stated: str | None = None) -> Fact:
    return Fact(
        text=f"That is {value} a year.",
        support=[SUPPORT],
        value=stated,
        calc=CalcDerivation(expr=expr, value=value),
    )


def codes(inputs: GateInputs) -> list[tuple[FindingCode, str | None]]:
    return [(f.code, f.token) for f in calc.check(inputs)]


def test_a_right_result_from_quoted_operands_passes(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # 12 (months in a year) is a unit conversion: it needs no quote.
    assert calc.check(make_inputs(make_draft(derived("325.00 * 12", "3900", stated="$3,900.00")))) == []


def test_facts_without_calc_are_not_this_rules_business(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert calc.check(make_inputs(make_draft(Fact(text=QUOTE, support=[SUPPORT])))) == []


def test_a_wrong_result_is_blocked(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    findings = calc.check(make_inputs(make_draft(derived("325.00 * 12", "3800"))))
    assert [(f.code, f.fact_index, f.token) for f in findings] == [(FindingCode.CALC_MISMATCH, 0, "3800")]
    assert "calc.value '3800' does not equal 3900" in findings[0].message


def test_a_stated_value_that_disagrees_with_the_calc_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = calc.check(make_inputs(make_draft(derived("325.00 * 12", "3900", stated="$3,990"))))
    assert [f.code for f in findings] == [FindingCode.CALC_MISMATCH]
    assert "value '$3,990' does not equal 3900" in findings[0].message


def test_an_expression_that_does_not_evaluate_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = calc.check(make_inputs(make_draft(derived("325.00 * (12", "3900"))))
    assert FindingCode.CALC_MISMATCH in {f.code for f in findings}
    assert "does not evaluate" in findings[0].message


def test_an_invented_operand_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert codes(make_inputs(make_draft(derived("340 * 12", "4080")))) == [(FindingCode.CALC_OPERAND_UNQUOTED, "340")]


def test_an_operand_quoted_only_by_a_forged_quote_is_unquoted(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    forged = {(0, 0): Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail="something else")}
    inputs = make_inputs(make_draft(derived("325.00 * 12", "3900")), checks=forged)
    assert codes(inputs) == [(FindingCode.CALC_OPERAND_UNQUOTED, "325.00")]


def test_a_wrong_result_from_an_invented_operand_reports_both(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    found = codes(make_inputs(make_draft(derived("340 * 12", "4000"))))
    assert found == [(FindingCode.CALC_MISMATCH, "4000"), (FindingCode.CALC_OPERAND_UNQUOTED, "340")]
