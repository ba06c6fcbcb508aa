"""The meaning rule: every claim the user sees keeps the meaning of the quote sentences it rests on. A fact's text
rests on that fact's quotes, a level or answer sentence on every verified quote, read in the text at each quote's
locator (`Verification.context`)."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Draft, Fact, Gap, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceInfo, SourceLine
from quotebound.agent.gate.meaning import MAX_SENTENCE_CHARS
from quotebound.agent.gate.rules import RULES, meaning
from quotebound.agent.gate.verification import Status, Verification

PET = "No pet may be kept for breeding or any commercial purpose."
RENTALS = "Short-term rentals of fewer than twelve months, including nightly or vacation rentals, are prohibited."
LATE = "An installment not paid within 15 days after its due date incurs a late charge of $25.00."
ASSESSMENT = "Monthly regular assessment per Unit: $325.00."
QUIET = "Quiet hours are from 10:00 p.m. to 7:00 a.m. every day."

MakeDraft = Callable[..., Draft]
MakeInputs = Callable[..., GateInputs]


def fact(text: str, *quoted: tuple[str, str]) -> Fact:
    """A fact resting on (locator, quote) pairs from declaration.md."""
    return Fact(text=text, support=[Support(source_id="declaration.md", locator=loc, quote=q) for loc, q in quoted])


def at(context: str) -> Verification:
    return Verification(Status.OK, 1.0, 1.0, "primary", ((1, 47, 47),), context=context)


def found(inputs: GateInputs) -> list[tuple[FindingCode, int | None]]:
    return [(f.code, f.fact_index) for f in meaning.check(inputs)]


def test_the_rule_runs_after_span_alignment() -> None:
    names = [rule.name for rule in RULES]
    assert names.index("meaning") == names.index("span_alignment") + 1


def test_honest_natural_and_terse_drafts_pass(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    natural = make_draft(
        fact("No, short-term rentals are not allowed.", ("p.1 L52-L52", RENTALS)),
        level1="No. Shorter rentals, including nightly or vacation rentals, are prohibited.",
        answer="No, short-term rentals are not allowed.",
    )
    terse = make_draft(fact(LATE, ("p.1 L106-L106", LATE)), level1="$25.00 after 15 days.", answer="$25.00.")
    question = "Are short-term rentals allowed?"
    assert found(make_inputs(natural, question=question)) == []
    assert found(make_inputs(terse, question="What is the late charge?")) == []


def test_a_dropped_negation_is_a_meaning_change(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    draft = make_draft(fact("Short-term rentals are permitted.", ("p.1 L52-L52", RENTALS)))
    assert found(make_inputs(draft)) == [(FindingCode.MEANING_CHANGED, 0)]


def test_a_quote_cut_after_no_is_read_in_its_whole_line(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    cut = "pet may be kept for breeding or any commercial purpose."
    draft = make_draft(fact("A pet may be kept for breeding or any commercial purpose.", ("p.1 L47-L47", cut)))
    assert found(make_inputs(draft, checks={(0, 0): at(PET)})) == [(FindingCode.MEANING_CHANGED, 0)]
    assert found(make_inputs(draft)) == []  # without the line, the cut alone is all there is to read


def test_a_figure_given_to_another_subject_is_unbound(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    draft = make_draft(fact("The late charge is $325.00.", ("p.1 L106-L106", LATE), ("p.1 L11-L11", ASSESSMENT)))
    assert found(make_inputs(draft)) == [(FindingCode.VALUE_UNBOUND, 0)]


def test_a_level_sentence_rests_on_every_quote(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    draft = make_draft(
        fact(LATE, ("p.1 L106-L106", LATE)),
        fact(QUIET, ("p.1 L66-L66", QUIET)),
        level1="Quiet hours run from 7:00 a.m. to 10:00 p.m. every day.",
    )
    assert found(make_inputs(draft)) == [(FindingCode.MEANING_CHANGED, None)]


def test_a_bare_no_answers_the_question(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    terse = make_draft(fact(PET, ("p.1 L47-L47", PET)), level1="No.", answer="No.")
    wrong = make_draft(fact(PET, ("p.1 L47-L47", PET)), level1="Yes.", answer="Yes.")
    question = "Can I breed pets in my unit?"
    assert found(make_inputs(terse, question=question)) == []
    assert found(make_inputs(wrong, question=question)) == [(FindingCode.MEANING_CHANGED, None)] * 2


def test_descriptive_fields_are_not_read(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    """A gap's need may say what the documents do not state; a fact's key names a slot."""
    draft = make_draft(
        fact(PET, ("p.1 L47-L47", PET)).model_copy(update={"key": "pets permitted for breeding"}),
        gaps=[Gap(need="Whether pets may be kept for breeding in a kennel", why="no_quote_found")],
    )
    assert found(make_inputs(draft)) == []


def test_a_document_named_in_prose_is_not_a_misplaced_name(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    draft = make_draft(
        fact(LATE, ("p.1 L106-L106", LATE)),
        level1="The Declaration sets a late charge of $25.00 for an installment not paid within 15 days.",
    )
    sources = (SourceInfo("declaration.md", "Declaration of Covenants for Cedar Hollow"),)
    assert found(make_inputs(draft, sources=sources)) == []


def test_a_sentence_too_long_to_check_fails_closed(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    long = "Owners may keep " + ", ".join(f"{n} cats" for n in range(MAX_SENTENCE_CHARS // 8)) + "."
    draft = make_draft(fact(PET, ("p.1 L47-L47", PET)), level1=long)
    [finding] = meaning.check(make_inputs(draft))
    assert finding.code is FindingCode.INPUT_BOUNDS and finding.blocking
    assert "shorter sentences" in finding.message


def test_the_message_quotes_the_sentence_and_says_how_to_repair(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    draft = make_draft(fact("Short-term rentals are permitted.", ("p.1 L52-L52", RENTALS)))
    [finding] = meaning.check(make_inputs(draft))
    assert finding.message.startswith("fact 0 text states a permission where the quote states a prohibition")
    assert RENTALS in finding.message
    assert finding.message.endswith("state it as the quote does, or move the claim to gaps")


BUDGET = ["# Budget", "", "## Reserve fund", "", "Balance on January 1, 2025: $184,250.00.", "", "## Gate", ""]


def test_the_rule_reads_each_quote_in_the_frame_of_its_page(make_draft: MakeDraft, make_inputs: MakeInputs) -> None:
    """The quoted heading of a quote's section names what its figure is about (read from the cited source's lines);
    without the page, the heading is just another quote, and the claim joins the two."""
    draft = make_draft(
        Fact(
            text="The reserve fund balance on January 1, 2025 was $184,250.00.",
            support=[
                Support(source_id="budget.md", locator="p.1 L3-L3", quote="## Reserve fund"),
                Support(source_id="budget.md", locator="p.1 L5-L5", quote=BUDGET[4]),
            ],
        )
    )
    lines = tuple(SourceLine("budget.md", 1, n, text) for n, text in enumerate(BUDGET, start=1))
    checks = {(0, 0): at(BUDGET[2]), (0, 1): at(BUDGET[4])}
    assert found(make_inputs(draft, checks=checks, cited_lines=lines)) == []
    assert set(found(make_inputs(draft, checks=checks))) == {(FindingCode.VALUE_UNBOUND, 0)}
    # another heading between them: the quoted heading is not the one of the figure's section
    other = tuple(line._replace(text="## Gate") if line.line == 4 else line for line in lines)
    assert set(found(make_inputs(draft, checks=checks, cited_lines=other))) == {(FindingCode.VALUE_UNBOUND, 0)}
