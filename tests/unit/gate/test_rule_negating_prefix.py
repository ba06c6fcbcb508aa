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


CANDIDATE = "In 1908 Conry was an unsuccessful candidate for the Democratic nomination in the 9th district."


@pytest.mark.parametrize(
    ("text", "blocked"),
    [
        ("In 1908 Conry was a successful candidate for the Democratic nomination.", True),
        ("In 1908 Conry was an unsuccessful candidate for the Democratic nomination.", False),
        ("In 1908 Conry was not a successful candidate for the Democratic nomination.", False),
        ("Conry was a candidate for the Democratic nomination in 1908.", False),
    ],
)
def test_an_un_prefix_is_a_negation_the_claim_keeps(
    text: str, blocked: bool, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    fact = Fact(text=text, support=[Support(source_id="bio.md", locator="p.1 L5-L5", quote=CANDIDATE)])
    findings = negating_prefix.check(make_inputs(make_draft(fact, level1=text, answer=text)))
    assert bool(findings) is blocked
    assert not blocked or "'unsuccessful'" in findings[0].message


def test_a_function_word_beginning_with_un_is_no_prefix(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    quote = "No fee is charged unless the balance is over the limit."
    text = "A fee is charged when the balance is less than the limit."
    fact = Fact(text=text, support=[Support(source_id="fees.md", locator="p.1 L1-L1", quote=quote)])
    assert negating_prefix.check(make_inputs(make_draft(fact, level1=text, answer=text))) == []


@pytest.mark.parametrize(
    ("quote", "text"),
    [
        (  # the quote says the word both ways: the claim's may be the bare one
            "Total unrecognized cost was $1.2 billion and is expected to be recognized over 2.5 years.",
            "The cost is expected to be recognized over 2.5 years.",
        ),
        (  # "un-" is matched by the same word, not by its stem: "unsourced" is not "sources"
            "Other directors credited in unsourced listings include Raj Kapoor.",
            "Other sources credit Raj Kapoor in listings of directors.",
        ),
    ],
)
def test_a_bare_word_the_quote_also_gives_bare_or_another_word_passes(
    quote: str, text: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    fact = Fact(text=text, support=[Support(source_id="doc.md", locator="p.1 L1-L1", quote=quote)])
    assert negating_prefix.check(make_inputs(make_draft(fact, level1=text, answer=text))) == []
