"""What `gather.py` reads around a verified quote, over a real store: the hard-wrapped lines of its paragraph and its
table's headings, as the caller sees the source, and the rules that read them (quote clause, span alignment)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import AnswerLevels, AnswerObject, Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.gather import gather_inputs
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import quote_clause, span_alignment
from quotebound.agent.gate.verification import Status
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import IngestReport
from quotebound.tools.policy import Caller

RULES = """# Community rules

Owners may keep two household pets. No pet may be
kept, bred or maintained for any commercial
purpose.

## Parking

Guests may park in the visitor spaces
only, for up to 72 hours.
"""

REPORT = """# Annual report 2019

Deferred charges and other assets consisted of the following (in thousands):

|  | December 31, |  |
| --- | --- | --- |
|  | 2019 | 2018 |
| Trade accounts receivable, net, noncurrent | $26,496 | $15,948 |
| Value added tax receivables, net, noncurrent | 592 | 519 |
"""


@pytest.fixture
def ctx(
    make_files: Callable[[dict[str, str]], object], ingest: Callable[..., IngestReport], corpus: Corpus
) -> ToolContext:
    root = make_files({"rules.md": RULES, "report.md": REPORT})
    assert ingest(root).ok
    return ToolContext(corpus, caller=Caller(role="public"))


def gathered(ctx: ToolContext, text: str, source_id: str, locator: str, quote: str, level1: str = "") -> GateInputs:
    fact = Fact(text=text, support=[Support(source_id=source_id, locator=locator, quote=quote)])
    draft = Draft(
        levels=AnswerLevels(level1=level1 or text, level2=f'"{quote}"', level3=f"doc://{source_id}#{locator}"),
        evidence=AnswerObject(mode="answer", answer=level1 or text, facts=[fact]),
    )
    return gather_inputs(draft, bundles=[], ctx=ctx, question="What does it say?")


def test_a_wrapped_lines_quote_is_read_with_the_lines_around_it(ctx: ToolContext) -> None:
    inputs = gathered(ctx, "A pet may be kept for commercial purposes.", "rules.md", "p.1 L4-L4",
                      "kept, bred or maintained for any commercial")  # fmt: skip
    (check,) = inputs.support_checks[0]
    assert check.status is Status.OK
    assert check.before == "Owners may keep two household pets. No pet may be"
    assert check.after == "purpose."
    assert check.headings == ""
    (finding,) = quote_clause.check(inputs)
    assert finding.code is FindingCode.QUOTE_DROPS_QUALIFIER
    assert "'No'" in finding.message


def test_a_quote_across_a_hard_wrap_verifies_with_a_locator_spanning_its_lines(ctx: ToolContext) -> None:
    quote = "No pet may be kept, bred or maintained for any commercial purpose."  # one line here, three in the source
    inputs = gathered(ctx, "No pet may be kept for any commercial purpose.", "rules.md", "p.1 L3-L5", quote)
    (check,) = inputs.support_checks[0]
    assert check.status is Status.OK and check.quote_confidence < 1.0  # verbatim but for the line breaks
    assert quote_clause.check(inputs) == []
    narrow = gathered(ctx, "No pet may be kept for any commercial purpose.", "rules.md", "p.1 L3-L4", quote)
    assert narrow.support_checks[0][0].status is Status.NOT_VERBATIM  # the locator must cover every line


def test_a_qualifier_on_the_next_line_is_read(ctx: ToolContext) -> None:
    inputs = gathered(ctx, "Guests may park in the visitor spaces.", "rules.md", "p.1 L9-L9",
                      "Guests may park in the visitor spaces")  # fmt: skip
    assert inputs.support_checks[0][0].after == "only, for up to 72 hours."
    assert [f.code for f in quote_clause.check(inputs)] == [FindingCode.QUOTE_DROPS_QUALIFIER]


def test_a_table_row_is_read_under_its_headings(ctx: ToolContext) -> None:
    row = "| Value added tax receivables, net, noncurrent | 592 | 519 |"
    inputs = gathered(ctx, "VAT receivables were 592 thousand at December 31, 2019.", "report.md", "p.1 L9-L9", row,
                      level1="592 thousand in 2019, 519 thousand in 2018.")  # fmt: skip
    (check,) = inputs.support_checks[0]
    # the caption just above the table ("... (in thousands):") declares the scale of every column
    assert check.headings == "in thousands December 31, 2019 | in thousands December 31, 2018"
    # the year, the date and the scale come from the headings the row is read under
    assert span_alignment.check(inputs) == []
    moved = gathered(ctx, "VAT receivables were 592 at December 31, 2017.", "report.md", "p.1 L9-L9", row)
    assert {f.token for f in span_alignment.check(moved)} == {"December 31, 2017"}
