"""The conflicts-in-bundles rule: a competing value in the resolved evidence is listed with its place."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Conflict, ConflictValue, Draft, EvidenceBundle, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import conflicts_in_bundles

BUDGET = "The monthly assessment is $325.00 per unit."
NOTICE = "From July 2025 the monthly assessment is $340.00 per unit."
FACT = Fact(
    text=BUDGET,
    support=[Support(source_id="budget.md", locator="p.1 L3-L3", quote=BUDGET)],
    key="monthly assessment",
    value="$325.00",
)


def notice(make_bundle: Callable[..., EvidenceBundle]) -> EvidenceBundle:
    return make_bundle("notice.md", ["# Notice", "", NOTICE])


def listed(locator: str = "p.1 L3-L3", source_id: str = "notice.md") -> Conflict:
    return Conflict(
        key="monthly assessment",
        values=[
            ConflictValue(value="$325.00", source_id="budget.md", locator="p.1 L3-L3", quote=BUDGET),
            ConflictValue(value="$340.00", source_id=source_id, locator=locator, quote=NOTICE),
        ],
    )


def test_a_fact_alone_with_agreeing_evidence_passes(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    bundles = (make_bundle("budget.md", ["# Budget", "", BUDGET]),)
    assert conflicts_in_bundles.check(make_inputs(make_draft(FACT), bundles=bundles)) == []


def test_an_omitted_competing_value_is_blocked_with_its_place(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    findings = conflicts_in_bundles.check(make_inputs(make_draft(FACT), bundles=(notice(make_bundle),)))
    assert [(f.code, f.fact_index, f.token) for f in findings] == [(FindingCode.CONFLICT_OMITTED, 0, "$340.00")]
    assert findings[0].message.startswith("notice.md p.1 L3-L3 states '$340.00' for 'monthly assessment'")


def test_the_competing_value_listed_at_its_line_passes(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    draft = make_draft(FACT, conflicts=[listed()])
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(notice(make_bundle),))) == []


def test_listing_it_at_the_wrong_place_does_not_count(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    for wrong in (listed(locator="p.1 L1-L2"), listed(source_id="other.md")):
        inputs = make_inputs(make_draft(FACT, conflicts=[wrong]), bundles=(notice(make_bundle),))
        assert [f.code for f in conflicts_in_bundles.check(inputs)] == [FindingCode.CONFLICT_OMITTED]


def test_a_flagged_instructional_line_is_never_read(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    inputs = make_inputs(make_draft(FACT), bundles=(notice(make_bundle),), flagged=frozenset({("notice.md", 1, 3)}))
    assert conflicts_in_bundles.check(inputs) == []


def test_the_tolerance_comes_from_the_inputs(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    inputs = make_inputs(make_draft(FACT), bundles=(notice(make_bundle),), tolerance_pct=5.0)
    assert conflicts_in_bundles.check(inputs) == []


def test_a_value_another_fact_states_is_left_to_conflicts_reported(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    other = Fact(
        text=NOTICE,
        support=[Support(source_id="notice.md", locator="p.1 L3-L3", quote=NOTICE)],
        key="monthly assessment",
        value="$340.00",
    )
    assert conflicts_in_bundles.check(make_inputs(make_draft(FACT, other), bundles=(notice(make_bundle),))) == []
