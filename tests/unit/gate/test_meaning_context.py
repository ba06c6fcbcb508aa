"""`gate/meaning/context.py`: a quote's subject may be named in another quoted line of its own context (the heading
of its section, the line above it in its paragraph, the sentence it goes on from), while quotes of different
sections, paragraphs or tables stay different contexts that a claim may not join.

The quotes are given with the frames of their page (`layout.frames`), as the meaning rule reads them from the
cited source."""

from __future__ import annotations

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan
from quotebound.agent.gate.layout import Frame, frames
from quotebound.agent.gate.meaning import QuoteSentence, stem
from quotebound.agent.gate.meaning.context import antecedents, continues, quote_contexts

PAGE = [
    "# Cedar Hollow budget",  # 1
    "",  # 2
    "## Reserve fund",  # 3
    "",  # 4
    "Balance on January 1, 2025: $184,250.00.",  # 5
    "Planned reserve expenditure in FY2025: $22,000.00.",  # 6
    "The planned reserve expenditure is for crack sealing and sealcoating the parking lot.",  # 7
    "",  # 8
    "## Gate",  # 9
    "",  # 10
    "The manager will collect bids to replace the keypad; bids are due April 30, 2025.",  # 11
    "New gate codes take effect April 1, 2025.",  # 12
    "",  # 13
    "The Directors have declared a final dividend of 18 cents per share for the year ended 30 June 2019.",  # 14
    "The dividend will be paid on 25 September 2019.",  # 15
    "The monthly assessment is due on the first day of each month.",  # 16
    "It is collected by the manager.",  # 17
]
FRAMES = frames(PAGE)


def quoted(*lines: int) -> tuple[list[QuoteSpan], list[tuple[Frame, ...]]]:
    """Lines of PAGE (1-based) quoted whole, each with its frame."""
    spans = [QuoteSpan("budget.md", f"p.1 L{n}-L{n}", PAGE[n - 1], PAGE[n - 1]) for n in lines]
    return spans, [tuple(FRAMES[n - 1 : n]) for n in lines]


def read(*lines: int) -> tuple[QuoteSentence, ...]:
    spans, framed = quoted(*lines)
    return meaning.read_quotes(spans, framed)


def codes(claim: str, *lines: int) -> list[str]:
    spans, framed = quoted(*lines)
    return [p.code for p in meaning.problems(claim, spans, frames=framed)]


def test_the_heading_of_its_section_is_part_of_a_quotes_context() -> None:
    heading, balance, other = read(3, 5, 9)
    contexts = quote_contexts((heading, balance, other))
    assert {stem("reserve"), stem("fund")} <= contexts[balance]
    assert "gate" not in contexts[balance]  # the heading of another section is not
    assert heading in antecedents(balance, (heading, balance, other))


def test_a_sentence_goes_on_from_the_line_above_that_it_refers_back_to() -> None:
    declared, paid, assessment, collected = read(14, 15, 16, 17)
    assert continues(paid, declared)  # "The dividend" after "a final dividend"
    assert not continues(assessment, paid)  # "The monthly assessment" names something the line above does not
    assert continues(collected, assessment)  # "It" goes on from the line above
    planned, refers, balance = read(6, 7, 5)
    assert continues(refers, planned) and not continues(refers, balance)  # two lines up is not the line above


def test_a_claim_may_join_a_sentence_to_the_one_it_goes_on_from() -> None:
    claim = "The final dividend declared for the year ended 30 June 2019 will be paid on 25 September 2019."
    assert codes(claim, 14, 15) == []
    assert codes("The reserve fund balance on January 1, 2025 was $184,250.00.", 3, 5) == []


def test_a_claim_may_not_join_lines_that_speak_of_different_things() -> None:
    assert codes("The keypad will be replaced on April 1, 2025.", 11, 12) == ["unbound"]  # adjacent lines
    claim = "The reserve fund balance of $184,250.00 will be spent on crack sealing and sealcoating the parking lot."
    assert codes(claim, 5, 7) == ["unbound"]  # one paragraph, two lines apart


def test_the_line_above_names_what_a_figure_is_about() -> None:
    town, population = "Paul is a town in Collin County,\nTexas.", "The population was 1,066 at the 2010 census."
    above = [QuoteSpan("paul.txt", "p.1 L2-L3", town, town), QuoteSpan("paul.txt", "p.1 L4-L4", population, population)]
    apart = [above[0], QuoteSpan("paul.txt", "p.1 L9-L9", population, population)]
    claim = "The town in Collin County had 1,066 residents at the 2010 census."
    names = ["St", "Paul", "Texas"]
    assert meaning.problems(claim, above, "What is the population of St. Paul, Texas?", names) == []
    assert [p.code for p in meaning.problems(claim, apart, "What is the population of St. Paul?", names)] == ["unbound"]


def test_a_figure_bound_only_by_the_questions_name_goes_with_the_words_around_it() -> None:
    """The question's subject names which document, not which quote a figure comes from; the words around the
    figure do ("housed ... Indian restaurant" is said of 2010 and 2013, not of the year the house was built)."""
    built = "The house was built about 1820 in the Federal style."
    housed = (
        'In 2010, it housed the "Green Papaya" fast food restaurant, however, from 2013, the restaurant it became the '
        '"Biryani King" Indian restaurant.'
    )
    spans = [QuoteSpan("zook.txt", "p.1 L3-L3", built, built), QuoteSpan("zook.txt", "p.1 L6-L6", housed, housed)]
    question = "Since when has the Jacob Zook House housed the Biryani King restaurant?"
    names = ["Jacob", "Zook", "House", "Biryani", "King"]
    joined = "The Jacob Zook House has housed the Biryani King Indian restaurant since about 1820."
    assert [p.code for p in meaning.problems(joined, spans, question, names)] == ["unbound"]
    assert meaning.problems("The Jacob Zook House was built about 1820.", spans, question, names) == []
    assert (
        meaning.problems("The house became the Biryani King Indian restaurant from 2013.", spans, question, names) == []
    )


def test_a_long_tables_headings_frame_its_last_row() -> None:
    """The reach of a table's headings is counted from the table's first line, when the layout is known: a total
    row 30 lines below the headings is read under them; a table far below a caption is not its caption's."""
    page = ["Units:", "", "| Unit | Square feet |", "| --- | --- |"]
    page += [f"| {n} | 1,000 |" for n in range(30)] + ["| Total | 30,000 |"]
    spans = [QuoteSpan("units.md", f"p.1 L{n}-L{n}", page[n - 1], page[n - 1]) for n in (3, len(page))]
    page_frames = frames(page)
    heading, total = meaning.read_quotes(spans, [tuple(page_frames[n - 1 : n]) for n in (3, len(page))])
    assert {stem("unit"), stem("square")} <= quote_contexts((heading, total))[total]
    unknown = meaning.read_quotes(spans, [(), ()])  # no layout: counted from the row, as before
    assert stem("square") not in quote_contexts(unknown)[unknown[1]]
