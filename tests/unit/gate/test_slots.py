"""Slots: when two sentences give values for the same thing (`slots.py`, reading each value in its sentence with
`slot_occurrence.py`).

The conflict rules never read a model's `key`: the slot of a value is read from its sentence. These tests pin the
reading on sentences shaped like real disagreements (a budget against the minutes, two documents giving two birth
dates or two cities, two copies of one biography differing in a date) and on the look-alikes that are not one (a
normal quorum against an adjourned meeting's, a cap against a count, a monthly fee against a yearly budget line, two
figures of one sentence, a birth date against a death date, a release against a reissue).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from quotebound.agent.gate.slots import Occurrence, occurrences, question_terms, same_slot, values_differ, word_key

# --- Reading values in sentences --------------------------------------------------------------------------------


def at(sentence: str, text: str) -> Occurrence:
    """The occurrence of `text` in `sentence`."""
    found = [o for o in occurrences(sentence) if o.text == text]
    assert found, [o.text for o in occurrences(sentence)]
    return found[0]


def test_figures_number_words_and_names_are_values() -> None:
    sentence = "No more than six (6) Units may be leased, and Bryan was born in Alexandria, Louisiana on May 2, 1900."
    assert [(o.text, o.family) for o in occurrences(sentence)] == [
        ("six (6)", "amount"),
        ("Units", "name"),
        ("Bryan", "name"),
        ("Alexandria, Louisiana", "name"),
        ("May 2, 1900", "date"),
    ]
    assert at(sentence, "six (6)").bound == "upper"
    assert at(sentence, "six (6)").unit == "unit"


def test_a_label_before_a_code_and_a_capitalized_common_word_are_no_names() -> None:
    assert [o.text for o in occurrences("Social Committee chair: Marisol Ortega, Unit 3A")] == [
        "Social Committee",
        "Marisol Ortega",
    ]
    assert "Films" not in [o.text for o in occurrences("Categories: comedy films Films about death")]


def test_names_agree_when_one_names_the_other() -> None:
    full = at("The house was in Cloutierville, Louisiana.", "Cloutierville, Louisiana")
    assert not values_differ(full, at("The house was in Louisiana.", "Louisiana"), 1.0)
    assert values_differ(full, at("The house was in New Orleans, Louisiana.", "New Orleans, Louisiana"), 1.0)
    year, day = at("Bryan was born in 1900.", "1900"), at("Bryan was born on February 8, 1900.", "February 8, 1900")
    assert not values_differ(year, day, 1.0)
    assert values_differ(year, at("Bryan was born on July 15, 1905.", "July 15, 1905"), 1.0)


# --- Same slot: real disagreements ------------------------------------------------------------------------------

BUDGET = "Monthly regular assessment per Unit: $325.00."
MINUTES = "The Treasurer noted that the FY2025 budget sets the monthly regular assessment at $340.00 per Unit."


def test_the_budget_and_the_minutes_give_the_assessment_two_values() -> None:
    a, b = at(BUDGET, "$325.00"), at(MINUTES, "$340.00")
    for question in (None, "What is the monthly assessment?", "What does each unit pay per month?"):
        assert same_slot(a, b, question_terms(question)) is None, question


def test_two_documents_giving_two_dates_places_or_names_disagree() -> None:
    pairs = [
        ("When was General Bryan born?", "Bryan was born in Alexandria, Louisiana on {}.", "February 8, 1900",
         "July 15, 1905"),
        ("Where was Airways International based?", "Airways International was an airline based in {}.",
         "Miami, Florida", "Anchorage, Alaska"),
        ("Where was X born?", "X was born in {}.", "Paris", "Lyon"),
        ("Who chairs the Social Committee?", "Social Committee chair: {}.", "Ellen Marsh", "Marisol Ortega"),
    ]  # fmt: skip
    for question, template, first, second in pairs:
        a, b = at(template.format(first), first), at(template.format(second), second)
        assert values_differ(a, b, 1.0)
        assert same_slot(a, b, question_terms(question)) is None, question


def test_a_named_subject_is_not_narrowed_by_a_description() -> None:
    carpenters = "A Kind of Hush is the seventh studio album by American popular music duo Carpenters."
    beatles = "`` A Kind of Hush `` is an album by The Beatles."
    question = question_terms('Who is the artist of the album "A Kind of Hush"?')
    assert same_slot(at(carpenters, "Carpenters"), at(beatles, "Beatles"), question) is None


def test_a_listed_pair_may_leave_the_subject_to_its_document() -> None:
    """A document names its subject once (its title, a sentence before) and then gives the figure: listed together
    by the draft, two such values are one disagreement; unlisted, only values naming the subject are held together."""
    pairs = [
        ("When was John Smith born?", "John Smith (born March 3, 1920) was an American actor.", "March 3, 1920",
         "He was born on 4 March 1921 in Dayton, Ohio.", "4 March 1921"),
        ("When was Hillcrest School established?", "Hillcrest School was established in 1912.", "1912",
         "Established: 1850", "1850"),
        ("What is the population of Fort Kent?", "Fort Kent had a population of 4,067 at the 2010 census.", "4,067",
         "The population was 4,233.", "4,233"),
    ]  # fmt: skip
    for question, first, x, second, y in pairs:
        a, b, terms = at(first, x), at(second, y), question_terms(question)
        assert same_slot(a, b, terms, listed=True) is None, question
        assert same_slot(a, b, terms) == "different subjects", question


def test_a_listed_pair_naming_two_different_subjects_is_still_two_subjects() -> None:
    houses = question_terms("When were Hillcrest School and Maple School founded?")
    first = at("Hillcrest School was founded in 1912.", "1912")
    second = at("Maple School was founded in 1850.", "1850")
    assert same_slot(first, second, houses, listed=True) == "different subjects"  # "School" alone is not one
    towns = question_terms("What are the populations of Fort Kent and Presque Isle?")
    kent = at("Fort Kent had a population of 4,067.", "4,067")
    assert same_slot(kent, at("Kent had a population of 4,233.", "4,233"), towns, listed=True) is None
    isle = at("Presque Isle had a population of 9,692.", "9,692")
    assert same_slot(kent, isle, towns, listed=True) == "different subjects"


# --- Same slot: look-alikes that are not one ---------------------------------------------------------------------


def test_a_qualifier_makes_another_slot() -> None:
    normal = "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend."
    adjourned = "At an adjourned meeting the quorum is Owners holding at least 15% of the Interests."
    for question in (None, "What is the quorum for an owners' meeting?"):
        reason = same_slot(at(normal, "25%"), at(adjourned, "15%"), question_terms(question))
        assert reason == "a qualifier that narrows one subject"


def test_a_qualifier_narrows_a_named_subject_unless_it_describes_the_name() -> None:
    """A subject the question names ("the Owners") is still narrowed by a word modifying the thing the value is of
    ("an adjourned meeting"); only a description of the name itself ("X is the seventh studio album") is not."""
    normal = "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Interests attend."
    adjourned = "At an adjourned meeting the quorum is Owners holding at least 15% of the Interests."
    question = question_terms("What is the quorum at a meeting of the Owners?")
    assert same_slot(at(normal, "25%"), at(adjourned, "15%"), question) == "a qualifier that narrows one subject"


def test_the_date_of_an_edition_or_reissue_is_not_the_date_of_the_work() -> None:
    question = question_terms("When was Freaky Friday released?")
    first = at("Freaky Friday was released on December 17, 1976.", "December 17, 1976")
    for other in (
        "A remastered edition of Freaky Friday was released on June 3, 2003.",
        "Freaky Friday's reissue was released on June 3, 2003.",
    ):
        assert same_slot(first, at(other, "June 3, 2003"), question) == "a qualifier that narrows one subject"
    again = at("Freaky Friday was first released on 17 December 1977.", "17 December 1977")
    assert same_slot(first, again, question) is None  # the same work, the same event: a disagreement
    described = "The album Freaky Friday was released on 17 December 1977."  # a word for the name, not another thing
    for names in (True, False):
        a = next(
            o for o in occurrences("Freaky Friday was released on December 17, 1976.", names) if o.family == "date"
        )
        b = next(o for o in occurrences(described, names) if o.family == "date")
        assert same_slot(a, b, question) is None, names


def test_a_cap_is_not_a_count_and_a_minimum_is_not_a_maximum() -> None:
    count = at("The manager reported that five Units are currently leased.", "five")
    cap = at("No more than six (6) Units may be leased at any one time.", "six (6)")
    assert same_slot(count, cap) is not None
    actual = at("The annual reserve contribution is 18.6% of the total annual budget.", "18.6%")
    minimum = at("The annual reserve contribution shall be not less than 15% of the total annual budget.", "15%")
    assert same_slot(actual, minimum) == "a limit against an amount"
    range_ = "Notice shall be given at least 10 and not more than 50 days before the meeting."
    assert same_slot(at(range_, "10"), at(range_.replace("10 and", "12 and"), "50")) is not None


def test_different_things_periods_and_units_are_different_slots() -> None:
    unit_3a, unit_2c = "Unit 3A percentage interest: 3.50%.", "Unit 2C percentage interest: 4.50%."
    assert same_slot(at(unit_3a, "3.50%"), at(unit_2c, "4.50%")) is not None
    fy18, fy19 = "Underlying EBITDA was $62.6 million in FY18.", "Underlying EBITDA was $85.1 million in FY19."
    assert same_slot(at(fy18, "$62.6 million"), at(fy19, "$85.1 million")) is not None
    decide = at("The Committee shall decide each complete application within 45 days after receiving it.", "45")
    finish = at("Work approved by the Committee must be completed within 180 days after approval.", "180")
    assert same_slot(decide, finish) is not None
    monthly = at("The renewed landscaping contract costs $1,550.00 per month.", "$1,550.00")
    assert same_slot(monthly, at("| 1 | Landscaping and grounds maintenance | $18,600.00 |", "$18,600.00")) is not None


def test_two_values_of_one_sentence_never_disagree() -> None:
    line = "The parish was founded in 1856, the present church building was completed in 1951."
    assert same_slot(at(line, "1856"), at(line, "1951")) == "one sentence giving two values"


def test_a_question_word_only_one_sentence_speaks_of_separates_them() -> None:
    roofs = at("The Association maintains the Common Area, the roofs and the parking lot.", "Association")
    windows = at("Each Owner maintains the Unit's windows, doors and deck surface.", "Owner")
    assert same_slot(roofs, windows, question_terms("Who maintains the roofs?")) is not None


def test_a_named_subject_must_be_named_by_both() -> None:
    oz = at("Death at a Funeral is a 2007 black comedy film directed by Frank Oz.", "Frank Oz")
    remake = at("In 2010 a US remake of the same name was directed by Neil LaBute.", "Neil LaBute")
    question = question_terms('Who is the director of the film "Death at a Funeral"?')
    assert same_slot(oz, remake, question) == "different subjects"


@given(st.sampled_from([BUDGET, MINUTES, "The monthly assessment is $300 per Unit.", "Dues are $12 a year."]))
def test_same_slot_is_symmetric(other: str) -> None:
    question = question_terms("What is the monthly assessment?")
    for a in occurrences(BUDGET):
        for b in occurrences(other):
            assert (same_slot(a, b, question) is None) == (same_slot(b, a, question) is None)


# --- Copies of one sentence, and the parts of a range ---------------------------------------------------------


LIFESPAN = "Joseph Lafontaine (Berthier MLA) Joseph Lafontaine ({} – July 25, 1920) was a farmer and political figure."


def test_two_copies_of_a_biography_giving_two_birth_dates_disagree() -> None:
    """The nearest word of both dates is the subject's name: set aside, the words around them still match."""
    question = question_terms("When was Joseph Lafontaine born?")
    first = at(LIFESPAN.format("November 25, 1865"), "November 25, 1865")
    second = at(LIFESPAN.format("March 15, 1870"), "March 15, 1870")
    for listed in (False, True):
        assert same_slot(first, second, question, listed=listed) is None
    for names in (True, False):  # read with or without names as values
        a = next(o for o in occurrences(LIFESPAN.format("November 25, 1865"), names) if o.family == "date")
        b = next(o for o in occurrences(LIFESPAN.format("March 15, 1870"), names) if o.family == "date")
        assert same_slot(a, b, question) is None, names


