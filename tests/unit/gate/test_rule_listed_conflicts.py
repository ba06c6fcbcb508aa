"""The listed-conflicts rule: each side of a listed conflict is a verified quote stating its value, the sides are
a real disagreement about one slot, and a delta that gives a figure is their difference."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Conflict, ConflictValue, Draft, EvidenceBundle, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import listed_conflicts
from quotebound.agent.gate.verification import Status, Verification
from tests.unit.gate.conftest import build_bundle

BUDGET = "The monthly assessment is $325.00 per unit."
NOTICE = "From July 2025 the monthly assessment is $340.00 per unit."
FACT = Fact(text=BUDGET, support=[Support(source_id="budget.md", locator="p.1 L3-L3", quote=BUDGET)])


def conflict(
    second: str = "$340.00", quote: str = NOTICE, first: str = "$325.00", first_quote: str = BUDGET, delta: str = ""
) -> Conflict:
    return Conflict(
        key="monthly assessment",
        values=[
            ConflictValue(value=first, source_id="budget.md", locator="p.1 L3-L3", quote=first_quote),
            ConflictValue(value=second, source_id="notice.md", locator="p.1 L3-L3", quote=quote),
        ],
        delta=delta,
    )


def codes(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], c: Conflict, **fields: object
) -> list[FindingCode]:
    return [f.code for f in listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[c]), **fields))]


def test_a_real_conflict_passes(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    assert listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict()]))) == []
    assert codes(make_draft, make_inputs, conflict(), question="What is the monthly assessment?") == []


def test_a_value_written_differently_from_its_quote_still_passes(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict("340")]))) == []
    five = "The manager reported that five Units are currently leased."
    seven = "The clerk reported that 7 Units are currently leased."
    assert codes(make_draft, make_inputs, conflict("7", seven, first="five", first_quote=five)) == []


def test_a_value_its_quote_does_not_state_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    findings = listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict("$350.00")])))
    assert [(f.code, f.token, f.fact_index) for f in findings] == [
        (FindingCode.CONFLICT_VALUE_UNQUOTED, "$350.00", None)
    ]
    assert findings[0].message.startswith("conflict 0 ('monthly assessment') value 1:")


def test_a_string_value_must_be_in_its_quote(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    acme, green = "The contractor is ACME Landscaping, Inc.", "The contractor is Green Thumb Landscaping."
    named = conflict("Acme  landscaping", acme, first="Green Thumb Landscaping", first_quote=green)
    assert codes(make_draft, make_inputs, named) == []
    invented = conflict("Apex Gardens", acme, first="Green Thumb Landscaping", first_quote=green)
    assert codes(make_draft, make_inputs, invented) == [FindingCode.CONFLICT_VALUE_UNQUOTED]


def test_a_fabricated_side_is_blocked_like_a_fabricated_support(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    forged = {(0, 1): Verification(Status.NOT_VERBATIM, 1.0, 0.0, "primary", detail="From July 2025 ...")}
    findings = listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict()]), conflict_checks=forged))
    assert [(f.code, f.fact_index) for f in findings] == [(FindingCode.QUOTE_NOT_VERBATIM, None)]
    assert findings[0].message.startswith("conflict 0 ('monthly assessment') value 1: the quote is not verbatim")
    unknown = {(0, 0): Verification(Status.UNKNOWN_SOURCE)}
    findings = listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict()]), conflict_checks=unknown))
    assert [f.code for f in findings] == [FindingCode.UNKNOWN_SOURCE]


# --- not a real disagreement -----------------------------------------------------------------------------------


def test_two_quorums_of_two_meetings_are_not_a_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    normal = "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend."
    adjourned = "At an adjourned meeting the quorum is Owners holding at least 15% of the Interests."
    fake = conflict("15%", adjourned, first="25%", first_quote=normal)
    for question in (None, "What is the quorum for an owners' meeting?"):
        findings = listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[fake]), question=question))
        assert [f.code for f in findings] == [FindingCode.CONFLICT_NOT_REAL]
        assert "'25%' vs '15%' is not a disagreement about one subject" in findings[0].message


def test_the_same_value_twice_is_not_a_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    same = conflict("$325", "The budget sets the monthly assessment at $325 per unit.")
    assert codes(make_draft, make_inputs, same) == [FindingCode.CONFLICT_NOT_REAL]


def test_unrelated_lines_and_two_figures_of_one_sentence_are_not_a_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    unrelated = conflict("$150.00", "The pool key deposit is $150.00 per household.")
    assert codes(make_draft, make_inputs, unrelated) == [FindingCode.CONFLICT_NOT_REAL]
    line = "The parish was founded in 1856, the present church building was completed in 1951."
    one_sentence = conflict("1951", line, first="1856", first_quote=line)
    assert codes(make_draft, make_inputs, one_sentence) == [FindingCode.CONFLICT_NOT_REAL]
    kinds = conflict("12%", "Unpaid assessments bear interest at 12% per year.")
    assert codes(make_draft, make_inputs, kinds) == [FindingCode.CONFLICT_NOT_REAL]


def test_two_documents_naming_two_people_for_one_role_are_a_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    names = conflict(
        "Marisol Ortega",
        "Social Committee chair: Marisol Ortega, Unit 3A",
        first="Ellen Marsh",
        first_quote="Social Committee chair: Ellen Marsh.",
    )
    assert codes(make_draft, make_inputs, names, question="Who chairs the Social Committee?") == []


# --- delta --------------------------------------------------------------------------------------------------------


def test_a_delta_must_be_the_difference_of_the_values(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    for right in ("$15.00", "15", "4.6%", "4.4%", "the second is higher"):
        assert codes(make_draft, make_inputs, conflict(delta=right)) == [], right
    findings = listed_conflicts.check(make_inputs(make_draft(FACT, conflicts=[conflict(delta="$25.00")])))
    assert [(f.code, f.token) for f in findings] == [(FindingCode.CALC_MISMATCH, "$25.00")]
    born = conflict(
        "July 15, 1905",
        "Bryan was born on July 15, 1905.",
        first="February 8, 1900",
        first_quote="Bryan was born on February 8, 1900.",
    )
    assert codes(make_draft, make_inputs, born.model_copy(update={"delta": "5 years"})) == []
    assert codes(make_draft, make_inputs, born.model_copy(update={"delta": "3 years"})) == [FindingCode.CALC_MISMATCH]


def test_two_sources_disagreeing_about_one_named_subject_pass_when_one_leaves_the_name_to_its_title(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """A page whose title names the school says "Established: 1850"; another says "Hillcrest School was established
    in 1912". The draft lists the two: a real disagreement, even though only one sentence repeats the name."""
    named, bare = "Hillcrest School was established in 1912.", "Established: 1850"
    listed = conflict("1850", bare, first="1912", first_quote=named)
    question = "When was Hillcrest School established?"
    assert codes(make_draft, make_inputs, listed, question=question) == []
    born = "John Smith (born March 3, 1920) was an American actor."
    again = "He was born on 4 March 1921 in Dayton, Ohio."
    listed = conflict("4 March 1921", again, first="March 3, 1920", first_quote=born)
    assert codes(make_draft, make_inputs, listed, question="When was John Smith born?") == []


