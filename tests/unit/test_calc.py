"""`calc`: exact Decimal results, percent versus modulo, and every refusal as a readable CALC_ERROR."""

from __future__ import annotations

from decimal import Context, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotebound.agent.core.contracts import CalcResult
from quotebound.agent.core.errors import ErrorCode, ModelError
from quotebound.tools.calc import calc, numbers_in, recompute


def value(expr: str) -> str:
    return calc(expr).value


def rejected(expr: str, **kwargs: int) -> ModelError:
    with pytest.raises(ModelError) as info:
        calc(expr, **kwargs)
    assert info.value.code is ErrorCode.CALC_ERROR
    assert info.value.actor == "model"
    return info.value


# --- exact results -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("0.1 + 0.2", "0.3"),
        ("1,200 * 12", "14400"),
        ("1,200.50 + 0.50", "1201"),
        ("1,234,567.89 - 0.89", "1234567"),
        ("$1,200 + $0.50", "1200.5"),
        ("€15 * 2", "30"),
        ("2,400 * 15%", "360"),
        ("15% * 2,400", "360"),
        ("2,400 * (1 + 5%)", "2520"),
        ("12.5%", "0.125"),
        ("1 - 2 * 3", "-5"),
        ("(1 - 2) * 3", "-3"),
        ("10 / 4", "2.5"),
        ("1 / 3", "0.3333333333333333333333333333333333"),
        ("2 ** 10", "1024"),
        ("2 ** -2", "0.25"),
        ("-2 ** 2", "-4"),
        ("2 ** 3 ** 2", "512"),
        ("(1 + 5%) ** 2", "1.1025"),
        ("--3", "3"),
        ("+3 - -3", "6"),
        (".5 * 4", "2"),
        ("99999999999999999999999999999999 * 100", "9999999999999999999999999999999900"),
    ],
)
def test_exact_results(expr: str, expected: str) -> None:
    assert value(expr) == expected


def test_returns_a_calc_result() -> None:
    assert calc("1 + 1") == CalcResult(value="2")


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("2.50 * 1", "2.5"),  # trailing zeros stripped
        ("1000 * 1.000", "1000"),  # never "1E+3"
        ("10 ** 10", "10000000000"),
        ("0.1 ** 10", "0.0000000001"),  # never "1E-10"
        ("-0 * 1", "0"),  # never "-0"
        ("0.00 - 0", "0"),
    ],
)
def test_result_is_normalized(expr: str, expected: str) -> None:
    assert value(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("round(2.345, 2)", "2.35"),
        ("round(2.5, 0)", "3"),  # half away from zero, as on paper
        ("round(-2.5, 0)", "-3"),
        ("round(2.40, 1)", "2.4"),
        ("round(1,234.5, 0)", "1235"),  # a comma followed by three digits is a thousands separator
        ("round(1,234.5, -2)", "1200"),
        ("round(10 / 3, 4)", "3.3333"),
        ("round(1 / 3, 2 + 1)", "0.333"),
    ],
)
def test_round(expr: str, expected: str) -> None:
    assert value(expr) == expected


# --- percent versus modulo -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # a `%` touching a number, with no operand after it, is a percent sign
        ("15%", "0.15"),
        ("200 * 15%", "30"),
        ("(15%)", "0.15"),
        ("50% - 10", "-9.5"),
        ("round(2,400 * 7.5%, 1)", "180"),
        # every other `%` is modulo
        ("10 % 3", "1"),
        ("10%3", "1"),
        ("10% 3", "1"),
        ("(10)%3", "1"),
        ("10 %(3)", "1"),
        ("10 % 3%", "0.01"),  # modulo, then a percent
        ("-7 % 3", "-1"),  # Decimal semantics: the sign of the dividend
        ("7.5 % 2", "1.5"),
    ],
)
def test_percent_versus_modulo(expr: str, expected: str) -> None:
    assert value(expr) == expected


# --- refusals ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "named"),
    [
        ("__import__('os')", "'__import__'"),
        ("x + 1", "'x'"),
        ("1 + abs(2)", "'abs'"),
        ("1 + True", "'True'"),
        ("(1).real", "attribute"),
        ("1 .real", "attribute"),
        ("'1' + 1", "strings"),
        ("1e5", "'e'"),
        ("2x", "'x'"),
        ("1 & 2", "'&'"),
        ("[1]", "'['"),
        ("1; 2", "';'"),
        ("12,00", "','"),
        ("1 2", "'2'"),
        ("3 +", "ends early"),
        ("(1 + 2", "')'"),
        ("1 + 2)", "')'"),
        ("$ 5", "currency"),
        ("round(1,234)", "two arguments"),
        ("round(1, 2, 3)", "')'"),
        ("round 1", "'(' after round"),
    ],
)
def test_rejects_everything_but_arithmetic(expr: str, named: str) -> None:
    assert named in rejected(expr).message


@pytest.mark.parametrize("expr", ["9**9**9", "10**100", "2 ** 11", "2 ** 0.5", "2 ** -11"])
def test_rejects_large_or_fractional_exponents(expr: str) -> None:
    assert "exponent" in rejected(expr).message