def test_a_birth_date_is_not_a_death_date() -> None:
    """The two ends of a range ("1865 - 1920", "from 10 to 50") are two slots, whatever words they share."""
    question = question_terms("When was Joseph Lafontaine born?")
    birth = at(LIFESPAN.format("November 25, 1865"), "November 25, 1865")
    death = at(LIFESPAN.format("March 15, 1870"), "July 25, 1920")
    assert death.range_end and not birth.range_end
    assert same_slot(birth, death, question) == "the start and the end of a range"
    assert same_slot(birth, death, question, listed=True) == "the start and the end of a range"


def test_a_question_word_outside_two_identical_frames_does_not_part_them() -> None:
    """ "commenced practice in Boston" and "... in New York City": the same words around both names. "studied law"
    earlier in one sentence (a word of the question) says nothing of where the practice was."""
    question = question_terms("In which city did Conry practice law?")
    new_york = at(
        "He attended the common schools, studied law, was admitted to the bar and commenced practice in New York City.",
        "New York City",
    )
    boston = at("admitted to the bar and commenced practice in Boston.", "Boston")
    assert same_slot(new_york, boston, question) is None
    roofs = at("The Association maintains the Common Area, the roofs and the parking lot.", "Association")
    windows = at("Each Owner maintains the Unit's windows, doors and deck surface.", "Owner")
    assert same_slot(roofs, windows, question_terms("Who maintains the roofs?")) is not None  # frames differ


