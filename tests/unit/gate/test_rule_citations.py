"""The citations rule: a readable source, a real locator and a verbatim quote, for every support."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import citations
from quotebound.agent.gate.verification import Status, Verification

QUOTE = "The monthly assessment is $325.00 per unit."


def fact(quote: str = QUOTE, source_id: str = "budget.md", locator: str = "p.1 L3-L3") -> Fact:
    return Fact(text=quote, support=[Support(source_id=source_id, locator=locator, quote=quote)])


def test_verified_quotes_pass(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    assert citations.check(make_inputs(make_draft(fact(), fact()))) == []


def test_a_fabricated_quote_is_blocked_and_shown_what_the_locator_says(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    forged = fact("The monthly assessment is $300.00 per unit.")
    found = Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail=QUOTE)
    findings = citations.check(make_inputs(make_draft(fact(), forged), checks={(1, 0): found}))
    assert [(f.code, f.fact_index) for f in findings] == [(FindingCode.QUOTE_NOT_VERBATIM, 1)]
    assert findings[0].message.startswith("fact 1 support 0: the quote is not verbatim at budget.md p.1 L3-L3")
    assert repr(QUOTE) in findings[0].message


def test_a_long_text_at_the_locator_is_shortened_in_the_message(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    found = Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail="x" * 400)
    findings = citations.check(make_inputs(make_draft(fact()), checks={(0, 0): found}))
    assert repr("x" * 297 + "...") in findings[0].message


def test_a_fake_locator_is_blocked(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    findings = citations.check(
        make_inputs(make_draft(fact(locator="p.9 L900-L901")), checks={(0, 0): Verification(Status.FAKE_LOCATOR)})
    )
    assert [f.code for f in findings] == [FindingCode.FAKE_LOCATOR]
    assert "'p.9 L900-L901' is not in the locator index of 'budget.md'" in findings[0].message


@pytest.mark.parametrize("source_id", ["missing.md", "board-only.md"])
def test_missing_and_hidden_sources_read_alike(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], source_id: str
) -> None:
    unknown = {(0, 0): Verification(Status.UNKNOWN_SOURCE)}
    findings = citations.check(make_inputs(make_draft(fact(source_id=source_id)), checks=unknown))
    assert [f.code for f in findings] == [FindingCode.UNKNOWN_SOURCE]
    assert findings[0].message == (
        f"fact 0 support 0: unknown source {source_id!r}; cite only sources returned by the tools"
    )


def test_an_unresolvable_span_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = citations.check(
        make_inputs(make_draft(fact()), checks={(0, 0): Verification(Status.NOT_RESOLVED, provenance="primary")})
    )
    assert [f.code for f in findings] == [FindingCode.REF_NOT_RESOLVED]
