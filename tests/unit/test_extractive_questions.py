"""The extractive model's reading of questions and lines, without a store: derived-figure cues (a change between
two points, a named sum), the value a line gives (a name after its label, a number written in digit groups), and
the values a gate finding quotes for repair."""

from __future__ import annotations

import pytest

from quotebound.agent.models.extractive_calc import change_points, split_operands
from quotebound.agent.models.extractive_line_text import is_lead_in, is_page_chrome
from quotebound.agent.models.extractive_pool import Line
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_repair import _stated_values
from quotebound.agent.models.extractive_score import Scored, stated_for_subject
from quotebound.agent.models.extractive_values import extract_values, line_value
from quotebound.agent.models.extractive_words import contracted_stopword

FALL = "By how much is the reserve fund balance projected to fall between January 1 and December 31, 2025?"


def test_a_fall_between_two_points_is_the_earlier_value_minus_the_later() -> None:
    question = analyze(FALL)
    assert question.op == "difference"
    assert change_points(question) == ("January 1", "December 31, 2025")
    assert split_operands(question)[0] == ("January 1", "December 31, 2025")


@pytest.mark.parametrize(
    "text",
    ["How much did dues rise from 2024 to 2025?", "What was the change in the deposit from 2024 to 2025?"],
)
def test_a_rise_or_a_change_is_the_later_value_minus_the_earlier(text: str) -> None:
    question = analyze(text)
    assert question.op == "difference"
    assert change_points(question) == ("2025", "2024")


@pytest.mark.parametrize(
    "text",
    ["Does the late fee increase after 30 days?", "Did the Board change the pool rules?", "When did dues rise?"],
)
def test_a_change_verb_without_a_quantity_asked_is_no_arithmetic(text: str) -> None:
    question = analyze(text)
    assert question.op is None
    assert change_points(question) is None


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("What is the sum of the electricity budget and the water and sewer budget?", "the electricity budget"),
        ("What is the combined FY2025 budget for electricity and for water and sewer?", "electricity"),
        ("What is the total cost of landscaping and snow removal?", "landscaping"),
    ],
)
def test_a_sum_that_names_its_operands_is_split(text: str, first: str) -> None:
    question = analyze(text)
    assert question.op == "sum"
    assert split_operands(question)[0][0] == first


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("What does the contract cost for the twelve months of 2025?", "annual"),
        ("How much does one Unit pay over the whole year?", "annual"),
        ("What is the full year cost of the contract?", "annual"),
        ("What does the contract cost per year?", "annual"),
        ("What does the contract cost in 2025?", None),
    ],
)
def test_a_year_named_by_its_months_asks_for_an_annual_figure(text: str, period: str | None) -> None:
    assert analyze(text).period == period


def test_a_plain_total_names_no_operands() -> None:
    assert split_operands(analyze("What is the total annual budget?")) == []


def test_a_named_number_is_an_identifier_and_a_number_of_things_a_count() -> None:
    account = analyze("What is the account number for paying dues to the Association?")
    assert account.kind == "identifier"
    assert "number" in account.words  # the name of what is asked, searched for like any other word
    assert analyze("What is the number of units?").kind == "count"
    assert analyze("What is the maximum number of pets?").kind == "count"


def test_digit_groups_are_one_identifier_and_a_run_of_years_is_not() -> None:
    assert [(v.text, v.kind) for v in extract_values("Account number: 6038 1157 2294.") if v.kind != "entity"] == [
        ("6038 1157 2294", "identifier")
    ]
    assert {v.kind for v in extract_values("| Year | 2023 2024 2025 |") if v.kind != "entity"} == {"year"}


def test_a_who_question_takes_the_name_after_the_label_not_the_subject_it_names() -> None:
    question = analyze("Who chairs the Social Committee?")
    value = line_value(question, "Social Committee chair: Marisol Ortega, Unit 3A, [email withheld].")
    assert value is not None and value.text == "Marisol Ortega"


