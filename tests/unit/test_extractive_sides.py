"""The extractive model reads other documents' own answers before stating one (`extractive_sides`)."""

from __future__ import annotations

from quotebound.agent.models.extractive_line_text import is_page_chrome
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_sides import asked_noun, copy_sides, disputed, names_subject
from quotebound.agent.models.extractive_subject import subject_names
from quotebound.agent.models.extractive_values import Value


def scored(source_id: str, text: str, value: str | None = None) -> Scored:
    found = Value(value, "year", text.index(value)) if value else None
    return Scored(Line(source_id, 1, 1, text), 1.0, 1.0, found, None, True, None)


def pool(*lines: tuple[str, str]) -> LinePool:
    found = LinePool()
    for n, (source_id, text) in enumerate(lines, start=1):
        found.add(Line(source_id, 1, n, text))
    return found


ANSWER = (
    "Red Brick, located in New York City, was added to the National Register of Historic Places in 1998 by residents."
)
COPY = "Red Brick was added to the National Register of Historic Places in 1998 by residents."


def test_a_copy_without_the_answering_clause_disputes_it() -> None:
    question = analyze("Where is the Red Brick School located?")
    assert disputed(question, [scored("a.txt", ANSWER)], pool(("a.txt", ANSWER), ("b.txt", COPY)))


def test_a_copy_that_agrees_or_is_cut_short_does_not() -> None:
    question = analyze("Where is the Red Brick School located?")
    assert not disputed(question, [scored("a.txt", ANSWER)], pool(("b.txt", ANSWER)))
    cut = "Red Brick, located in New York City, was added to the National"
    assert not disputed(question, [scored("a.txt", ANSWER)], pool(("b.txt", cut)))
    other = "The building was sold to a developer in 2005 and restored."
    assert not disputed(question, [scored("a.txt", ANSWER)], pool(("b.txt", other)))


def test_a_copy_with_the_value_swapped_disputes_it() -> None:
    question = analyze("When was the school added to the National Register?")
    line = "The old school was added to the National Register of Historic Places in 1998 by residents."
    swapped = line.replace("1998", "2004")
    assert disputed(question, [scored("a.txt", line, "1998")], pool(("b.txt", swapped)))
    assert not disputed(question, [scored("a.txt", line, "1998")], pool(("b.txt", line)))


def test_another_name_before_the_asked_noun_for_the_same_subject_disputes_it() -> None:
    question = analyze("What political party was William Fields affiliated with?")
    assert asked_noun(question) == "party"
    mine = "William Fields, a figure in politics, was affiliated with the Whig party."
    theirs = "William Fields remained firmly aligned with the Democratic Party."
    assert disputed(question, [scored("a.txt", mine)], pool(("b.txt", theirs)))
    about_another = "Jane Fields remained firmly aligned with the Democratic Party."
    assert not disputed(question, [scored("a.txt", mine)], pool(("b.txt", about_another)))
    agreeing = "William Fields joined the Whig party in 1834."
    assert not disputed(question, [scored("a.txt", mine)], pool(("b.txt", agreeing)))


def test_a_run_of_list_items_is_no_answer() -> None:
    aliases = "1885-1955 ) ; Морис Рош ; Edmund Burke-Roche ; Maurice Burke Roche ; Maurice Roche ; Edmund Roche"
    assert is_page_chrome(aliases)
    prose = "The duties are: budgets; audits; reserves; insurance; collections; and reports. The Board reviews them."
    assert not is_page_chrome(prose)


def _entity(source_id: str, text: str, value: str, line_no: int = 4) -> Scored:
    return Scored(
        Line(source_id, 1, line_no, text), 1.0, 1.0, Value(value, "entity", text.index(value)), None, True, None
    )


def _lines(*lines: tuple[str, int, str]) -> LinePool:
    found = LinePool()
    for source_id, line_no, text in lines:
        found.add(Line(source_id, 1, line_no, text))
    return found


