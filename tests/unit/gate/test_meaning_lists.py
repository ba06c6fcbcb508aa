"""`gate/meaning/`: figures said together. A list of figures and a list of periods pair in order; a figure in
brackets after another is its comparative and shares its phrase; words said once for a list belong to its first
item; a claim that restates a quote's range keeps each end; a note marked on a table's heading qualifies its rows; a
table cell's unit may stand in its column's heading. Each honest case has a hostile twin that must stay blocked."""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan
from quotebound.agent.gate.layout import Frame
from quotebound.agent.gate.layout import frames as layout_frames
from quotebound.agent.gate.meaning.model import QuoteSentence
from quotebound.agent.gate.meaning.reading import parse
from quotebound.agent.gate.meaning.swapped import swapped
from tests.unit.gate.conftest import quotes


def framed(page: list[str], *lines: int) -> tuple[list[QuoteSpan], list[tuple[Frame, ...]]]:
    """Lines of `page` (1-based) quoted whole, each with its frame."""
    page_frames = layout_frames(page)
    spans = [QuoteSpan("doc.md", f"p.1 L{n}-L{n}", page[n - 1], page[n - 1]) for n in lines]
    return spans, [tuple(page_frames[n - 1 : n]) for n in lines]


def codes(
    claim: str, spans: list[QuoteSpan], question: str | None = None, frames: list[tuple[Frame, ...]] | None = None
) -> list[str]:
    return [p.code for p in meaning.problems(claim, spans, question, frames=frames or ())]


CASH = [
    "|  | 2019 | 2018 | 2017 |",
    "| Cash and marketable securities | $ 9.0 | $12.2 | $12.8 |",
]


def test_a_list_of_figures_and_a_list_of_periods_pair_in_order() -> None:
    assert (
        codes(
            "Cash and marketable securities were $9.0, $12.2 and $12.8 billion in 2019, 2018 and 2017.", quotes(*CASH)
        )
        == []
    )
    hostile = "Cash and marketable securities were $12.8, $12.2 and $9.0 billion in 2019, 2018 and 2017."
    assert "unbound" in codes(hostile, quotes(*CASH))


def test_a_period_after_a_figure_still_labels_it_when_no_list_follows() -> None:
    assert "unbound" in codes("Cash and marketable securities were $12.8 billion in 2019.", quotes(*CASH))


CENSUS = "Census Pop. % ± 2000 3,491 −7.6 % 2010 10,000 180.5 % 2020 10,000 0.0"


def test_a_year_after_another_figure_heads_the_figures_after_it() -> None:
    """ "2010 10,000 180.5 % 2020": 2020 is not the label of the 10,000 before it."""
    assert "unbound" not in codes("The census table gives a population of 10,000 for 2010.", quotes(CENSUS))


RECEIVABLES = "The ten largest customers represented 49% (53%) of the total trade receivables in 2019."
SHARES = "Domestic sales were 49% of revenue, and exports made up 53% (48%) of the total trade receivables."


def test_a_bracketed_comparative_shares_the_phrase_of_the_figure_before_it() -> None:
    assert codes("Ten largest customers: 49% of total trade receivables in 2019.", quotes(RECEIVABLES)) == []


def test_a_figure_given_the_words_of_another_figure_is_still_unbound() -> None:
    assert "unbound" in codes("Domestic sales were 53% of revenue.", quotes(SHARES))


BIRTHS = [
    "Roche was born on 15 May 1885 in Chelsea.",
    "Maurice Roche Date of birth 22 October 1900 Chelsea Date of death 8 July 1955",
    "Edmund Maurice Roche (22 October 1885 – 8 July 1955) was a British politician.",
]


def test_words_said_once_for_a_list_belong_to_its_first_item() -> None:
    claim = "Another page gives a date of birth of 22 October 1900 and another 22 October 1885."
    assert "unbound" not in codes(claim, quotes(*BIRTHS))


def test_words_of_a_list_do_not_free_a_figure_that_is_no_item_of_it() -> None:
    assert "unbound" in codes("One page gives a date of birth of 22 October 1885.", quotes(*BIRTHS))


DUNN = "Charles J. Dunn (July 14, 1872 – November 10, 1939) was an American jurist and politician."


def test_a_claim_restating_the_quotes_range_keeps_each_end() -> None:
    claim = "Charles J. Dunn (July 14, 1872 – November 10, 1939) was an American jurist, born in Maine."
    assert "unbound" not in codes(claim, quotes(DUNN))
    assert "unbound" in codes("Charles J. Dunn was born on November 10, 1939.", quotes(DUNN))


PERSON = [
    "Dunn",
    "Charles J. Dunn (July 14, 1872 – November 10, 1939) was an American jurist.",
    "Born in Houghton County, Michigan, Dunn lived in Blue Hill, Maine.",
    "",
    "Walter Reed (1851 – 1902) was born in Gloucester County, Virginia.",
]


