"""The extractive model's first drafts pass the gate as it stands: every sentence it writes around its quotes (the
note on a secondary source, the method of a derived figure, the hierarchy of disagreeing sources) is said in the
words of its quotes or of evidence, and a derived question gets a calc, not a quoted operand."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from quotebound.agent.core.contracts import Draft, EvidenceBundle
from quotebound.agent.gate import validate_draft
from quotebound.agent.models.base import DraftInput
from quotebound.agent.models.extractive import ExtractiveModel
from quotebound.tools.context import ToolContext
from quotebound.tools.registry import ToolRegistry
from quotebound.tools.resolve_evidence import resolve_evidence
from quotebound.tools.retrieval import HybridRetriever
from quotebound.tools.store import Store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hoa"
Drafted = tuple[Draft, list[EvidenceBundle]]


@pytest.fixture
def ask(public_ctx: ToolContext, hoa_store: Store) -> Callable[[str], Drafted]:
    retriever = HybridRetriever(hoa_store)

    def run(question: str) -> Drafted:
        hits = retriever.search(question, top_k=8, allow=public_ctx.can_read)
        bundles = [resolve_evidence(public_ctx, str(hit.ref())) for hit in hits]
        draft = ExtractiveModel().draft(DraftInput(question=question, bundles=bundles), ToolRegistry(public_ctx))
        return draft, bundles

    return run


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("Who chairs the Social Committee?", "Ellen Marsh"),  # a secondary source only
        ("Is the Hollow Herald newsletter an official notice of the Association?", "not an official notice"),
        ("What does the landscaping contract cost per year?", "18,600"),  # a monthly quote times twelve
        ("How much is budgeted per month for snow and ice removal?", "400"),  # an annual quote divided by twelve
        ("What percentage of the total annual budget is the reserve contribution?", "18.59"),
        ("By how much is the reserve fund balance projected to fall between January 1 and December 31, 2025?", "4,600"),
        ("What is the sum of the electricity budget and the water and sewer budget?", "10,800"),
        ("What is the monthly regular assessment per Unit?", "$340.00"),  # two primary sources disagree
    ],
)
def test_first_drafts_pass_the_gate(
    ask: Callable[[str], Drafted], public_ctx: ToolContext, question: str, shown: str
) -> None:
    draft, bundles = ask(question)
    assert shown in draft.levels.level1, draft.levels
    report = validate_draft(draft, bundles=bundles, ctx=public_ctx, question=question)
    assert report.ok, [f.message for f in report.findings if f.blocking]


def test_a_disagreement_is_listed_with_both_values(ask: Callable[[str], Drafted]) -> None:
    draft, _ = ask("What is the monthly regular assessment per Unit?")
    values = {v.value for c in draft.evidence.conflicts for v in c.values}
    assert {"$325.00", "$340.00"} <= values


def test_a_change_read_from_one_row_per_point_is_computed_not_quoted(ask: Callable[[str], Drafted]) -> None:
    draft, _ = ask("By how much is the reserve fund balance projected to fall between January 1 and December 31, 2025?")
    derived = [f for f in draft.evidence.facts if f.calc is not None]
    assert [f.calc.expr for f in derived if f.calc is not None] == ["184,250.00 - 179,650.00"]