def test_two_values_of_two_different_named_subjects_are_still_no_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    kent, isle = "Fort Kent had a population of 4,067.", "Presque Isle had a population of 9,692."
    listed = conflict("9,692", isle, first="4,067", first_quote=kent)
    question = "What are the populations of Fort Kent and Presque Isle?"
    assert codes(make_draft, make_inputs, listed, question=question) == [FindingCode.CONFLICT_NOT_REAL]


def test_a_normal_and_an_adjourned_meeting_quorum_are_no_conflict_for_a_question_naming_the_owners(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    normal = "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend."
    adjourned = "At an adjourned meeting the quorum is Owners holding at least 15% of the Interests."
    listed = conflict("15%", adjourned, first="25%", first_quote=normal)
    question = "What is the quorum at a meeting of the Owners?"
    assert codes(make_draft, make_inputs, listed, question=question) == [FindingCode.CONFLICT_NOT_REAL]


def test_two_copies_of_a_biography_differing_in_a_birth_date_are_a_real_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    copy = "Joseph Lafontaine (Berthier MLA) Joseph Lafontaine ({} – July 25, 1920) was a farmer in Quebec."
    born = conflict(
        "March 15, 1870", copy.format("March 15, 1870"), "November 25, 1865", copy.format("November 25, 1865")
    )
    assert codes(make_draft, make_inputs, born, question="When was Joseph Lafontaine born?") == []
    died = conflict(
        "July 25, 1920", copy.format("March 15, 1870"), "November 25, 1865", copy.format("November 25, 1865")
    )
    assert codes(make_draft, make_inputs, died, question="When was Joseph Lafontaine born?") == [
        FindingCode.CONFLICT_NOT_REAL
    ]  # a death date against a birth date


def test_a_pair_the_gate_would_demand_is_a_real_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], make_bundle: Callable[..., EvidenceBundle]
) -> None:
    """ "founded ... in 1912" (the draft's answer) against an infobox's "Established: 1850" on the school's page,
    asked when the school was established: two documents answering one question, however differently worded. The
    same infobox line on a page about another school is no such pair."""
    founded = "The school was founded as Altrincham County High School for Boys in 1912."
    answer = Fact(
        text="Founded in 1912.", value="1912", support=[Support(source_id="a.txt", locator="p.1 L3-L3", quote=founded)]
    )
    pair = Conflict(
        key="founding",
        values=[
            ConflictValue(value="1912", source_id="a.txt", locator="p.1 L3-L3", quote=founded),
            ConflictValue(value="1850", source_id="b.txt", locator="p.1 L3-L3", quote="Established: 1850"),
        ],
    )
    question = "When was Altrincham Grammar School established?"
    school = make_bundle("b.txt", ["Altrincham Grammar School for Boys", "Type: Grammar school", "Established: 1850"])
    inputs = make_inputs(make_draft(answer, conflicts=[pair]), question=question, bundles=(school,))
    assert listed_conflicts.check(inputs) == []
    other = make_bundle("b.txt", ["Maple Grammar School for Girls", "Type: Grammar school", "Established: 1850"])
    inputs = make_inputs(make_draft(answer, conflicts=[pair]), question=question, bundles=(other,))
    assert [f.code for f in listed_conflicts.check(inputs)] == [FindingCode.CONFLICT_NOT_REAL]
    unanswered = answer.model_copy(update={"value": None, "text": "The school has a long history."})
    inputs = make_inputs(make_draft(unanswered, conflicts=[pair]), question=question, bundles=(school,))
    assert [f.code for f in listed_conflicts.check(inputs)] == [FindingCode.CONFLICT_NOT_REAL]  # 1912 answers nothing


