"""Input bounds and the deadline: a draft too large to check, or a check that runs too long, blocks with
`input_bounds` (never an exception, never a pass), and an honest draft is far inside every bound.

The hostile shapes here once cost minutes (a 1 MB level1: 28 s, two 4,000-character values: 44 s); the tests
assert the report, not the time: `benchmarks/bench_gate_speed.py` measures the time."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import (
    CalcDerivation,
    Conflict,
    ConflictValue,
    Draft,
    Extractions,
    Fact,
    Gap,
    Support,
)
from quotebound.agent.gate import judge
from quotebound.agent.gate import validate as validate_module
from quotebound.agent.gate.bounds import (
    DEFAULT_BOUNDS,
    Bounds,
    DeadlineExceeded,
    bounds_findings,
    check_deadline,
    deadline,
)
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import RULES, Rule

QUOTE = "The monthly assessment is $325.00 per unit."
SUPPORT = Support(source_id="budget.md", locator="p.1 L3-L3", quote=QUOTE)


def fact(**extra: object) -> Fact:
    return Fact.model_validate({"text": "The monthly assessment is $325.00.", "support": [SUPPORT], **extra})


def codes(findings: list[Finding]) -> list[FindingCode]:
    return [f.code for f in findings]


def test_an_honest_draft_is_inside_every_bound(make_draft: Callable[..., Draft]) -> None:
    draft = make_draft(
        fact(key="monthly assessment", value="$325.00"),
        fact(calc=CalcDerivation(expr="325.00 * 12", value="3900")),
        level1="The monthly assessment is $325.00 per unit, $3,900 a year.",
        answer="The monthly assessment is $325.00 per unit.",
        gaps=[Gap(need="the assessment for 2026", why="no_quote_found")],
    )
    assert bounds_findings(draft) == []


def test_a_1_mb_level1_is_blocked_with_input_bounds(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    words = "Owners may not keep -1-1 a1-b2 $4.00 12/31/2025 10:00 p.m. § 4.2 1,000 (12) 15% FY25 "
    draft = make_draft(fact(), level1=words * (1_000_000 // len(words)))
    report = judge(make_inputs(draft))
    assert not report.ok
    assert codes(report.findings) == [FindingCode.INPUT_BOUNDS] * 2  # the field, and the draft's total
    assert (
        "level1 has 999,940 characters" in report.findings[0].message
        and "the limit is 20,000" in report.findings[0].message
    )
    assert "characters in all" in report.findings[1].message
    assert report.fact_confidence == [0.0] and report.citation_confidence == [[0.0]]


def test_two_4k_character_values_under_one_key_are_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    draft = make_draft(fact(key="name", value="ab" * 2000), fact(key="name", value="ba" * 2000))
    report = judge(make_inputs(draft))
    assert not report.ok
    assert codes(report.blocking) == [FindingCode.INPUT_BOUNDS]
    assert "fact 0 value has 4,000 characters" in report.blocking[0].message


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda d: {"facts": [fact()] * (DEFAULT_BOUNDS.max_facts + 1)}, "facts: 51"),
        (lambda d: {"facts": [fact().model_copy(update={"support": [SUPPORT] * 21})]}, "fact 0 supports: 21"),
        (lambda d: {"gaps": [Gap(need="x", why="no_quote_found")] * 101}, "gaps: 101"),
        (lambda d: {"extractions": Extractions(entities=["x"] * 101)}, "extractions.entities: 101"),
        (
            lambda d: {
                "conflicts": [
                    Conflict(
                        key="k", values=[ConflictValue(value="1", source_id="s", locator="p.1 L1-L1", quote="q")] * 21
                    )
                ]
            },
            "conflict 0 values: 21",
        ),
        (lambda d: {"analysis": "x" * 20_001}, "evidence.analysis has 20,001 characters"),
        (lambda d: {"gaps": [Gap(need="x" * 4_001, why="no_quote_found")]}, "gap 0 need has 4,001"),
        (lambda d: {"facts": [fact(calc=CalcDerivation(expr="1" * 301, value="1"))]}, "fact 0 calc.expr has 301"),
    ],
)
def test_every_list_and_field_has_a_bound(
    make_draft: Callable[..., Draft], change: Callable[[Draft], dict[str, object]], named: str
) -> None:
    draft = make_draft(fact())
    draft = draft.model_copy(update={"evidence": draft.evidence.model_copy(update=change(draft))})
    findings = bounds_findings(draft)
    assert codes(findings) == [FindingCode.INPUT_BOUNDS]
    assert named in findings[0].message
    assert "write less" in findings[0].message  # worded for the drafting model to repair


def test_the_total_size_has_its_own_bound(make_draft: Callable[..., Draft]) -> None:
    long_fact = Fact(text="x" * 3_000, support=[SUPPORT])
    draft = make_draft(*[long_fact] * 40)  # every field inside its bound, 120,000 characters in all
    findings = bounds_findings(draft)
    assert codes(findings) == [FindingCode.INPUT_BOUNDS]
    assert "characters in all (the limit is 100,000)" in findings[0].message


def test_bounds_can_be_set_per_call(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    inputs = make_inputs(make_draft(fact(), level1="The monthly assessment is $325.00."))
    assert judge(inputs).ok
    report = judge(inputs, bounds=Bounds(max_text_chars=10))
    assert not report.ok and codes(report.findings) == [FindingCode.INPUT_BOUNDS]


def test_check_deadline_raises_only_past_the_deadline() -> None:
    check_deadline()  # no deadline set: never raises
    with deadline(10_000):
        check_deadline()
    with pytest.raises(DeadlineExceeded), deadline(0):
        time.sleep(0.001)
        check_deadline()


def test_a_nested_deadline_never_extends_the_outer_one() -> None:
    with deadline(0):
        time.sleep(0.001)
        with pytest.raises(DeadlineExceeded), deadline(10_000):
            check_deadline()


def test_rules_running_past_the_deadline_block_with_input_bounds(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], monkeypatch: pytest.MonkeyPatch
) -> None:
    def slow(inputs: GateInputs) -> list[Finding]:
        time.sleep(0.02)
        check_deadline()  # as a rule's long loop does
        return []

    monkeypatch.setattr(validate_module, "RULES", (Rule("slow", slow), *RULES))
    inputs = make_inputs(make_draft(fact(), level1="The monthly assessment is $325.00."))
    report = judge(inputs, bounds=Bounds(deadline_ms=5))
    assert not report.ok
    assert codes(report.findings) == [FindingCode.INPUT_BOUNDS]
    assert "longer than the gate's deadline (5 ms)" in report.findings[0].message
    assert judge(inputs).ok  # the same draft, given the default deadline


def test_the_deadline_is_also_read_between_rules(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[str] = []

    def slow_without_checks(inputs: GateInputs) -> list[Finding]:
        time.sleep(0.02)
        ran.append("slow")
        return []

    def after(inputs: GateInputs) -> list[Finding]:
        ran.append("after")
        return []

    monkeypatch.setattr(validate_module, "RULES", (Rule("slow", slow_without_checks), Rule("after", after)))
    report = judge(make_inputs(make_draft(fact())), bounds=Bounds(deadline_ms=5))
    assert codes(report.findings) == [FindingCode.INPUT_BOUNDS]
    assert ran == ["slow"]  # the next rule never started


class _NoStore:
    """A ToolContext stand-in that fails the test if the gate reads anything from it."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the store was read ({name}) for a draft past the bounds")


def test_validate_draft_blocks_an_oversized_draft_before_reading_the_store(make_draft: Callable[..., Draft]) -> None:
    draft = make_draft(fact(key="name", value="ab" * 2000), fact(key="name", value="ba" * 2000), level1="x" * 10**6)
    report = validate_module.validate_draft(draft, bundles=[], ctx=_NoStore(), question="What is it?")  # type: ignore[arg-type]
    assert not report.ok
    assert set(codes(report.findings)) == {FindingCode.INPUT_BOUNDS}
