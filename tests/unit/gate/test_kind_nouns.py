"""The kind of a named subject: a plain noun naming what a name is ("the town of Pilzno") stands when the passage its
quote stands in says so, and only then: never a modifier, a word of another passage, a word from a sentence giving
a value, or a word of the question."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from quotebound.agent.core.contracts import Draft, Fact, Support
from quotebound.agent.gate.inputs import GateInputs, SourceInfo, SourceLine
from quotebound.agent.gate.kind_nouns import quote_frame
from quotebound.agent.gate.rules import claim_support

SEAT = "Gmina Pilzno is an urban-rural gmina in south-eastern Poland. Its seat is the old town of Pilzno, which lies"
SEAT2 = "south-west of Debica and west of the regional capital Rzeszow."
FIGURE = "As of 2006 the population of Pilzno amounts to 4,411."
ELSEWHERE = "Apart from the village of Pilzno, the gmina contains the settlements of Bielowy and Dobrkow."
PAGE = [SEAT, SEAT2, FIGURE, "", ELSEWHERE]
QUESTION = "What is the population of Pilzno?"


def _judge(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], text: str, **kw: str) -> list[str]:
    return _run(make_draft, make_inputs, text, PAGE, "p.1 L3-L3", FIGURE, kw.get("question", QUESTION))


def _run(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    text: str,
    page: Sequence[str],
    locator: str,
    quote: str,
    question: str,
) -> list[str]:
    support = Support(source_id="pilzno.md", locator=locator, quote=quote)
    draft = make_draft(Fact(text=text, support=[support]), level1=text)
    inputs = make_inputs(
        draft,
        question=question,
        cited_lines=tuple(SourceLine("pilzno.md", 1, n, t) for n, t in enumerate(page, start=1)),
        sources=(SourceInfo("pilzno.md", "Gmina Pilzno"),),
    )
    return [f.message for f in claim_support.check(inputs)]


def test_the_kind_its_passage_gives_a_named_subject_stands(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert _judge(make_draft, make_inputs, "As of 2006, the town of Pilzno had a population of 4,411.") == []


def test_a_modifier_before_the_noun_is_no_kind(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # "old" is in the passage too, but it narrows the town rather than naming what Pilzno is
    messages = _judge(make_draft, make_inputs, "As of 2006, the old town of Pilzno had a population of 4,411.")
    assert messages and all("'old'" in m for m in messages)


def test_a_kind_from_another_passage_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # "village" is written of Pilzno only in another paragraph: what a model carries in by mistake
    messages = _judge(make_draft, make_inputs, "As of 2006, the village of Pilzno had a population of 4,411.")
    assert messages and all("'village'" in m for m in messages)


def test_a_kind_echoed_from_the_question_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    question = "What is the population of the town of Pilzno?"
    text = "As of 2006, the town of Pilzno had a population of 4,411."
    messages = _judge(make_draft, make_inputs, text, question=question)
    assert messages and all("'town'" in m for m in messages)


def test_a_noun_from_a_sentence_giving_a_value_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # the passage gives Acme's debt a figure; the quote gives its revenue one: "debt" would move the value
    page = ["The debt of Acme was $3 million at year end.", "The revenue of Acme was $5 million."]
    quote = "The revenue of Acme was $5 million."
    messages = _run(make_draft, make_inputs, "The debt of Acme was $5 million.", page, "p.1 L2-L2", quote, "Acme?")
    assert messages and all("'debt'" in m for m in messages)


def test_a_verb_is_no_kind(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    page = ["The Beatles recorded the song in London.", "The song was written by John Lennon."]
    quote = "The song was written by John Lennon."
    text = "The Beatles recorded the song written by John Lennon."
    messages = _run(make_draft, make_inputs, text, page, "p.1 L2-L2", quote, "Who wrote the song?")
    assert messages and "'recorded'" in messages[0]


def test_two_kinds_in_one_claim_are_more_than_its_quotes_say(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    page = ["Pilzno is a town and the seat of a gmina in Poland.", FIGURE]
    text = "As of 2006, the town of Pilzno, the seat of the gmina of Pilzno, had a population of 4,411."
    messages = _run(make_draft, make_inputs, text, page, "p.1 L2-L2", FIGURE, QUESTION)
    assert messages and ("'seat'" in messages[0] or "'gmina'" in messages[0])


def test_the_head_of_a_compound_its_passage_writes_names_the_kind(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    quote = "The Belleville News-Democrat is published in Belleville, Illinois."
    text = "The Belleville paper is published in Belleville, Illinois."
    question = "Where is the News-Democrat published?"
    mill = "Belleville also has a paper mill."  # another passage writes "paper": no word of the writer's own
    page = ["The Belleville News-Democrat is a daily newspaper.", quote, "", mill]
    assert _run(make_draft, make_inputs, text, page, "p.1 L2-L2", quote, question) == []
    # where the passage says it only in a sentence that gives a figure, it says when, not what
    page = ["The Belleville News-Democrat was a family-owned newspaper until 1972.", quote, "", mill]
    messages = _run(make_draft, make_inputs, text, page, "p.1 L2-L2", quote, question)
    assert messages and all("'paper'" in m for m in messages)


def test_the_frame_is_the_quotes_block_its_heading_and_title(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    page = ["# Pilzno", "", SEAT, SEAT2, FIGURE, "", ELSEWHERE]
    inputs = make_inputs(
        make_draft(),
        cited_lines=tuple(SourceLine("pilzno.md", 1, n, t) for n, t in enumerate(page, start=1)),
        sources=(SourceInfo("pilzno.md", "Gmina Pilzno"),),
    )
    frame = " ".join(quote_frame(inputs, "pilzno.md", "p.1 L5-L5"))
    assert "old town of Pilzno" in frame and "# Pilzno" in frame and "Gmina Pilzno" in frame
    assert "village" not in frame


IMPRINT = "Hard Time is a comic book series originally published by DC Focus, a short-lived imprint of DC Comics."
AIM = "The aim of the imprint was to feature characters who did not follow the classic format."


def test_the_name_its_passage_gives_a_described_subject_stands(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    text = "The aim of DC Focus was to feature characters who did not follow the classic format."
    page = [IMPRINT, AIM]
    assert _run(make_draft, make_inputs, text, page, "p.1 L2-L2", AIM, "What is Hard Time?") == []


def test_a_name_the_passage_gives_something_the_quote_does_not_describe_is_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    # the passage names a club, but the quote refers to no club: "West Ham" is carried in
    page = ["He was on the books of West Ham United, a club in London.", "He played mostly as a winger."]
    text = "He played mostly as a winger for West Ham United."
    quote = "He played mostly as a winger."
    messages = _run(make_draft, make_inputs, text, page, "p.1 L2-L2", quote, "What did he play?")
    assert messages and all("'west'" in m for m in messages)


def test_a_description_the_passage_gives_two_names_names_neither(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    page = ["It was published by DC Focus, a short-lived imprint, and later by Vertigo, an imprint of DC.", AIM]
    text = "The aim of Vertigo was to feature characters who did not follow the classic format."
    messages = _run(make_draft, make_inputs, text, page, "p.1 L2-L2", AIM, "What is Hard Time?")
    assert messages and all("'vertigo'" in m for m in messages)


GMINA = "Gmina Gniewkowo is an urban-rural gmina in Inowroclaw County, Poland."
SEATED = "Its seat is the town of Gniewkowo, which lies north-east of Inowroclaw."
COUNTY = "The county also writes of a gmina elsewhere."


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("The seat of the gmina is the town of Gniewkowo.", None),
        # the sentence before classifies the subject as a gmina, not a county: "the county" is another subject
        ("The seat of the county is the town of Gniewkowo.", "county"),
        # an indefinite phrase does not refer back to the pronoun's subject
        ("The seat of a gmina is the town of Gniewkowo.", "gmina"),
    ],
)
def test_a_pronoun_may_be_named_by_the_kind_the_sentence_before_gives(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], text: str, word: str | None
) -> None:
    page = [GMINA, SEATED, "", COUNTY]
    messages = _run(make_draft, make_inputs, text, page, "p.1 L2-L2", SEATED, "What is the seat?")
    assert messages == [] if word is None else messages and all(f"'{word}'" in m for m in messages)