def test_sentences_of_one_paragraph_naming_one_subject_may_be_joined() -> None:
    spans, frames_ = framed(PERSON, 2, 3)
    claim = "Charles J. Dunn (July 14, 1872 – November 10, 1939) was an American jurist, born in Houghton County."
    assert codes(claim, spans, frames=frames_) == []


def test_a_name_from_a_paragraph_about_someone_else_stays_unbound() -> None:
    spans, frames_ = framed(PERSON, 2, 5)
    claim = "Charles J. Dunn (July 14, 1872 – November 10, 1939) was an American jurist, born in Gloucester County."
    assert "unbound" in codes(claim, spans, frames=frames_)


STORES = [
    "In Endeavour Drinks, BWS and Dan Murphy’s key metrics ended F19 at record highs.",
    "BWS’ convenience offering continued to expand, with delivery now available in 605 stores.",
    "Dan Murphy’s store network grew to 230 with three new store openings.",
]
STORES_Q = "What is the number of stores under Dan Murphy's store network in F19?"


def test_two_quotes_naming_the_asked_subject_speak_of_one_subject() -> None:
    claim = "In Endeavour Drinks, Dan Murphy’s store network grew to 230 with three new store openings."
    assert "unbound" not in codes(claim, quotes(STORES[0], STORES[2]), STORES_Q)


def test_a_figure_joined_to_what_a_quote_about_another_subject_says_stays_unbound() -> None:
    claim = "Dan Murphy’s store network grew to 230 stores, with delivery available in 605 of them."
    assert "unbound" in codes(claim, quotes(STORES[1], STORES[2]), STORES_Q)


EMISSIONS = [
    "** UK & Ireland only – comparable with FY19 Group structure.",  # 1
    "",  # 2
    "|  |  | Emissions reported in tonnes CO2e* |  |",  # 3
    "| Emissions from: | FY19** | FY18** | FY18*** |",  # 4
    "| --- | --- | --- | --- |",  # 5
    "| Combustion of fuel (Scope 1) | 59,495 | 66,336 | 75,600 |",  # 6
    "| Total gross emissions (Scope 1 and 2) | 87,128 | 98,725 | 143,354 |",  # 7
    "",  # 8
    "*** Restated for the former Group structure.",  # 9
]


def test_a_note_marked_on_a_tables_heading_qualifies_its_rows() -> None:
    spans, frames_ = framed(EMISSIONS, 1, 3, 4, 7)
    claim = "Total gross emissions (Scope 1 and 2) were 87,128 tonnes CO2e in FY19, for UK & Ireland only."
    assert codes(claim, spans, frames=frames_) == []


def test_a_note_marked_on_another_column_is_no_context_of_a_row_without_it() -> None:
    spans, frames_ = framed(EMISSIONS, 9, 3, 7)  # "***" marks nothing quoted
    claim = "Total gross emissions (Scope 1 and 2) were 87,128 tonnes CO2e, restated for the former Group structure."
    assert "unbound" in codes(claim, spans, frames=frames_)


@pytest.mark.parametrize(
    "claim",
    [
        "Total gross emissions (Scope 1 and 2) for FY19 were 59,495 tonnes CO2e.",  # another row's figure
        "Total gross emissions (Scope 1 and 2) for FY19 were 87,128 kg CO2e.",  # the column's unit is tonnes
    ],
)
def test_a_table_cells_unit_is_its_columns(claim: str) -> None:
    spans, frames_ = framed(EMISSIONS, 3, 4, 6, 7)
    assert "unbound" in codes(claim, spans, frames=frames_)


def test_a_cell_stated_in_its_columns_unit_passes() -> None:
    spans, frames_ = framed(EMISSIONS, 3, 4, 7)
    assert codes("Total gross emissions (Scope 1 and 2) for FY19 were 87,128 tonnes CO2e.", spans, frames=frames_) == []


RATES = ["|  | 2019 | 2018 |", "| Discount rate | 2.9 | 3.8 |", "| Expected rate of salary increase | 2.5 | 2.5 |"]


def test_a_percentage_of_a_bare_cell_is_bound_to_its_row() -> None:
    assert codes("The discount rate for 2019 was 2.9%.", quotes(*RATES)) == []
    assert "unbound" in codes("The discount rate for 2019 was 2.5%.", quotes(*RATES))
    assert "unbound" in codes("The discount rate for 2019 was 3.8%.", quotes(*RATES))


MINUTES = [
    "President Dana Whitlock called the meeting to order at 7:00 p.m.",
    *[""] * 8,  # far apart: the later line does not go on from the first
    "The meeting was adjourned at 8:42 p.m.",
]
MINUTES_Q = "What time did the Board meeting adjourn?"


def minutes_spans() -> list[QuoteSpan]:
    return [s for s in quotes(*MINUTES) if s.quote]


