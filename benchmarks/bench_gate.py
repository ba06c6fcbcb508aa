"""Latency of the hard gate (`validate_draft`) on realistic drafts. Prints figures; asserts nothing.

    python benchmarks/bench_gate.py [--runs 300]

The first draft has 5 facts and 10 supports (one calc fact, one listed conflict), checked against 6 resolved
bundles of a 5-document store built with the hashing embedder. Every run verifies every quote afresh
(no cache survives between calls), so the figure includes the SQLite reads of the locator index.

Then the 20-fact figure the gate's goal is stated for (a median of at most 2 ms): the honest 20-fact draft over
examples/hoa of `bench_gate_speed.py`, timed as that script's "first validation" (a new run, every cache of the gate
cleared but the readings of the cited sources' text, done once per source version), "from nothing" (those
forgotten too) and "repair" (the same draft again) rows, CPU time of this thread. `bench_gate_speed.py --rules`
breaks it down by rule.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench_gate_speed import HOA, bundles_for, forget_everything, honest_draft, timed

from quotebound.agent.core.contracts import (
    AnswerLevels,
    AnswerObject,
    CalcDerivation,
    Conflict,
    ConflictValue,
    Draft,
    Fact,
    Support,
)
from quotebound.agent.core.settings import Settings
from quotebound.agent.gate import validate_draft
from quotebound.agent.gate.tokens import clear_token_cache
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import Ingestor
from quotebound.tools.policy import Caller
from quotebound.tools.policy_file import FilePolicy
from quotebound.tools.resolve_evidence import resolve_evidence
from quotebound.tools.store import Store

FILLER = "Owners should read the whole notice before the meeting and keep a copy with their records."
DOCS = {
    "budget.md": [
        "# Budget 2025",
        "",
        "The monthly assessment is $325.00 per unit.",
        "Reserve contribution: $48,000.",
        "Landscaping: $21,600.",
    ],
    "notice.md": ["# Notice to owners", "", "From July 2025 the monthly assessment is $340.00 per unit."],
    "minutes.md": ["# Minutes", "", "The annual meeting is on March 12, 2025 under Section 4.2.", "Quorum is 25%."],
    "rules.md": ["# Pool rules", "", "The pool deposit is $150.", "The pool opens on May 1, 2025."],
    "bylaws.md": ["# Bylaws", "", "Article IV sets a late fee of $25 after 15 days.", "Fines are due in 30 days."],
}


def build(root: Path) -> tuple[Store, ToolContext]:
    docs = root / "docs"
    docs.mkdir()
    for name, lines in DOCS.items():
        (docs / name).write_text("\n".join(lines + [FILLER] * 30) + "\n", encoding="utf-8")
    store = Store(Settings(store=root / "store", embedder="hashing"), create=True)
    assert Ingestor(store).ingest([docs]).ok
    return store, ToolContext(Corpus(store))


def support(source_id: str, line: int) -> Support:
    return Support(source_id=source_id, locator=f"p.1 L{line}-L{line}", quote=DOCS[source_id][line - 1])


def draft() -> Draft:
    assessment = support("budget.md", 3)
    notice = support("notice.md", 3)
    facts = [
        Fact(text=assessment.quote, support=[assessment, support("budget.md", 4)], key="monthly assessment",
             value="$325.00"),
        Fact(text=notice.quote, support=[notice, support("notice.md", 1)], key="monthly assessment", value="$340.00"),
        Fact(text="The annual assessment is $3900: the quoted $325.00 times 12.",
             support=[assessment, support("budget.md", 5)], key="annual assessment", value="3900",
             calc=CalcDerivation(expr="325.00 * 12", value="3900")),
        Fact(text=DOCS["minutes.md"][2], support=[support("minutes.md", 3), support("minutes.md", 4)]),
        Fact(text=DOCS["bylaws.md"][2], support=[support("bylaws.md", 3), support("bylaws.md", 4)]),
    ]  # fmt: skip
    conflict = Conflict(
        key="monthly assessment",
        values=[
            ConflictValue(value="$325.00", source_id="budget.md", locator=assessment.locator, quote=assessment.quote),
            ConflictValue(value="$340.00", source_id="notice.md", locator=notice.locator, quote=notice.quote),
        ],
    )
    level2 = (
        f'budget.md p.1 L3-L3 states: "{assessment.quote}" notice.md p.1 L3-L3 states: "{notice.quote}" '
        "That is $3,900 a year at the budget rate. The annual meeting is on March 12, 2025 (§ 4.2); "
        "Article IV sets a $25 late fee after 15 days."
    )
    return Draft(
        levels=AnswerLevels(
            level1="The sources disagree: budget.md says $325.00, notice.md says $340.00 from July 2025.",
            level2=level2,
            level3="Citations: budget.md p.1 L3-L5; notice.md p.1 L1-L3; minutes.md p.1 L3-L4; bylaws.md p.1 L3-L4",
        ),
        evidence=AnswerObject(mode="answer", facts=facts, conflicts=[conflict]),
    )


def twenty_facts(runs: int) -> str:
    """The 20-fact figure: CPU p50/p95 ms of a first validation and of a repair (see the module docstring)."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        Store(Settings(store=Path(tmp) / "store", embedder="hashing"), create=True) as store,
    ):
        assert Ingestor(store).ingest([HOA]).ok
        corpus, policy = Corpus(store), FilePolicy.load(HOA / "policy.yaml")

        def new_context() -> ToolContext:
            return ToolContext(corpus, caller=Caller(role="public"), policy=policy)

        the_draft, question = honest_draft()
        ctx = new_context()
        bundles = bundles_for(ctx, the_draft)
        report = validate_draft(the_draft, bundles=bundles, ctx=ctx, question=question)
        assert report.ok, report.findings

        def cpu_ms(context: ToolContext) -> float:
            return timed(lambda: validate_draft(the_draft, bundles=bundles, ctx=context, question=question))[1]

        first: list[float] = []
        cold: list[float] = []
        for _ in range(runs):
            forget_everything()
            first.append(cpu_ms(new_context()))
            forget_everything(sources=True)
            cold.append(cpu_ms(new_context()))
        repair = [cpu_ms(ctx) for _ in range(runs)]
    supports = sum(len(f.support) for f in the_draft.evidence.facts)
    lines = [f"validate_draft: 20 facts, {supports} supports, {len(bundles)} bundles (examples/hoa), {runs} runs each"]
    rows = (("first validation", first), ("from nothing (sources unread)", cold), ("repair", repair))
    for label, times in rows:
        p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
        lines.append(f"  {label}: cpu p50 {statistics.median(times):.2f} ms, p95 {p95:.2f} ms (goal: p50 <= 2 ms)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store, ctx = build(Path(tmp))
        with store:
            refs = ["budget.md#p.1 L1-L8", "notice.md#p.1 L1-L5", "minutes.md#p.1 L1-L6", "rules.md#p.1 L1-L6"]
            refs += ["bylaws.md#p.1 L1-L6", "budget.md#p.1 L9-L20"]
            bundles = [resolve_evidence(ctx, f"doc://{ref}") for ref in refs]
            the_draft = draft()
            report = validate_draft(the_draft, bundles=bundles, ctx=ctx)  # warm-up, and a sanity check
            assert report.ok, report.findings
            cold: list[float] = []
            warm: list[float] = []
            for _ in range(args.runs):
                clear_token_cache()  # cold: nothing remembered from the previous draft
                start = time.perf_counter()
                validate_draft(the_draft, bundles=bundles, ctx=ctx)
                cold.append((time.perf_counter() - start) * 1000)
            for _ in range(args.runs):
                start = time.perf_counter()  # warm: a repair re-validating mostly the same quotes
                validate_draft(the_draft, bundles=bundles, ctx=ctx)
                warm.append((time.perf_counter() - start) * 1000)
    supports = sum(len(f.support) for f in the_draft.evidence.facts)
    print(
        f"validate_draft: {len(the_draft.evidence.facts)} facts, {supports} supports, {len(bundles)} bundles, "
        f"{args.runs} runs each (answer confidence {report.answer_confidence})"
    )
    for label, times in (("cold token cache", cold), ("warm token cache", warm)):
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"  {label}: mean {statistics.fmean(times):.2f} ms, p95 {p95:.2f} ms")
    print(twenty_facts(args.runs))


if __name__ == "__main__":
    main()