def test_two_documents_counting_the_subject_s_people_are_a_real_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """ "there were 1,791 people" (the draft's answer) and "Of the 2,500 people who live in Kensett": two counts of
    the same thing, the second naming the town asked about. Counts of another thing, or of people somewhere the
    question does not name, or against a figure the draft does not answer with, are not."""
    census = "As of the census of 2000, there were 1,791 people, 699 households, and 445 families residing in the city."
    people = "Of the 2,500 people who live in Kensett, there are 515 under 20 years old."

    def listed(quote: str, answered: str = "1,791") -> list[FindingCode]:
        answer = Fact(
            text="1,791 people.",
            value=answered,
            support=[Support(source_id="a.txt", locator="p.1 L3-L3", quote=census)],
        )
        pair = Conflict(
            key="population",
            values=[
                ConflictValue(value="1,791", source_id="a.txt", locator="p.1 L3-L3", quote=census),
                ConflictValue(value="2,500", source_id="b.txt", locator="p.1 L3-L3", quote=quote),
            ],
        )
        inputs = make_inputs(make_draft(answer, conflicts=[pair]), question="What is the population of Kensett?")
        return [f.code for f in listed_conflicts.check(inputs)]

    assert listed(people) == []
    not_real = [FindingCode.CONFLICT_NOT_REAL]
    assert listed("Of the 2,500 households in Kensett, 515 have children.") == not_real  # households
    assert listed("Of the 2,500 people who live in Searcy, 515 are under 20 years old.") == not_real
    assert listed(people, answered="445") == not_real  # 1,791 is not the draft's answer


def test_a_side_answering_the_question_in_a_paraphrase_of_its_word_is_a_real_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """ "was built in 1902" and "was constructed in 1885": the second answers "when was it built?" in another word
    for "built", as close as a word naming a slot must be. A word only near it ("completed") does not, nor does any
    word without a paraphrase scorer (inflections only)."""
    built = "The Harlow Mill Bridge in Keene was built in 1902."
    constructed = "The Harlow Mill Bridge in Keene was constructed in 1885 and still carries traffic."
    completed = "The Harlow Mill Bridge in Keene was completed in 1885 and still carries traffic."
    scores = {("built", "constructed"): 0.83, ("built", "completed"): 0.36}

    def paraphrase(a: str, b: str) -> float:
        return scores.get((a.casefold(), b.casefold()), 0.0)

    answer = Fact(text=built, support=[Support(source_id="budget.md", locator="p.1 L3-L3", quote=built)], value="1902")
    question = "When was the Harlow Mill Bridge built?"

    def found(other: str, scorer: object) -> list[FindingCode]:
        pair = conflict("1885", other, "1902", built)
        inputs = make_inputs(make_draft(answer, conflicts=[pair]), question=question, paraphrase=scorer)
        return [f.code for f in listed_conflicts.check(inputs)]

    assert found(constructed, paraphrase) == []
    assert found(completed, paraphrase) == [FindingCode.CONFLICT_NOT_REAL]
    assert found(constructed, None) == [FindingCode.CONFLICT_NOT_REAL]


