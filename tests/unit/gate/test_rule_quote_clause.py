"""The quote-clause rule: a quote cut from inside a clause must not leave out the clause's negator or qualifier;
the text at the locator comes from `Verification.context`, as `gather.py` reads it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import quote_clause
from quotebound.agent.gate.verification import Status, Verification

PETS = "No pet may be kept, bred or maintained for any commercial purpose."
VOTING = "Cumulative voting is not permitted. Each Owner has one vote per Unit."
LEASE = "Short-term rentals of less than thirty (30) days are prohibited; leases\nmust be in writing."
SIGNS = "One For Sale sign may be displayed. No other commercial signs may be displayed\non the Property."
ONLY = "Guests may park in the visitor spaces only, for up to 72 hours."
TABLE = "|  | 2019 | 2018 |\n| Total sales | $1,496.5 | $1,202.9 |\n| Not allocated | 12 | 9 |"
WRAPPED = "Boats, trailers, campers and recreational vehicles may\nnot be parked on the Property."


def found(context: str) -> Verification:
    return Verification(Status.OK, 1.0, 1.0, "primary", ((1, 47, 48),), context=context)


def check(
    quote: str, context: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> list[tuple[FindingCode, int | None, bool]]:
    fact = Fact(text=quote, support=[Support(source_id="rules.md", locator="p.1 L47-L48", quote=quote)])
    inputs = make_inputs(make_draft(fact), checks={(0, 0): found(context)})
    return [(f.code, f.fact_index, f.blocking) for f in quote_clause.check(inputs)]


BLOCKED = [(FindingCode.QUOTE_DROPS_QUALIFIER, 0, True)]


@pytest.mark.parametrize(
    ("quote", "context"),
    [
        (PETS, PETS),  # the whole sentence
        ("Cumulative voting is not permitted.", VOTING),  # one whole sentence of two
        ("Each Owner has one vote per Unit.", VOTING),  # the other: the first sentence's "not" is not its own
        ("voting is not permitted", VOTING),  # cut, but the negator is inside the quote
        ("Short-term rentals of less than thirty (30) days are prohibited", LEASE),  # a clause up to its ";"
        ("leases must be in writing.", LEASE),  # across the hard wrap, after the ";"
        ("One For Sale sign may be displayed.", SIGNS),
        ("No other commercial signs may be displayed on the Property.", SIGNS),  # whitespace differs at the wrap
        ("| Total sales | $1,496.5 | $1,202.9 |", TABLE),  # a table row: the next row's "Not" is another cell
        ("Guests may park in the visitor spaces only", ONLY),
    ],
)
def test_a_quote_that_keeps_its_clause_whole_passes(
    quote: str, context: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert check(quote, context, make_draft, make_inputs) == []


@pytest.mark.parametrize(
    ("quote", "context"),
    [
        ("pet may be kept, bred or maintained for any commercial purpose.", PETS),  # starts after "No"
        ("Cumulative voting is", VOTING),  # ends before "not"
        ("Cumulative voting is no", VOTING),  # cuts "not" in two
        ("other commercial signs may be displayed on the Property.", SIGNS),  # after "No", across the wrap
        ("Boats, trailers, campers and recreational vehicles may", WRAPPED),  # "not" is on the next line
        ("Guests may park in the visitor spaces", ONLY),  # drops the limiting "only"
        ("Short-term rentals of less than thirty (30) days are", LEASE),  # drops "prohibited"
    ],
)
def test_a_quote_that_drops_a_negator_or_qualifier_is_not_support(
    quote: str, context: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert check(quote, context, make_draft, make_inputs) == BLOCKED


def test_the_finding_names_the_word_and_quotes_the_whole_clause(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    fact = Fact(text="x", support=[Support(source_id="rules.md", locator="p.1 L47-L48", quote="pet may be kept")])
    (finding,) = quote_clause.check(make_inputs(make_draft(fact), checks={(0, 0): found(PETS)}))
    assert "leaves out 'No'" in finding.message
    assert f"quote the whole clause: {PETS!r}" in finding.message


def test_one_clean_occurrence_is_enough(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    twice = "Pets may be kept indoors. No pets may be kept on balconies."
    assert check("may be kept", twice, make_draft, make_inputs) == []
    assert check("pets may be kept on balconies.", twice, make_draft, make_inputs) == BLOCKED


def test_a_quote_that_failed_verification_is_left_to_the_citations_rule(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    fact = Fact(text="x", support=[Support(source_id="rules.md", locator="p.1 L47-L48", quote="pet may be kept")])
    forged = {(0, 0): Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail=PETS)}
    assert quote_clause.check(make_inputs(make_draft(fact), checks=forged)) == []


def framed(context: str, before: str = "", after: str = "") -> Verification:
    return Verification(Status.OK, 1.0, 1.0, "primary", ((1, 48, 48),), context=context, before=before, after=after)


def check_framed(
    quote: str, v: Verification, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> list[tuple[FindingCode, int | None, bool]]:
    fact = Fact(text=quote, support=[Support(source_id="rules.md", locator="p.1 L48-L48", quote=quote)])
    return [
        (f.code, f.fact_index, f.blocking)
        for f in quote_clause.check(make_inputs(make_draft(fact), checks={(0, 0): v}))
    ]


@pytest.mark.parametrize(
    ("quote", "v"),
    [
        # the locator names the second line of a wrapped sentence; its clause starts on the line before
        ("pet may be kept for breeding.", framed("pet may be kept for breeding.", before="No")),
        ("kept for breeding.", framed("kept for breeding.", before="Pets are welcome, but no pet may be")),
        # the locator names the first line; the clause's qualifier is on the next
        ("Guests may park in the visitor spaces", framed("Guests may park in the visitor spaces", after="only.")),
        ("Boats, trailers and campers may", framed("Boats, trailers and campers may", after="not be parked here.")),
    ],
)
def test_a_quote_is_read_with_its_wrapped_lines_around_the_locator(
    quote: str, v: Verification, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert check_framed(quote, v, make_draft, make_inputs) == BLOCKED
    bare = Verification(Status.OK, 1.0, 1.0, "primary", ((1, 48, 48),), context=v.context)
    assert check_framed(quote, bare, make_draft, make_inputs) == []  # the locator's line alone hides the cut


@pytest.mark.parametrize(
    ("quote", "v"),
    [
        # the lines around close their own sentences: the quote's sentence is whole
        ("Cats may be kept.", framed("Cats may be kept.", before="No dogs are allowed.", after="Never feed wildlife.")),
        # a heading or a list item starts its own block: its words are not the quote's clause
        ("Pets may be kept indoors.", framed("Pets may be kept indoors.", before="## No smoking")),
        ("Owners may lease a Unit.", framed("Owners may lease a Unit.", after="- No short-term rentals.")),
        # a whole wrapped sentence quoted across the locator's lines is fine
        ("No pet may be kept for breeding.", framed("No pet may be\nkept for breeding.")),
    ],
)
def test_neighbouring_sentences_and_blocks_are_not_the_quotes_clause(
    quote: str, v: Verification, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert check_framed(quote, v, make_draft, make_inputs) == []


def test_an_occurrence_in_the_neighbouring_lines_is_not_the_quotes(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # "may be kept" is whole in the line before, but the quote was verified at the locator, where it is cut
    v = framed("No pets may be kept on balconies.", before="Pets may be kept indoors.")
    assert check_framed("pets may be kept on balconies.", v, make_draft, make_inputs) == BLOCKED


CANDIDATE = "He was an unsuccessful candidate for reelection in 1902 to the 58th United States Congress."


@pytest.mark.parametrize(
    ("quote", "blocked"),
    [
        ("successful candidate for reelection in 1902 to the 58th United States Congress", True),  # past "un"
        ("unsuccessful candidate for reelection in 1902 to the 58th United States Congress", False),
        ("candidate for reelection in 1902 to the 58th United States Congress", False),  # a whole word left out
        ("ccessful candidate for reelection in 1902", False),  # cut inside the word, not past a prefix
    ],
)
def test_a_quote_starting_past_a_negating_prefix_drops_the_negation(
    quote: str, blocked: bool, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert check(quote, CANDIDATE, make_draft, make_inputs) == (BLOCKED if blocked else [])
