"""The clarify rule: nothing ships while a clarification is pending; after its timeout, only an explicit report."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import Draft, Fact, Gap, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import clarify

QUOTE = "The monthly assessment is $325.00 per unit."
FACT = Fact(text=QUOTE, support=[Support(source_id="budget.md", locator="p.1 L3-L3", quote=QUOTE)])
TIMED_OUT = "The precise answer could not be given because the unit number was not provided."


def test_a_plain_answer_passes_when_nothing_was_asked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert clarify.check(make_inputs(make_draft(FACT))) == []


def test_a_pending_clarification_blocks_even_a_good_answer(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = clarify.check(make_inputs(make_draft(FACT), gate="clarify"))
    assert [f.code for f in findings] == [FindingCode.CLARIFY_REQUIRED]
    assert findings[0].blocking


def test_after_a_timeout_an_explicit_insufficient_report_passes(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    report = make_draft(
        level1=TIMED_OUT,
        mode="report_insufficient_evidence",
        gaps=[Gap(need="the unit number", why="clarify_timeout")],
    )
    assert clarify.check(make_inputs(report, gate="proceed_after_clarify_timeout")) == []


def test_after_a_timeout_an_answer_that_guesses_is_blocked_on_every_count(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    guess = make_draft(FACT, level1="The monthly assessment is $325.00.")
    findings = clarify.check(make_inputs(guess, gate="proceed_after_clarify_timeout"))
    assert [f.code for f in findings] == [FindingCode.CLARIFY_TIMEOUT_NOT_REPORTED] * 3
    assert "report_insufficient_evidence" in findings[0].message
    assert "clarify_timeout" in findings[1].message
    assert "level1 or level2" in findings[2].message


def test_after_a_timeout_a_report_that_does_not_say_why_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    silent = make_draft(
        level1="Insufficient evidence.",
        mode="report_insufficient_evidence",
        gaps=[Gap(need="the unit number", why="clarify_timeout")],
    )
    findings = clarify.check(make_inputs(silent, gate="proceed_after_clarify_timeout"))
    assert [f.code for f in findings] == [FindingCode.CLARIFY_TIMEOUT_NOT_REPORTED]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (TIMED_OUT, True),
        ("I can't say which rate applies without you telling me the unit.", True),
        ("The monthly assessment is $325.00.", False),
        ("The unit number was not provided.", False),  # says what is missing, not that it could not answer
    ],
)
def test_says_clarify_timeout(text: str, says: bool) -> None:
    assert clarify.says_clarify_timeout(text) is says
