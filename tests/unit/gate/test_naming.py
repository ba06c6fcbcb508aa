"""Names a claim may use that its quotes do not write: the question's name for its subject (where a quote refers to
the subject without naming it, never where a quote names something else), and a cited document's own name."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from quotebound.agent.core.contracts import Draft, Fact, Support
from quotebound.agent.gate.inputs import GateInputs, SourceLine
from quotebound.agent.gate.naming import question_names, replaces_reference
from quotebound.agent.gate.quoted import words
from quotebound.agent.gate.rules import claim_support


@pytest.mark.parametrize(
    ("question", "subject", "every"),
    [
        ("What is the median age in Fort Kent?", {"fort", "kent"}, {"fort", "kent"}),
        # a weekday inside a name is part of it; alone it is a date
        ("When did the Freaky Friday musical begin?", {"freaky", "friday"}, {"freaky", "friday"}),
        ("Is the annual meeting held on Friday?", set(), set()),
        # a quoted title is a name, whatever its case
        ('When was the album "loitering with intent" released?', {"loitering", "intent"}, {"loitering", "intent"}),
        # a name at the question's start, when it runs on into another
        ("Freaky Friday opened when?", {"freaky", "friday"}, {"freaky", "friday"}),
        # a polar question's subject follows its auxiliary; the rest is the value asked about
        ("Is the Suzuki V-Strom 1000 manufactured in Italy?", {"suzuki", "strom"}, {"suzuki", "strom", "italy"}),
        ("Does Deloitte audit PwC?", {"deloitte"}, {"deloitte", "pwc"}),
    ],
)
def test_the_questions_names_and_its_subjects(question: str, subject: set[str], every: set[str]) -> None:
    names = question_names(question)
    assert names.subject == subject and names.every == every


def _replaces(claim: str, name: str, quotes: Sequence[str]) -> bool:
    found = words(claim)
    run = [i for i, w in enumerate(found) if w.text in name.split()]
    return replaces_reference(claim, found, run, quotes)


def test_a_name_stands_for_a_reference_to_the_subject_never_for_another_name() -> None:
    town = ["The median age in the town was 42.7 years."]
    assert _replaces("The median age in Fort Kent was 42.7 years.", "Fort Kent", town)
    assert _replaces("Fort Kent's median age was 42.7 years.", "Fort Kent's", ["Its median age was 42.7 years."])
    assert _replaces("The Freaky Friday musical began performances.", "Freaky Friday", ["musical began performances."])
    assert not _replaces("It is made in Italy by Suzuki.", "Italy", ["It is made in Japan by Suzuki."])
    assert not _replaces("2,500 people live in Fort Kent.", "Fort Kent", ["Of the 2,500 people who live in Kensett"])
    # a phrase the quote does not have at all is no reference to its subject
    assert not _replaces("Capital for Acme is requested as needed.", "Acme", ["Capital is requested as needed."])


FORT_KENT = "The median age in the town was 42.7 years."
KENSETT = "Of the 2,500 people who live in Kensett, 515 are under 20 years old."


def _fact(quote: str, text: str, source_id: str) -> Fact:
    return Fact(text=text, support=[Support(source_id=source_id, locator="p.1 L1-L1", quote=quote)])


def test_the_rule_lets_the_question_name_its_subject(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    def judge(draft: Draft, question: str, **fields: Any) -> list[str]:
        return [f.message for f in claim_support.check(make_inputs(draft, question=question, **fields))]

    lines = (SourceLine("fk.txt", 1, 1, FORT_KENT),)
    honest = make_draft(_fact(FORT_KENT, "The median age in Fort Kent was 42.7 years.", "fk.txt"))
    assert judge(honest, "What is the median age in Fort Kent?", cited_lines=lines) == []
    # the same name is no subject of a polar question's predicate, nor where a quote names another place
    echoed = make_draft(_fact(FORT_KENT, "The median age in Fort Kent was 42.7 years.", "fk.txt"))
    assert judge(echoed, "Is the median age of 42.7 years in Fort Kent?", cited_lines=lines) != []
    moved = make_draft(_fact(KENSETT, "2,500 people live in Fort Kent.", "kensett.txt"))
    lines = (SourceLine("kensett.txt", 1, 1, KENSETT),)
    assert any("'fort', 'kent'" in m for m in judge(moved, "How many people live in Fort Kent?", cited_lines=lines))


DUNN_BIO = "Charles J. Dunn (July 14, 1872 – November 10, 1939) was an American jurist, lawyer, and politician."
DUNN_BORN = "Born in Houghton County, Michigan, Dunn lived in Blue Hill, Maine."
KERR_BORN = "Born in Houghton County, Michigan, Kerr lived in Blue Hill, Maine."


@pytest.mark.parametrize(
    ("quote", "text", "blocked"),
    [
        # the question's title for its subject, put to the full name the quotes write for the same person
        (DUNN_BORN, "Justice Charles J. Dunn was born in Houghton County, Michigan.", ()),
        # the title on a name the question does not give: another person, not the question's subject
        (KERR_BORN, "Justice Charles J. Kerr was born in Houghton County, Michigan.", ("justice",)),
        # a word of neither the question's name nor the quotes' makes the whole name another subject's
        (DUNN_BORN, "Justice Edward Charles J. Dunn was born in Houghton County, Michigan.", ("justice", "edward")),
    ],
)
def test_the_questions_title_may_complete_a_quoted_name(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    quote: str,
    text: str,
    blocked: tuple[str, ...],
) -> None:
    bio = DUNN_BIO if "Dunn" in quote else DUNN_BIO.replace("Dunn", "Kerr")
    supports = [Support(source_id="d.txt", locator=f"p.1 L{n}-L{n}", quote=q) for n, q in ((1, bio), (2, quote))]
    draft = make_draft(Fact(text=text, support=supports))
    lines = (SourceLine("d.txt", 1, 1, bio), SourceLine("d.txt", 1, 2, quote))
    found = claim_support.check(make_inputs(draft, question="Where was Justice Dunn born?", cited_lines=lines))
    messages = [f.message for f in found]
    assert messages == [] if not blocked else all(any(f"'{w}'" in m for m in messages) for w in blocked)
