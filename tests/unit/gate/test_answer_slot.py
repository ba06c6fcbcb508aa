"""The question's answer slot (`answer_slot.py`): a value that answers the question in the question's own words,
about its subject, whatever the other documents call it; and the values a draft gives as its answer.
"""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Draft, EvidenceBundle, Fact, Support
from quotebound.agent.gate.answer_slot import (
    answer_values,
    answers_apart,
    document_names,
    fills_question,
    tells_which,
)
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.slots import Occurrence, occurrences, question_terms, word_key
from quotebound.agent.gate.stated import stated_values

SCHOOL = frozenset(word_key(w) for w in ("Altrincham", "Grammar", "School"))
ESTABLISHED = question_terms("When was Altrincham Grammar School established?")


def at(sentence: str, text: str, names: bool = False) -> Occurrence:
    found = [o for o in occurrences(sentence, names) if o.text == text]
    assert found, [o.text for o in occurrences(sentence, names)]
    return found[0]


def test_a_line_in_the_question_s_words_answers_it() -> None:
    assert fills_question(at("Established: 1850", "1850"), ESTABLISHED, SCHOOL)
    named = at("Altrincham Grammar School was established in 1850.", "1850")
    assert fills_question(named, ESTABLISHED, frozenset())  # the clause names the school itself


def test_the_subject_must_be_named_by_the_line_or_its_document() -> None:
    assert not fills_question(at("Established: 1850", "1850"), ESTABLISHED, frozenset({word_key("Maple")}))


def test_other_words_for_the_asked_one_do_not_fill_it() -> None:
    """ "founded" is not "established" by spelling; the cap of six Units is not the units leased; "declarant" is
    not "Declaration" (one key, two words)."""
    assert not fills_question(at("The school was founded in 1912.", "1912"), ESTABLISHED, SCHOOL)
    leased = question_terms("How many units are currently leased?")
    cap = "The Board keeps a waiting list for Owners who wish to lease once the cap of six Units is reached."
    assert not fills_question(at(cap, "six"), leased, frozenset())
    assert fills_question(at("The manager reported that five Units are currently leased.", "five"), leased, frozenset())
    directors = question_terms("How many directors are on the Board?")
    elected = at("Three directors are elected in odd-numbered years.", "Three")
    assert not fills_question(elected, directors, frozenset({word_key("Board")}))  # a count of directors, not which
    declarant = question_terms("Who was the declarant?")
    board = "The Board appoints the Architectural Review Committee described in Article 6 of the Declaration."
    assert not fills_question(at(board, "Board", names=True), declarant, frozenset())


def test_a_qualifier_or_a_governing_noun_makes_another_thing() -> None:
    quorum = question_terms("What is the quorum for a meeting?")
    adjourned = "At an adjourned meeting the quorum is Owners holding at least 15% of the Interests."
    assert not fills_question(at(adjourned, "15%"), quorum, frozenset())
    released = question_terms("When was Freaky Friday released?")
    edition = "A remastered edition of Freaky Friday was released on June 3, 2003."
    assert not fills_question(at(edition, "June 3, 2003"), released, frozenset())
    assert fills_question(at("Freaky Friday was released on June 3, 2003.", "June 3, 2003"), released, frozenset())


def test_a_name_inside_the_asked_noun_phrase_is_no_answer() -> None:
    held = question_terms("Where is the annual meeting held?")
    line = "The annual meeting of the Owners is held each year at the Clubhouse."
    assert not fills_question(at(line, "Owners", names=True), held, frozenset())
    assert fills_question(at(line, "Clubhouse", names=True), held, frozenset())


def test_two_answers_apart_are_of_one_kind_and_differ() -> None:
    founded = at("The school was founded in 1912.", "1912")
    assert answers_apart(founded, at("Established: 1850", "1850"), 1.0)
    assert not answers_apart(founded, at("Established: 1912", "1912"), 1.0)
    minimum = at("The reserve shall be not less than 15% of the budget.", "15%")
    assert not answers_apart(at("The reserve is 18.6% of the budget.", "18.6%"), minimum, 1.0)  # a limit


def test_document_names_come_from_titles_and_passages(make_bundle: Callable[..., EvidenceBundle]) -> None:
    passage = make_bundle("d2.txt", ["Manchester, England", "Altrincham Grammar School for Boys", "Established: 1850"])
    names = document_names([SourceInfo("d2.txt", "Manchester, England"), SourceInfo("d3.txt", "Maple")], [passage])
    assert names["d2.txt"] >= SCHOOL
    assert names["d3.txt"] == frozenset({word_key("Maple")})