def test_an_aside_holding_another_quotes_figure_is_said_of_that_figure() -> None:
    # the aside (7:00 p.m., its caller) is the first quote's statement; 8:42 p.m. is said of the meeting adjourning
    claim = (
        "The minutes record that the meeting, called to order at 7:00 p.m. by President Dana Whitlock,"
        " was adjourned at 8:42 p.m."
    )
    assert "unbound" not in codes(claim, minutes_spans(), MINUTES_Q)


def test_a_figure_put_under_another_quotes_predicate_stays_unbound() -> None:
    claim = "The minutes record that President Dana Whitlock called the meeting to order at 8:42 p.m."
    assert "unbound" in codes(claim, minutes_spans(), MINUTES_Q)


def test_two_figures_swapped_between_their_quotes_are_unbound() -> None:
    # each figure is given the predicate of the other's quote: 8:42 p.m. "called to order", 7:00 p.m. "adjourned"
    swapped = "The meeting, called to order at 8:42 p.m. by President Dana Whitlock, was adjourned at 7:00 p.m."
    assert "unbound" in codes(swapped, minutes_spans(), MINUTES_Q)
    assert "unbound" in codes(
        "The meeting was called to order at 8:42 p.m. and adjourned at 7:00 p.m.", minutes_spans(), MINUTES_Q
    )


def test_two_figures_each_said_of_its_own_quote_pass() -> None:
    aside = "The meeting, called to order at 7:00 p.m. by President Dana Whitlock, was adjourned at 8:42 p.m."
    assert "unbound" not in codes(aside, minutes_spans(), MINUTES_Q)
    listed = "The meeting was called to order at 7:00 p.m. and adjourned at 8:42 p.m."
    assert "unbound" not in codes(listed, minutes_spans(), MINUTES_Q)


def test_one_figure_is_not_judged_as_a_swap() -> None:
    # with no second figure there is no other quote's figure to take words from: judged as before
    claim = parse("The meeting, called to order by President Dana Whitlock, was adjourned at 8:42 p.m.")
    holder = QuoteSentence(parse(MINUTES[-1]), "doc.md", 10)
    other = QuoteSentence(parse(MINUTES[0]), "doc.md", 1)
    assert (
        swapped(claim.clauses[-1], claim.values[0], claim, holder, holder.sentence.stems, [holder, other], frozenset())
        is None
    )


RESERVE = [
    "Reserve fund balance on January 1, 2025: $184,250.00.",
    "",
    "Planned reserve expenditure in FY2025: $22,000.00.",
    "",
    "The planned reserve expenditure is for crack sealing and sealcoating the parking lot.",
]
RESERVE_Q = "What share of the reserve fund's balance is the planned FY2025 reserve expenditure?"


def test_a_later_list_item_holding_another_figure_is_said_of_that_figure() -> None:
    spans = [s for s in quotes(*RESERVE) if s.quote]
    claim = (
        "The budget gives a reserve fund balance of $184,250.00 on January 1, 2025 and a planned reserve expenditure"
        " of $22,000.00 for crack sealing and sealcoating the parking lot."
    )
    assert "unbound" not in codes(claim, spans, RESERVE_Q)


def test_a_balance_said_to_be_for_what_the_expenditure_is_for_stays_unbound() -> None:
    spans = [s for s in quotes(*RESERVE) if s.quote]
    claim = "The budget gives a reserve fund balance of $184,250.00 for crack sealing and sealcoating the parking lot."
    assert "unbound" in codes(claim, spans, RESERVE_Q)


STAFF = (
    "As of the 2015-16 school year, the school had an enrollment of 2,202 students and 160 classroom teachers "
    "(on an FTE basis), for a student-teacher ratio of 13.8."
)


def test_a_figure_given_the_noun_of_the_list_item_before_it_is_unbound() -> None:
    """ "2,202 students and 160 classroom teachers": "students" is 2,202's; 160's own words are after it."""
    assert "unbound" in codes("The school had an enrollment of 160 students.", quotes(STAFF))
    assert "unbound" in codes("As of 2015-16 the school had 160 students.", quotes(STAFF))


def test_each_item_of_a_list_keeps_its_own_noun() -> None:
    assert "unbound" not in codes("The school had an enrollment of 2,202 students.", quotes(STAFF))
    assert "unbound" not in codes("The school had 160 classroom teachers.", quotes(STAFF))


OPCASH = (
    "Net cash provided by operating activities decreased during fiscal 2019 compared to fiscal 2018 primarily due to "
    "certain unfavorable cash changes in working capital balances."
)


def test_words_running_on_into_the_next_figure_are_not_the_figures_own() -> None:
    """ "fiscal 2019 compared to fiscal 2018 primarily due to ...": "compared" leads 2018, not 2019."""
    claim = (
        "Net cash provided by operating activities decreased in fiscal 2019 primarily due to unfavorable cash changes."
    )
    assert "unbound" not in codes(claim, quotes(OPCASH))
