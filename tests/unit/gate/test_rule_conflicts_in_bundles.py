"""The conflicts-in-bundles rule: a readable line giving another value for the slot of a stated value is listed.

The slot is read from the sentences, never from the fact's `key`: a fact without a key is held to the rule (the
$325.00 answer that shipped while a resolved bundle said $340.00), and look-alike lines about another subject
(an adjourned meeting's quorum, a cap, a yearly budget line) never force a conflict.
"""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Conflict, ConflictValue, Draft, EvidenceBundle, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.rules import conflicts_in_bundles

BUDGET = "Monthly regular assessment per Unit: $325.00."
MINUTES = "The Treasurer noted that the FY2025 budget sets the monthly regular assessment at $340.00 per Unit."
QUESTION = "What is the monthly assessment?"


def fact(text: str = "$325.00.", quote: str = BUDGET, source_id: str = "budget.md", **fields: str) -> Fact:
    support = Support(source_id=source_id, locator="p.1 L3-L3", quote=quote)
    return Fact.model_validate({"text": text, "support": [support], **fields})


def bundle(
    make_bundle: Callable[..., EvidenceBundle], line: str = MINUTES, source_id: str = "minutes.md"
) -> EvidenceBundle:
    return make_bundle(source_id, ["# Minutes", "", line])


def listed(first: str = "$325.00", second: str = "$340.00") -> Conflict:
    return Conflict(
        key="anything",
        values=[
            ConflictValue(value=first, source_id="budget.md", locator="p.1 L3-L3", quote=BUDGET),
            ConflictValue(value=second, source_id="minutes.md", locator="p.1 L3-L3", quote=MINUTES),
        ],
    )


