"""Speed of the gate (`validate_draft`) on a 20-fact honest draft, and on hostile drafts built to be slow. Prints
figures; asserts nothing.

    python benchmarks/bench_gate_speed.py [--runs 300]

The honest draft gathers 20 facts from the honest calibration drafts over examples/hoa (`evals/calibration/hoa.yaml`:
their own quotes, locators and sentences), checked against the bundles their refs resolve to, in a store of
examples/hoa built with the hashing embedder and read under examples/hoa/policy.yaml. Every run verifies every quote
afresh, so the figures include the SQLite reads. The goal is a median of at most 2 ms.

The hostile drafts are the shapes that once cost seconds to minutes (a 1 MB level1, two 4,000-character values
under one key), the same kinds at the largest size the input bounds let through, and the longest draft inside
every bound. Each must come back quickly, blocked; the line shows its time and the report's blocking codes.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from quotebound.agent.core.contracts import (
    AnswerLevels,
    AnswerObject,
    Draft,
    EvidenceBundle,
    Fact,
)
from quotebound.agent.core.errors import ModelError
from quotebound.agent.core.settings import Settings
from quotebound.agent.gate import validate_draft
from quotebound.agent.gate.bounds import DEFAULT_BOUNDS
from quotebound.agent.gate.findings import GateReport
from quotebound.agent.gate.tokens import clear_token_cache
from quotebound.evals.calibration import CALIBRATION_DIR, load_file
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import Ingestor
from quotebound.tools.policy import Caller
from quotebound.tools.policy_file import FilePolicy
from quotebound.tools.resolve_evidence import resolve_evidence
from quotebound.tools.store import Store

ROOT = Path(__file__).resolve().parents[1]
HOA = ROOT / "examples" / "hoa"
FACTS = 20


def honest_draft() -> tuple[Draft, str]:
    """20 facts from distinct honest public hoa calibration drafts, their sentences joined into the levels."""
    cases = [c for c in load_file(CALIBRATION_DIR / "hoa.yaml").cases if c.honest and c.role == "public"]
    facts: list[Fact] = []
    level1: list[str] = []
    level2: list[str] = []
    seen: set[tuple[str, str]] = set()
    for case in cases:
        evidence = case.draft.evidence
        if evidence.conflicts or not evidence.facts:
            continue
        fact = evidence.facts[0]
        where = {(s.source_id, s.locator) for s in fact.support}
        if where & seen:
            continue
        seen |= where
        facts.append(fact)
        level1.append(case.draft.levels.level1)
        level2.append(case.draft.levels.level2)
        if len(facts) == FACTS:
            break
    refs = sorted({f"doc://{s.source_id}#{s.locator}" for f in facts for s in f.support})
    draft = Draft(
        levels=AnswerLevels(level1=" ".join(level1), level2=" ".join(level2), level3="Citations: " + "; ".join(refs)),
        evidence=AnswerObject(mode="answer", answer=" ".join(level1), facts=facts),
    )
    return draft, cases[0].question


def bundles_for(ctx: ToolContext, draft: Draft) -> list[EvidenceBundle]:
    bundles: list[EvidenceBundle] = []
    for ref in dict.fromkeys(f"doc://{s.source_id}#{s.locator}" for f in draft.evidence.facts for s in f.support):
        try:
            bundles.append(resolve_evidence(ctx, ref))
        except (ModelError, ValueError):
            continue
    return bundles


def hostile(base: Draft) -> dict[str, Draft]:
    """Drafts built to cost the gate time: sizes the bounds refuse, and the largest they let through."""
    fact = base.evidence.facts[0]
    quote = fact.support[0]
    bounds = DEFAULT_BOUNDS

    def with_levels(level1: str, level2: str | None = None) -> Draft:
        levels = AnswerLevels(level1=level1, level2=level2 or base.levels.level2, level3=base.levels.level3)
        return base.model_copy(update={"levels": levels})

    def with_facts(facts: list[Fact]) -> Draft:
        return base.model_copy(update={"evidence": base.evidence.model_copy(update={"facts": facts})})

    def keyed(value: str) -> Fact:
        return fact.model_copy(update={"key": "the value", "value": value})

    words = "Owners may not keep -1-1 a1-b2 $4.00 12/31/2025 10:00 p.m. § 4.2 1,000 (12) 15% FY25 "
    inside = bounds.max_text_chars - 100
    return {
        "1 MB level1": with_levels(words * (1_000_000 // len(words))),
        "two 4k-char values, one key": with_facts([keyed("ab" * 2000), keyed("ba" * 2000)]),
        "1,000 facts": with_facts([fact] * 1000),
        "a fact with 500 supports": with_facts([fact.model_copy(update={"support": [quote] * 500})]),
        f"level1 and level2 of {inside:,} token-dense chars": with_levels(
            (words * (inside // len(words) + 1))[:inside], ("-1" * inside)[:inside]
        ),
        f"{bounds.max_facts} facts, values of {bounds.max_short_chars} chars, one key": with_facts(
            [keyed(("ab" if i % 2 else "ba") * (bounds.max_short_chars // 2)) for i in range(bounds.max_facts)]
        ),
        f"{bounds.max_facts} facts x {bounds.max_supports} supports": with_facts(
            [fact.model_copy(update={"support": [quote] * bounds.max_supports})] * bounds.max_facts
        ),
    }


def timed(call: Callable[[], GateReport]) -> tuple[float, GateReport]:
    start = time.perf_counter()
    report = call()
    return (time.perf_counter() - start) * 1000, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store=Path(tmp) / "store", embedder="hashing")
        with Store(settings, create=True) as store:
            assert Ingestor(store).ingest([HOA]).ok
            ctx = ToolContext(Corpus(store), caller=Caller(role="public"), policy=FilePolicy.load(HOA / "policy.yaml"))
            draft, question = honest_draft()
            bundles = bundles_for(ctx, draft)

            def run(d: Draft) -> GateReport:
                return validate_draft(d, bundles=bundles, ctx=ctx, question=question)

            report = run(draft)  # warm-up, and what the honest draft gets
            blocking = sorted({f.code.value for f in report.blocking})
            cold: list[float] = []
            warm: list[float] = []
            for _ in range(args.runs):
                clear_token_cache()  # cold: nothing remembered from the previous draft
                cold.append(timed(lambda: run(draft))[0])
            for _ in range(args.runs):
                warm.append(timed(lambda: run(draft))[0])  # warm: a repair re-validating mostly the same quotes
            hostile_rows = []
            for name, bad in hostile(draft).items():
                clear_token_cache()
                ms, bad_report = timed(lambda bad=bad: run(bad))  # type: ignore[misc]
                hostile_rows.append((name, ms, bad_report))
    supports = sum(len(f.support) for f in draft.evidence.facts)
    print(
        f"validate_draft, honest draft: {len(draft.evidence.facts)} facts, {supports} supports, {len(bundles)} "
        f"bundles, {args.runs} runs each; ok={report.ok}" + (f" (blocking: {', '.join(blocking)})" if blocking else "")
    )
    for label, times in (("cold token cache", cold), ("warm token cache", warm)):
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"  {label}: p50 {statistics.median(times):.2f} ms, p95 {p95:.2f} ms, max {max(times):.2f} ms")
    print(f"hostile drafts (deadline {DEFAULT_BOUNDS.deadline_ms:g} ms):")
    for name, ms, bad_report in hostile_rows:
        codes = ", ".join(sorted({f.code.value for f in bad_report.blocking})) or "none"
        print(f"  {name:55} {ms:9.1f} ms  ok={bad_report.ok}  blocking: {codes}")


if __name__ == "__main__":
    main()
