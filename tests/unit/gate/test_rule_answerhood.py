"""The answerhood rule: the answer answers the question asked (its type, its subject, the document it names, the
derived figure it asks for) and does not repeat a value the question takes for granted; honest answers in natural
and terse styles pass."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import CalcDerivation, Draft, Fact, Support
from quotebound.agent.gate.answer_counted import counted_words
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.rules import answerhood
from quotebound.agent.gate.verification import Status, Verification
from quotebound.agent.gate.vocabulary import stem

Build = Callable[..., Draft]
Inputs = Callable[..., GateInputs]

SOURCES = (
    SourceInfo("declaration.md", "Declaration of Covenants, Conditions and Restrictions"),
    SourceInfo("bylaws.md", "Bylaws of the Association"),
    SourceInfo("budget.md", "Annual Budget, Fiscal Year 2025"),
    SourceInfo("minutes.md", "Minutes of the Regular Board Meeting"),
    SourceInfo("report.md", "Annual report"),
)
LINES = {
    "late": (
        "declaration.md",
        "An installment not paid within 15 days after its due date incurs a late charge of $25.00.",
    ),
    "treasurer": ("budget.md", "Prepared by the Treasurer, Priya Raman, with Ridgeline Community Management, Inc."),
    "presents": ("bylaws.md", "The Treasurer presents the proposed annual budget to the Board."),
    "due": ("minutes.md", "The special assessment is due on June 1, 2025."),
    "levied": ("minutes.md", "The Board levied a special assessment of $12,000.00 for the Building 4 deck repairs."),
    "pets": ("declaration.md", "An Owner may keep no more than two household pets in a Unit."),
    "voting": ("bylaws.md", "Cumulative voting is not permitted."),
    "elected": ("bylaws.md", "The candidates receiving the most votes are elected."),
    "roofs": ("declaration.md", "§ 8.1 The Association maintains the Common Area, the roofs and the parking lot."),
    "funded": ("budget.md", "Line 8 does not cover roofs, which are funded from the reserve fund."),
    "valve": ("declaration.md", "Main water shut-off valve, curb box at the Cedar Hollow Lane entrance"),
    "turning": ("declaration.md", "Turning the main valve clockwise closes it."),
    "guest": ("declaration.md", "Guest parking spaces may be used for no more than 72 consecutive hours."),
    "towing": ("declaration.md", "Vehicles that do not run may be towed after 48 hours' notice."),
    "fiscal": ("declaration.md", "The fiscal year of the Association runs from January 1 through December 31."),
    "monthly": ("budget.md", "Monthly regular assessment per Unit: $325.00."),
    "total": ("budget.md", "| **Total annual budget** | **$93,600.00** |"),
    "operating": ("budget.md", "| Total operating budget | $76,200.00 |"),
    "reserve": ("budget.md", "| Reserve fund contribution | $17,400.00 |"),
    "header": ("report.md", "|  | 2019 | 2018 | Change |"),
    "other": ("report.md", "| Other | 44.1 | 56.7 | (12.6) |"),
    "cap": ("declaration.md", "No more than six (6) Units may be leased at any one time."),
    "terms": ("bylaws.md", "Directors serve staggered terms of two (2) years."),
    "draft_minutes": ("bylaws.md", "Draft minutes are made available to Owners within 30 days after the meeting."),
    "observers": ("minutes.md", "Seven Owners attended as observers."),
    "space": ("declaration.md", "Each Unit is assigned one covered parking space."),
    "clubs": ("report.md", "Currently, the Philadelphia chapter is made up of 16 Clubs serving youths."),
    "present": ("minutes.md", "All five directors were present, so a quorum of the Board was established."),
    "quorum": ("bylaws.md", "A majority of the directors, that is three (3) of the five (5) directors, is a quorum."),
}


def fact(*names: str, text: str | None = None, calc: CalcDerivation | None = None) -> Fact:
    supports = [
        Support(source_id=LINES[n][0], locator=f"p.1 L{i + 1}-L{i + 1}", quote=LINES[n][1]) for i, n in enumerate(names)
    ]
    return Fact(text=text or LINES[names[0]][1], support=supports, calc=calc)


def judge(
    make_draft: Build, make_inputs: Inputs, question: str, answer: str, *facts: Fact, **draft: object
) -> list[str]:
    built = make_draft(*facts, level1=answer, answer=answer, **draft)
    findings = answerhood.check(make_inputs(built, question=question, sources=SOURCES))
    assert all(f.code is FindingCode.NOT_AN_ANSWER and f.blocking for f in findings)
    return [f.message for f in findings]


HONEST = [
    ("Who is the Treasurer?", "Priya Raman.", ["treasurer"]),
    ("Who is the Treasurer?", "Priya Raman is the Treasurer.", ["treasurer"]),
    ("Who is the Treasurer?", "The Treasurer, Priya Raman, prepared the budget.", ["treasurer"]),
    ("Who maintains the roofs?", "The Association.", ["roofs"]),
    ("Who maintains the roofs?", "The Association maintains the roofs and the parking lot.", ["roofs"]),
    ("When is the special assessment due?", "June 1, 2025.", ["due"]),
    ("When is the special assessment due?", "It is due on June 1, 2025.", ["due"]),
    ("When can a vehicle that does not run be towed?", "After 48 hours' notice.", ["towing"]),
    ("How much is the late charge?", "$25.00.", ["late"]),
    ("How much is the late charge?", "A late charge of $25.00 applies after 15 days.", ["late"]),
    ("How many pets can I keep?", "Two household pets at most.", ["pets"]),
    ("How many pets can I keep?", "You may keep no more than two household pets in your Unit.", ["pets"]),
    ("Is cumulative voting allowed?", "No.", ["voting"]),
    ("Is cumulative voting allowed?", "Cumulative voting is not permitted.", ["voting"]),
    ("Where is the main water shut-off valve?", "In the curb box at the Cedar Hollow Lane entrance.", ["valve"]),
    ("Where is the main water shut-off valve?", "Curb box at the Cedar Hollow Lane entrance.", ["valve"]),
    ("How long can a guest park in a guest space?", "72 consecutive hours.", ["guest"]),
    ("Which section covers roof maintenance?", "§ 8.1.", ["roofs"]),
    ("What is the total annual budget?", "$93,600.00.", ["total"]),
    ("What is the monthly assessment?", "$325.00 per Unit.", ["monthly"]),
    ("According to the Declaration, when does the fiscal year run?", "January 1 through December 31.", ["fiscal"]),
    ("How many units may be leased at one time?", "Six (6) Units.", ["cap"]),
    ("How many years is a director's term?", "Two (2) years.", ["terms"]),
    ("How many directors attended the meeting?", "All five directors were present.", ["present"]),
    ("How many directors attended the meeting?", "Five.", ["present"]),
    ("How many directors make a quorum?", "Three (3) of the five (5) directors.", ["quorum"]),
    ("How many Owners attended as observers?", "Seven Owners attended as observers.", ["observers"]),
    ("How many local clubs does the chapter have?", "16 Clubs.", ["clubs"]),  # the noun ends the counted phrase
    ("How many covered parking spaces does each Unit get?", "One.", ["space"]),
]


@pytest.mark.parametrize(("question", "answer", "lines"), HONEST)
def test_an_honest_answer_passes(
    question: str, answer: str, lines: list[str], make_draft: Build, make_inputs: Inputs
) -> None:
    assert judge(make_draft, make_inputs, question, answer, fact(*lines)) == []


@pytest.mark.parametrize(
    ("question", "answer", "lines"),
    [
        ("Who is the Treasurer?", "The Treasurer presents the proposed annual budget to the Board.", ["presents"]),
        ("Who maintains the roofs?", "Roofs are funded from the reserve fund.", ["funded"]),
        ("When is the special assessment due?", "The special assessment is $12,000.00.", ["levied"]),
        ("How much is the late charge?", "A late charge applies to an installment not paid within 15 days.", ["late"]),
        ("How many pets can I keep?", "Owners must keep pets in a Unit.", ["pets"]),
        ("Is cumulative voting allowed?", "The candidates receiving the most votes are elected.", ["elected"]),
        ("Where is the main water shut-off valve?", "Turning the main valve clockwise closes it.", ["turning"]),
        ("How long can a guest park in a guest space?", "Guest parking spaces are for guests.", ["guest"]),
        ("Which section covers roof maintenance?", "The Association maintains the roofs.", ["roofs"]),
        ("What percentage of the budget is the reserve contribution?", "$17,400.00.", ["reserve"]),
        ("How many directors are on the Board?", "Directors serve staggered terms of two (2) years.", ["terms"]),
        ("Who keeps the minutes?", LINES["draft_minutes"][1], ["draft_minutes"]),
    ],
)
def test_an_answer_of_another_type_is_not_an_answer(
    question: str, answer: str, lines: list[str], make_draft: Build, make_inputs: Inputs
) -> None:
    message, *_ = judge(make_draft, make_inputs, question, answer, fact(*lines))
    assert message.startswith("level1 does not answer the question: it asks ")
    assert "report that the documents do not say" in message


def test_a_value_from_a_passage_about_something_else_is_not_an_answer(make_draft: Build, make_inputs: Inputs) -> None:
    messages = judge(
        make_draft, make_inputs, "How long can a guest park in a guest space?", "48 hours.", fact("towing")
    )
    assert len(messages) == 1 and "the figure '48' comes from a passage about something else" in messages[0]
    assert (
        judge(make_draft, make_inputs, "How long can a guest park in a guest space?", "72 hours.", fact("guest")) == []
    )


def test_a_question_naming_a_document_is_answered_from_it(make_draft: Build, make_inputs: Inputs) -> None:
    question = "According to the Bylaws, when does the fiscal year run?"
    (message,) = judge(make_draft, make_inputs, question, "January 1 through December 31.", fact("fiscal"))
    assert "the question asks about 'Bylaws of the Association'" in message
    assert "quotes none of its passages" in message
    # the same answer to a question naming the document it quotes passes
    question = "What does the Declaration say about the fiscal year?"
    assert judge(make_draft, make_inputs, question, "January 1 through December 31.", fact("fiscal")) == []


def test_a_document_named_by_its_id(make_draft: Build, make_inputs: Inputs) -> None:
    question = "In report.md, what is the total annual budget?"
    (message,) = judge(make_draft, make_inputs, question, "$93,600.00.", fact("total"))
    assert "'Annual report'" in message


def test_a_bare_quoted_value_does_not_answer_a_derived_question(make_draft: Build, make_inputs: Inputs) -> None:
    question = "What is the change in Other in 2019 from 2018?"
    (message,) = judge(make_draft, make_inputs, question, "Other was 44.1 in 2019.", fact("header", "other"))
    assert "asks for a computed figure (change)" in message and "'44.1'" in message
    # with a verified calc, its result answers
    calc = CalcDerivation(expr="44.1 - 56.7", value="-12.6")
    change = fact("header", "other", text="Other changed by -12.6 from 2018 to 2019.", calc=calc)
    assert judge(make_draft, make_inputs, question, "Other changed by -12.6 million.", change) == []
    assert judge(make_draft, make_inputs, question, "It fell by 12.6.", change) == []  # sign dropped


def test_a_table_column_that_states_the_change_answers_it(make_draft: Build, make_inputs: Inputs) -> None:
    question = "What is the change in Other in 2019 from 2018?"
    # (12.6) sits in the Change column: the table states the change itself
    assert judge(make_draft, make_inputs, question, "(12.6).", fact("header", "other")) == []


@pytest.mark.parametrize(
    ("question", "answer", "lines"),
    [
        ("What is the average monthly assessment?", "$325.00.", ["monthly"]),
        ("What do the operating budget and the reserve contribution add up to?", "$76,200.00.", ["operating"]),
        ("How many more units can be leased?", "Six (6) Units.", ["cap"]),
        ("How much does one unit pay in regular assessments per year?", "$325.00.", ["monthly"]),
    ],
)
def test_derived_questions_block_a_bare_value(
    question: str, answer: str, lines: list[str], make_draft: Build, make_inputs: Inputs
) -> None:
    (message,) = judge(make_draft, make_inputs, question, answer, fact(*lines))
    assert "calc" in message


def test_a_total_of_named_items_is_computed(make_draft: Build, make_inputs: Inputs) -> None:
    question = "What do the operating budget and the reserve contribution add up to?"
    calc = CalcDerivation(expr="76200.00 + 17400.00", value="93600")
    summed = fact("operating", "reserve", text="Together they come to 93600.00.", calc=calc)
    assert judge(make_draft, make_inputs, question, "Together they come to $93,600.00.", summed) == []


def test_a_value_the_question_presupposes_is_not_echoed(make_draft: Build, make_inputs: Inputs) -> None:
    messages = judge(
        make_draft, make_inputs, "Why is the late charge $50.00?", "The late charge is $50.00.", fact("late")
    )
    assert any("repeats '$50.00' from the question, but no quote states it" in m for m in messages)
    messages = judge(
        make_draft,
        make_inputs,
        "When did the Board raise the leasing cap to ten units?",
        "It raised it to ten Units in 2025.",
        fact("cap"),
    )
    assert any("repeats 'ten'" in m for m in messages)
    # a value the quotes state may be repeated
    assert judge(make_draft, make_inputs, "Is the late charge $25.00?", "Yes, $25.00.", fact("late")) == []


def test_a_year_from_the_question_answers_nothing(make_draft: Build, make_inputs: Inputs) -> None:
    (message,) = judge(make_draft, make_inputs, "How much was Other in 2019?", "2019.", fact("header", "other"))
    assert "it asks how much" in message


def test_what_is_not_checked(make_draft: Build, make_inputs: Inputs) -> None:
    draft = make_draft(fact("presents"), level1="The Treasurer presents the budget.")
    assert answerhood.check(make_inputs(draft, sources=SOURCES)) == []  # no question
    abstain = make_draft(mode="report_insufficient_evidence", level1="The documents do not say who.")
    assert answerhood.check(make_inputs(abstain, question="Who is the Treasurer?", sources=SOURCES)) == []
    # an open question has no required form
    assert (
        judge(
            make_draft,
            make_inputs,
            "What happens at the annual meeting?",
            "The Treasurer presents the budget.",
            fact("presents"),
        )
        == []
    )


def test_unverified_quotes_answer_nothing(make_draft: Build, make_inputs: Inputs) -> None:
    built = make_draft(fact("due"), level1="June 1, 2025.", answer="June 1, 2025.")
    forged = {(0, 0): Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail="other text")}
    inputs = make_inputs(
        built, checks=forged, question="According to the minutes, when is the assessment due?", sources=SOURCES
    )
    (finding,) = answerhood.check(inputs)
    assert "quotes none of its passages" in finding.message


def test_a_long_level1_and_a_terse_answer_are_both_read(make_draft: Build, make_inputs: Inputs) -> None:
    built = make_draft(fact("late"), level1="A late charge applies after 15 days.", answer="$25.00.")
    findings = answerhood.check(make_inputs(built, question="How much is the late charge?", sources=SOURCES))
    assert [f.message.split(" ")[0] for f in findings] == ["level1"]


def test_a_table_cell_is_read_with_its_row_and_column(make_draft: Build, make_inputs: Inputs) -> None:
    # "2019" alone sits in the heading row: it is read with the row cited beside it, which names the subject
    assert (
        judge(make_draft, make_inputs, "In which year was Other the largest?", "2019.", fact("header", "other")) == []
    )
    assert judge(make_draft, make_inputs, "Which FY had the larger Other?", "FY2019.", fact("header", "other")) == []
    (message,) = judge(
        make_draft, make_inputs, "In which year was Other the largest?", "44.1.", fact("header", "other")
    )
    assert "which year" in message


def test_an_identifier_answers_what_is_the_number(make_draft: Build, make_inputs: Inputs) -> None:
    question = "What is the instrument number of the Declaration?"
    line = Fact(
        text="Recorded as Instrument No. 2003-118842.",
        support=[
            Support(source_id="declaration.md", locator="p.1 L5-L5", quote="Recorded as Instrument No. 2003-118842.")
        ],
    )
    assert judge(make_draft, make_inputs, question, "Instrument No. 2003-118842.", line) == []
    messages = judge(make_draft, make_inputs, question, "It was recorded in the county records.", line)
    assert messages and messages[0].startswith("level1 does not answer the question")


def test_a_section_is_a_number_not_a_number_word(make_draft: Build, make_inputs: Inputs) -> None:
    question = "Which section covers pets?"
    assert judge(make_draft, make_inputs, question, "Owners may keep two pets.", fact("pets"))
    assert judge(make_draft, make_inputs, "Which section covers roofs?", "Section 8.1.", fact("roofs")) == []


@pytest.mark.parametrize("answer", ["Seven Owners attended as observers.", "Seven.", "7 attended."])
def test_a_count_of_another_noun_does_not_answer_how_many(answer: str, make_draft: Build, make_inputs: Inputs) -> None:
    # The Owners who watched are not the directors asked about: a real number moved to another subject.
    messages = judge(make_draft, make_inputs, "How many directors attended the meeting?", answer, fact("observers"))
    assert any("the question counts directors, but the quote gives" in m and "of owners" in m for m in messages)


def test_the_counted_phrase_ends_at_its_plural() -> None:
    assert counted_words("How many local clubs does the chapter have?") == {"local", "club"}
    assert counted_words("How many directors attended the March meeting?") == {"director"}
    assert counted_words("How many people attended the meeting?") == {stem("people"), "attend"}  # no plural: 3 words
    assert counted_words("How many covered parking spaces does each Unit get?") == {"cover", "park", stem("spaces")}
    assert counted_words("What is the total?") == frozenset()