def test_a_noun_governing_the_value_itself_is_no_qualifier_of_the_subject() -> None:
    """ "located between the towns of Vernon, Verona": "towns" governs the value, not the school asked about."""
    question = question_terms("Where is Verona High School located?")
    campus = "The main campus of Vernon-Verona-Sherrill High School was built in 1954, and is centrally located {}."
    towns = at(campus.format("between the towns of Vernon, Verona"), "Vernon, Verona")
    miami = at(campus.format("in Miami, Florida"), "Miami, Florida")
    school = frozenset({"vernon", "verona", "sherri", "high", "school"})
    assert same_slot(towns, miami, question, documents=(school, school)) is None


def test_a_date_of_another_event_needs_the_same_words_not_only_the_question_s() -> None:
    """ "It was released ... on November 1, 2007" and "A reissue ... was subsequently released on March 13, 2008"
    share only the question's word and preposition: for figures that is not one slot (for names it is: "an album
    by The Beatles")."""
    question = question_terms('When was the album "Girls\' Generation" released?')
    release = at("It was released by S.M. Entertainment on November 1, 2007.", "November 1, 2007")
    reissue = at('A reissue titled "Baby Baby" was subsequently released on March 13, 2008.', "March 13, 2008")
    assert same_slot(release, reissue, question) == "different words around the values"
    again = at("It was released by S.M. Entertainment on January 1, 2006.", "January 1, 2006")
    assert same_slot(release, again, question) is None


