"""The support-present rule: every fact has a quote, and an answer that cites nothing must abstain."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Draft, Fact, Gap, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import support_present

QUOTE = "The monthly assessment is $325.00 per unit."
FACT = Fact(text=QUOTE, support=[Support(source_id="budget.md", locator="p.1 L3-L3", quote=QUOTE)])
BARE = Fact(text="The pool opens in May.")


def test_facts_with_quotes_pass(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    assert support_present.check(make_inputs(make_draft(FACT, FACT))) == []


def test_a_fact_without_a_quote_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = support_present.check(make_inputs(make_draft(FACT, BARE)))
    assert [(f.code, f.fact_index) for f in findings] == [(FindingCode.NO_SUPPORT, 1)]


def test_an_answer_citing_nothing_must_abstain(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = support_present.check(make_inputs(make_draft(BARE)))
    assert [f.code for f in findings] == [FindingCode.NO_SUPPORT, FindingCode.NO_CITATIONS]
    assert all(f.blocking for f in findings)


def test_a_report_of_insufficient_evidence_needs_no_citation(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    gap = Gap(need="the pool's opening hours", why="no_quote_found")
    report = make_draft(level1="Insufficient evidence.", mode="report_insufficient_evidence", gaps=[gap])
    assert support_present.check(make_inputs(report)) == []
