"""Speed of the gate (`validate_draft`) on a 20-fact honest draft, and on hostile drafts built to be slow. Prints
figures; asserts nothing.

    python benchmarks/bench_gate_speed.py [--runs 300] [--rules]

The honest draft gathers 20 facts from the honest calibration drafts over examples/hoa (`evals/calibration/hoa.yaml`:
their own quotes, locators and sentences), checked against the bundles their refs resolve to, in a store of
examples/hoa built with the hashing embedder and read under examples/hoa/policy.yaml. Every run verifies every quote
afresh. The goal is a median of at most 2 ms.

It is timed four ways, each as wall-clock and as CPU time of this thread (the CPU figure moves less when other
processes share the cores):
- first validation: a new `ToolContext` (a new run: its cited sources are read from SQLite) and nothing the gate
  remembered from any earlier draft (every cache under `agent/gate` cleared), but the readings of the cited
  sources' text kept (`gate/source_readings.py`: a quote's sentences parsed, its words and stems, a page's frames,
  the values of a bundle's lines; work that depends only on a source version, done once when a source is first
  read): the draft as the gate first sees it in a service that has read these sources before;
- from nothing: the same, with the source readings forgotten too (the first draft ever to cite these sources);
- token cache cleared: the same context, only the token cache forgotten (the "cold" row of earlier reports);
- repair: the same context and the same draft again, everything remembered (a repair re-validating the same quotes).
`--rules` adds the CPU time of gathering and of each rule (`rules.RULES`), p50 over the runs, first validation and
repair.

The hostile drafts are the shapes that once cost seconds to minutes (a 1 MB level1, two 4,000-character values
under one key), the same kinds at the largest size the input bounds let through, and the longest draft inside
every bound. Each must come back quickly, blocked; the line shows its time and the report's blocking codes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
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
from quotebound.agent.gate.gather import gather_inputs
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import RULES
from quotebound.agent.gate.source_readings import forget_sources
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


def timed(call: Callable[[], GateReport]) -> tuple[float, float, GateReport]:
    """(wall-clock ms, this thread's CPU ms, the report)."""
    start, cpu = time.perf_counter(), time.thread_time()
    report = call()
    return (time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000, report


def forget_everything(sources: bool = False) -> None:
    """Clear every cache of the gate's modules (`functools.lru_cache`s: tokens, meaning, claims ...), so the next
    validation starts as a new draft does; with `sources`, the readings of the sources' text too
    (`source_readings.forget_sources`), so it starts from nothing."""
    if sources:
        forget_sources()
    for name, module in list(sys.modules.items()):
        if name.startswith("quotebound.agent.gate") and module is not None:
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def rule_times(inputs_for: Callable[[], GateInputs], runs: int, fresh: Callable[[], None]) -> dict[str, float]:
    """p50 CPU ms of gathering and of each rule over `runs` drafts, `fresh()` called before each."""
    times: dict[str, list[float]] = {"gather": [], **{rule.name: [] for rule in RULES}}
    for _ in range(runs):
        fresh()
        cpu = time.thread_time()
        inputs = inputs_for()
        times["gather"].append(time.thread_time() - cpu)
        for rule in RULES:
            cpu = time.thread_time()
            rule.check(inputs)
            times[rule.name].append(time.thread_time() - cpu)
    return {name: statistics.median(t) * 1000 for name, t in times.items()}


def summary(label: str, times: list[tuple[float, float]]) -> str:
    wall, cpu = [t[0] for t in times], [t[1] for t in times]
    p95 = statistics.quantiles(wall, n=20)[-1]
    return (
        f"  {label:34} wall p50 {statistics.median(wall):6.2f} ms, p95 {p95:6.2f} ms, max {max(wall):6.2f} ms; "
        f"cpu p50 {statistics.median(cpu):6.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--rules", action="store_true", help="also time gathering and each rule")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store=Path(tmp) / "store", embedder="hashing")
        with Store(settings, create=True) as store:
            assert Ingestor(store).ingest([HOA]).ok
            corpus, policy = Corpus(store), FilePolicy.load(HOA / "policy.yaml")

            def new_context() -> ToolContext:
                return ToolContext(corpus, caller=Caller(role="public"), policy=policy)

            ctx = new_context()
            draft, question = honest_draft()
            bundles = bundles_for(ctx, draft)

            def run(d: Draft, context: ToolContext | None = None) -> GateReport:
                return validate_draft(d, bundles=bundles, ctx=context or ctx, question=question)

            report = run(draft)  # warm-up, and what the honest draft gets
            blocking = sorted({f.code.value for f in report.blocking})
            rows: list[tuple[str, list[tuple[float, float]]]] = []
            first: list[tuple[float, float]] = []
            for _ in range(args.runs):
                forget_everything()
                context = new_context()
                first.append(timed(lambda context=context: run(draft, context))[:2])  # type: ignore[misc]
            rows.append(("first validation (new run)", first))
            cold: list[tuple[float, float]] = []
            for _ in range(args.runs):
                forget_everything(sources=True)
                context = new_context()
                cold.append(timed(lambda context=context: run(draft, context))[:2])  # type: ignore[misc]
            rows.append(("from nothing (sources unread)", cold))
            token_cold: list[tuple[float, float]] = []
            for _ in range(args.runs):
                clear_token_cache()
                token_cold.append(timed(lambda: run(draft))[:2])
            rows.append(("token cache cleared", token_cold))
            run(draft)
            rows.append(("repair (same draft again)", [timed(lambda: run(draft))[:2] for _ in range(args.runs)]))
            per_rule: dict[str, dict[str, float]] = {}
            if args.rules:

                def gathered(context: ToolContext | None = None) -> GateInputs:
                    return gather_inputs(draft, bundles=bundles, ctx=context or ctx, question=question)

                per_rule["first"] = rule_times(lambda: gathered(new_context()), args.runs, forget_everything)
                per_rule["repair"] = rule_times(gathered, args.runs, lambda: None)
            hostile_rows = []
            for name, bad in hostile(draft).items():
                clear_token_cache()
                ms, _, bad_report = timed(lambda bad=bad: run(bad))  # type: ignore[misc]
                hostile_rows.append((name, ms, bad_report))
    supports = sum(len(f.support) for f in draft.evidence.facts)
    print(
        f"validate_draft, honest draft: {len(draft.evidence.facts)} facts, {supports} supports, {len(bundles)} "
        f"bundles, {args.runs} runs each; ok={report.ok}" + (f" (blocking: {', '.join(blocking)})" if blocking else "")
    )
    for label, times in rows:
        print(summary(label, times))
    if per_rule:
        print("CPU ms per step, p50:        first validation   repair")
        for name in per_rule["first"]:
            print(f"  {name:26} {per_rule['first'][name]:10.3f} {per_rule['repair'][name]:10.3f}")
        print(f"  {'sum':26} {sum(per_rule['first'].values()):10.3f} {sum(per_rule['repair'].values()):10.3f}")
    print(f"hostile drafts (deadline {DEFAULT_BOUNDS.deadline_ms:g} ms):")
    for name, ms, bad_report in hostile_rows:
        codes = ", ".join(sorted({f.code.value for f in bad_report.blocking})) or "none"
        print(f"  {name:55} {ms:9.1f} ms  ok={bad_report.ok}  blocking: {codes}")


if __name__ == "__main__":
    main()
