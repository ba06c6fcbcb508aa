"""The writer's own word (`allowance.own_words`): in a report of insufficient evidence a negated reporting verb says
what the documents leave out, and is no pole a word of the writer's own could be turned around by."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import Draft, Fact, Support
from quotebound.agent.gate.allowance import _unsaid
from quotebound.agent.gate.inputs import GateInputs, SourceLine
from quotebound.agent.gate.rules import claim_support

PLAN = "The Fiscal 2017 Restructuring Plan charges relate to workforce reductions and facility consolidations."
QUESTION = "How many employees were let go under the Fiscal 2017 Restructuring Plan?"


def _judge(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], level1: str, mode: str, extra: str = ""
) -> list[str]:
    fact = Fact(text=PLAN, support=[Support(source_id="t.md", locator="p.1 L1-L1", quote=PLAN)])
    draft = make_draft(fact, level1=level1, mode=mode)
    lines = tuple(SourceLine("t.md", 1, n, t) for n, t in enumerate(filter(None, (PLAN, extra)), start=1))
    return [f.message for f in claim_support.check(make_inputs(draft, question=QUESTION, cited_lines=lines))]


UNSAID = "The document does not say how many employees the restructuring plan affected."


@pytest.mark.parametrize(
    ("level1", "mode", "extra", "blocked"),
    [
        # what the documents leave out, in a plain word of the writer's own
        (UNSAID, "report_insufficient_evidence", "", ""),
        (UNSAID.replace("does not", "doesn't"), "report_insufficient_evidence", "", ""),
        # an answer's negation is about the world: the word could be what the "not" turns around
        (UNSAID, "answer", "", "affected"),
        # another negation in the report is still a pole
        (
            "The document does not say the restructuring plan charges were not affected.",
            "report_insufficient_evidence",
            "",
            "affected",
        ),
        # a word written elsewhere in the document is carried in, never the writer's own
        (UNSAID, "report_insufficient_evidence", "Headcount affected by the plan was 300.", "affected"),
    ],
)
def test_a_report_may_say_what_the_documents_leave_out_in_its_own_words(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    level1: str,
    mode: str,
    extra: str,
    blocked: str,
) -> None:
    messages = _judge(make_draft, make_inputs, level1, mode, extra)
    assert (messages == []) if not blocked else any(f"'{blocked}'" in m for m in messages)


def test_only_a_negated_reporting_verb_is_unsaid() -> None:
    assert "not" not in _unsaid("The minutes do not state the cost.")
    assert "never" not in _unsaid("The budget never mentions the cost.")
    assert _unsaid("Owners do not pay the fee.") == "Owners do not pay the fee."
    assert "not waived" in _unsaid("The minutes don't state that the fee is not waived.")