def test_rejects_results_beyond_the_precision() -> None:
    assert "too large" in rejected("10**10 * 10**10 * 10**10 * 10**5").message
    assert "too large" in rejected("(10**10)**10").message
    assert "more than 34 digits" in rejected("1" * 35).message


@pytest.mark.parametrize(("expr", "kind"), [("1 / 0", "division"), ("1 / (2 - 2)", "division"), ("5 % 0", "modulo")])
def test_rejects_division_by_zero(expr: str, kind: str) -> None:
    message = rejected(expr).message
    assert f"{kind} by zero" in message
    assert "position" in message


@pytest.mark.parametrize("expr", ["0 ** -1", "0 ** 0"])
def test_rejects_undefined_powers_of_zero(expr: str) -> None:
    rejected(expr)


def test_rejects_a_too_long_expression() -> None:
    expr = "+".join(["1"] * 151)  # 301 characters
    assert "limit is 300" in rejected(expr).message
    assert value("+".join(["1"] * 150)) == "150"
    assert "limit is 10" in rejected("1 + 2 + 3 + 4", max_chars=10).message


def test_long_flat_sums_do_not_recurse() -> None:
    assert calc("+".join(["1"] * 2000), max_chars=5000).value == "2000"


def test_rejects_too_deep_nesting() -> None:
    assert value("(" * 32 + "1" + ")" * 32) == "1"
    assert "nested too deeply" in rejected("(" * 33 + "1" + ")" * 33).message
    assert "nested too deeply" in rejected("-" * 40 + "1").message


@pytest.mark.parametrize("expr", ["", "   "])
def test_rejects_an_empty_expression(expr: str) -> None:
    assert "empty" in rejected(expr).message


def test_round_digits_are_bounded() -> None:
    assert "round's second argument" in rejected("round(1, 21)").message
    assert "round's second argument" in rejected("round(1, 0.5)").message


def test_error_names_the_position() -> None:
    assert "position 5" in rejected("1 + y").message


# --- the validator's helpers ---------------------------------------------------------------------------


def test_recompute() -> None:
    assert recompute("1,200 * 12") == "14400"
    assert recompute("2,400 * 15%") == value("2,400 * 15%")
    assert recompute("1 / 0") is None
    assert recompute("x + 1") is None
    assert recompute("") is None


def test_numbers_in() -> None:
    assert numbers_in("$1,200.50 * 15% + 3") == ["1,200.50", "15%", "3"]
    assert numbers_in("round(2,400 * 7.5%, 1)") == ["2,400", "7.5%"]  # round's places are not an operand
    assert numbers_in("-(1 + 2) ** 3 % 4") == ["1", "2", "3", "4"]
    assert numbers_in("10 % 3") == ["10", "3"]
    with pytest.raises(ModelError) as info:
        numbers_in("x + 1")
    assert info.value.code is ErrorCode.CALC_ERROR


# --- property: agrees with Decimal ---------------------------------------------------------------------

_CTX = Context(prec=34)
_literals = st.builds(
    lambda whole, frac: Decimal(f"{whole}.{frac}") if frac is not None else Decimal(whole),
    st.integers(min_value=0, max_value=99_999),
    st.one_of(st.none(), st.integers(min_value=0, max_value=999).map(lambda n: f"{n:03d}")),
)


def _render(number: Decimal) -> str:
    return f"{number:,f}"  # with thousands separators, as a source would print it


def _combine(children: st.SearchStrategy[tuple[str, Decimal]]) -> st.SearchStrategy[tuple[str, Decimal]]:
    def build(left: tuple[str, Decimal], op: str, right: tuple[str, Decimal], neg: bool) -> tuple[str, Decimal]:
        ops = {"+": _CTX.add, "-": _CTX.subtract, "*": _CTX.multiply}
        text, result = f"({left[0]} {op} {right[0]})", ops[op](left[1], right[1])
        return (f"-{text}", _CTX.minus(result)) if neg else (text, result)

    return st.builds(build, children, st.sampled_from("+-*"), children, st.booleans())


_expressions = st.recursive(_literals.map(lambda n: (_render(n), n)), _combine, max_leaves=8)


@given(_expressions)
def test_agrees_with_decimal(case: tuple[str, Decimal]) -> None:
    expr, expected = case
    assert Decimal(value(expr)) == expected


@given(st.lists(st.tuples(st.sampled_from("+-*"), _literals), min_size=1, max_size=6), _literals)
def test_precedence_agrees_with_decimal(tail: list[tuple[str, Decimal]], head: Decimal) -> None:
    # no parentheses: `*` must bind tighter than `+` and `-`, both left-associative
    expr = _render(head) + "".join(f" {op} {_render(n)}" for op, n in tail)
    terms: list[Decimal] = [head]
    signs: list[str] = ["+"]
    for op, n in tail:
        if op == "*":
            terms[-1] = _CTX.multiply(terms[-1], n)
        else:
            terms.append(n)
            signs.append(op)
    expected = Decimal(0)
    for sign, term in zip(signs, terms, strict=True):
        expected = _CTX.add(expected, term) if sign == "+" else _CTX.subtract(expected, term)
    assert Decimal(value(expr)) == expected
