"""The conflicts-in-bundles rule: a readable line giving another value for the slot of a stated value is listed.

The slot is read from the sentences, never from the fact's `key`: a fact without a key is held to the rule (the
$325.00 answer that shipped while a resolved bundle said $340.00), and look-alike lines about another subject
(an adjourned meeting's quorum, a cap, a yearly budget line) never force a conflict.
"""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Conflict, ConflictValue, Draft, EvidenceBundle, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.rules import conflicts_in_bundles

BUDGET = "Monthly regular assessment per Unit: $325.00."
MINUTES = "The Treasurer noted that the FY2025 budget sets the monthly regular assessment at $340.00 per Unit."
QUESTION = "What is the monthly assessment?"


def fact(text: str = "$325.00.", quote: str = BUDGET, source_id: str = "budget.md", **fields: str) -> Fact:
    support = Support(source_id=source_id, locator="p.1 L3-L3", quote=quote)
    return Fact.model_validate({"text": text, "support": [support], **fields})


def bundle(
    make_bundle: Callable[..., EvidenceBundle], line: str = MINUTES, source_id: str = "minutes.md"
) -> EvidenceBundle:
    return make_bundle(source_id, ["# Minutes", "", line])


def listed(first: str = "$325.00", second: str = "$340.00") -> Conflict:
    return Conflict(
        key="anything",
        values=[
            ConflictValue(value=first, source_id="budget.md", locator="p.1 L3-L3", quote=BUDGET),
            ConflictValue(value=second, source_id="minutes.md", locator="p.1 L3-L3", quote=MINUTES),
        ],
    )


