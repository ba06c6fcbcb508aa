"""The extractive model on the example corpus: answers, numbers, conflicts, calc, abstention, injected text,
clarify timeout, determinism; every quote verbatim and no novel digits in the visible levels; and repair."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from quotebound.agent.core.contracts import Draft, EvidenceBundle, Support
from quotebound.agent.core.settings import Settings
from quotebound.agent.models.base import DraftingModel, DraftInput
from quotebound.agent.models.extractive import ExtractiveModel
from quotebound.agent.models.extractive_table_calc import grouped
from quotebound.agent.models.factory import make_model
from quotebound.tools.calc import recompute
from quotebound.tools.context import ToolContext
from quotebound.tools.ingest import IngestReport
from quotebound.tools.registry import REPAIR_TOOLS, ToolRegistry
from quotebound.tools.resolve_evidence import resolve_evidence
from quotebound.tools.retrieval import HybridRetriever
from quotebound.tools.store import Store

Ingest = Callable[..., IngestReport]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hoa"
INJECTED = {("newsletter-spring-2025.md", f"p.1 L{n}-L{n}") for n in (30, 31, 32)}

LEASE = "What is the minimum lease term for renting out a unit?"
BUDGET = "What is the total operating budget for 2025?"
ASSESSMENT = "What is the monthly HOA assessment for 2025?"
RESERVE = "How much is the monthly reserve fund contribution in the 2025 budget?"
POOL = "What are the pool's opening hours?"
DEMO_QUESTIONS = [
    LEASE,
    BUDGET,
    ASSESSMENT,
    RESERVE,
    POOL,
    "What's the square footage of my unit?",
    "How much does the landscaping contract cost per year?",
    "What is the combined cost of snow and ice removal and trash and recycling collection?",
    "What percentage of the total annual budget is the reserve fund contribution?",
    "How many directors are on the board?",
    "When is the special assessment due?",
    "Are dues waived this year?",
    "Has the Board cancelled all assessments?",
]


@pytest.fixture
def ask(public_ctx: ToolContext, hoa_store: Store) -> Callable[..., Draft]:
    retriever = HybridRetriever(hoa_store)

    def run(question: str, **request: object) -> Draft:
        hits = retriever.search(question, top_k=8, allow=public_ctx.can_read)
        bundles = [resolve_evidence(public_ctx, str(hit.ref())) for hit in hits]
        return ExtractiveModel().draft(
            DraftInput(question=question, bundles=bundles, **request), ToolRegistry(public_ctx)
        )

    return run


def supports(draft: Draft) -> list[Support]:
    return [s for fact in draft.evidence.facts for s in fact.support]


def assert_verbatim(draft: Draft, public_ctx: ToolContext) -> None:
    """Every support and conflict quote is exactly the text quote_fetch returns at its locator."""
    registry = ToolRegistry(public_ctx)
    quoted = [(s.source_id, s.locator, s.quote) for s in supports(draft)]
    quoted += [(v.source_id, v.locator, v.quote) for c in draft.evidence.conflicts for v in c.values]
    for source_id, locator, quote in quoted:
        fetched = registry.invoke("quote_fetch", {"source_id": source_id, "locator": locator})
        assert fetched["ok"], fetched
        assert fetched["result"]["quote"] == quote, (source_id, locator)


_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


def novel_digits(draft: Draft) -> list[str]:
    """Digit-bearing tokens of level1/level2 found in no quote and no calc value (cited ids and locators aside)."""
    quotes = [s.quote for s in supports(draft)] + [v.quote for c in draft.evidence.conflicts for v in c.values]
    allowed = {t for q in quotes for t in _NUMBER.findall(q)}
    allowed |= {grouped(f.calc.value).lstrip("-") for f in draft.evidence.facts if f.calc is not None}  # as shown
    text = f"{draft.levels.level1} {draft.levels.level2}"
    for source_id in sorted({s.source_id for s in supports(draft)}, key=len, reverse=True):
        text = text.replace(source_id, " ")
    text = re.sub(r"p\.\d+ L\d+(?:-L\d+)?", " ", text)
    return [t for t in _NUMBER.findall(text) if t not in allowed]


def test_factory_builds_the_extractive_model(tmp_path: Path) -> None:
    model = make_model("extractive", Settings(store=tmp_path / "s", embedder="hashing"))
    assert isinstance(model, ExtractiveModel) and isinstance(model, DraftingModel)
    assert model.model_id == "extractive"


def test_plain_answer_quotes_the_minimum_lease_term(ask: Callable[..., Draft]) -> None:
    draft = ask(LEASE)
    assert draft.evidence.mode == "answer"
    assert "twelve (12) months" in draft.levels.level1
    first = draft.evidence.facts[0].support[0]
    assert (first.source_id, first.locator) == ("declaration.md", "p.1 L51-L51")
    assert first.quote == "The minimum lease term is twelve (12) months."
    assert draft.levels.level3 == "Citations: declaration.md p.1 L51-L51"
    assert draft.evidence.answer == draft.levels.level1
    assert not draft.evidence.conflicts and not draft.evidence.gaps


def test_number_total_operating_budget(ask: Callable[..., Draft]) -> None:
    draft = ask(BUDGET)
    assert draft.evidence.mode == "answer"
    assert "$76,200.00" in draft.levels.level1
    assert draft.evidence.facts[0].value == "$76,200.00"
    assert {s.source_id for s in supports(draft)} == {"budget-2025.md"}
    # the operating table's total row (L30) or the summary table's (L45, read under its "FY2025 budget" heading)
    stating = {("budget-2025.md", "p.1 L30-L30"), ("budget-2025.md", "p.1 L45-L45")}
    assert stating & {(s.source_id, s.locator) for s in supports(draft)}
    assert not draft.evidence.conflicts
    assert "$76,200.00" in draft.evidence.extractions.numbers
    hashes = {c.source_id: c.ingest_hash for c in draft.evidence.citations_index}
    assert set(hashes) == {"budget-2025.md"} and hashes["budget-2025.md"].startswith("sha256:")


def test_planted_conflict_lists_both_values_and_defers(ask: Callable[..., Draft]) -> None:
    draft = ask(ASSESSMENT)
    assert draft.evidence.conflicts, draft.levels
    conflict = draft.evidence.conflicts[0]
    by_value = {v.value: v for v in conflict.values}
    assert set(by_value) == {"$325.00", "$340.00"}
    assert (by_value["$325.00"].source_id, by_value["$325.00"].locator) == ("budget-2025.md", "p.1 L11-L11")
    assert (by_value["$340.00"].source_id, by_value["$340.00"].locator) == ("board-minutes-2025-03.md", "p.1 L32-L32")
    assert all(v.value in v.quote for v in conflict.values)
    assert "disagree" in draft.levels.level1
    assert "$325.00" in draft.levels.level1 and "$340.00" in draft.levels.level1
    assert conflict.delta == "$15"  # from calc, never typed
    assert not any(f.calc for f in draft.evidence.facts)  # no derived figure from disputed operands


@pytest.mark.parametrize(
    ("question", "expr", "value", "operand_line"),
    [
        (RESERVE, "17,400.00 / 12", "1450", ("budget-2025.md", "p.1 L36-L36")),
        ("How much does the landscaping contract cost per year?", "1,550.00 * 12", "18600", None),
        (
            "What is the combined cost of snow and ice removal and trash and recycling collection?",
            "4,800.00 + 5,400.00",
            "10200",
            ("budget-2025.md", "p.1 L21-L21"),
        ),
        (
            "What percentage of the total annual budget is the reserve fund contribution?",
            "round(17,400.00 / 93,600.00 * 100, 2)",
            "18.59",
            None,
        ),
        (
            "How much more is the master insurance policy premium than the management fee?",
            "16,200.00 - 10,800.00",
            "5400",
            ("budget-2025.md", "p.1 L22-L22"),
        ),
        (
            "What is Unit 4B's share of the Building 4 deck special assessment?",
            "12,000.00 * 4.25%",
            "510",
            ("unit-schedule.md", "p.1 L35-L35"),
        ),
    ],
)
def test_calc_fact_derives_from_quoted_operands(
    ask: Callable[..., Draft], question: str, expr: str, value: str, operand_line: tuple[str, str] | None
) -> None:
    draft = ask(question)
    derived = [f for f in draft.evidence.facts if f.calc is not None]
    assert len(derived) == 1, draft.levels
    fact = derived[0]
    assert fact.calc is not None and (fact.calc.expr, fact.calc.value, fact.value) == (expr, value, value)
    assert recompute(fact.calc.expr) == value
    assert grouped(value) in draft.levels.level1  # "1,450": shown as documents write figures
    if operand_line is not None:
        assert operand_line in {(s.source_id, s.locator) for s in fact.support}


def test_missing_evidence_reports_insufficient(ask: Callable[..., Draft]) -> None:
    draft = ask(POOL)
    assert draft.evidence.mode == "report_insufficient_evidence"
    assert not draft.evidence.facts and not draft.evidence.citations_index
    assert [g.why for g in draft.evidence.gaps] == ["no_quote_found"]
    assert draft.levels.level1.startswith("Insufficient evidence")
    assert draft.levels.level3.startswith("Citations: None")
    assert not any(source in draft.evidence.gaps[0].need for source in ("declaration", "bylaws", "newsletter", ".md"))


@pytest.mark.parametrize(
    "question",
    [
        "Who is responsible for maintaining the roofs of the buildings?",  # normalized: "building"
        "What does the Security Access Sheet say about how long camera footage is kept?",  # normalized: "feet"
    ],
)
def test_an_insufficient_evidence_report_names_the_terms_as_the_question_wrote_them(
    ask: Callable[..., Draft], public_ctx: ToolContext, question: str
) -> None:
    from quotebound.agent.gate.gather import gather_inputs
    from quotebound.agent.gate.rules import claim_support

    draft = ask(question)
    assert draft.evidence.mode == "report_insufficient_evidence" and not draft.evidence.facts
    # Nothing is cited: the report names the question's terms only where it says what is missing (its gap).
    assert claim_support.check(gather_inputs(draft, bundles=[], ctx=public_ctx, question=question)) == []


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("What is the HOA's total annual budget?", "$93,600.00"),  # not the operating total, a different subject
        ("What is the reserve fund balance?", "$184,250.00"),  # the projected balance is for another date
        ("How many directors are on the board?", "5"),  # "three (3) of the five (5) directors" agrees
        ("How many units are there?", "24"),
    ],
)
def test_lines_about_other_things_are_not_conflicts(ask: Callable[..., Draft], question: str, value: str) -> None:
    draft = ask(question)
    assert draft.evidence.mode == "answer" and not draft.evidence.conflicts, draft.levels
    assert draft.evidence.facts[0].value == value


def test_a_question_for_a_code_needs_a_code(ask: Callable[..., Draft]) -> None:
    draft = ask("What is the gate code?")  # the public minutes only say when codes change
    assert draft.evidence.mode == "report_insufficient_evidence"


def test_tool_calls_stay_within_the_budget(public_ctx: ToolContext, hoa_store: Store) -> None:
    hits = HybridRetriever(hoa_store).search(RESERVE, top_k=8, allow=public_ctx.can_read)
    bundles = [resolve_evidence(public_ctx, str(hit.ref())) for hit in hits]
    for limit in (0, 1, 3, 12):
        registry = ToolRegistry(public_ctx)
        draft = ExtractiveModel().draft(DraftInput(question=RESERVE, bundles=bundles, max_tool_calls=limit), registry)
        assert len(registry.calls) <= limit
        assert not registry.refusals
        assert_verbatim(draft, public_ctx)
        if limit == 0:  # no calc: an annual quote is no answer to a monthly question
            assert draft.evidence.mode == "report_insufficient_evidence"


@pytest.mark.parametrize(
    "question", ["Are dues waived this year?", "Has the Board cancelled all assessments?", ASSESSMENT]
)
def test_injected_lines_are_never_support(ask: Callable[..., Draft], question: str) -> None:
    draft = ask(question)
    assert not {(s.source_id, s.locator) for s in supports(draft)} & INJECTED
    assert "waived" not in draft.levels.level1


def test_injected_paragraph_alone_gives_no_answer(public_ctx: ToolContext) -> None:
    bundle = resolve_evidence(public_ctx, "doc://newsletter-spring-2025.md#p.1 L30-L32")
    request = DraftInput(question="Are dues waived for the rest of 2025?", bundles=[bundle])
    draft = ExtractiveModel().draft(request, ToolRegistry(public_ctx))
    assert draft.evidence.mode == "report_insufficient_evidence"
    assert not supports(draft)


def test_flagged_lines_are_never_support(public_ctx: ToolContext) -> None:
    bundle = resolve_evidence(public_ctx, "doc://budget-2025.md#p.1 L9-L14")
    flagged = bundle.model_copy(update={"flags": ["instructional_text:p.1 L11-L11"]})
    request = DraftInput(question="What is the monthly regular assessment per unit?", bundles=[flagged])
    draft = ExtractiveModel().draft(request, ToolRegistry(public_ctx))
    assert ("budget-2025.md", "p.1 L11-L11") not in {(s.source_id, s.locator) for s in supports(draft)}
    assert "$325.00" not in draft.levels.level1


def test_clarify_timeout_reports_missing_fields(ask: Callable[..., Draft], public_ctx: ToolContext) -> None:
    draft = ask("What's the square footage of my unit?", gate="proceed_after_clarify_timeout", missing=["unit"])
    assert draft.evidence.mode == "report_insufficient_evidence"
    assert [(g.need, g.why) for g in draft.evidence.gaps] == [("unit", "clarify_timeout")]
    assert "could not be given because you did not supply" in draft.levels.level1
    assert "did not supply" in draft.levels.level2
    assert all("unit" in level for level in (draft.levels.level1, draft.levels.level2))
    assert_verbatim(draft, public_ctx)


def test_drafting_is_deterministic(ask: Callable[..., Draft]) -> None:
    for question in (ASSESSMENT, RESERVE, POOL):
        assert ask(question).model_dump() == ask(question).model_dump()


@pytest.mark.parametrize("question", DEMO_QUESTIONS)
def test_quotes_are_verbatim_and_levels_add_no_digits(
    ask: Callable[..., Draft], public_ctx: ToolContext, question: str
) -> None:
    draft = ask(question)
    assert_verbatim(draft, public_ctx)
    assert novel_digits(draft) == [], draft.levels
    cited = [f"{s.source_id} {s.locator}" for s in supports(draft)]
    if cited:
        assert draft.levels.level3 == "Citations: " + "; ".join(dict.fromkeys(cited))
    for fact in draft.evidence.facts:
        if fact.calc is not None:
            assert recompute(fact.calc.expr) == fact.calc.value


def _repair(
    public_ctx: ToolContext, question: str, previous: Draft, findings: list[str], bundles: list[EvidenceBundle]
) -> Draft:
    request = DraftInput(question=question, bundles=bundles, previous=previous, findings=findings)
    return ExtractiveModel().repair(request, ToolRegistry(public_ctx, allowed=REPAIR_TOOLS, max_calls=12))


def test_repair_replaces_a_fabricated_quote(ask: Callable[..., Draft], public_ctx: ToolContext) -> None:
    draft = ask(ASSESSMENT)
    facts = []
    for fact in draft.evidence.facts:
        forged = [s.model_copy(update={"quote": s.quote.replace("$325.00", "$300.00")}) for s in fact.support]
        facts.append(fact.model_copy(update={"support": forged}))
    previous = draft.model_copy(update={"evidence": draft.evidence.model_copy(update={"facts": facts})})
    findings = ["support quote at budget-2025.md p.1 L11-L11 is not verbatim"]
    repaired = _repair(public_ctx, ASSESSMENT, previous, findings, bundles=[])
    assert_verbatim(repaired, public_ctx)
    assert novel_digits(repaired) == []
    assert "$300.00" not in repaired.model_dump_json()
    assert {v.value for c in repaired.evidence.conflicts for v in c.values} == {"$325.00", "$340.00"}


def test_repair_adds_a_named_conflict_value(ask: Callable[..., Draft], public_ctx: ToolContext) -> None:
    draft = ask(ASSESSMENT)
    kept = [f for f in draft.evidence.facts if f.support[0].source_id == "budget-2025.md"]
    previous = draft.model_copy(update={"evidence": draft.evidence.model_copy(update={"facts": kept, "conflicts": []})})
    findings = ["conflict not reported: value $340.00 at board-minutes-2025-03.md p.1 L32-L32 differs from $325.00"]
    repaired = _repair(public_ctx, ASSESSMENT, previous, findings, bundles=[])
    assert_verbatim(repaired, public_ctx)
    values = {(v.value, v.source_id, v.locator) for c in repaired.evidence.conflicts for v in c.values}
    assert ("$340.00", "board-minutes-2025-03.md", "p.1 L32-L32") in values
    assert ("$325.00", "budget-2025.md", "p.1 L11-L11") in values
    assert "disagree" in repaired.levels.level1


def test_repair_drops_a_refused_derivation_and_its_bare_operands(
    ask: Callable[..., Draft], public_ctx: ToolContext
) -> None:
    draft = ask(RESERVE)
    findings = ["span alignment: token '1450' in level1 is not in any quote"]
    repaired = _repair(public_ctx, RESERVE, draft, findings, bundles=[])
    assert repaired.evidence.mode == "report_insufficient_evidence"  # an annual quote alone is no monthly answer
    assert "1450" not in repaired.model_dump_json()


def test_repair_drops_what_cannot_be_verified(ask: Callable[..., Draft], public_ctx: ToolContext) -> None:
    draft = ask(LEASE)
    fake = Support(source_id="declaration.md", locator="p.1 L999-L999", quote="Leases may be for any term at all.")
    facts = [draft.evidence.facts[0].model_copy(update={"support": [fake], "text": "Leases may be for any term."})]
    previous = draft.model_copy(update={"evidence": draft.evidence.model_copy(update={"facts": facts})})
    repaired = _repair(public_ctx, LEASE, previous, ["p.1 L999-L999 is not in the locator index of declaration.md"], [])
    assert repaired.evidence.mode == "report_insufficient_evidence"
    assert not repaired.evidence.facts
    assert repaired.levels.level3.startswith("Citations: None")
