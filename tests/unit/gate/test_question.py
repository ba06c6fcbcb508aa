"""What a question asks (`agent/gate/question.py`): the answer type it expects, its subject, the document it names,
the derived figure it asks for, and the values it takes for granted."""

from __future__ import annotations

from decimal import Decimal

import pytest

from quotebound.agent.gate.inputs import SourceInfo
from quotebound.agent.gate.question import named_sources, number_words, rate_of, read_question

SOURCES = (
    SourceInfo("declaration.md", "Declaration of Covenants, Conditions and Restrictions for Cedar Hollow"),
    SourceInfo("bylaws.md", "Bylaws of Cedar Hollow Owners Association"),
    SourceInfo("budget-2025.md", "Cedar Hollow Owners Association — Annual Budget, Fiscal Year 2025"),
    SourceInfo("board-minutes-2025-03.md", "Cedar Hollow Owners Association — Minutes of the Regular Board Meeting"),
    SourceInfo("unit-schedule.md", "Cedar Hollow Owners Association — Unit Schedule (Exhibit B to the Declaration)"),
    SourceInfo("newsletter-spring-2025.md", "The Hollow Herald — Spring 2025"),
    SourceInfo("bsd-3-clause.txt", "BSD 3-Clause License"),
    SourceInfo("gpl-3.0.txt", "GNU General Public License v3.0"),
)


@pytest.mark.parametrize(
    ("question", "expects"),
    [
        ("Who is the Treasurer?", "entity"),
        ("Who maintains the roofs?", "entity"),
        ("When is the special assessment due?", "date"),
        ("According to the Bylaws, when does the fiscal year run?", "date"),
        ("How many pets can I keep?", "count"),
        ("How much notice do I need to inspect the records?", "count"),
        ("How much is the late charge?", "amount"),
        ("By how much will the reserve fund balance change?", "amount"),
        ("What percentage of the budget goes to reserves?", "percent"),
        ("What was the percentage change in underlying EBITDA between 2018 and 2019?", "percent"),
        ("In which year was the amount for Sensors the largest?", "year"),
        ("Which section of the Declaration covers pets?", "section"),
        ("Where is the main water shut-off valve?", "place"),
        ("Is cumulative voting allowed?", "polarity"),
        ("Can I breed pets in my unit?", "polarity"),
        ("How long can a guest park in a guest space?", "duration"),
        ("Over what period is the cost expected to be recognized?", "duration"),
        ("How often is a reserve study required?", "frequency"),
        ("What was the amount of Rent and other deposits in 2018?", "count"),
        ("What is the population of Pilzno?", "count"),
        ("If the Bylaws and the Declaration conflict, which one controls?", "open"),
        ("How is the discount rate determined?", "open"),
        ("What are the components of total revenue?", "open"),
        ("Why is the late charge $50.00?", "open"),
    ],
)
def test_the_expected_answer_type(question: str, expects: str) -> None:
    assert read_question(question).expects == expects


def test_the_subject_is_the_question_s_own_content_words() -> None:
    assert read_question("What is the late charge for an unpaid assessment?").subject == {
        "lat",
        "charg",
        "unpaid",
        "assessment",
    }
    # a capitalized row name keeps its place even when it is a function word; a code names the subject too
    assert "other" in read_question("What is the change in Other in 2019 from 2018?").subject
    assert "4b" in read_question("What is the square footage of unit 4B?").subject
    # the phrase naming a document is not the subject
    assert read_question("According to the newsletter, when does cleanup day start?").subject == {"cleanup", "start"}


def test_who_questions_keep_their_verb() -> None:
    assert read_question("Who maintains the roofs?").predicate == "maintain"
    assert read_question("Who is the Treasurer?").predicate is None


