"""The listed-conflicts rule: each side of a listed conflict is a verified quote that states its value."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Conflict, ConflictValue, Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import listed_conflicts
from quotebound.agent.gate.verification import Status, Verification

BUDGET = "The monthly assessment is $325.00 per unit."
NOTICE = "From July 2025 the monthly assessment is $340.00 per unit."
FACT = Fact(text=BUDGET, support=[Support(source_id="budget.md", locator="p.1 L3-L3", quote=BUDGET)])


def conflict(second: str = "$340.00", quote: str = NOTICE) -> Conflict:
    return Conflict(
        key="monthly assessment",
        values=[
            ConflictValue(value="$325.00", source_id="budget.md", locator="p.1 L3-L3", quote=BUDGET),
            ConflictValue(value=second, source_id="notice.md", locator="p.1 L3-L3", quote=quote),
        ],
    )


def test_a_real_conflict_passes(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    assert listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict()]))) == []


def test_a_value_written_differently_from_its_quote_still_passes(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict("340")]))) == []


def test_a_value_its_quote_does_not_state_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict("$350.00")])))
    assert [(f.code, f.token, f.fact_index) for f in findings] == [
        (FindingCode.CONFLICT_VALUE_UNQUOTED, "$350.00", None)
    ]
    assert findings[0].message.startswith("conflict 0 ('monthly assessment') value 1:")


def test_a_string_value_must_be_in_its_quote(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    named = conflict("Acme  landscaping", "The contractor is ACME Landscaping, Inc.")
    assert listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[named]))) == []
    invented = conflict("Apex Landscaping", "The contractor is ACME Landscaping, Inc.")
    findings = listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[invented])))
    assert [f.code for f in findings] == [FindingCode.CONFLICT_VALUE_UNQUOTED]


def test_a_fabricated_side_is_blocked_like_a_fabricated_support(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    forged = {(0, 1): Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail="From July 2025 ...")}
    findings = listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict()]), conflict_checks=forged))
    assert [(f.code, f.fact_index) for f in findings] == [(FindingCode.QUOTE_NOT_VERBATIM, None)]
    assert findings[0].message.startswith("conflict 0 ('monthly assessment') value 1: the quote is not verbatim")


def test_a_side_citing_an_unknown_source_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    unknown = {(0, 0): Verification(Status.UNKNOWN_SOURCE)}
    findings = listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict()]), conflict_checks=unknown))
    assert [f.code for f in findings] == [FindingCode.UNKNOWN_SOURCE]
