"""The calc rule: the gate recomputes a derived number, and its operands must be quoted by the fact itself."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import CalcDerivation, Draft, Fact, Support
from quotebound.agent.gate.derivation import calc_problem
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import calc
from quotebound.agent.gate.verification import Status, Verification
from quotebound.tools.calc import recompute

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


ROW = "| Discount rate | 4.00% | 3.75% | 1.90% | 2.80% |"
COSTS = "| Defined contribution schemes | 166 | 178 | 192 |"


def over(quote: str, expr: str, value: str, make_draft: Callable[..., Draft]) -> Draft:
    support = Support(source_id="report.md", locator="p.1 L14-L14", quote=quote)
    return make_draft(Fact(text=f"It is {value}.", support=[support], calc=CalcDerivation(expr=expr, value=value)))


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("(166 + 178) / 2", "172"),  # an average's count
        ("round((166 + 178 + 192) / 3, 2)", "178.67"),
        ("round((166 - 178) / 178 * 100, 2)", "-6.74"),  # a percentage change
        ("round(100 * (166 - 178) / 178, 2)", "-6.74"),
        ("round((166 / 178 - 1) * 100, 2)", "-6.74"),  # a growth factor's 1 beside a ratio
        ("166 * 12", "1992"),  # a unit conversion as a factor
    ],
)
def test_operands_that_are_the_shape_of_the_arithmetic_need_no_quote(
    expr: str, value: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert codes(make_inputs(over(COSTS, expr, value, make_draft))) == []


@pytest.mark.parametrize(
    ("expr", "value", "unquoted"),
    [
        ("(166 + 178) / 3", "114.6666666666666666666666666666667", "3"),  # not the count of the summed terms
        ("(166 + 178 + 192) / 2", "268", "2"),
        ("166 + 12", "178", "12"),  # a conversion constant added: an invented figure
        ("166 - 100", "66", "100"),
        ("166 + 1", "167", "1"),  # a 1 with no rate beside it
        ("2 * 166", "332", "2"),  # a doubling is no shape: the 2 is a figure
    ],
)
def test_shape_constants_count_only_where_the_shape_holds(
    expr: str,
    value: str,
    unquoted: str,
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
) -> None:
    assert codes(make_inputs(over(COSTS, expr, value, make_draft))) == [(FindingCode.CALC_OPERAND_UNQUOTED, unquoted)]


def test_a_growth_factors_1_stands_beside_a_quoted_rate(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    quote = "The fee of $166 rises by 5% a year."
    assert codes(make_inputs(over(quote, "166 * (1 + 5%)", "174.3", make_draft))) == []
    assert codes(make_inputs(over(quote, "166 * (1 + 6%)", "175.96", make_draft))) == [
        (FindingCode.CALC_OPERAND_UNQUOTED, "6%")
    ]


def test_an_operand_may_be_a_quoted_percentage_written_as_its_number(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # percentage points: the row says 4.00% and 1.90%; `4.00% - 1.90%` would be calc's 0.021
    assert codes(make_inputs(over(ROW, "4.00 - 1.90", "2.1", make_draft))) == []
    assert codes(make_inputs(over(ROW, "round((4 - 3.75) / 3.75 * 100, 2)", "6.67", make_draft))) == []
    assert codes(make_inputs(over(ROW, "4.10 - 1.90", "2.2", make_draft))) == [
        (FindingCode.CALC_OPERAND_UNQUOTED, "4.10")
    ]


def test_a_quoted_figure_does_not_support_a_percent_operand(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert codes(make_inputs(over(COSTS, "1000 * 166%", "1660", make_draft))) == [
        (FindingCode.CALC_OPERAND_UNQUOTED, "166%")
    ]


def test_an_operand_may_come_from_its_rows_table_headings(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    draft = over(COSTS, "2019 - 2017", "2", make_draft)
    headed = Verification(Status.OK, 1.0, 1.0, "primary", ((1, 58, 58),), context=COSTS, headings="2019 | 2018 | 2017")
    assert codes(make_inputs(draft, checks={(0, 0): headed})) == []
    unquoted = [(FindingCode.CALC_OPERAND_UNQUOTED, "2019"), (FindingCode.CALC_OPERAND_UNQUOTED, "2017")]
    assert codes(make_inputs(draft)) == unquoted


def test_a_stated_value_may_round_the_result_to_its_own_places(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # 325.00 / 7 = 46.428571...: calc.value carries every digit, the fact states it as an answer would
    exact = "46.42857142857142857142857142857143"
    for stated in ("46.43", "46.4", "46"):
        assert calc.check(make_inputs(make_draft(derived("325.00 / 7", exact, stated=stated)))) == []


def test_a_rounding_that_is_wrong_or_too_coarse_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    exact = "46.42857142857142857142857142857143"
    for stated in ("46.42", "46.5", "50"):
        findings = calc.check(make_inputs(make_draft(derived("325.00 / 7", exact, stated=stated))))
        assert [f.code for f in findings] == [FindingCode.CALC_MISMATCH], stated
    # calc.value is what the tool returned: a rounded calc.value is not it
    findings = calc.check(make_inputs(make_draft(derived("325.00 / 7", "46.43"))))
    assert [f.code for f in findings] == [FindingCode.CALC_MISMATCH]


def test_a_calc_value_with_every_digit_the_tool_returns_is_the_result() -> None:
    expr = "(793.4 - 843.5) / 843.5 * 100"
    exact = recompute(expr)
    assert exact is not None and len(exact.replace("-", "").replace(".", "")) > 28  # past the default precision
    honest = Fact(text="x", support=[SUPPORT], value="-5.94%", calc=CalcDerivation(expr=expr, value=exact))
    assert calc_problem(honest) is None
    off_by_one_digit = exact[:-1] + ("5" if exact[-1] != "5" else "6")
    assert calc_problem(Fact(text="x", support=[SUPPORT], calc=CalcDerivation(expr=expr, value=off_by_one_digit)))


# A result stated with a scale word: the operands come from a table "in millions", so "$3,944 million" is 3944.
MILLIONS = Support(source_id="10k.md", locator="p.1 L4-L4", quote="| Revenue (in millions) | $2,280 | $1,664 |")
BARE = Support(source_id="10k.md", locator="p.1 L4-L4", quote="| Revenue | $2,280 | $1,664 |")


def scaled(stated: str, support: Support = MILLIONS) -> Fact:
    return Fact(
        text=f"Revenue totals {stated}.",
        support=[support],
        value=stated,
        calc=CalcDerivation(expr="2,280 + 1,664", value="3944"),
    )


@pytest.mark.parametrize(
    "stated", ["$3,944 million", "$3,944m", "3,944 millions", "$3,944", "$3.944bn", "$3.9 billion"]
)
def test_a_result_stated_in_its_operands_scale_passes(
    stated: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert calc.check(make_inputs(make_draft(scaled(stated)))) == []


@pytest.mark.parametrize("stated", ["$3,944 billion", "$3,944 thousand", "$39.44 billion", "$3,945 million"])
def test_a_result_stated_in_another_scale_is_blocked(
    stated: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert codes(make_inputs(make_draft(scaled(stated)))) == [(FindingCode.CALC_MISMATCH, "3944")]


def test_a_scale_no_quote_states_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # the operands' quote states no scale: "million" is the writer's, not the documents'
    assert codes(make_inputs(make_draft(scaled("$3,944 million", BARE)))) == [(FindingCode.CALC_MISMATCH, "3944")]


def test_a_result_scaled_out_in_full_equals_it(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # operands in full units, the result stated in billions: the figure scaled out is the result
    fact = Fact(
        text="Revenue totals $3.9 billion.",
        support=[Support(source_id="10k.md", locator="p.1 L4-L4", quote="| Revenue | 2,280,000,000 | 1,664,000,000 |")],
        value="$3.9 billion",
        calc=CalcDerivation(expr="2,280,000,000 + 1,664,000,000", value="3944000000"),
    )
    assert calc.check(make_inputs(make_draft(fact))) == []


def counted(quote: str, expr: str, value: str) -> Fact:
    support = Support(source_id="minutes.md", locator="p.1 L42-L42", quote=quote)
    return Fact(
        text=f"{value} days in total.", support=[support], value=value, calc=CalcDerivation(expr=expr, value=value)
    )


def test_an_operand_the_quote_spells_as_a_cardinal_is_quoted(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    quote = "Snow removal was needed on four days in January and two days in February."
    assert calc.check(make_inputs(make_draft(counted(quote, "4 + 2", "6")))) == []


@pytest.mark.parametrize(
    ("quote", "expr", "value", "unquoted"),
    [
        ("Snow removal was needed on four days in January.", "4 + 3", "7", "3"),  # three is spelled nowhere
        ("The shift lasts twenty-four hours.", "20 + 4", "24", "20"),  # a part of a compound is no count
        ("The budget covers two hundred units.", "2 * 5", "10", "2"),  # "two" multiplies "hundred" here
        ("Pick the one that is due.", "1 + 5", "6", "1"),  # "one" is also a pronoun
    ],
)
def test_a_cardinal_is_read_only_as_a_count_alone(
    quote: str,
    expr: str,
    value: str,
    unquoted: str,
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
) -> None:
    found = codes(make_inputs(make_draft(counted(quote, expr, value))))
    assert (FindingCode.CALC_OPERAND_UNQUOTED, unquoted) in found