def test_repair_reads_the_values_a_finding_quotes() -> None:
    message = (
        "resident-contacts.md p.1 L18-L18 states 'Marisol Ortega' where fact 0 states 'Ellen Marsh' "
        "(newsletter-spring-2025.md p.1 L61-L61), for the same subject; list both values in evidence.conflicts"
    )
    assert _stated_values(message)[:2] == ["Marisol Ortega", "Ellen Marsh"]
    assert _stated_values("budget-2025.md p.1 L11-L11 states '$325.00' where fact 0 states '$340.00'")[:2] == [
        "$325.00",
        "$340.00",
    ]


@pytest.mark.parametrize(
    ("line", "lead_in"),
    [
        ("The following table presents total external revenues by geographic location:", True),
        ("Under the DSU Plan, the following DSUs were issued and are outstanding at August 31:", True),
        ("| Amounts falling due within one year: |  |  |", True),
        ("Income from vessel operations increased to $299.3 million in 2019, primarily as a result of:", False),
        ("Quiet hours: 10:00 p.m. to 7:00 a.m.", False),
        ("The late charge is $25.00.", False),
    ],
)
def test_a_line_that_only_introduces_what_follows_is_no_answer(line: str, lead_in: bool) -> None:
    assert is_lead_in(line) is lead_in


MODULES = (
    "Net sales from our modules segment increased by $958.1 million in 2019 primarily due to a 180% increase in "
    "the volume of watts sold."
)


def _scored(question: str, text: str) -> Scored:
    asked = analyze(question)
    return Scored(Line("a.md", 1, 1, text), 1.0, 1.0, line_value(asked, text), None, True, None)


def test_a_change_is_answered_only_by_a_figure_stated_for_what_changed() -> None:
    question = "What was the percentage increase in modules sales from 2018 to 2019?"
    scored = _scored(question, MODULES)
    assert scored.value is not None and scored.value.text == "180%"
    assert not stated_for_subject(analyze(question), scored)  # the volume's increase, not the sales'
    honest = "Net sales from our modules segment increased by 191% in 2019."
    assert stated_for_subject(analyze(question), _scored(question, honest))
    # a line that never names the subject is not judged here; nor is a question that asks no change
    assert stated_for_subject(analyze(question), _scored(question, "Volume rose by 180% in 2019."))
    assert stated_for_subject(analyze("What percentage of watts sold?"), _scored("What percentage of watts?", MODULES))


def test_a_saved_pages_menu_is_no_answer() -> None:
    chrome = (
        "Jimmy Ryan (footballer, born 1975) - Wikipedia Jump to content Main menu Main menu move to sidebar hide "
        "Navigation Main page Contents Current events Random article"
    )
    assert is_page_chrome(chrome)
    assert not is_page_chrome("Jimmy Ryan (born 6 September 1975) is an English former footballer.")
    assert not is_page_chrome("Contact us for navigation help.")  # two phrases are not a menu


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Is cumulative voting allowed when electing directors?", None),
        ("Does an owner need approval before changing who maintains the deck?", None),
        ("When is the annual meeting held?", "date"),
        ("Who is the treasurer?", "entity"),
    ],
)
def test_a_question_opening_with_an_auxiliary_asks_yes_or_no_not_the_kind_of_a_later_clause(
    text: str, kind: str | None
) -> None:
    assert analyze(text).kind == kind


def test_an_acronym_and_its_plural_are_acronyms_a_capitalized_word_is_not() -> None:
    question = analyze("Are RVs or an LLC allowed in Parking?")
    assert {"rvs", "llc"} <= question.acronyms
    assert "parking" not in question.acronyms


def test_a_contracted_stopword_is_no_content_word() -> None:
    question = analyze("How long do I have to fix a violation once I've been notified?")
    assert "i've" not in question.words
    assert "notified" in question.words
    assert "fix" in question.words


def test_a_contraction_of_a_content_word_stays() -> None:
    assert contracted_stopword("you're")
    assert not contracted_stopword("don't")
    assert not contracted_stopword("O'Brien")
