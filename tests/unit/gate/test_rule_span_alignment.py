"""The span-alignment rule: every figure shown is in a verified quote, or recomputed by the gate."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from quotebound.agent.core.contracts import CalcDerivation, Conflict, ConflictValue, Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.rules import span_alignment
from quotebound.agent.gate.verification import Status, Verification

ASSESSMENT = "The monthly assessment is $325.00 per unit."
MEETING = "The annual meeting is on March 12, 2025 under Section 4.2."


def fact(quote: str, source_id: str = "budget.md", text: str | None = None, **extra: object) -> Fact:
    support = Support(source_id=source_id, locator="p.1 L3-L3", quote=quote)
    return Fact.model_validate({"text": text or quote, "support": [support], **extra})


def tokens(inputs: GateInputs) -> list[tuple[str | None, int | None]]:
    findings = span_alignment.check(inputs)
    assert all(f.code is FindingCode.UNSUPPORTED_TOKEN and f.blocking for f in findings)
    return [(f.token, f.fact_index) for f in findings]


def test_figures_copied_from_quotes_pass_in_any_spelling(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    draft = make_draft(
        fact(ASSESSMENT),
        fact(MEETING, "minutes-2025.md"),
        level1="It is $325 a month; the meeting is on 2025-03-12 (§ 4.2).",
        level3="Citations: budget.md p.1 L3-L3; minutes-2025.md p.1 L3-L3",
    )
    assert tokens(make_inputs(draft)) == []


def test_an_invented_figure_in_the_levels_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    draft = make_draft(fact(ASSESSMENT), level1="It is $352.00 a month, due on April 1, 2025.")
    assert tokens(make_inputs(draft)) == [("$352.00", None), ("April 1, 2025", None)]


def test_a_fact_may_only_say_what_its_own_quotes_say(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    borrowed = fact(MEETING, "minutes-2025.md", text="The meeting sets the $325.00 assessment.")
    assert tokens(make_inputs(make_draft(fact(ASSESSMENT), borrowed))) == [("$325.00", 1)]


def test_a_figure_from_a_forged_quote_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    forged = fact("The monthly assessment is $300.00 per unit.")
    checks = {(0, 0): Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail=ASSESSMENT)}
    assert tokens(make_inputs(make_draft(forged, level1="It is $300.00."), checks=checks)) == [
        ("$300.00", None),
        ("$300.00", 0),
    ]


def test_a_recomputed_calc_result_and_its_operands_may_be_said(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    yearly = fact(ASSESSMENT, text="$325.00 times 12 is $3,900.", calc=CalcDerivation(expr="325 * 12", value="3900"))
    assert tokens(make_inputs(make_draft(yearly, level1="That is $3,900 a year (12 months)."))) == []


def test_a_wrong_calc_result_may_not_be_said(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    wrong = fact(ASSESSMENT, text="That is $3,800 a year.", calc=CalcDerivation(expr="325 * 12", value="3800"))
    assert tokens(make_inputs(make_draft(wrong, level1="That is $3,800 a year."))) == [
        ("$3,800", None),
        ("$3,800", 0),
    ]


def test_a_fact_value_is_held_to_its_quotes(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert tokens(make_inputs(make_draft(fact(ASSESSMENT, value="$340.00")))) == [("$340.00", 0)]


def test_a_verified_conflict_value_may_be_said_in_the_levels(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    notice = "From July 2025 the monthly assessment is $340.00 per unit."
    conflict = Conflict(
        key="monthly assessment",
        values=[
            ConflictValue(value="$325.00", source_id="budget.md", locator="p.1 L3-L3", quote=ASSESSMENT),
            ConflictValue(value="$340.00", source_id="notice.md", locator="p.1 L3-L3", quote=notice),
        ],
    )
    draft = make_draft(fact(ASSESSMENT), level1="The sources say $325.00 and $340.00.", conflicts=[conflict])
    assert tokens(make_inputs(draft)) == []
    forged = {(0, 1): Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail="x")}
    assert tokens(make_inputs(draft, conflict_checks=forged)) == [("$340.00", None)]


ROW = "| Value added tax receivables, net, noncurrent | 592 | 519 |"
HEADINGS = "December 31, 2019 | December 31, 2018"  # "| | December 31, | |" over "| | 2019 | 2018 |"


def headed(headings: str) -> Verification:
    return Verification(Status.OK, 1.0, 1.0, "primary", ((1, 13, 13),), context=ROW, headings=headings)


def test_a_table_row_is_read_under_its_headings(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    draft = make_draft(
        fact(ROW, "report.md", text="VAT receivables were 592 at December 31, 2019."),
        level1="592 in 2019 against 519 in 2018.",
    )
    assert tokens(make_inputs(draft, checks={(0, 0): headed(HEADINGS)})) == []
    assert tokens(make_inputs(draft)) == [("2019", None), ("2018", None), ("December 31, 2019", 0)]


def test_headings_state_no_figure_of_the_row(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    draft = make_draft(fact(ROW, "report.md", text="VAT receivables were 529 at December 31, 2019."))
    assert tokens(make_inputs(draft, checks={(0, 0): headed(HEADINGS)})) == [("529", 0)]


def test_a_quote_is_read_under_its_sources_title(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    draft = make_draft(
        fact(ASSESSMENT, text="The FY2025 budget sets the assessment at $325.00."),
        level1="The FY2025 budget says $325.00.",
    )
    titled = SourceInfo("budget.md", "Cedar Hollow — Annual Budget, Fiscal Year 2025")
    other = SourceInfo("minutes.md", "Minutes of the 2026 annual meeting")
    assert tokens(make_inputs(draft, sources=(titled, other))) == []
    assert tokens(make_inputs(draft, sources=(other,))) == [("FY2025", None), ("FY2025", 0)]


def test_a_scale_is_stated_by_the_headings_or_the_quote(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    row = "| Free cash flow | 4,411 | 4,044 |"
    draft = make_draft(fact(row, "report.md", text="Free cash flow was €4,411m in 2019."), level1="€4,411m.")
    in_millions = Verification(
        Status.OK, 1.0, 1.0, "primary", ((1, 36, 36),), context=row, headings="2019 €m | 2018 €m"
    )
    assert tokens(make_inputs(draft, checks={(0, 0): in_millions})) == []
    in_thousands = Verification(
        Status.OK, 1.0, 1.0, "primary", ((1, 36, 36),), context=row, headings="2019 €'000 | 2018 €'000"
    )
    assert tokens(make_inputs(draft, checks={(0, 0): in_thousands})) == [("€4,411m", None), ("€4,411m", 0)]


def test_the_pools_are_built_once_and_each_caller_gets_its_own_copy(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # the claim-support rule adds its own figures to the pool it is handed: that must not let a figure through here
    inputs = make_inputs(make_draft(fact(ASSESSMENT), level1="It is $325 a month, or $3,900 a year."))
    assert tokens(inputs) == [("$3,900", None)]
    union, per_fact = span_alignment.build_pools(inputs)
    union.add_calc(Decimal("3900"))
    per_fact[0].add_calc(Decimal("3900"))
    assert tokens(inputs) == [("$3,900", None)]
    assert span_alignment.build_pools(inputs)[0].calc_values == set()