def test_a_fact_without_a_key_stating_one_value_while_a_bundle_gives_another_is_blocked(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    inputs = make_inputs(make_draft(fact()), bundles=(bundle(make_bundle),), question=QUESTION)
    findings = conflicts_in_bundles.check(inputs)
    assert [(f.code, f.fact_index, f.token) for f in findings] == [(FindingCode.CONFLICT_OMITTED, 0, "$340.00")]
    assert findings[0].message.startswith("minutes.md p.1 L3-L3 states '$340.00' where fact 0 states '$325.00'")


def test_the_key_does_not_matter(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    for key in ("budget figure", "monthly assessment", "zzz"):
        draft = make_draft(fact(key=key, value="$325.00"))
        findings = conflicts_in_bundles.check(make_inputs(draft, bundles=(bundle(make_bundle),)))
        assert [f.code for f in findings] == [FindingCode.CONFLICT_OMITTED], key


def test_the_answer_is_held_to_it_too(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    draft = make_draft(fact(text="The budget is the source."), answer="It is $325.00 a month.")
    findings = conflicts_in_bundles.check(make_inputs(draft, bundles=(bundle(make_bundle),), question=QUESTION))
    assert [(f.code, f.token) for f in findings] == [(FindingCode.CONFLICT_OMITTED, "$340.00")]


def test_the_conflict_listed_with_both_values_passes(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    draft = make_draft(fact(), conflicts=[listed()])
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(bundle(make_bundle),), question=QUESTION)) == []
    other = make_draft(fact(), conflicts=[listed(second="$350.00")])
    assert conflicts_in_bundles.check(make_inputs(other, bundles=(bundle(make_bundle),), question=QUESTION)) != []


def test_a_name_given_differently_by_another_source_is_blocked(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    paris = "Jean Dupont was born in Paris in 1901."
    draft = make_draft(fact(text="Jean Dupont was born in Paris.", quote=paris, source_id="a.txt"))
    lyon = bundle(make_bundle, "Jean Dupont was born in Lyon in 1901.", "b.txt")
    inputs = make_inputs(draft, bundles=(lyon,), question="Where was Jean Dupont born?")
    assert [(f.code, f.token) for f in conflicts_in_bundles.check(inputs)] == [(FindingCode.CONFLICT_OMITTED, "Lyon")]
    agreeing = bundle(make_bundle, "Jean Dupont was born in Paris, France in 1901.", "c.txt")
    inputs = make_inputs(draft, bundles=(agreeing,), question="Where was Jean Dupont born?")
    assert conflicts_in_bundles.check(inputs) == []


def test_lines_about_another_subject_never_force_a_conflict(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    normal = "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend."
    draft = make_draft(fact(text="The quorum is 25%.", quote=normal, source_id="bylaws.md"))
    others = [
        "At an adjourned meeting the quorum is Owners holding at least 15% of the Interests.",  # another meeting
        "Owners holding 60% of the Interests may amend the Declaration.",  # another vote
        "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend.",
    ]
    bundles = tuple(bundle(make_bundle, line, f"doc{i}.md") for i, line in enumerate(others))
    inputs = make_inputs(draft, bundles=bundles, question="What is the quorum for an owners' meeting?")
    assert conflicts_in_bundles.check(inputs) == []


def test_a_flagged_instructional_line_is_never_read(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    flagged = frozenset({("minutes.md", 1, 3)})
    inputs = make_inputs(make_draft(fact()), bundles=(bundle(make_bundle),), flagged=flagged, question=QUESTION)
    assert conflicts_in_bundles.check(inputs) == []


def test_the_tolerance_comes_from_the_inputs(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    inputs = make_inputs(make_draft(fact()), bundles=(bundle(make_bundle),), tolerance_pct=5.0, question=QUESTION)
    assert conflicts_in_bundles.check(inputs) == []


def test_a_value_another_fact_states_is_left_to_conflicts_reported(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    other = fact(text="$340.00 per Unit.", quote=MINUTES, source_id="minutes.md")
    inputs = make_inputs(make_draft(fact(), other), bundles=(bundle(make_bundle),), question=QUESTION)
    assert conflicts_in_bundles.check(inputs) == []


def test_a_value_no_verified_quote_states_is_not_compared(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    draft = make_draft(fact(text="$310.00.", quote="Assessments are due on the first of the month."))
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(bundle(make_bundle),), question=QUESTION)) == []


def test_the_date_of_another_event_of_the_same_work_forces_no_conflict(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    released = "Freaky Friday was released on December 17, 1976."
    question = "When was Freaky Friday released?"
    draft = make_draft(fact("December 17, 1976.", released, "film.md"))
    for line in (
        "A remastered edition of Freaky Friday was released on June 3, 2003.",
        "Freaky Friday's reissue was released on June 3, 2003.",
    ):
        inputs = make_inputs(draft, bundles=(bundle(make_bundle, line, "dvd.md"),), question=question)
        assert conflicts_in_bundles.check(inputs) == [], line
    other = "Freaky Friday was first released on 17 December 1977."
    inputs = make_inputs(draft, bundles=(bundle(make_bundle, other, "almanac.md"),), question=question)
    assert [f.code for f in conflicts_in_bundles.check(inputs)] == [FindingCode.CONFLICT_OMITTED]


def test_the_adjourned_meeting_quorum_forces_no_conflict_when_the_question_names_the_owners(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    normal = "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend."
    adjourned = "At an adjourned meeting the quorum is Owners holding at least 15% of the Interests."
    draft = make_draft(fact("25%", normal, "bylaws.md"))
    question = "What is the quorum at a meeting of the Owners?"
    inputs = make_inputs(draft, bundles=(bundle(make_bundle, adjourned, "bylaws.md"),), question=question)
    assert conflicts_in_bundles.check(inputs) == []


def test_a_line_whose_document_title_names_the_subject_gives_the_subject_a_value(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """A page titled "Hillcrest School" saying "Established: 1850" gives the school's founding year, against a draft
    answering 1912 alone; the same line in a page about something else says nothing of the school."""
    named = "Hillcrest School was established in 1912."
    draft = make_draft(fact("1912", named, "gazette.md"))
    question = "When was Hillcrest School established?"
    line = bundle(make_bundle, "Established: 1850", "school.md")
    titled = (SourceInfo("gazette.md", "County Gazette"), SourceInfo("school.md", "Hillcrest School"))
    inputs = make_inputs(draft, bundles=(line,), question=question, sources=titled)
    assert [(f.code, f.token) for f in conflicts_in_bundles.check(inputs)] == [(FindingCode.CONFLICT_OMITTED, "1850")]
    other = (SourceInfo("gazette.md", "County Gazette"), SourceInfo("school.md", "Maple Library"))
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(line,), question=question, sources=other)) == []