@pytest.mark.parametrize(
    ("question", "families"),
    [
        ("What is the change in Other in 2019 from 2018?", ["change"]),
        ("What is the percentage change in Other in 2019 from 2018?", ["change"]),
        ("What is the 2019 average free cash flow?", ["average"]),
        ("What is the ratio of total assets to total liabilities in 2019?", ["ratio"]),
        ("How many more units can be leased before the cap is reached?", ["difference"]),
        ("What is the difference between the normal and the adjourned-meeting quorum?", ["difference"]),
        ("What is the total square footage of all Douglas units?", ["total"]),
        ("What is the total number of nonvested shares as of December 31, 2019 and 2018?", ["total"]),
        ("What is the percentage of audit fees in total fees in 2019?", ["ratio"]),
        # one line of a table, a reason, a qualitative change, separate values: nothing to compute
        ("What is the combined FY2025 budget for the management fee and legal fees?", ["total"]),  # label between
        ("What is the total annual budget?", []),
        ("What is the total FY2025 budget?", []),  # a period label before one line's noun: still one line
        ("What were the total liabilities of IMFT in 2018?", []),
        ("What is the total cost of goods sold for 2018 and 2019 respectively?", []),
        ("What was the reason for the increase in the Orders?", []),
        ("Why did total sales fall in 2019?", []),
        ("What is the change to the classification of financial assets?", []),
        ("How many directors are on the Board?", []),
    ],
)
def test_derived_figures(question: str, families: list[str]) -> None:
    assert [d.family for d in read_question(question).derived] == families


def test_a_total_of_named_items_keeps_each_item() -> None:
    (derivation,) = read_question("What do the operating budget and the reserve contribution add up to?").derived
    assert derivation.family == "total"
    assert derivation.parts == (frozenset({"operat", "budget"}), frozenset({"reserv", "contribution"}))
    (figures,) = read_question("What is the total gross emissions (Scope 1 and 2) in 2018 and 2019?").derived
    assert figures.parts == ()  # figures joined by "and" are not items


def test_the_rate_a_question_asks_per() -> None:
    assert read_question("How much does one unit pay in regular assessments per year?").rate == "year"
    assert read_question("What is the monthly assessment?").rate is None  # not a figure question
    assert read_question("How much goes to the reserve fund this year?").rate is None  # "this year" is no rate
    assert rate_of("Monthly regular assessment per Unit: $325.00.") == "month"
    assert rate_of("Unpaid assessments bear interest at 12% per year.") == "year"


def test_values_a_question_takes_for_granted() -> None:
    late = read_question("Why is the late charge $50.00?")
    assert [written for _, written in late.presupposed] == ["$50.00"]
    cap = read_question("When did the Board raise the leasing cap to ten units?")
    assert [(key, written) for key, written in cap.presupposed] == [(("num", Decimal(10)), "ten")]
    # dates and years say when; "one" is also a pronoun
    framed = read_question("What is the difference between the rates as at September 30, 2019 for one plan?")
    assert framed.presupposed == ()
    assert {written for _, written in framed.values} == {"September 30, 2019"}


def test_a_choice_question_offers_its_own_values() -> None:
    assert read_question("Which year had higher sales, 2018 or 2019?").offers_choice
    assert read_question("Between 2018 and 2019, which year had higher sales?").offers_choice
    assert not read_question("What were sales in 2019?").offers_choice


def test_number_words() -> None:
    assert [(v, "twelve (12) months"[a:b]) for v, a, b in number_words("twelve (12) months")] == [
        (Decimal(12), "twelve")
    ]
    assert [v for v, _, _ in number_words("Twenty-five units, seven days, and someone")] == [Decimal(25), Decimal(7)]


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("According to the newsletter, when does cleanup day start?", {"newsletter-spring-2025.md"}),
        ("What does the Declaration say about the size of the Board?", {"declaration.md"}),
        ("What does the FY2025 budget say the monthly assessment is?", {"budget-2025.md"}),
        ("What do the board minutes say about guest parking?", {"board-minutes-2025-03.md"}),
        ("According to the Unit Schedule, how many units are there?", {"unit-schedule.md"}),
        ("Under the bylaws, how many directors are there?", {"bylaws.md"}),
        ("In budget-2025.md, what is the total?", {"budget-2025.md"}),
        ("What is in the 2025 minutes about pets?", {"board-minutes-2025-03.md"}),
        ("Does the BSD license require attribution?", {"bsd-3-clause.txt"}),
        # a subject, not a document: nothing is named
        ("How many pets can I keep in my unit?", set()),
        ("When must the Board adopt the annual budget?", set()),
        ("How many directors are on the Board?", set()),
        ("If the Bylaws and the Declaration conflict, which one controls?", set()),
        ("What is the licence fee for the pool?", set()),
    ],
)
def test_the_document_a_question_names(question: str, named: set[str]) -> None:
    assert named_sources(question, SOURCES) == named


