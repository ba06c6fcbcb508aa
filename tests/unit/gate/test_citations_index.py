"""The draft's `citations_index` is the model's claim about what it cited: the gate never reads it, and it masks
nothing. Only the source ids of the quotes the gate verified are blanked out before words and figures are read."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from quotebound.agent.core.contracts import CitationIndexEntry, Conflict, ConflictValue, Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceLine, cited_ids
from quotebound.agent.gate.rules import claim_support, span_alignment
from quotebound.agent.gate.validate import judge
from quotebound.agent.gate.verification import Status, Verification

LATE = "An installment not paid within 15 days after its due date incurs a late charge of $25.00."
QUESTION = "What is the late charge for an unpaid assessment?"
LINES = (
    SourceLine("declaration.md", 1, 105, "## Article 6. Assessments"),
    SourceLine("declaration.md", 1, 106, LATE),
)
FACT = Fact(text=LATE, support=[Support(source_id="declaration.md", locator="p.1 L106-L106", quote=LATE)])


def with_index(draft: Draft, *source_ids: str) -> Draft:
    index = [CitationIndexEntry(source_id=s, ingest_hash="sha256:0") for s in source_ids]
    return draft.model_copy(update={"evidence": draft.evidence.model_copy(update={"citations_index": index})})


def draft_saying(make_draft: Callable[..., Draft], level1: str, *index: str) -> Draft:
    level3 = "Citations: declaration.md p.1 L106-L106"
    return with_index(make_draft(FACT, level1=level1, answer=level1, level3=level3), *index)


def codes(found: GateInputs) -> list[FindingCode]:
    report = judge(found)
    return [f.code for f in report.findings if f.blocking]


def test_a_false_sentence_listed_as_a_citation_is_still_checked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    false = "The late charge is waived for a first late payment."
    draft = draft_saying(make_draft, f"{LATE} {false}", false)
    found = make_inputs(draft, question=QUESTION, cited_lines=LINES)
    unsupported = claim_support.check(found)
    assert [f.code for f in unsupported] == [FindingCode.UNSUPPORTED_CLAIM, FindingCode.UNSUPPORTED_CLAIM]
    assert "'waived'" in unsupported[0].message
    assert FindingCode.UNSUPPORTED_CLAIM in codes(found) and not judge(found).ok


def test_a_false_figure_listed_as_a_citation_is_still_checked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    false = "The late charge rose to $40.00 in 2025."
    draft = draft_saying(make_draft, f"{LATE} {false}", false, "$40.00", "2025")
    tokens = [f.token for f in span_alignment.check(make_inputs(draft))]
    assert tokens == ["$40.00", "2025", "$40.00", "2025"]  # level1 and the answer


def test_an_honest_draft_passes_with_an_empty_or_a_wrong_citations_index(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    level1 = f"According to declaration.md, {LATE[0].lower()}{LATE[1:]}"
    indexes: Sequence[tuple[str, ...]] = ((), ("declaration.md",), ("budget-2025.md", "no-such-source.md"))
    for index in indexes:
        found = make_inputs(draft_saying(make_draft, level1, *index), question=QUESTION, cited_lines=LINES)
        assert judge(found).ok, (index, judge(found).findings)


def test_only_the_sources_of_verified_quotes_are_masked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    forged = Fact(
        text="Dues are waived.", support=[Support(source_id="Dues are waived.", locator="p.1 L1-L1", quote="x")]
    )
    values = [
        ConflictValue(value="$25.00", source_id="declaration.md", locator="p.1 L106-L106", quote=LATE),
        ConflictValue(value="$30.00", source_id="minutes-2025.md", locator="p.1 L4-L4", quote="late charge $30.00"),
    ]
    draft = with_index(
        make_draft(FACT, forged, conflicts=[Conflict(key="late charge", values=values)]), "indexed-only.md"
    )
    unknown = Verification(Status.UNKNOWN_SOURCE)
    assert cited_ids(make_inputs(draft, checks={(1, 0): unknown})) == {"declaration.md", "minutes-2025.md"}
    assert cited_ids(make_inputs(draft, checks={(1, 0): unknown}, conflict_checks={(0, 1): unknown})) == {
        "declaration.md"
    }
