"""A value its quote states for a differently qualified thing ("the special assessment") is no answer to a question
about another ("the monthly assessment"); a quote that keeps the question's qualifier anywhere, or writes the head
unqualified, still answers. Each hostile case is paired with the honest one it must not block."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Draft, EvidenceBundle, Fact, Support
from quotebound.agent.gate.answer_qualifier import other_qualifier
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.question import read_question
from quotebound.agent.gate.rules import answerhood

MONTHLY = "When is the monthly assessment due?"
SPECIAL = "The special assessment is due on June 1, 2025."
REGULAR = "Regular assessments are payable in monthly installments due on the first day of each month."
DUE = "The monthly assessment is due on the first day of each month."
SOURCES = (SourceInfo("minutes.md", "Board minutes"), SourceInfo("declaration.md", "Declaration"))


def _findings(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    question: str,
    answer: str,
    source_id: str,
    quote: str,
    bundles: tuple[EvidenceBundle, ...] = (),
) -> list[str]:
    fact = Fact(text=answer, support=[Support(source_id=source_id, locator="p.1 L1-L1", quote=quote)])
    draft = make_draft(fact, level1=answer, answer=answer)
    found = answerhood.check(make_inputs(draft, question=question, sources=SOURCES, bundles=bundles))
    return [f.message for f in found if f.code is FindingCode.NOT_AN_ANSWER]


def test_another_qualifier_of_the_asked_head_is_read() -> None:
    q = read_question(MONTHLY)
    assert other_qualifier(q, SPECIAL, SPECIAL) == "special"
    assert other_qualifier(q, REGULAR, REGULAR) is None  # "monthly installments": the qualifier stands in it
    assert other_qualifier(q, "The assessment is due on May 1.", "The assessment is due on") is None  # unqualified


def test_a_derivation_word_is_no_qualifier() -> None:
    q = read_question("What is the total budget?")
    assert other_qualifier(q, "The annual budget is $93,600.", "The annual budget is") is None


def test_the_head_must_stand_in_the_value_clause() -> None:
    q = read_question("What is the monthly fee?")
    sentence = "Unlike the annual fee, parking costs $40, which is billed monthly."
    assert other_qualifier(q, "The annual fee is waived; parking costs $40.", "parking costs") is None
    assert other_qualifier(q, sentence, "parking costs") is None


def test_a_date_stated_for_another_assessment_is_not_an_answer(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    budget = make_bundle("budget.md", [DUE, "", "Reserve contribution: $9,360.00."])
    messages = _findings(make_draft, make_inputs, MONTHLY, SPECIAL, "minutes.md", SPECIAL, (budget,))
    assert any("special" in m for m in messages)


def test_a_qualifier_is_another_thing_only_where_the_documents_name_the_asked_one_apart(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    question = "How long does the committee have to decide an architectural application?"
    quote = "The Committee shall decide each complete application within 45 days after it is received."
    answer = "The committee has 45 days to decide a complete application."
    rules = make_bundle("declaration.md", [quote, "", "The Committee reviews plans."])
    assert not _findings(make_draft, make_inputs, question, answer, "declaration.md", quote, (rules,))
    q = read_question(question)
    assert other_qualifier(q, quote, quote) == "complete"  # without the evidence's phrases it would be read


def test_the_value_stated_for_the_asked_assessment_is_an_answer(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    make_bundle: Callable[..., EvidenceBundle],
) -> None:
    budget = (make_bundle("budget.md", [DUE, "", "Reserve contribution: $9,360.00."]),)
    installments = "Regular assessments are payable in monthly installments of $325.00 due on the first day."
    question = "What is the monthly assessment?"
    answer = "The monthly assessment is $325.00."
    assert not _findings(make_draft, make_inputs, question, answer, "declaration.md", installments, budget)
    plain = "The monthly assessment is due on June 1, 2025."
    assert not _findings(make_draft, make_inputs, MONTHLY, plain, "minutes.md", plain, budget)