def test_a_document_named_with_its_year_after_it() -> None:
    reports = (SourceInfo("ar-2019.pdf", "Annual Report 2019"), SourceInfo("ar-2018.pdf", "Annual Report 2018"))
    assert named_sources("What was revenue in the Annual Report 2019?", reports) == {"ar-2019.pdf"}
    assert named_sources("According to the 2018 annual report, what was revenue?", reports) == {"ar-2018.pdf"}
    assert named_sources("What was revenue in 2019?", reports) == frozenset()


def test_only_readable_sources_can_be_named() -> None:
    readable = tuple(s for s in SOURCES if s.source_id != "bylaws.md")
    assert named_sources("According to the Bylaws, when does the fiscal year run?", readable) == frozenset()


@pytest.mark.parametrize(
    ("question", "expects"),
    [
        ("What is the 2019 notional amount of the interest rate swaps?", "count"),  # modifiers before "amount"
        ("What is the total value of long-term senior notes?", "count"),
        ("What are the components of total revenue?", "open"),  # "total" after "of" names the subject
    ],
)
def test_a_quantity_noun_after_modifiers_asks_for_a_figure(question: str, expects: str) -> None:
    assert read_question(question).expects == expects


def test_a_causal_question_is_read_as_one() -> None:
    assert read_question("Why did Suzuki stop manufacturing the V-Strom 1000 in 2009?").causal
    assert read_question("What was the reason for the increase in revenue?").causal
    assert not read_question("When did Suzuki stop selling the V-Strom 1000 in Europe?").causal


def test_a_document_named_only_by_its_names() -> None:
    sources = (
        SourceInfo("q072-d00.txt", "Jacob Zook House, also known as the Rodney House, is a historic home."),
        SourceInfo("q051-d00.txt", "Bonner House is a historic home located at Bath, North Carolina."),
    )
    question = "According to the Jacob Zook House article, when was the house built?"
    assert named_sources(question, sources) == {"q072-d00.txt"}
    assert named_sources("According to the Fort Kent census summary, what is the median age?", sources) == set()


def test_a_kind_word_every_license_shares_does_not_outweigh_the_distinctive_name() -> None:
    licenses = (
        SourceInfo("Apache-2.0.txt", "Apache License"),
        SourceInfo("BSD.txt", "Copyright (c) The Regents of the University of California."),
        SourceInfo("GPL-3.txt", "GNU GENERAL PUBLIC LICENSE"),
    )
    # BSD.txt's title never says "license": the distinctive word names it, not every source titled "... License"
    assert named_sources("Who owns the copyright in the BSD license text?", licenses) == {"BSD.txt"}
    assert named_sources("Under the Apache License, may I sublicense?", licenses) == {"Apache-2.0.txt"}
    # a distinctive word no source writes leaves the kind's sources named as before
    assert named_sources("What does the Zork license say?", licenses) == {"Apache-2.0.txt", "GPL-3.txt"}


def test_a_kind_word_alone_names_none_of_several_sources_of_that_kind() -> None:
    licenses = (SourceInfo("Apache-2.0.txt", "Apache License"), SourceInfo("GPL-3.txt", "GNU GENERAL PUBLIC LICENSE"))
    assert named_sources("Can I sell copies under the license?", licenses) == frozenset()
    # one source of that kind: the phrase names it
    assert named_sources("Can I sell copies under the license?", licenses[:1]) == {"Apache-2.0.txt"}
