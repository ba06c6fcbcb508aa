"""Every document's own answer (`extractive_documents`) and the name a who-question's verb governs
(`extractive_predicate`)."""

from __future__ import annotations

from quotebound.agent.core.contracts import Fact, Support
from quotebound.agent.models.extractive_documents import named, other_sides
from quotebound.agent.models.extractive_pool import Line
from quotebound.agent.models.extractive_predicate import predicate_name
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_values import Value, value_differs
from quotebound.agent.models.extractive_write import entity_answers


def scored(source_id: str, text: str, value: str | None, kind: str = "year", score: float = 1.0) -> Scored:
    found = Value(value, kind, text.index(value)) if value else None
    return Scored(Line(source_id, 1, 1, text), 1.0, score, found, None, True, None)


def test_the_name_after_the_questions_verb_is_the_answer() -> None:
    question = analyze('Who painted "The Quiet Harbour"?')
    line = "The Quiet Harbour (1902 painting) is an Irish seascape painted by Mary Ellen Doyle and sold in Paris."
    found = predicate_name(question, line)
    assert found is not None and found.text == "Mary Ellen Doyle"
    assert line[found.start :].startswith("Mary Ellen Doyle")


def test_a_name_through_to_and_with_a_particle() -> None:
    question = analyze("Who was Clara Osk married to?")
    found = predicate_name(question, "In 1871 Clara Osk married to Pieter van Dam, a merchant.")
    assert found is not None and found.text == "Pieter van Dam"


def test_no_name_after_the_verb_or_only_the_subject_gives_none() -> None:
    question = analyze('Who painted "The Quiet Harbour"?')
    assert predicate_name(question, "The Quiet Harbour was painted in oil on a large canvas.") is None
    assert predicate_name(question, "It is often painted by The Quiet Harbour school of imitators.") is None


def test_named_reads_the_verbs_name_or_drops_a_loose_one() -> None:
    question = analyze('Who painted "The Quiet Harbour"?')
    line = "The Quiet Harbour is an Irish seascape painted by Mary Ellen Doyle."
    loose = scored("a.txt", line, "Irish", "entity")
    reread = named(question, loose)
    assert reread is not None and reread.value is not None and reread.value.text == "Mary Ellen Doyle"
    assert named(question, scored("a.txt", "The Quiet Harbour hangs in Dublin.", "Dublin", "entity")) is None
    dated = scored("a.txt", "It was painted in 1902.", "1902")
    assert named(question, dated) is dated  # not a name: left as it is


def test_each_other_document_gives_its_own_differing_answer_once() -> None:
    question = analyze("When was the Harbour Library opened?")
    top = scored("a.txt", "The Harbour Library opened in 1921.", "1921")
    ranked = [
        top,
        scored("b.txt", "The Harbour Library (Ohio) opened in 1958.", "1958", score=0.9),
        scored("b.txt", "The Harbour Library was extended in 1990.", "1990", score=0.8),
        scored("c.txt", "The Harbour Library was opened in 1921 by the mayor.", "1921", score=0.9),
        scored("d.txt", "The Harbour Library opened in 1975.", "1975", score=0.3),
        scored("e.txt", "The Harbour Library opened its doors in June.", "June", "month", score=0.95),
    ]
    sides = other_sides(question, ranked, [top], Thresholds())
    # b's best line only; c agrees; d scores too far below the best; e gives a value of another class
    assert [(s.line.source_id, s.value.text if s.value else None) for s in sides] == [("b.txt", "1958")]


def test_no_sides_without_a_value_to_compare() -> None:
    question = analyze("When was the Harbour Library opened?")
    top = scored("a.txt", "The Harbour Library opened to readers.", None)
    other = scored("b.txt", "The Harbour Library opened in 1958.", "1958")
    assert other_sides(question, [top, other], [top], Thresholds()) == []
    assert other_sides(question, [top, other], [], Thresholds()) == []


def test_sides_name_the_subject_in_full() -> None:
    question = analyze("When was the Harbour Library opened?")
    top = scored("a.txt", "The Harbour Library opened in 1921.", "1921")
    elsewhere = scored("b.txt", "The Harbour Museum opened in 1958.", "1958")
    assert other_sides(question, [top, elsewhere], [top], Thresholds()) == []
    unnamed = analyze("When was the library opened?")  # no name: lines sharing "library" may be about anything
    other = scored("b.txt", "The library opened in 1958.", "1958")
    assert other_sides(unnamed, [top, other], [top], Thresholds()) == []


def test_years_differ_exactly_amounts_within_the_tolerance() -> None:
    assert value_differs(Value("1885", "year", 0), Value("1902", "year", 0), 1.0)
    assert not value_differs(Value("1902", "year", 0), Value("1902", "year", 0), 1.0)
    assert not value_differs(Value("$1,885", "money", 0), Value("$1,902", "money", 0), 1.0)


def _fact(source_id: str, value: str, key: str | None) -> Fact:
    quote = f"The Harbour Library opened in {value}."
    return Fact(
        text=quote, support=[Support(source_id=source_id, locator="p.1 L1-L1", quote=quote)], key=key, value=value
    )


def test_answers_for_other_things_of_the_name_are_given_each_by_its_document() -> None:
    facts = [_fact("a.txt", "1921", "harbour library opened"), _fact("b.txt", "1958", None)]
    level1 = entity_answers(facts)
    assert "a.txt says 1921" in level1 and "b.txt says 1958" in level1
    assert level1.startswith("The documents give different answers for this name")
    assert entity_answers(facts[:1]) == ""
    keyed = [facts[0], _fact("b.txt", "1958", "harbour library opened")]  # one thing: a conflict, listed apart
    assert entity_answers(keyed) == ""


def test_a_capitalized_qualifier_is_passed_over_for_the_name_after_it() -> None:
    question = analyze('Who painted "The Quiet Harbour"?')
    found = predicate_name(question, "The Quiet Harbour is a seascape painted by Irish marine painter Mary Doyle.")
    assert found is not None and found.text == "Mary Doyle"
    assert predicate_name(question, "The Quiet Harbour was painted by Irish masons long ago.") is None
