"""The quote-size rule: whitespace, a character or a lone word is too small to be support; a phrase, a clause, a
sentence or a table row is not."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import Conflict, ConflictValue, Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import quote_size
from quotebound.agent.gate.verification import Status, Verification

LINE = "The monthly assessment is $325.00 per unit, and the NAND line was discontinued in 2018."
ROW = "| Total sales | $1,496.5 | $1,202.9 |"


def fact(quote: str, text: str = "Short-term rentals are allowed.") -> Fact:
    return Fact(text=text, support=[Support(source_id="rules.md", locator="p.1 L52-L52", quote=quote)])


def at(context: str) -> dict[tuple[int, int], Verification]:
    """The first support found verbatim in `context`, the text at its locator."""
    return {(0, 0): Verification(Status.OK, 1.0, 1.0, "primary", ((1, 52, 52),), context=context)}


@pytest.mark.parametrize(
    "quote",
    [
        "Short-term rentals of less than thirty (30) days are prohibited.",
        "twelve (12) months",
        "monthly assessment",
        "$325.00 per unit",
        "| 2019 | 2018 |",
        "|  | €m | €m | €m |",
        "| Total sales | $1,496.5 | $1,202.9 |",
        "Unit 4B",
    ],
)
def test_a_quote_that_carries_a_claim_passes(
    quote: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert quote_size.check(make_inputs(make_draft(fact(quote)))) == []


@pytest.mark.parametrize("quote", [" ", "\n\t", "e", ".", "rentals", "Boats", "seven", "2018", "$325.00", "a b"])
def test_a_tiny_quote_is_not_support(
    quote: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = quote_size.check(make_inputs(make_draft(fact(quote)), checks=at(LINE + " Boats e. a b. seven")))
    assert [(f.code, f.fact_index, f.blocking) for f in findings] == [(FindingCode.QUOTE_TOO_SMALL, 0, True)]
    assert "quote the whole clause or sentence of rules.md p.1 L52-L52" in findings[0].message


@pytest.mark.parametrize(
    ("quote", "context"),
    [("$1,496.5", ROW), ("$1.00.", "The reserve record: $2.00; $1.00."), ("2018", "|  | 2019 | 2018 |")],
)
def test_a_figure_that_is_its_whole_clause_or_cell_passes(
    quote: str, context: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert quote_size.check(make_inputs(make_draft(fact(quote)), checks=at(context))) == []


def test_whitespace_is_named_as_such(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    (finding,) = quote_size.check(make_inputs(make_draft(fact("  "))))
    assert "only whitespace" in finding.message


def test_every_tiny_support_and_conflict_value_is_reported(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    two = Fact(
        text="x",
        support=[
            Support(source_id="a.md", locator="p.1 L1-L1", quote="The monthly assessment is $325.00 per unit."),
            Support(source_id="a.md", locator="p.1 L2-L2", quote="e"),
        ],
    )
    conflict = Conflict(
        key="monthly assessment",
        values=[
            ConflictValue(value="$325.00", source_id="a.md", locator="p.1 L1-L1", quote="$325.00"),
            ConflictValue(value="$340.00", source_id="b.md", locator="p.1 L4-L4", quote="assessment of $340.00"),
        ],
    )
    findings = quote_size.check(make_inputs(make_draft(two, conflicts=[conflict])))
    assert [f.message.split(":")[0] for f in findings] == ["fact 0 support 1", "conflict 0 value 0"]


def test_a_quote_that_failed_verification_is_left_to_the_citations_rule(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    forged = {(0, 0): Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail="x")}
    assert quote_size.check(make_inputs(make_draft(fact("e")), checks=forged)) == []


def test_a_lone_figure_is_read_with_the_wrapped_line_before_it(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # the locator's line holds only "2018." but it ends a sentence that starts on the line before
    wrapped = Verification(
        Status.OK, 1.0, 1.0, "primary", ((1, 52, 52),), context="2018.", before="The NAND line was discontinued in"
    )
    findings = quote_size.check(make_inputs(make_draft(fact("2018.")), checks={(0, 0): wrapped}))
    assert [f.code for f in findings] == [FindingCode.QUOTE_TOO_SMALL]
    alone = Verification(Status.OK, 1.0, 1.0, "primary", ((1, 52, 52),), context="2018.", before="Year closed:")
    assert quote_size.check(make_inputs(make_draft(fact("2018.")), checks={(0, 0): alone})) == []


@pytest.mark.parametrize(
    ("quote", "context"),
    [("|  | % | % |", "|  | % | % |"), ("| Dividends |", "| Dividends |"), ("Assessments", "Assessments")],
)
def test_a_whole_table_row_or_line_is_a_real_span_however_short(
    quote: str, context: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """A units row says what the figures below it are; a one-word heading names its section."""
    assert quote_size.check(make_inputs(make_draft(fact(quote)), checks=at(context))) == []


@pytest.mark.parametrize(
    ("quote", "context", "before"),
    [
        ("%", "|  | % | % |", ""),  # a cell cut from its row
        ("|  |  |", "|  |  |", ""),  # a row with nothing in its cells
        ("breeding.", "breeding.", "No pet may be kept for"),  # the last line of a hard-wrapped sentence
        ("Assessments", "Assessments are due monthly.", ""),  # a word cut from its line
    ],
)
def test_a_fragment_of_a_line_or_an_empty_row_stays_too_small(
    quote: str, context: str, before: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    found = Verification(Status.OK, 1.0, 1.0, "primary", ((1, 52, 52),), context=context, before=before)
    findings = quote_size.check(make_inputs(make_draft(fact(quote)), checks={(0, 0): found}))
    assert [f.code for f in findings] == [FindingCode.QUOTE_TOO_SMALL]