def test_answer_values_are_the_values_given_as_the_answer(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    line = "The school was founded in 1912 and moved to Marlborough Road in 1931."
    support = [Support(source_id="a.txt", locator="p.1 L3-L3", quote=line)]
    with_value = Fact(text="Founded in 1912; it moved in 1931.", support=support, value="1912")
    inputs = make_inputs(make_draft(with_value), question=ESTABLISHED_TEXT)
    assert [s.occurrence.text for s in answer_values(inputs, stated_values(inputs))] == ["1912"]
    without = Fact(text="Founded in 1912; it moved in 1931.", support=support)
    inputs = make_inputs(make_draft(without, answer="It was founded in 1912."), question=ESTABLISHED_TEXT)
    assert [s.occurrence.text for s in answer_values(inputs, stated_values(inputs))] == ["1912"]


ESTABLISHED_TEXT = "When was Altrincham Grammar School established?"


def test_a_parenthetical_before_a_name_describes_the_item_before_it() -> None:
    treasurer = question_terms("Who is the Association's treasurer?")
    line = "Directors present: Priya Raman (Treasurer) and Ellen Marsh (Director)."
    association = frozenset({word_key("Association")})  # the minutes are the Association's
    assert fills_question(at("Treasurer: Priya Raman, Unit 4B.", "Priya Raman", names=True), treasurer, association)
    assert not fills_question(at(line, "Ellen Marsh", names=True), treasurer, association)


def test_a_named_place_before_the_value_s_phrase_is_no_anchor() -> None:
    """ "died at the Chateau de Vaux on 1 December 1737": the place and the date are both said of "died", so the
    date answers when he died. A place alone before the value ("Population of Kensett: 2,500") stays its word, and a
    verb right before the value ("was built in 1902") is its own anchor."""
    died = question_terms("When did Henri Morel die?")
    morel = frozenset(word_key(w) for w in ("Henri", "Morel"))
    assert fills_question(
        at("The count died at the Chateau de Vaux on 1 December 1737.", "1 December 1737"), died, morel
    )
    assert not fills_question(
        at("The count was buried at the Chateau de Vaux on 3 December 1737.", "3 December 1737"), died, morel
    )
    assert at("Population of Kensett: 2,500", "2,500").anchors == {word_key("Kensett")}


def test_a_figure_telling_which_thing_of_the_subject_s_name_is_meant_says_nothing_of_it() -> None:
    """ "Maple Hollow (2018 TV series)" names another series of that name; a date alone after the name ("born
    ...", a life's span) is a fact about the subject itself."""
    question = question_terms('What is the language of the television series "Maple Hollow"?')
    other = "Maple Hollow (2018 TV series), a 2018 Indian Bengali-language television series airing on Star."
    glossed, said = [o for o in occurrences(other) if o.text == "2018"]
    assert tells_which(glossed, question)
    assert not tells_which(said, question)  # "a 2018 ... series" outside the parenthesis says something
    born = question_terms("When was Ann Roe born?")
    assert not tells_which(at("Ann Roe (born 3 May 1900) was a painter.", "3 May 1900"), born)
    assert not tells_which(at("Ann Roe (3 May 1900 - 9 June 1970) was a painter.", "9 June 1970"), born)
    assert not tells_which(at("Ann Roe (born 1900 in Leeds) was a painter.", "1900"), born)


def test_an_infobox_label_the_question_uses_as_its_verb_answers_it() -> None:
    """A flattened infobox runs its fields together ("... one acre Built 1885 Built by ..."): the capitalized label
    after a lowercase word starts a field, it is not qualified by that word. Lowercase, "a replica built in 1990"
    still gives the replica's date, and a label the question does not use as its verb is read as before."""
    built = question_terms("When was the Dallas County Courthouse built?")
    assert built.verbs == frozenset({word_key("built")})
    courthouse = frozenset(word_key(w) for w in ("Dallas", "County", "Courthouse"))
    infobox = "Location Town Square Adel, Iowa Area less than one acre Built 1885 Built by Rawson and Son"
    assert fills_question(at(infobox, "1885"), built, courthouse)
    replica = "Area less than one acre and a replica built 1990 by Rawson and Son"
    assert not fills_question(at(replica, "1990"), built, courthouse)
    quorum = question_terms("What is the quorum for an owners' meeting?")
    assert quorum.verbs == frozenset()
    adjourned = "At an adjourned Meeting the quorum is Owners holding at least 15% of the Interests."
    assert not fills_question(at(adjourned, "15%"), quorum, frozenset())