def _two_documents(first: str, first_quote: str, second: str, second_quote: str) -> Conflict:
    return Conflict(
        key="answer",
        values=[
            ConflictValue(value=first, source_id="a.txt", locator="p.1 L1-L1", quote=first_quote),
            ConflictValue(value=second, source_id="b.txt", locator="p.1 L1-L1", quote=second_quote),
        ],
    )


def _listed_across(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    question: str,
    mine: tuple[str, str],
    other: tuple[str, str],
) -> list[FindingCode]:
    """The draft answers `mine` (value, quote) from a.txt and lists it against `other` from b.txt; each document's
    passage is resolved (a document names its subject through its passages)."""
    value, quote = mine
    answer = Fact(text=quote, support=[Support(source_id="a.txt", locator="p.1 L1-L1", quote=quote)], value=value)
    pair = _two_documents(value, quote, *other)
    bundles = (build_bundle("a.txt", [quote]), build_bundle("b.txt", [other[1]]))
    inputs = make_inputs(make_draft(answer, conflicts=[pair]), question=question, bundles=bundles)
    return [f.code for f in listed_conflicts.check(inputs)]


def test_two_documents_answering_in_one_frame_in_their_own_words_are_a_real_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """Two documents word one fact differently: the values need not stand in the same words, only where each
    document answers the question about its named subject, in one frame (the same nearest word, or the same word
    governing the value's preposition), with no qualifier parting them."""
    language = 'What is the language of the television series "Maple Hollow"?'
    assamese = "Maple Hollow is an Indian Assamese-language television drama series which aired on Rang."
    finnish = (
        "- Maple Hollow (2017 TV series), a 2017-2018 Indian Finnish-language television series which aired on Zee."
    )
    found = _listed_across(
        make_draft, make_inputs, language, ("Assamese-language", assamese), ("Finnish-language", finnish)
    )
    assert found == []
    artist = 'Who is the artist of the album "Quiet Hours"?'
    duo = "Quiet Hours is the debut studio album by American indie rock duo Best Coast, released on Summer Records."
    band = "Quiet Hours is the debut studio album by British rock band The Beatles, released by Summer Records."
    assert _listed_across(make_draft, make_inputs, artist, ("Best Coast", duo), ("The Beatles", band)) == []
    where = "Where is the Harbor Gazette published?"
    belleville = "The Harbor Gazette is a daily newspaper in Belleville, Illinois."
    springfield = "The Harbor Gazette is a daily newspaper in Springfield, Illinois."
    found = _listed_across(
        make_draft, make_inputs, where, ("Belleville, Illinois", belleville), ("Springfield, Illinois", springfield)
    )
    assert found == []


def test_two_documents_giving_other_attributes_or_other_things_are_no_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """The leniency across documents is never a licence to pair a birth date with a death date, two censuses, two
    roles of one subject, or two things of one name."""
    not_real = [FindingCode.CONFLICT_NOT_REAL]
    born = "When was Ann Roe born?"
    birth = "Ann Roe was born on 3 May 1900 in Leeds."
    death = "Ann Roe died on 9 June 1970 in York."
    span = "Ann Roe (4 May 1901 - 9 June 1970) was an English painter."
    assert _listed_across(make_draft, make_inputs, born, ("3 May 1900", birth), ("9 June 1970", death)) == not_real
    assert _listed_across(make_draft, make_inputs, born, ("3 May 1900", birth), ("9 June 1970", span)) == not_real
    population = "What is the population of Elm Township?"
    census = "As of the 2000 census, the Elm Township population was 428."
    later = "As of the 2010 census, the Elm Township population was 42,800."
    assert _listed_across(make_draft, make_inputs, population, ("428", census), ("42,800", later)) == not_real
    artist = 'Who is the artist of the album "Quiet Hours"?'
    duo = "Quiet Hours is the debut studio album by American indie rock duo Best Coast, released on Summer Records."
    produced = "Quiet Hours is a debut studio album produced by Tom Quill at Summer Records."
    assert _listed_across(make_draft, make_inputs, artist, ("Best Coast", duo), ("Tom Quill", produced)) == not_real
    where = "Where is the Harbor Gazette published?"
    belleville = "The Harbor Gazette is a daily newspaper in Belleville, Illinois."
    other_paper = "The Harbor Gazette & Leader is a daily newspaper in Russellville, Kentucky."
    found = _listed_across(
        make_draft, make_inputs, where, ("Belleville, Illinois", belleville), ("Russellville, Kentucky", other_paper)
    )
    assert found == not_real
    quorum = "What is the quorum of the Elm Club?"
    normal = "The quorum of the Elm Club is 25% of the members."
    adjourned = "At an adjourned meeting of the Elm Club the quorum is 15% of the members."
    assert _listed_across(make_draft, make_inputs, quorum, ("25%", normal), ("15%", adjourned)) == not_real


