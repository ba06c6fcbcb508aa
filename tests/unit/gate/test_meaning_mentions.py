"""`gate/meaning/`: how a claim's figure is told apart from the quote's other figures. A figure a sentence says twice
keeps each mention's period; the words that lead a claim's next figure after "and" are that figure's; the two ends
of a quoted range are one span; a quote about another period is no rival of a labelled figure; a figure inside a
name the question asks about is the name; a colon opens a clause with its own subject. Each honest case has a
hostile twin that must stay blocked."""

from __future__ import annotations

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan
from tests.unit.gate.conftest import quotes


def codes(claim: str, spans: list[QuoteSpan], question: str | None = None) -> list[str]:
    return [p.code for p in meaning.problems(claim, spans, question)]


COLLATERAL = "The amount of deposits held as collateral at 31 December 2019 is £3.5 million (2018: £3.5 million)."


def test_a_figure_said_twice_keeps_the_period_of_its_unlabelled_mention() -> None:
    claim = "Deposits held as collateral were £3.5 million at 31 December 2019."
    assert "unbound" not in codes(claim, quotes(COLLATERAL))
    other = "The amount of deposits held as collateral at 31 December 2019 is £4.1 million (2018: £3.5 million)."
    assert "unbound" in codes(claim, quotes(other))


FAIR_VALUE = ["| Purchased technology | 4.2 | $232 |", "| Trademarks and tradenames | 5.0 | 25 |"]


def test_words_after_and_lead_the_next_figure() -> None:
    honest = "Purchased technology has a fair value amount of $232 and trademarks and tradenames 25."
    assert "unbound" not in codes(honest, quotes(*FAIR_VALUE))
    swapped = "Purchased technology has a fair value amount of $25 and trademarks and tradenames 232."
    assert "unbound" in codes(swapped, quotes(*FAIR_VALUE))


def test_the_two_ends_of_a_quoted_range_are_one_span() -> None:
    quote = (
        "- Ardhangini (2017 TV series), a 2017–2018 Indian Finnish-language television series which aired on Zee TV."
    )
    claim = "A list calls the 2017 series a Finnish-language series which aired on Zee TV."
    assert "unbound" not in codes(claim, quotes(quote))


TOWNSHIP = [
    "As of the 2000 census, the township population was 428.",
    "1990 13,497 23.2 % 2000 16,571 22.8 % 2010 42,800 158.3 %",
]


def test_a_quote_about_another_period_is_no_rival_of_a_labelled_figure() -> None:
    assert "unbound" not in codes("A census table gives 42,800 for 2010.", quotes(*TOWNSHIP))
    assert "unbound" in codes("A census table gives 42,800 for 2000.", quotes(*TOWNSHIP))


DIVISION = [
    "The division was formed on the order of the Military Council on July 26, 1918, under the name 1st Simbirsk "
    "Infantry Division.",
    "In November 1918 it was renamed as the 24th Simbirsk Rifle Division.",
]
ASKED = "24th Rifle Division was formed in which year?"


def gives(claim: str, spans: list[QuoteSpan], question: str | None, figure: str) -> bool:
    """A binding problem about `figure`."""
    return any(p.detail.startswith(f"gives {figure} ") for p in meaning.problems(claim, spans, question))


def test_a_figure_inside_a_name_the_question_asks_about_is_that_name() -> None:
    claim = "The 24th Rifle Division was formed on July 26, 1918."
    assert not gives(claim, quotes(*DIVISION), ASKED, "24")
    # the question does not name it: the figure is the claim's own, and the formation quote does not give it
    assert gives(claim, quotes(*DIVISION), "When was the Rifle Division formed?", "24")


def test_a_figure_beside_no_capitalized_word_is_still_bound() -> None:
    claim = "The Rifle Division was formed with 24 regiments on July 26, 1918."
    assert gives(claim, quotes(*DIVISION), ASKED, "24")


BAKER = (
    "221B Baker Street (board game) 221B Baker Street: The Master Detective Game is a board game featuring Arthur "
    "Conan Doyle's fictional detective and developed by Jay Moriarty in 1975."
)


AUDITOR = (
    "External audit: Deloitte was appointed as intu’s external auditor for the 2019 audit following approval at the "
    "2019 AGM, succeeding PwC."
)


def test_a_colon_opens_a_clause_with_its_own_subject() -> None:
    assert "meaning" not in codes("The Master Detective Game, developed in 1975.", quotes(BAKER))
    question = "Who is intu's external auditor for the 2019 audit?"
    honest = "Deloitte is intu's external auditor for the 2019 audit, having succeeded PwC."
    assert "meaning" not in codes(honest, quotes(AUDITOR), question)
    # a name the clause after the colon gives another role still may not become the subject
    hostile = "PwC is intu's external auditor for the 2019 audit, having succeeded Deloitte."
    assert "meaning" in codes(hostile, quotes(AUDITOR), question)


GEOGRAPHY = ["| (In thousands) | 2019 | 2018 |", "| Mexico | 90,795 | 12,186 |", "| Germany | 78,062 | 167,251 |"]


def test_a_figure_moved_to_the_row_the_question_names_is_unbound() -> None:
    question = "What were the sales in Germany in 2019?"
    honest = "Germany sales were 78,062 thousand in 2019."
    assert "unbound" not in codes(honest, quotes(*GEOGRAPHY), question)
    moved = "Germany sales were 90,795 thousand in 2019."  # Mexico's figure, given to the row the question names
    assert "unbound" in codes(moved, quotes(*GEOGRAPHY), question)


OLTL = ["|  | April 26, 2019 | April 27, 2018 |", "| Other long-term liabilities | $ 29 | $ 25 |"]


def test_a_whole_quote_sentence_written_in_quotation_marks_keeps_its_own_periods() -> None:
    honest = 'The table shows "| Other long-term liabilities | $ 29 | $ 25 |" with April 26, 2019 in the first column.'
    assert "unbound" not in codes(honest, quotes(*OLTL))
    # a figure written outside the marks is still the claim's own
    hostile = 'The table shows "| Other long-term liabilities | $ 29 | $ 25 |": $25 for April 26, 2019.'
    assert "unbound" in codes(hostile, quotes(*OLTL))


POETS = "The first was centered around a core group of five poets: John Ashbery, Barbara Guest and Frank O'Hara."
PAINTING = "The school is known for abstract expressionist painting and its painters."


def test_a_bracket_reporting_another_source_is_not_what_the_figure_is_for() -> None:
    honest = "Poetry: a core group of five poets (one source says abstract expressionist painting)."
    assert "unbound" not in codes(honest, quotes(POETS, PAINTING))
    # the same words in a bracket that reports nothing, or in the clause itself, are the figure's
    for joined in (
        "Poetry: a core group of five poets (abstract expressionist painting).",
        "A core group of five abstract expressionist painters.",
    ):
        assert "unbound" in codes(joined, quotes(POETS, PAINTING))


def test_a_quote_written_in_quotation_marks_keeps_its_polarity() -> None:
    rule = "No pet may be kept for breeding or any commercial purpose."
    question = "Can pets be kept for breeding?"
    assert codes(f'The Declaration\'s pet rules say: "{rule}"', quotes(rule), question) == []
    assert "meaning" in codes(f'It is not true that "{rule}"', quotes(rule), question)