def test_a_fact_without_a_key_stating_one_value_while_a_bundle_gives_another_is_blocked(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    inputs = make_inputs(make_draft(fact()), bundles=(bundle(make_bundle),), question=QUESTION)
    findings = conflicts_in_bundles.check(inputs)
    assert [(f.code, f.fact_index, f.token) for f in findings] == [(FindingCode.CONFLICT_OMITTED, 0, "$340.00")]
    assert findings[0].message.startswith("minutes.md p.1 L3-L3 states '$340.00' where fact 0 states '$325.00'")


def test_the_key_does_not_matter(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    for key in ("budget figure", "monthly assessment", "zzz"):
        draft = make_draft(fact(key=key, value="$325.00"))
        findings = conflicts_in_bundles.check(make_inputs(draft, bundles=(bundle(make_bundle),)))
        assert [f.code for f in findings] == [FindingCode.CONFLICT_OMITTED], key


def test_the_answer_is_held_to_it_too(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    draft = make_draft(fact(text="The budget is the source."), answer="It is $325.00 a month.")
    findings = conflicts_in_bundles.check(make_inputs(draft, bundles=(bundle(make_bundle),), question=QUESTION))
    assert [(f.code, f.token) for f in findings] == [(FindingCode.CONFLICT_OMITTED, "$340.00")]


def test_the_conflict_listed_with_both_values_passes(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    draft = make_draft(fact(), conflicts=[listed()])
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(bundle(make_bundle),), question=QUESTION)) == []
    other = make_draft(fact(), conflicts=[listed(second="$350.00")])
    assert conflicts_in_bundles.check(make_inputs(other, bundles=(bundle(make_bundle),), question=QUESTION)) != []


def test_a_name_given_differently_by_another_source_is_blocked(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    paris = "Jean Dupont was born in Paris in 1901."
    draft = make_draft(fact(text="Jean Dupont was born in Paris.", quote=paris, source_id="a.txt"))
    lyon = bundle(make_bundle, "Jean Dupont was born in Lyon in 1901.", "b.txt")
    inputs = make_inputs(draft, bundles=(lyon,), question="Where was Jean Dupont born?")
    assert [(f.code, f.token) for f in conflicts_in_bundles.check(inputs)] == [(FindingCode.CONFLICT_OMITTED, "Lyon")]
    agreeing = bundle(make_bundle, "Jean Dupont was born in Paris, France in 1901.", "c.txt")
    inputs = make_inputs(draft, bundles=(agreeing,), question="Where was Jean Dupont born?")
    assert conflicts_in_bundles.check(inputs) == []


def test_lines_about_another_subject_never_force_a_conflict(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    normal = "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend."
    draft = make_draft(fact(text="The quorum is 25%.", quote=normal, source_id="bylaws.md"))
    others = [
        "At an adjourned meeting the quorum is Owners holding at least 15% of the Interests.",  # another meeting
        "Owners holding 60% of the Interests may amend the Declaration.",  # another vote
        "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend.",
    ]
    bundles = tuple(bundle(make_bundle, line, f"doc{i}.md") for i, line in enumerate(others))
    inputs = make_inputs(draft, bundles=bundles, question="What is the quorum for an owners' meeting?")
    assert conflicts_in_bundles.check(inputs) == []


def test_a_flagged_instructional_line_is_never_read(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    flagged = frozenset({("minutes.md", 1, 3)})
    inputs = make_inputs(make_draft(fact()), bundles=(bundle(make_bundle),), flagged=flagged, question=QUESTION)
    assert conflicts_in_bundles.check(inputs) == []


def test_the_tolerance_comes_from_the_inputs(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    inputs = make_inputs(make_draft(fact()), bundles=(bundle(make_bundle),), tolerance_pct=5.0, question=QUESTION)
    assert conflicts_in_bundles.check(inputs) == []


def test_a_value_another_fact_states_is_left_to_conflicts_reported(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    other = fact(text="$340.00 per Unit.", quote=MINUTES, source_id="minutes.md")
    inputs = make_inputs(make_draft(fact(), other), bundles=(bundle(make_bundle),), question=QUESTION)
    assert conflicts_in_bundles.check(inputs) == []


def test_a_value_no_verified_quote_states_is_not_compared(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    draft = make_draft(fact(text="$310.00.", quote="Assessments are due on the first of the month."))
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(bundle(make_bundle),), question=QUESTION)) == []


def test_the_date_of_another_event_of_the_same_work_forces_no_conflict(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    released = "Freaky Friday was released on December 17, 1976."
    question = "When was Freaky Friday released?"
    draft = make_draft(fact("December 17, 1976.", released, "film.md"))
    for line in (
        "A remastered edition of Freaky Friday was released on June 3, 2003.",
        "Freaky Friday's reissue was released on June 3, 2003.",
    ):
        inputs = make_inputs(draft, bundles=(bundle(make_bundle, line, "dvd.md"),), question=question)
        assert conflicts_in_bundles.check(inputs) == [], line
    other = "Freaky Friday was first released on 17 December 1977."
    inputs = make_inputs(draft, bundles=(bundle(make_bundle, other, "almanac.md"),), question=question)
    assert [f.code for f in conflicts_in_bundles.check(inputs)] == [FindingCode.CONFLICT_OMITTED]


def test_the_adjourned_meeting_quorum_forces_no_conflict_when_the_question_names_the_owners(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    normal = "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend."
    adjourned = "At an adjourned meeting the quorum is Owners holding at least 15% of the Interests."
    draft = make_draft(fact("25%", normal, "bylaws.md"))
    question = "What is the quorum at a meeting of the Owners?"
    inputs = make_inputs(draft, bundles=(bundle(make_bundle, adjourned, "bylaws.md"),), question=question)
    assert conflicts_in_bundles.check(inputs) == []


def test_a_line_whose_document_title_names_the_subject_gives_the_subject_a_value(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """A page titled "Hillcrest School" saying "Established: 1850" gives the school's founding year, against a draft
    answering 1912 alone; the same line in a page about something else says nothing of the school."""
    named = "Hillcrest School was established in 1912."
    draft = make_draft(fact("1912", named, "gazette.md"))
    question = "When was Hillcrest School established?"
    line = bundle(make_bundle, "Established: 1850", "school.md")
    titled = (SourceInfo("gazette.md", "County Gazette"), SourceInfo("school.md", "Hillcrest School"))
    inputs = make_inputs(draft, bundles=(line,), question=question, sources=titled)
    assert [(f.code, f.token) for f in conflicts_in_bundles.check(inputs)] == [(FindingCode.CONFLICT_OMITTED, "1850")]
    other = (SourceInfo("gazette.md", "County Gazette"), SourceInfo("school.md", "Maple Library"))
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(line,), question=question, sources=other)) == []


def test_two_values_of_one_document_are_its_own_slots(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """A release date and, further down the same page, a reissue's date: a document does not disagree with itself.
    The same reissue line in another document is read as that document's words, and still is another event."""
    released = "It was released by S.M. Entertainment on November 1, 2007."
    question = 'When was the album "Girls\' Generation" released?'
    draft = make_draft(fact("Released November 1, 2007.", released, "album.txt"))
    reissue = 'A reissue titled "Baby Baby" was subsequently released on March 13, 2008.'
    for source_id in ("album.txt", "copy.txt"):
        inputs = make_inputs(draft, bundles=(bundle(make_bundle, reissue, source_id),), question=question)
        assert conflicts_in_bundles.check(inputs) == [], source_id
    copy = bundle(make_bundle, "It was released by S.M. Entertainment on January 1, 2006.", "copy.txt")
    inputs = make_inputs(draft, bundles=(copy,), question=question)
    assert [f.token for f in conflicts_in_bundles.check(inputs)] == ["January 1, 2006"]
    same_page = bundle(make_bundle, "It was released by S.M. Entertainment on January 1, 2006.", "album.txt")
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(same_page,), question=question)) == []


def test_a_copy_of_the_quoted_sentence_with_another_value_is_a_conflict(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """RAMDocs-style disagreements: two copies of one sentence, one value changed. A birth date against the other
    copy's birth date, not its death date; a city against the other copy's city, whatever the sentence says before."""
    copy = "Roland Almon Ritchie, ({} – June 5, 1988) was a Canadian lawyer and justice of the Supreme Court."
    draft = make_draft(fact("June 19, 1910.", copy.format("June 19, 1910"), "a.txt"))
    other = bundle(make_bundle, copy.format("January 1, 1900"), "b.txt")
    inputs = make_inputs(draft, bundles=(other,), question="When was Justice Ritchie born?")
    assert [f.token for f in conflicts_in_bundles.check(inputs)] == ["January 1, 1900"]
    practice = "He attended the common schools, studied law, was admitted to the bar and commenced practice in {}."
    draft = make_draft(fact("New York City.", practice.format("New York City"), "a.txt"))
    boston = bundle(make_bundle, "admitted to the bar and commenced practice in Boston.", "b.txt")
    inputs = make_inputs(draft, bundles=(boston,), question="In which city did Conry practice law?")
    assert [f.token for f in conflicts_in_bundles.check(inputs)] == ["Boston"]


def test_another_document_answering_the_question_in_its_words_is_a_conflict(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """ "founded ... in 1912" shares no word with an infobox's "Established: 1850", but the question asks when the
    school was established: the infobox answers it, about the school its page names, and the draft answers 1912."""
    founded = "The school was founded as Altrincham County High School for Boys in 1912."
    question = "When was Altrincham Grammar School established?"
    draft = make_draft(fact("Founded in 1912.", founded, "a.txt", value="1912"))
    infobox = make_bundle("b.txt", ["Altrincham Grammar School for Boys", "Type: Grammar school", "Established: 1850"])
    inputs = make_inputs(draft, bundles=(infobox,), question=question)
    assert [(f.code, f.token) for f in conflicts_in_bundles.check(inputs)] == [(FindingCode.CONFLICT_OMITTED, "1850")]
    pair = Conflict(
        key="founding",
        values=[
            ConflictValue(value="1912", source_id="a.txt", locator="p.1 L3-L3", quote=founded),
            ConflictValue(value="1850", source_id="b.txt", locator="p.1 L3-L3", quote="Established: 1850"),
        ],
    )
    listed_draft = make_draft(fact("Founded in 1912.", founded, "a.txt", value="1912"), conflicts=[pair])
    assert conflicts_in_bundles.check(make_inputs(listed_draft, bundles=(infobox,), question=question)) == []
    maple = make_bundle("b.txt", ["Maple Grammar School for Girls", "Type: Grammar school", "Established: 1850"])
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(maple,), question=question)) == []


def test_a_line_whose_answer_the_draft_already_reports_forces_nothing_more(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """ "located on Main Street ... in New Orleans": the draft lists New Orleans against its answer; the street
    of that same sentence is no third answer."""
    house = "The Kate Chopin House was a house in Cloutierville, Louisiana."
    other = "The Kate Chopin House was a house in New Orleans, Louisiana."
    pair = Conflict(
        key="location",
        values=[
            ConflictValue(value="Cloutierville, Louisiana", source_id="a.txt", locator="p.1 L3-L3", quote=house),
            ConflictValue(value="New Orleans, Louisiana", source_id="b.txt", locator="p.1 L1-L1", quote=other),
        ],
    )
    answer = fact("In Cloutierville, Louisiana.", house, "a.txt", value="Cloutierville, Louisiana")
    street = "The Kate Chopin House was located on Main Street in New Orleans, in Orleans Parish, Louisiana."
    lines = make_bundle("b.txt", [other, "It was the home of Kate Chopin.", street])
    question = "Where is the Kate Chopin House located?"
    inputs = make_inputs(make_draft(answer, conflicts=[pair]), bundles=(lines,), question=question)
    assert conflicts_in_bundles.check(inputs) == []
    inputs = make_inputs(make_draft(answer), bundles=(lines,), question=question)
    assert "New Orleans, Louisiana" in [f.token for f in conflicts_in_bundles.check(inputs)]


def test_a_sentence_giving_a_listed_value_is_accounted_for(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """The draft lists "KL Metro" against its answer; the other names of that same sentence ("on Bayside limited
    express services") are about other things. Without the listing the sentence still forces a conflict."""
    frame = "The 20 series was an electric multiple unit train type run between 1990 and 2005 by the private transit"
    mine = f'{frame} operator Coastal Transit on "Bayside" limited express services.'
    other = f"{frame} operator KL Metro on Bayside limited express services."
    pair = Conflict(
        key="operator",
        values=[
            ConflictValue(value="Coastal Transit", source_id="a.txt", locator="p.1 L3-L3", quote=mine),
            ConflictValue(value="KL Metro", source_id="b.txt", locator="p.1 L1-L1", quote=other),
        ],
    )
    answer = fact("Coastal Transit.", mine, "a.txt", value="Coastal Transit")
    lines = make_bundle("b.txt", [other])
    question = "20 series is run by which transit operator?"
    inputs = make_inputs(make_draft(answer, conflicts=[pair]), bundles=(lines,), question=question)
    assert conflicts_in_bundles.check(inputs) == []
    inputs = make_inputs(make_draft(answer), bundles=(lines,), question=question)
    assert "KL Metro" in [f.token for f in conflicts_in_bundles.check(inputs)]


def test_a_passive_s_agent_answers_no_question_of_where(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """Asked where the paper is published, "published by the Acme Company" says who publishes it, not where; a line
    saying it is published in another town is still demanded."""
    mine = "The Harbor Gazette is published in Belleville."
    answer = fact("The Harbor Gazette is published in Belleville.", mine, "a.txt", value="Belleville")
    question = "Where is the Harbor Gazette published?"

    def demanded(line: str) -> list[str | None]:
        inputs = make_inputs(make_draft(answer), bundles=(make_bundle("b.txt", [line]),), question=question)
        return [f.token for f in conflicts_in_bundles.check(inputs)]

    assert demanded("Since 2009 the Harbor Gazette is published by the Acme Company.") == []
    assert demanded("Since 2009 the Harbor Gazette is published in Springfield.") == ["Springfield"]


def test_a_figure_telling_which_thing_of_the_name_is_meant_is_no_other_answer(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """A disambiguation line "Maple Hollow ( 2018 TV series )" speaks of another series of that name: its year is
    no other year for "the 2017 TV series" the answer describes (`answer_slot.tells_which`; a year said of the
    series outside that parenthesis still counts, `test_answer_slot`)."""
    mine = (
        "Maple Hollow (2017 TV series) Maple Hollow is an Indian Assamese-language television drama series which "
        "aired on Rang from 2017 to 21 April 2018."
    )
    answer = fact("Maple Hollow is in Assamese.", mine, "a.txt", value="Assamese-language")
    draft = make_draft(answer)
    draft = draft.model_copy(
        update={
            "evidence": draft.evidence.model_copy(
                update={"answer": "Maple Hollow, the 2017 TV series, is in Assamese."}
            )
        }
    )
    question = 'What is the language of the television series "Maple Hollow"?'
    listing = (
        "series which aired on Zee TV Maple Hollow ( 2017 TV series ) , a 2017-2018 Indian Assamese-language "
        "television series which aired on Rang Maple Hollow ( 2018 TV series ) , a 2018 Indian Bengali-language "
        "television series airing on Star Jalsha"
    )
    inputs = make_inputs(draft, bundles=(make_bundle("b.txt", [listing]),), question=question)
    assert conflicts_in_bundles.check(inputs) == []


def test_who_a_question_asks_told_a_value_is_no_subject_it_narrows(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """ "did the Treasurer report": the Treasurer tells the assessment; the budget's line about it is its slot too."""
    question = "What monthly regular assessment did the Treasurer report for FY2025?"
    inputs = make_inputs(make_draft(fact()), bundles=(bundle(make_bundle),), question=question)
    assert [f.code for f in conflicts_in_bundles.check(inputs)] == [FindingCode.CONFLICT_OMITTED]


def test_what_follows_a_credited_name_is_said_of_the_work_not_of_the_credit(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """ "The album "Quiet Hours" by The Beatles is a unique blend ...": the credit is read from "album ... by", the
    words after the name describe the album. Another document crediting the album to someone else is demanded; a
    name under "by" hanging on another noun ("a review by") is not."""
    mine = "Quiet Hours is the seventh studio album by American alternative country band Best Coast."
    answer = fact(mine, mine, "a.txt", value="Best Coast")
    question = 'Who is the artist of the album "Quiet Hours"?'

    def demanded(line: str) -> list[str | None]:
        inputs = make_inputs(make_draft(answer), bundles=(make_bundle("b.txt", [line]),), question=question)
        return [f.token for f in conflicts_in_bundles.check(inputs)]

    assert demanded('The album "Quiet Hours" by The Beatles is a unique blend of their classic sound.') == ["Beatles"]
    assert demanded('A glowing review of "Quiet Hours" by Tom Quill praised its classic sound.') == []


TOWER = (
    "Kestrel Tower is a steel lattice mast designed by engineer Anna Holm, completed on 4 May 1932 for the Port"
    " Authority."
)
TOWER_COPY = "The steel lattice mast designed by engineer Piet Vos, completed on 4 May 1932 for the Port Authority."


def test_a_copy_of_the_stated_sentence_that_lost_the_subject_gives_a_rival_value(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """Another document repeats the sentence word for word around the designer with another name: a conflict the
    draft must list, though the copy never names the tower; the same name in a sentence of its own words is none."""
    question = "Who designed Kestrel Tower?"
    draft = make_draft(fact("Anna Holm designed it.", TOWER, "tower.md"))
    copy = bundle(make_bundle, TOWER_COPY, "copy.md")
    findings = conflicts_in_bundles.check(make_inputs(draft, bundles=(copy,), question=question))
    assert [(f.code, f.token) for f in findings] == [(FindingCode.CONFLICT_OMITTED, "Piet Vos")]
    other = bundle(
        make_bundle, "The ferry terminal was designed by engineer Piet Vos in 1950 for the city.", "ferry.md"
    )
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(other,), question=question)) == []


ALBUM = "Blue Hours (Lanterns album) Blue Hours is the second studio album by English band Lanterns."
NAVIGATION = "Morning Rail Blue Hours Extended plays Quiet Harbour Mix albums Northern Light Singles Tidewater"


def test_a_label_telling_which_album_is_not_read_as_the_stated_credit(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """ "Blue Hours (Lanterns album)" tells which album the page is about; read there, "Lanterns" has one word,
    "album", and any list of albums on a page titled after it would pair with it. Its slot is read where the page
    says it ("the second studio album by English band Lanterns"), and a credit to another band there still is one."""
    question = 'Who is the artist of the album "Blue Hours"?'
    draft = make_draft(fact("Lanterns.", ALBUM, "album.md", value="Lanterns"))
    titled = (SourceInfo("album.md", "Blue Hours"), SourceInfo("nav.md", "Blue Hours (Lanterns album)"))
    navigation = bundle(make_bundle, NAVIGATION, "nav.md")
    inputs = make_inputs(draft, bundles=(navigation,), question=question, sources=titled)
    assert conflicts_in_bundles.check(inputs) == []
    rival = bundle(make_bundle, "Blue Hours is the second studio album by English band Harbourlights.", "nav.md")
    inputs = make_inputs(draft, bundles=(rival,), question=question, sources=titled)
    assert (FindingCode.CONFLICT_OMITTED, "Harbourlights") in [
        (f.code, f.token) for f in conflicts_in_bundles.check(inputs)
    ]


PAINTED = "Kestrel Tower, painted the deep green of the harbour cranes, is a lattice mast owned by the port."
REPAINTED = "Kestrel Tower, painted the pale grey of the harbour cranes, is a lattice mast owned by the port."


def test_an_answer_taking_one_side_of_a_copy_with_swapped_words_lists_the_other(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    """Two documents tell one sentence with lowercase words swapped: an answer giving one side's words must list
    the other; an answer giving both, a listed conflict, or an answer about something else in it need not."""
    question = "What colour is Kestrel Tower?"
    copy = bundle(make_bundle, REPAINTED, "copy.md")

    def check(answer: str, conflicts: list[Conflict] | None = None) -> list[tuple[FindingCode, str | None]]:
        draft = make_draft(fact(answer, PAINTED, "tower.md"), level1=answer, conflicts=conflicts or [])
        inputs = make_inputs(draft, bundles=(copy,), question=question)
        return [(f.code, f.token) for f in conflicts_in_bundles.check(inputs)]

    assert check("It is painted deep green.") == [(FindingCode.CONFLICT_OMITTED, "pale grey")]
    assert check("One source says deep green, another pale grey.") == []
    assert check("It is a lattice mast owned by the port.") == []
    sides = Conflict(
        key="colour",
        values=[
            ConflictValue(value="deep green", source_id="tower.md", locator="p.1 L3-L3", quote=PAINTED),
            ConflictValue(value="pale grey", source_id="copy.md", locator="p.1 L3-L3", quote=REPAINTED),
        ],
    )
    assert check("It is painted deep green.", [sides]) == []


def test_a_markdown_heading_states_no_rival_value(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    question = "Which company holds the landscaping contract?"
    quote = "Line 1 covers the landscaping contract with Greenway Grounds LLC."
    stated = fact("Greenway Grounds LLC holds it.", quote, "budget.md", value="Greenway Grounds LLC")
    heading = make_bundle("minutes.md", ["### Landscaping contract", "", "The Board met."])
    assert conflicts_in_bundles.check(make_inputs(make_draft(stated), bundles=(heading,), question=question)) == []
    # the section's own lines are still read: a rival name under the heading is an omitted conflict
    other = "The Board renewed the landscaping contract with Ridge Lawn Care LLC for calendar year 2025."
    rival = make_bundle("minutes.md", ["### Landscaping contract", "", other])
    found = conflicts_in_bundles.check(make_inputs(make_draft(stated), bundles=(rival,), question=question))
    assert [(f.code, f.token) for f in found] == [(FindingCode.CONFLICT_OMITTED, "Ridge Lawn Care LLC")]


APACHE = "Version 2.0, January 2004"
WHEN_VERSION = "When did version 2.0 of the license come out?"


def test_a_figure_the_question_writes_is_its_subject_and_another_documents_other_figure_is_another_thing(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    # "Version 3, 29 June 2007" is another version's date: no rival of version 2.0's, and "2.0" answers nothing.
    draft = make_draft(fact(text="Version 2.0 came out in January 2004.", quote=APACHE, source_id="apache.txt"))
    other = bundle(make_bundle, line="Version 3, 29 June 2007", source_id="gpl.txt")
    assert conflicts_in_bundles.check(make_inputs(draft, bundles=(other,), question=WHEN_VERSION)) == []


def test_another_document_giving_another_date_for_the_same_version_is_still_a_conflict(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    draft = make_draft(fact(text="Version 2.0 came out in January 2004.", quote=APACHE, source_id="apache.txt"))
    other = bundle(make_bundle, line="Version 2.0, March 2005", source_id="mirror.txt")
    findings = conflicts_in_bundles.check(make_inputs(draft, bundles=(other,), question=WHEN_VERSION))
    assert [(f.code, f.token) for f in findings] == [(FindingCode.CONFLICT_OMITTED, "March 2005")]


def test_a_yes_no_question_writing_the_value_still_owes_the_other_documents_value(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    # "Is it $325.00?" asks about its own figure: the minutes' $340.00 is a rival, not another thing.
    inputs = make_inputs(
        make_draft(fact()), bundles=(bundle(make_bundle),), question="Is the monthly assessment $325.00?"
    )
    findings = conflicts_in_bundles.check(inputs)
    assert [(f.code, f.token) for f in findings] == [(FindingCode.CONFLICT_OMITTED, "$340.00")]