def test_a_name_the_subject_s_own_page_never_gives_disputes_it() -> None:
    """A passing mention names the artist; the page about the album (its first line opens with the album's name)
    names another and never this one: the model states neither. The page naming the same artist, a page about
    something else, or an answer from the subject's own page is no dispute."""
    question = analyze('Who is the artist of the album "Harbor Lights"?')
    mention = "The soundtrack includes the main song performed by Nora Vance, a chart-topping success."
    page = "Harbor Lights (Tom Reyes album) Harbor Lights is the debut album released by Tom Reyes."
    answer = _entity("a.txt", mention, "Nora Vance")
    assert disputed(question, [answer], _lines(("a.txt", 4, mention), ("b.txt", 1, page)))
    agreeing = page.replace("Tom Reyes", "Nora Vance")
    assert not disputed(question, [answer], _lines(("a.txt", 4, mention), ("b.txt", 1, agreeing)))
    not_first = _lines(("a.txt", 4, mention), ("b.txt", 7, page))  # not the page's opening line
    assert not disputed(question, [answer], not_first)
    other_page = "Blue Water (Tom Reyes album) Blue Water is the second album released by Tom Reyes."
    assert not disputed(question, [answer], _lines(("a.txt", 4, mention), ("b.txt", 1, other_page)))
    own = _entity("b.txt", page, "Tom Reyes", line_no=1)
    mention_other = mention.replace("Nora Vance", "Lia Moss")
    assert not disputed(question, [own], _lines(("b.txt", 1, page), ("a.txt", 4, mention_other)))


def test_a_what_noun_line_the_subject_s_own_page_shares_no_word_with_disputes_it() -> None:
    """Asked what sport, a passing line says cricket; the subject's own page speaks of American football and shares
    no word the answering line adds to the question. A page that does share one is no dispute."""
    question = analyze("What sport is Tom Reyes associated with?")
    mention = "Tom Reyes, a renowned figure in cricket, is known for his commentary on the sport."
    page = "Tom Reyes (American football) Tom Reyes is a former American football lineman."
    answer = Scored(Line("a.txt", 1, 7, mention), 1.0, 1.0, None, None, True, None)
    assert disputed(question, [answer], _lines(("a.txt", 7, mention), ("b.txt", 1, page)))
    cricket = "Tom Reyes (cricketer) Tom Reyes is a former cricket player and commentator."
    assert not disputed(question, [answer], _lines(("a.txt", 7, mention), ("b.txt", 1, cricket)))


def test_a_hyphenated_name_is_named_in_full() -> None:
    names = subject_names(analyze("When was Admiral Kerr-Lyle born?"))
    assert names_subject("Admiral Kerr-Lyle was born at sea.", names)
    assert not names_subject("Admiral Kerr was born at sea.", names)


def test_a_copy_with_another_value_in_the_answers_place_is_listed_beside_it() -> None:
    answer = "The old pier was rebuilt in 1931 to replace the first one."
    mine = "Rebuilt in 1931, the pier is one of the longest wooden piers on the northern coast of the bay."
    theirs = mine.replace("1931", "1908")
    lines = pool(("a.txt", answer), ("a.txt", mine), ("b.txt", theirs))
    top = scored("a.txt", answer, "1931")
    sides = copy_sides([top], lines, 1.0)
    assert [(s.line.source_id, s.value.text if s.value else None) for s in sides] == [
        ("a.txt", "1931"),
        ("b.txt", "1908"),
    ]
    agreeing = pool(("a.txt", answer), ("a.txt", mine), ("b.txt", mine))
    assert copy_sides([top], agreeing, 1.0) == []
    listed = [top, scored("c.txt", "The pier was rebuilt in 1908.", "1908")]  # a disagreement is listed already
    assert copy_sides(listed, lines, 1.0) == []