def test_a_credit_after_the_subjects_name_in_apposition_hangs_on_the_noun_before_it(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """ "The album "Quiet Hours" by X" credits the album as "Quiet Hours is an album by Y" does: the subject's name
    standing between the noun and "by" is skipped. Another noun there ("a review by") is still another role."""
    artist = 'Who is the artist of the album "Quiet Hours"?'
    duo = "Quiet Hours is the debut studio album by American indie rock duo Best Coast."
    apposed = 'The album "Quiet Hours" by The Beatles is a unique blend of their classic sound.'
    assert _listed_across(make_draft, make_inputs, artist, ("Best Coast", duo), ("The Beatles", apposed)) == []
    review = 'A review of "Quiet Hours" by Tom Quill calls it a unique blend of classic sound.'
    found = _listed_across(make_draft, make_inputs, artist, ("Best Coast", duo), ("Tom Quill", review))
    assert found == [FindingCode.CONFLICT_NOT_REAL]


def test_a_name_in_a_title_cased_headline_or_a_shared_qualifier_still_pairs(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """A headline's run of capitals going on past the listed name ("The Copper Owls Announce New Album ...") is
    read where the name's words stand, and a qualifier both documents carry ("mini album") parts neither."""
    artist = 'Who is the artist of the album "Blue Tide"?'
    band = "Blue Tide (Harbor Lights album) Blue Tide is the second studio album by English rock band Harbor Lights."
    headline = '"The Copper Owls Announce New Album Blue Tide, Share Title Track."'
    assert _listed_across(make_draft, make_inputs, artist, ("Harbor Lights", band), ("The Copper Owls", headline)) == []
    mini = 'Who is the artist of the album "Blue Tide"?'
    released = "Blue Tide (Ann Roe album) Blue Tide is the debut mini album released by Ann Roe."
    infobox = (
        "= Album Artist = Tom Quill Released = May 2, 2007 ( mini album ) Label = Summer Records "
        "… Blue Tide — Blue Tide"
    )
    assert _listed_across(make_draft, make_inputs, mini, ("Ann Roe", released), ("Tom Quill", infobox)) == []


def test_a_headline_or_a_shared_qualifier_opens_no_other_pairing(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """Reading a name where its words stand does not make part of another name an answer, and a qualifier shared
    by both sides does not excuse one carried by one side only."""
    not_real = [FindingCode.CONFLICT_NOT_REAL]
    where = "Where is the Harbor Gazette published?"
    belleville = "The Harbor Gazette is a daily newspaper in Belleville, Illinois."
    other_paper = "The Russellville Harbor Gazette Leader is a daily newspaper."
    found = _listed_across(
        make_draft, make_inputs, where, ("Belleville, Illinois", belleville), ("Russellville", other_paper)
    )
    assert found == not_real
    quorum = "What is the quorum of the Elm Club?"
    normal = "The quorum of the Elm Club at a members meeting is 25% of the members."
    adjourned = "The quorum of the Elm Club at an adjourned members meeting is 15% of the members."
    assert _listed_across(make_draft, make_inputs, quorum, ("25%", normal), ("15%", adjourned)) == not_real
    artist = 'Who is the artist of the album "Blue Tide"?'
    released = "Blue Tide (Ann Roe album) Blue Tide is the debut mini album released by Ann Roe."
    remaster = "= Remastered Album Artist = Tom Quill ( mini album ) Blue Tide Label = Summer Records"
    assert _listed_across(make_draft, make_inputs, artist, ("Ann Roe", released), ("Tom Quill", remaster)) == not_real
