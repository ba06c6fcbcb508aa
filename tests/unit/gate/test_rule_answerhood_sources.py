"""The answerhood rule: a question naming a document is answered by a figure computed from that document's own
figures (a sum of two of its lines), not only by one it writes; and a capitalized title that only shares a prefix
with the question's verb ("President" for "Who presides ...?") is a name that answers "who". Each honest case has a
hostile twin."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import CalcDerivation, Draft, Fact, Support
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.rules import answerhood

Build = Callable[..., Draft]
Inputs = Callable[..., GateInputs]

SOURCES = (SourceInfo("budget.md", "Annual Budget, Fiscal Year 2025"), SourceInfo("other.md", "Reserve study"))
LINES = ("| 1 | Landscaping | $18,600.00 |", "| 4 | Management fee | $10,800.00 |")


def fact(source_id: str, *quotes: str, **more: object) -> Fact:
    supports = [Support(source_id=source_id, locator=f"p.1 L{i + 1}-L{i + 1}", quote=q) for i, q in enumerate(quotes)]
    return Fact(text=quotes[0], support=supports, **more)


def judge(make_draft: Build, make_inputs: Inputs, question: str, answer: str, *facts: Fact) -> list[str]:
    built = make_draft(*facts, level1=answer, answer=answer)
    return [f.message for f in answerhood.check(make_inputs(built, question=question, sources=SOURCES))]


def test_a_figure_computed_from_the_named_documents_figures_comes_from_it(
    make_draft: Build, make_inputs: Inputs
) -> None:
    question = "What is the combined budget for landscaping and the management fee in the Annual Budget?"
    calc = CalcDerivation(expr="18,600.00 + 10,800.00", value="29400")
    summed = fact("budget.md", *LINES, key="combined•budget", value="29400", calc=calc)
    assert not any(
        "come from other documents" in m for m in judge(make_draft, make_inputs, question, "$29,400.", summed)
    )
    # operands the named document does not write: the figure comes from elsewhere
    foreign = CalcDerivation(expr="18,600.00 + 12,000.00", value="30600")
    mixed = (
        fact("budget.md", *LINES),
        fact("other.md", "| Reserve contribution | $12,000.00 |", key="combined•budget", value="30600", calc=foreign),
    )
    assert any("come from other documents" in m for m in judge(make_draft, make_inputs, question, "$30,600.", *mixed))


def test_a_title_sharing_only_a_prefix_with_the_questions_verb_answers_who(
    make_draft: Build, make_inputs: Inputs
) -> None:
    question = "Who presides at Board meetings?"
    quote = "The President presides at meetings of the Board and of the Owners."
    assert not any(
        "who (a name)" in m
        for m in judge(make_draft, make_inputs, question, "The President.", fact("budget.md", quote))
    )
    # the question's own verb, capitalized, still names no one
    echo = judge(make_draft, make_inputs, question, "Presides at meetings.", fact("budget.md", quote))
    assert any("who (a name)" in m for m in echo)
