"""The schema rule: three written levels, an answer with a fact, a report with a gap."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Draft, Fact, Gap, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import schema

QUOTE = "The monthly assessment is $325.00 per unit."
FACT = Fact(text=QUOTE, support=[Support(source_id="budget.md", locator="p.1 L3-L3", quote=QUOTE)])


def test_a_complete_answer_passes(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    assert schema.check(make_inputs(make_draft(FACT))) == []


def test_a_complete_report_passes(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    gap = Gap(need="the pool's opening hours", why="no_quote_found")
    report = make_draft(level1="Insufficient evidence.", mode="report_insufficient_evidence", gaps=[gap])
    assert schema.check(make_inputs(report)) == []


def test_an_empty_level_is_blocked(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    findings = schema.check(make_inputs(make_draft(FACT, level2="  \n", level3="")))
    assert [f.code for f in findings] == [FindingCode.SCHEMA, FindingCode.SCHEMA]
    assert [f.message.split()[0] for f in findings] == ["level2", "level3"]


def test_an_answer_without_facts_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = schema.check(make_inputs(make_draft(level1="It is $325.00.")))
    assert [f.code for f in findings] == [FindingCode.SCHEMA]
    assert "mode 'answer' needs at least one fact" in findings[0].message


def test_a_report_without_gaps_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = schema.check(make_inputs(make_draft(level1="Insufficient.", mode="report_insufficient_evidence")))
    assert [f.code for f in findings] == [FindingCode.SCHEMA]
    assert "at least one gap" in findings[0].message