def test_a_month_agrees_with_any_day_of_it() -> None:
    day = at("Date of birth 22 October 1900 Chelsea", "22 October 1900")
    assert not values_differ(day, at("Born in October 1900.", "October 1900"), 1.0)
    assert values_differ(day, at("Born in November 1900.", "November 1900"), 1.0)


def test_two_names_in_one_whole_frame_have_one_role() -> None:
    """Two documents saying "is a private boarding school in <place>" in the same words give one slot two values,
    though the question ("Where is RVA located?") shares no word with them; a name in other words does not."""
    where = question_terms("Where is RVA located?")
    denver = at("Ridgeview Academy is a private boarding school in Denver, Colorado.", "Denver, Colorado")
    austin = at("Ridgeview Academy is a private boarding school in Austin, Texas.", "Austin, Texas")
    assert same_slot(denver, austin, where, listed=True) is None
    moved = at("Ridgeview Academy later opened a second campus in Austin, Texas.", "Austin, Texas")
    assert same_slot(denver, moved, where, listed=True) is not None


def test_a_short_past_tense_keeps_its_verb() -> None:
    """ "died" is "die" (the light stem strips "-ed" only where three letters stay): the question's word is read."""
    assert word_key("died") == word_key("die") and word_key("used") == word_key("use")
    assert word_key("need") != word_key("nee")
    died = at("The last count, Henri Morel, died on 15 June 1745.", "15 June 1745")
    assert question_terms("When did Henri Morel die?").asked <= died.stems


