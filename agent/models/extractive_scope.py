"""A question that names a document is answered from that document: the reader keeps only its lines.

"Under the FY2025 budget, how much does one Unit pay?" is answered by the budget, not by the board minutes that
quote another figure; "How many days do I have to cure a violation of the Apache License?" is answered by the
Apache License or not at all, never by another license's cure period. Which documents a question names is the
gate's own reading (`question_scope.scoped_sources`), so the reader never drafts from a document the gate would
reject. The named documents are searched even when retrieval brought none of their lines.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from quotebound.agent.core.contracts import EvidenceBundle
from quotebound.agent.gate.inputs import SourceInfo
from quotebound.agent.gate.question_scope import names_of, scoped_sources
from quotebound.agent.models.extractive_question import Question


def named_ids(question: str, documents: Sequence[tuple[str, str]]) -> frozenset[str]:
    """The readable documents the question names (empty: none, or every one)."""
    return scoped_sources(question, tuple(SourceInfo(i, t) for i, t in documents))


def unnamed(question: Question, documents: Sequence[tuple[str, str]], named: frozenset[str]) -> Question:
    """`question` without the words by which it names its documents: "When did the Board adopt the FY2025
    budget?" is answered by the budget's "This budget was adopted by the Board ... on November 18, 2024.", which
    need not write "FY2025": its title does. A question left with no word keeps its own."""
    sources = [SourceInfo(i, t) for i, t in documents if i in named]
    kept = [(w, raw) for w, raw in zip(question.words, question.spelled, strict=False) if not names_of(raw, sources)]
    if not kept or len(kept) == len(question.words):
        return question
    words, spelled = zip(*kept, strict=True)
    return dataclasses.replace(question, words=tuple(words), spelled=tuple(spelled))


def in_scope(named: frozenset[str], bundles: Sequence[EvidenceBundle]) -> tuple[list[EvidenceBundle], list[str]]:
    """(the bundles of the documents a question names (`named_ids`), the sources to search): every bundle and its
    sources when the question names no document, or names every readable one."""
    retrieved = list(dict.fromkeys(b.source_id for b in bundles))
    if not named:
        return list(bundles), retrieved
    kept = [b for b in bundles if b.source_id in named]
    # the named documents retrieval reached first, then the others, in a stable order
    return kept, [*(s for s in retrieved if s in named), *sorted(named - set(retrieved))]


__all__ = ["in_scope", "named_ids", "unnamed"]
