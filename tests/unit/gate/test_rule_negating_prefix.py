"""The negating-prefix rule: a claim restating a quote keeps its "non-"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import negating_prefix

QUOTE = "Hillcrest is a non-fee paying grammar school for boys."


def _judge(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], text: str) -> list[str]:
    fact = Fact(text=text, support=[Support(source_id="school.md", locator="p.1 L1-L1", quote=QUOTE)])
    findings = negating_prefix.check(make_inputs(make_draft(fact, level1=text, answer=text)))
    assert all(f.code is FindingCode.MEANING_CHANGED and f.blocking for f in findings)
    return [f.message for f in findings]


@pytest.mark.parametrize(
    "text",
    [
        QUOTE,
        "Hillcrest is a non fee paying grammar school.",
        "Hillcrest grammar school charges no fee.",  # the word negated instead of prefixed
        "Hillcrest is a grammar school for boys.",  # the prefixed word not said at all
    ],
)
def test_a_claim_that_keeps_the_negation_passes(
    text: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert _judge(make_draft, make_inputs, text) == []


def test_a_claim_that_drops_the_prefix_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    messages = _judge(make_draft, make_inputs, "Hillcrest is a fee paying grammar school.")
    assert messages and "'non-fee'" in messages[0] and "keep the quote's negation" in messages[0]
