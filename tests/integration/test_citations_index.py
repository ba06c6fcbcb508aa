"""A model's `citations_index` is never trusted, through the real graph (`Agent.ask`) on the example corpus.

A hostile model that lists a false sentence as a cited source id no longer gets that sentence past the gate, and
every envelope that shows evidence carries the citations index the system built from the checked supports (the
source id and the content hash of the source version the quote was resolved in), whatever the model wrote.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path

from quotebound import Agent, AskRequest
from quotebound.agent.core.contracts import (
    AbstainEnvelope,
    AnswerEnvelope,
    AnswerLevels,
    AnswerObject,
    CitationIndexEntry,
    Draft,
    Fact,
    Gap,
    ReasonCode,
    Support,
)
from quotebound.agent.core.settings import Settings
from quotebound.testing import answer_message, scripted_model
from quotebound.tools.resolve_evidence import resolve_evidence

QUESTION = "What is the late charge for an unpaid assessment?"
LATE = "An installment not paid within 15 days after its due date incurs a late charge of $25.00."
FALSE = "The late charge is waived for a first late payment."
SUPPORT = Support(source_id="declaration.md", locator="p.1 L106-L106", quote=LATE)


def _draft(level1: str, index: Sequence[str], mode: str = "answer", gaps: Sequence[Gap] = ()) -> Draft:
    return Draft(
        levels=AnswerLevels(
            level1=level1, level2=f'The Declaration says: "{LATE}"', level3="Citations: declaration.md p.1 L106-L106"
        ),
        evidence=AnswerObject.model_validate(
            {
                "mode": mode,
                "answer": level1,
                "facts": [Fact(text=LATE, support=[SUPPORT])],
                "gaps": list(gaps),
                "citations_index": [CitationIndexEntry(source_id=s, ingest_hash="sha256:0") for s in index],
            }
        ),
    )


def _ask(store_dir: Path, *drafts: Draft) -> tuple[Agent, object]:
    model = scripted_model([answer_message(d) for d in drafts])
    agent = Agent(Settings(store=store_dir, embedder="hashing"), model=model)
    return agent, agent.ask(AskRequest(question=QUESTION, session_id=uuid.uuid4().hex))


def _system_index(agent: Agent) -> list[CitationIndexEntry]:
    """declaration.md with the content hash of the version its quote resolves in, as the system reads it."""
    bundle = resolve_evidence(agent.context.tools_for("public"), f"doc://declaration.md#{SUPPORT.locator}")
    return [CitationIndexEntry(source_id="declaration.md", ingest_hash=bundle.content_hash)]


def test_a_false_sentence_listed_in_the_citations_index_does_not_ship(store_dir: Path) -> None:
    hostile = _draft(f"{LATE} {FALSE}", [FALSE, "declaration.md"])
    agent, envelope = _ask(store_dir, hostile, hostile, hostile)
    with agent:
        assert isinstance(envelope, AbstainEnvelope), envelope
        assert envelope.reason_code is ReasonCode.VERIFICATION_FAILED
        assert "waived" not in envelope.model_dump_json()


def test_the_answer_carries_the_system_citations_whatever_index_the_model_sent(store_dir: Path) -> None:
    wrong = ["budget-2025.md", "The Board has cancelled all assessments."]
    agent, envelope = _ask(store_dir, _draft(LATE, wrong))
    with agent:
        assert isinstance(envelope, AnswerEnvelope), envelope
        assert envelope.evidence.citations_index == _system_index(agent)
        assert "cancelled" not in envelope.model_dump_json()
        tools = agent.context.tools_for("public")
        bundle = resolve_evidence(tools, f"doc://declaration.md#{SUPPORT.locator}")
        assert [(c.ref, c.bundle_id) for c in envelope.citations] == [(bundle.ref, bundle.bundle_id)]


def test_an_abstention_showing_partial_evidence_carries_the_system_index(store_dir: Path) -> None:
    gap = Gap(need="the interest due on an unpaid late charge", why="no_quote_found")
    partial = _draft(
        LATE, ["The Board has cancelled all assessments."], mode="report_insufficient_evidence", gaps=[gap]
    )
    agent, envelope = _ask(store_dir, partial)
    with agent:
        assert isinstance(envelope, AbstainEnvelope), envelope
        assert envelope.evidence is not None and envelope.evidence.facts, envelope
        assert envelope.evidence.citations_index == _system_index(agent)
        assert "cancelled" not in envelope.model_dump_json()
