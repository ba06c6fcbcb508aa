"""The span-alignment rule: every figure shown is in a verified quote, or recomputed by the gate."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import CalcDerivation, Conflict, ConflictValue, Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
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
