"""The secondary-only rule: a fact resting only on secondary sources is annotated, never blocked."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import secondary_only
from quotebound.agent.gate.verification import Status, Verification

QUOTE = "The monthly assessment is $325.00 per unit."


def fact(*source_ids: str) -> Fact:
    return Fact(text=QUOTE, support=[Support(source_id=s, locator="p.1 L3-L3", quote=QUOTE) for s in source_ids])


def test_primary_support_is_not_annotated(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert secondary_only.check(make_inputs(make_draft(fact("budget.md")))) == []


def test_a_fact_on_secondary_sources_only_is_annotated_not_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], ok: Callable[..., Verification]
) -> None:
    draft = make_draft(fact("budget.md"), fact("newsletter.md", "summary.md"))
    secondary = {(1, 0): ok("p.1 L3-L3", "secondary"), (1, 1): ok("p.1 L3-L3", "secondary")}
    findings = secondary_only.check(make_inputs(draft, checks=secondary))
    assert [(f.code, f.fact_index, f.blocking) for f in findings] == [(FindingCode.SECONDARY_ONLY, 1, False)]
    assert findings[0].message == "fact 1 is supported only by secondary sources; its confidence is lowered"


def test_one_primary_support_is_enough(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], ok: Callable[..., Verification]
) -> None:
    draft = make_draft(fact("newsletter.md", "budget.md"))
    assert secondary_only.check(make_inputs(draft, checks={(0, 0): ok("p.1 L3-L3", "secondary")})) == []


def test_a_source_of_unknown_provenance_is_not_secondary(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], ok: Callable[..., Verification]
) -> None:
    assert secondary_only.check(make_inputs(make_draft(fact("notes.md")), provenance="unknown")) == []
    unread = {(0, 0): Verification(Status.UNKNOWN_SOURCE)}
    assert secondary_only.check(make_inputs(make_draft(fact("hidden.md")), checks=unread)) == []
