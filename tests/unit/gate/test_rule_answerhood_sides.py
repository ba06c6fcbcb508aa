"""The answerhood rule, part three: an answer asserting a listed conflict's other side as the answer is blocked
(reporting it as a disagreement is not), and honest answers this rule once refused pass: a figure in a clause that
names nothing but a participle ("and averaging at"), a rounded figure of a calc, a cause dated before the period a
"why" question asks about, a kind of document that is the quote's topic ("from the restructuring plan"), a sentence
referring to its proper-name subject by anaphora, a name given as the value of the fact the question asks about,
and a bare table cell under a percent column (a level, not a change). Each honest case has a hostile twin."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from quotebound.agent.core.contracts import CalcDerivation, Conflict, ConflictValue, Draft, Fact, Support
from quotebound.agent.gate.answer_binding import figure_bound, figure_clause
from quotebound.agent.gate.answer_text import figures
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.rules import answerhood
from tests.unit.gate.conftest import verbatim

Build = Callable[..., Draft]
Inputs = Callable[..., GateInputs]

FILM = "Lahu Ke Do Rang (1979 film) Lahu Ke Do Rang is a 1979 Hindi movie directed by Mahesh Bhatt."
CATEGORIES = "Categories: Hindi-language movies 1979 films Films directed by Raj Kapoor Films shot in Hong Kong"
SOURCES = (
    SourceInfo("film.txt", "Lahu Ke Do Rang"),
    SourceInfo("cats.txt", "Categories"),
    SourceInfo("plan.md", "Restructuring costs"),
    SourceInfo("plan-2.md", "Restructuring plan summary"),
    SourceInfo("town.txt", "Census"),
)


def fact(source_id: str, *quotes: str, key: str | None = None, value: str | None = None, **more: object) -> Fact:
    supports = [Support(source_id=source_id, locator=f"p.1 L{i + 1}-L{i + 1}", quote=q) for i, q in enumerate(quotes)]
    return Fact(text=quotes[0], support=supports, key=key, value=value, **more)


def judge(
    make_draft: Build, make_inputs: Inputs, question: str, answer: str, *facts: Fact, **fields: object
) -> list[str]:
    conflicts = fields.pop("conflicts", ())
    built = make_draft(*facts, level1=answer, answer=answer, conflicts=conflicts)
    findings = answerhood.check(make_inputs(built, question=question, sources=SOURCES, **fields))
    assert all(f.code is FindingCode.NOT_AN_ANSWER and f.blocking for f in findings)
    return [f.message for f in findings]


def director_conflict() -> Conflict:
    return Conflict(
        key="Lahu Ke Do Rang•director",
        values=[
            ConflictValue(value="Mahesh Bhatt", source_id="film.txt", locator="p.1 L1-L1", quote=FILM),
            ConflictValue(value="Raj Kapoor", source_id="cats.txt", locator="p.1 L1-L1", quote=CATEGORIES),
        ],
    )


# --- a listed conflict's other side is reported, not asserted -----------------------------------------------------


def test_an_answer_asserting_the_other_side_of_a_listed_conflict_blocks(make_draft: Build, make_inputs: Inputs) -> None:
    question = 'Who are the directors of the film "Lahu Ke Do Rang"?'
    facts = [fact("film.txt", FILM, key="Lahu Ke Do Rang•director", value="Mahesh Bhatt")]
    conflicts = [director_conflict()]
    hostile = judge(
        make_draft, make_inputs, question, "Raj Kapoor directed Lahu Ke Do Rang in 1979.", *facts, conflicts=conflicts
    )
    assert any("conflict side" in m and "raj kapoor" in m for m in hostile)
    also = "Raj Kapoor directed it, although the article says Mahesh Bhatt."  # the side asserted, the fact reported
    assert any(
        "conflict side" in m for m in judge(make_draft, make_inputs, question, also, *facts, conflicts=conflicts)
    )
    for honest in (
        "Lahu Ke Do Rang was directed by Mahesh Bhatt, although two documents attribute it to Raj Kapoor.",
        "Mahesh Bhatt (one source: Raj Kapoor).",
        "Mahesh Bhatt; the sources disagree: Raj Kapoor according to two category pages.",
        "Mahesh Bhatt directed Lahu Ke Do Rang.",
    ):
        found = judge(make_draft, make_inputs, question, honest, *facts, conflicts=conflicts)
        assert not any("conflict side" in m for m in found), honest


# --- honest answers the rule once refused --------------------------------------------------------------------------


def test_a_participle_clause_states_its_figure_for_the_sentence_subject() -> None:
    sentence = "FY 2019 saw volatility in USD-INR, ranging from 64.90 and 74.10, and averaging at 70.07."
    average = next(f for f in figures(sentence) if f.text == "70.07")
    assert figure_bound({"usd", "inr"}, sentence, figure_clause(sentence, average)) is True
    funding = "Revenue was $10.0 million and funding of $5.0 million came from the parent."
    grant = next(f for f in figures(funding) if f.text == "$5.0 million")
    # "funding of": a noun, not a participle
    assert figure_bound({"revenu"}, funding, figure_clause(funding, grant)) is False


def test_a_rounded_calc_result_answers_a_derived_question(make_draft: Build, make_inputs: Inputs) -> None:
    question = "What is the percentage change in the total trade receivables from 2018 to 2019?"
    rows = ("| £m | 2019 | 2018 |", "| Trade receivables | 39.9 | 35.8 |")
    calc = CalcDerivation(expr="(39.9 - 35.8) / 35.8 * 100", value="11.45")  # rounded: the calc rule's to report
    answer = "Trade receivables grew by about 11.45%, from £35.8m to £39.9m."
    honest = judge(make_draft, make_inputs, question, answer, fact("plan.md", *rows, calc=calc, value="11.45%"))
    assert not any("computed figure" in m for m in honest)
    bare = judge(make_draft, make_inputs, question, "Trade receivables were £39.9m.", fact("plan.md", *rows))
    assert any("computed figure" in m for m in bare)


def test_a_why_answer_may_give_a_cause_dated_before_the_period_asked(make_draft: Build, make_inputs: Inputs) -> None:
    quote = (
        "Interest expense increased in fiscal 2019 compared to fiscal 2018 due to higher average borrowings from "
        "the $10.0 billion of senior notes issued in November 2017."
    )
    why = "Why did interest expense increase in fiscal 2019 compared to fiscal 2018?"
    answer = "Higher average borrowings from the $10.0 billion senior notes issued in November 2017."
    assert not any("period asked" in m for m in judge(make_draft, make_inputs, why, answer, fact("plan.md", quote)))
    level = "What were the senior notes issued in fiscal 2019?"
    assert any("period asked" in m for m in judge(make_draft, make_inputs, level, answer, fact("plan.md", quote)))


def test_a_kind_of_document_the_quote_talks_about_names_no_document(make_draft: Build, make_inputs: Inputs) -> None:
    quote = (
        "This world-wide restructuring plan included a reduction in force of approximately 11% of the Company's "
        "workforce, or 1,027 employees."
    )
    question = "How much was the reduction in force from the restructuring plan?"
    honest = judge(make_draft, make_inputs, question, "About 1,027 employees.", fact("town.txt", quote))
    assert not any("quotes none of its passages" in m for m in honest)
    other = "The company reduced its force by 1,027 employees."  # the quote never writes "restructuring plan"
    hostile = judge(make_draft, make_inputs, question, "About 1,027 employees.", fact("town.txt", other))
    assert any("quotes none of its passages" in m for m in hostile)


def test_a_sentence_referring_to_a_named_subject_by_anaphora_is_not_judged(
    make_draft: Build, make_inputs: Inputs
) -> None:
    question = "What is the population of Broken Bow?"
    census = "As of the census of 2010, there were 3,559 people, 1,575 households, and 909 families in the city."
    honest = judge(make_draft, make_inputs, question, "3,559 people (2010 census).", fact("town.txt", census))
    assert not any("something else" in m for m in honest)
    elsewhere = "As of the census of 2010, Fort Kent had 3,559 people."  # names another place before the figure
    hostile = judge(make_draft, make_inputs, question, "3,559 people (2010 census).", fact("town.txt", elsewhere))
    assert any("something else" in m for m in hostile)


def test_a_name_given_as_the_value_of_the_asked_slot_answers_who(make_draft: Build, make_inputs: Inputs) -> None:
    question = "Who was the husband of Khentkaus?"
    quote = "She may have been a daughter of pharaoh Menkaure, wife of both kings Shepseskaf and Userkaf."
    answer = "Khentkaus I may have been the wife of both kings Shepseskaf and Userkaf."
    keyed = fact("town.txt", quote, key="Khentkaus I•husband", value="Shepseskaf and Userkaf")
    assert not any("who (a name)" in m for m in judge(make_draft, make_inputs, question, answer, keyed))
    unkeyed = fact("town.txt", quote)
    assert any("who (a name)" in m for m in judge(make_draft, make_inputs, question, answer, unkeyed))
    title = fact("town.txt", "Khentkaus I was a queen of ancient Egypt.", key="Khentkaus I•husband", value="queen")
    found = judge(make_draft, make_inputs, question, "Khentkaus I was a queen of ancient Egypt.", title)
    assert any("who (a name)" in m for m in found)  # the slot's value is no name


def test_a_bare_cell_under_a_percent_column_is_a_level(make_draft: Build, make_inputs: Inputs) -> None:
    question = "What is the discount rate in 2019?"
    rows = ("| | 2019 | 2018 |", "| | % | % |", "| Discount rate | 2.9 | 3.8 |")
    built = make_draft(fact("plan.md", *rows), level1="2.9%.", answer="2.9%.")
    heads = dataclasses.replace(verbatim("p.1 L3-L3"), headings="2019 % | 2018 %")
    checks = {(0, 2): heads}
    found = answerhood.check(make_inputs(built, question=question, sources=SOURCES, checks=checks))
    assert not any("changed by" in f.message for f in found)
    prose = "The discount rate decreased by 2.9% in 2019."
    changed = judge(make_draft, make_inputs, question, "2.9%.", fact("plan.md", prose))
    assert any("changed by" in m for m in changed)


def test_a_locative_word_before_a_time_places_nothing(make_draft: Build, make_inputs: Inputs) -> None:
    question = "Where is Fort Buchanan located?"
    quote = "Fort Buchanan was a United States Army post founded in 1856 three miles southwest of Sonoita, Arizona."
    for dated in ("In 1856.", "In the 1850s."):
        found = judge(make_draft, make_inputs, question, dated, fact("town.txt", quote))
        assert any("where (a place)" in m for m in found), dated
    for placed in ("In Arizona.", "Three miles southwest of Sonoita, Arizona.", "Near Sonoita."):
        found = judge(make_draft, make_inputs, question, placed, fact("town.txt", quote))
        assert not any("where (a place)" in m for m in found), placed
