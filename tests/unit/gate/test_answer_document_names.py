"""The gate's document scope reads a question naming a document by that document's distinctive names ("the BSD
license" is BSD.txt, whose title never says "license"), not by the kind word every license shares: an answer
from the named document passes, one from another license is blocked."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Draft, Fact, Support
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.rules import answerhood

SOURCES = (
    SourceInfo("Apache-2.0.txt", "Apache License"),
    SourceInfo("BSD.txt", "Copyright (c) The Regents of the University of California."),
    SourceInfo("GPL-3.txt", "GNU GENERAL PUBLIC LICENSE"),
    SourceInfo("MPL-2.0.txt", "Mozilla Public License Version 2.0"),
)
BSD = "Copyright (c) The Regents of the University of California."
GPL = "Copyright (C) 2007 Free Software Foundation, Inc. <https://fsf.org/>"
QUESTION = "Who owns the copyright in the BSD license text?"


def judge(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], source: str, quote: str, answer: str
) -> list[str]:
    fact = Fact(text=quote, support=[Support(source_id=source, locator="p.1 L1-L1", quote=quote)])
    draft = make_draft(fact, level1=answer, answer=answer)
    return [f.message for f in answerhood.check(make_inputs(draft, question=QUESTION, sources=SOURCES))]


def test_the_named_document_answers_though_its_title_lacks_the_kind_word(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    answer = "The Regents of the University of California."
    assert judge(make_draft, make_inputs, "BSD.txt", BSD, answer) == []


def test_another_document_of_the_same_kind_does_not(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    messages = judge(make_draft, make_inputs, "GPL-3.txt", GPL, "The Free Software Foundation, Inc.")
    assert any("the question asks about 'Copyright (c) The Regents" in m for m in messages)
