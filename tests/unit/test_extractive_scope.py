"""A question that names a document is read from that document alone (`extractive_scope`)."""

from __future__ import annotations

from quotebound.agent.core.contracts import EvidenceBundle
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_scope import in_scope, named_ids, unnamed

DOCUMENTS = (
    ("board-minutes-2025-03.md", "Cedar Hollow Owners Association — Minutes of the Regular Board Meeting"),
    ("budget-2025.md", "Cedar Hollow Owners Association — Annual Budget, Fiscal Year 2025"),
    ("Apache-2.0.txt", "Apache License"),
    ("GPL-3.txt", "GNU GENERAL PUBLIC LICENSE"),
)


def bundle(source_id: str) -> EvidenceBundle:
    return EvidenceBundle.model_construct(source_id=source_id)  # only its source is read here


def test_a_named_document_keeps_its_bundles_and_is_searched_even_unretrieved() -> None:
    bundles = [bundle("GPL-3.txt"), bundle("board-minutes-2025-03.md")]
    kept, search = in_scope(
        named_ids("How many days do I have to cure a violation of the Apache License?", DOCUMENTS), bundles
    )
    assert kept == [] and search == ["Apache-2.0.txt"]
    kept, search = in_scope(named_ids("Under GPLv3, how long must an offer stay valid?", DOCUMENTS), bundles)
    assert [b.source_id for b in kept] == ["GPL-3.txt"] and search == ["GPL-3.txt"]


def test_a_question_naming_no_document_reads_every_bundle() -> None:
    bundles = [bundle("GPL-3.txt"), bundle("budget-2025.md")]
    kept, search = in_scope(named_ids("How many directors sit on the Board?", DOCUMENTS), bundles)
    assert kept == bundles and search == ["GPL-3.txt", "budget-2025.md"]


def test_the_words_naming_the_document_are_not_asked_of_its_lines() -> None:
    text = "When did the Board adopt the FY2025 budget?"
    question = unnamed(analyze(text), DOCUMENTS, named_ids(text, DOCUMENTS))
    assert question.words == ("board", "adopt")
    assert question.spelled == ("Board", "adopt")


def test_a_question_of_naming_words_only_keeps_them() -> None:
    text = "What is the Apache License?"
    question = analyze(text)
    assert unnamed(question, DOCUMENTS, named_ids(text, DOCUMENTS)) == question