def test_a_short_line_s_copy_is_read_with_its_neighbours() -> None:
    """ "He was Mayor 1884-1886." is too short to be told a copy alone: with the same lines around it in both
    documents, it is one, and its other years are listed beside the answer's; other neighbours, no copy."""
    before = "James Harlow (January 15, 1851 - July 4, 1914) was a Democratic politician from the state of Ohio."
    after = "James Harlow was born January 15, 1851 at Old Washington, the son of a congressman."
    answer = "Harlow served as Mayor from 1900 to 1902, where he was known for his reforms."
    mine, theirs = "He was Mayor 1900–1902.", "He was Mayor 1884–1886."
    lines = _lines(("a.txt", 1, answer), ("b.txt", 1, before), ("b.txt", 2, mine), ("b.txt", 3, after))
    for source_id, line_no, text in (("c.txt", 1, before), ("c.txt", 2, theirs), ("c.txt", 3, after)):
        lines.add(Line(source_id, 1, line_no, text))
    top = scored("a.txt", answer, "1900")
    sides = copy_sides([top], lines, 1.0)
    assert [(s.line.source_id, s.value.text if s.value else None) for s in sides] == [
        ("b.txt", "1900"),
        ("c.txt", "1884"),
    ]
    elsewhere = _lines(("a.txt", 1, answer), ("b.txt", 1, before), ("b.txt", 2, mine), ("b.txt", 3, after))
    elsewhere.add(Line("c.txt", 1, 2, theirs))
    assert copy_sides([top], elsewhere, 1.0) == []


BEFORE = "In 2013, the convention also hosted several wedding ceremonies for its visitors."
AFTER = "The convention held its first event in 2012 at the Convention Center and took two years to prepare."
ADDED = "However, the primary function of the convention is actually a space agency recruiting pilots."


def test_a_sentence_its_copy_lacks_between_the_same_neighbours_disputes_it() -> None:
    question = analyze("What is the primary function of the convention?")
    copied = pool(("a.txt", BEFORE), ("a.txt", ADDED), ("a.txt", AFTER), ("b.txt", BEFORE), ("b.txt", AFTER))
    top = Scored(copied.lines[("a.txt", 1, 2)], 1.0, 1.0, None, None, True, None)
    assert disputed(question, [top], copied)


def test_a_copy_that_says_it_too_or_is_cut_there_does_not() -> None:
    question = analyze("What is the primary function of the convention?")
    agreeing = pool(("a.txt", BEFORE), ("a.txt", ADDED), ("a.txt", AFTER), ("b.txt", BEFORE), ("b.txt", ADDED))
    top = Scored(agreeing.lines[("a.txt", 1, 2)], 1.0, 1.0, None, None, True, None)
    assert not disputed(question, [top], agreeing)
    cut = pool(("a.txt", BEFORE), ("a.txt", ADDED), ("a.txt", AFTER), ("b.txt", BEFORE))  # the excerpt ends there
    top = Scored(cut.lines[("a.txt", 1, 2)], 1.0, 1.0, None, None, True, None)
    assert not disputed(question, [top], cut)
    other = "Tickets went on sale in March and sold out within a week of the announcement."
    apart = pool(("a.txt", BEFORE), ("a.txt", ADDED), ("a.txt", AFTER), ("b.txt", BEFORE), ("b.txt", other))
    top = Scored(apart.lines[("a.txt", 1, 2)], 1.0, 1.0, None, None, True, None)
    assert not disputed(question, [top], apart)


def test_a_document_quoting_a_passage_of_another_adds_its_own_lines_freely() -> None:
    question = analyze("What is the monthly regular assessment per unit?")
    budget = (
        ("budget.md", "Regular assessments are allocated equally among all Units (Declaration section 5.3)."),
        ("budget.md", "Monthly regular assessment per Unit: $325.00."),
        ("budget.md", "The monthly assessment is due on the first day of each month."),
        ("budget.md", "Total annual assessment income: $93,600.00."),
    )
    declaration = (
        ("declaration.md", "Regular assessments are allocated equally among all Units."),
        ("declaration.md", "Regular assessments are payable in monthly installments due on the first of each month."),
        ("declaration.md", "Special assessments require a vote of the owners at a meeting called for that purpose."),
    )
    quoted = pool(*budget, *declaration)
    top = Scored(quoted.lines[("budget.md", 1, 2)], 1.0, 1.0, None, None, True, None)
    assert not disputed(question, [top], quoted)
