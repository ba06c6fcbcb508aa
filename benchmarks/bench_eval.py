"""How long the eval harness takes: N cases of the shipped golden set (cycled) with the extractive model.

    python benchmarks/bench_eval.py [--cases 500] [--concurrency 1,2,4] [--embedder minilm|hashing]

Builds a store from examples/hoa in a temp folder (ingest timed apart), then runs the same N cases once per
concurrency level through `evaluate` (runs, scoring and citation re-resolution included) and prints wall time,
cases per second, latency percentiles and the outcome counts (which must not change with concurrency).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver

from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.evals.golden import GoldenSet, load_golden_set
from quotebound.evals.harness import evaluate
from quotebound.graphs.checkpoints import checkpoint_serde
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "evals" / "golden" / "hoa.yaml"
EXAMPLES = ROOT / "examples" / "hoa"


def cycled(golden: GoldenSet, n: int) -> GoldenSet:
    cases = [
        golden.cases[i % len(golden.cases)].model_copy(update={"id": f"{golden.cases[i % len(golden.cases)].id}.{i}"})
        for i in range(n)
    ]
    return GoldenSet(name=f"{golden.name}x{n}", cases=cases)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--concurrency", default="1,2,4", help="comma-separated levels")
    parser.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm")
    args = parser.parse_args()
    golden = cycled(load_golden_set(GOLDEN), args.cases)
    with tempfile.TemporaryDirectory(prefix="qb-bench-eval-") as tmp:
        settings = Settings(store=Path(tmp) / "store", embedder=args.embedder, policy_file=EXAMPLES / "policy.yaml")
        started = time.perf_counter()
        with Store(settings, create=True) as store:
            Ingestor(store).ingest([EXAMPLES])
        print(f"ingest examples/hoa ({args.embedder}): {time.perf_counter() - started:.1f} s")
        baseline_outcomes: Counter[str] | None = None
        for level in (int(part) for part in args.concurrency.split(",")):
            with Agent(settings, checkpointer=InMemorySaver(serde=checkpoint_serde())) as agent:
                agent.ask("warm-up: what is the minimum lease term?")  # model and index loading, not per-case cost
                started = time.perf_counter()
                report = evaluate(agent, golden, concurrency=level)
                wall = time.perf_counter() - started
            outcomes = Counter(case.status for case in report.cases)
            same = "" if baseline_outcomes in (None, outcomes) else "  OUTCOMES DIFFER FROM THE FIRST LEVEL"
            baseline_outcomes = baseline_outcomes or outcomes
            m = report.metrics
            print(
                f"{args.cases} cases, concurrency {level}: {wall:.1f} s wall ({args.cases / wall:.1f} cases/s), "
                f"latency p50 {m.latency_p50_ms} ms p95 {m.latency_p95_ms} ms, passed {m.passed}/{m.cases}, "
                f"outcomes {dict(sorted(outcomes.items()))}{same}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