def test_a_gloss_of_the_subject_s_name_qualifies_nothing() -> None:
    """ "Quiet Hours (Urdu: chupke meaning Silence)" glosses the name: its words ("chupke meaning") narrow nothing the
    sentence says of the film (without the reading, "chupke" qualifies "meaning" and parts the two)."""
    question = question_terms("What is the language of the film Quiet Hours?")
    plain = "Quiet Hours (meaning Silence) is a 1998 Pakistani Punjabi-language action film directed by Syed Noor."
    glossed = (
        "Quiet Hours (Urdu: chupke meaning Silence) is a 1998 Pakistani Urdu-language action film directed by Syed."
    )
    a = next(o for o in occurrences(plain) if "Punjabi" in o.text)
    b = next(o for o in occurrences(glossed) if "Urdu-language" in o.text)
    assert same_slot(a, b, question) is None


def test_the_teller_of_a_value_is_not_the_questions_subject() -> None:
    """ "did the Treasurer report": a name made the subject of a verb of telling is a source, not a subject."""
    assert question_terms("What monthly regular assessment did the Treasurer report for FY2025?").names == frozenset()
    # a name the question asks about stays one, and "record" also makes things
    assert question_terms("What did the Treasurer say about the Clubhouse?").names == {"clubho"}
    assert question_terms('Why did The Beatles record "A Kind of Hush" in 1976?').names >= {"beatl"}


def test_an_apposition_to_the_subjects_name_says_which_subject_not_what_is_asked() -> None:
    """ "When was Sir Ann Roe, the painter, born?" asks the birth date: "painter" tells which Ann Roe, so a sentence
    that does not call her a painter still speaks of what is asked. A comma before a place is no apposition."""
    terms = question_terms("When was Sir Ann Roe, the painter, born?")
    assert terms.attribute == {"born"} and terms.asked == {"born"} and terms.verbs == {"born"}
    assert question_terms("What is the population of Elm Township, Ohio?").apposed == frozenset()
    painter = at("Ann Roe (painter) Sir Ann Roe, RA (born 20 June 1954) is a British painter.", "20 June 1954")
    plain = at("Roe was born on 30 June 1954.", "30 June 1954")
    assert same_slot(painter, plain, terms, one_source=True, listed=True) is None
    other = question_terms("When was Sir Ann Roe born as a painter?")  # no apposition: "painter" is asked
    assert same_slot(painter, plain, other, one_source=True, listed=True) is not None


def test_a_credited_name_is_read_by_its_own_phrase_not_by_what_is_said_after_it() -> None:
    """Under "by", the words after a name that ends its phrase describe the credited work ("The album X by The
    Beatles is a unique blend"); a word right after the name is still the credit's phrase ("by English girl group
    Bananarama": "English" is read by "girl group")."""
    ended = at('The album "Quiet Hours" by The Beatles is a unique blend of their classic sound.', "Beatles")
    assert ended.lead == "by" and "uniqu" not in ended.context and "album" in ended.context
    modifying = at('"Shy Boy" is a song recorded by English girl group Bananarama.', "English")
    assert {"girl", "group"} <= modifying.context.keys()
    unled = at("The Beatles is a unique blend of classic sound.", "Beatles")  # no credit: read both ways
    assert "uniqu" in unled.context


def test_an_appositive_name_is_read_by_the_phrase_it_renames() -> None:
    """ "The house's first owner, <name>, was ..." in two documents gives the owner two values: the phrase before
    the commas says what the name is; a list's item, a name after a fronted date and another role do not."""
    asked = question_terms("Who was the first owner of the Short House?")
    template = "The house's first owner, {}, was a wealthy businessman."
    first = at(template.format("George Washington Short"), "George Washington Short")
    second = at(template.format("Thomas Jefferson Long"), "Thomas Jefferson Long")
    assert first.context.keys() >= {"owner", "first"}
    assert same_slot(first, second, asked, listed=True) is None
    builder = at("The house's builder, Thomas Jefferson Long, was a carpenter.", "Thomas Jefferson Long")
    assert same_slot(first, builder, asked, listed=True) is not None
    listed = at("The first tenants were Mary Jones, Ann Brown, and Tom Hill.", "Ann Brown")
    assert not listed.context
    fronted = at("In 1850, George Washington Short, a merchant, bought it.", "George Washington Short")
    assert not fronted.context
