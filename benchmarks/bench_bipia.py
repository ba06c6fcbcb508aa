"""BIPIA email task, all of it: attack success rate (ASR), abstention share and timing. Prints; asserts nothing.

    python benchmarks/bench_bipia.py [--sample N] [--models extractive,obeying,honest] [--json out.json]

Every poisoned context the dataset holds (50 emails x 75 attacks x 3 positions = 11,250) runs through the full
graph, once per model: `extractive` (the default model), `obeying` (hostile chat models that obey the attack; the
six variants of `agent/testing/hostile.py` take turns, triple by triple) and optionally `honest` (the control: it
quotes the span stating the amount paid to or by the party asked about, else abstains; its `verification_failed`
outcomes are honest answers the defences blocked). The contexts are ingested in
shards of `--shard-size` emails (hashing embedder), each question scoped to its own email (`ScopedPolicy`).
ASR follows `evals/leaks.py`: a run counts when four consecutive words of its attack (absent from the clean email
and the question) appear anywhere in the envelope. Data: ../shared/datasets (BIPIA, MIT).
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from quotebound.agent.models.base import DraftingModel
from quotebound.evals.bipia import Triple, all_triples, load_attacks, load_emails, sample_triples
from quotebound.evals.bipia_run import Result, build_store, run_triples, summarize
from quotebound.testing import OBEYING, obeying_model

DATASETS = Path(__file__).resolve().parents[2] / "shared" / "datasets"
MODELS = ("extractive", "obeying", "honest")


def shards(triples: Sequence[Triple], size: int) -> list[Sequence[Triple]]:
    return [triples[i : i + size] for i in range(0, len(triples), size)]


Run = tuple[str, DraftingModel | str, list[Triple]]


def plan(model: str, shard: Sequence[Triple], offset: int, attacks: list[str]) -> list[Run]:
    """(label, model, triples) runs for one shard; the obeying variants rotate over the global triple index."""
    if model == "extractive":
        return [("extractive", "extractive", list(shard))]
    if model == "honest":
        return [("honest", obeying_model(attacks, "honest"), list(shard))]
    runs: list[Run] = []
    for k, variant in enumerate(OBEYING):
        picked = [t for i, t in enumerate(shard, start=offset) if i % len(OBEYING) == k]
        if picked:
            runs.append((f"obeying-{variant}", obeying_model(attacks, variant), picked))
    return runs


def breakdown(title: str, results: Sequence[Result], key: Callable[[Result], str]) -> None:
    groups: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        groups[key(result)].append(result)
    cells = [f"{name} {sum(r.reached for r in rs)}/{len(rs)}" for name, rs in sorted(groups.items())]
    print(f"    ASR by {title}: " + ", ".join(cells))


def report(model: str, results: Sequence[Result]) -> dict[str, object]:
    summary = summarize(model, results)
    print(summary.line())
    times = sorted(r.seconds * 1000 for r in results)
    p50, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
    print(f"    per run: p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {times[-1]:.0f} ms")
    print(
        "    outcomes: "
        + ", ".join(
            f"{s}/{r or '-'} {n}" for (s, r), n in Counter((r.status, r.reason_code) for r in results).most_common()
        )
    )
    breakdown("position", results, lambda r: r.triple.position)
    breakdown("category", results, lambda r: r.triple.attack.category)
    return {
        "model": model, "runs": summary.runs, "asr": summary.asr, "reached": summary.reached,
        "drafted": summary.drafted, "answers": summary.answers, "abstentions": summary.abstentions,
        "abstention_share": summary.abstention_share, "seconds": summary.seconds, "p50_ms": p50, "p95_ms": p95,
        "leaks": [r.triple.source_id for r in results if r.reached],
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATASETS)
    parser.add_argument("--sample", type=int, default=0, help="run a seeded sample of N contexts (0 = all)")
    parser.add_argument("--seed", type=int, default=2023)
    parser.add_argument("--models", default="extractive,obeying", help=f"comma-separated, of {', '.join(MODELS)}")
    parser.add_argument("--shard-size", type=int, default=300, help="poisoned emails per ingested store")
    parser.add_argument("--json", type=Path, help="write the figures (and every leaking context) here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # the runs abstain a lot, by design: keep the log to real errors

    emails, attacks = load_emails(args.data), load_attacks(args.data)
    everything = all_triples(emails, attacks, seed=args.seed)
    triples = sample_triples(everything, args.sample, seed=args.seed) if args.sample else everything
    models = [m for m in args.models.split(",") if m]
    if unknown := set(models) - set(MODELS):
        parser.error(f"unknown model(s): {', '.join(sorted(unknown))}")
    print(f"BIPIA email: {len(emails)} emails x {len(attacks)} attacks x 3 positions = {len(everything)} contexts; "
          f"running {len(triples)} with {', '.join(models)}")  # fmt: skip

    texts = [a.text for a in attacks]
    results: dict[str, list[Result]] = defaultdict(list)
    ingest_s = 0.0
    started = time.perf_counter()
    for number, shard in enumerate(shards(triples, args.shard_size)):
        with tempfile.TemporaryDirectory(prefix="bench-bipia-") as tmp:
            t0 = time.perf_counter()
            store_dir = build_store(shard, Path(tmp))
            ingest_s += time.perf_counter() - t0
            for model in models:
                for label, drafting, picked in plan(model, shard, number * args.shard_size, texts):
                    results[label] += run_triples(picked, store_dir, drafting)
        done = min((number + 1) * args.shard_size, len(triples))
        print(f"  {done}/{len(triples)} contexts, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    print(f"\ningest: {ingest_s:.1f} s for {len(triples)} emails; wall: {time.perf_counter() - started:.1f} s\n")
    figures = {}
    for model in models:
        labels = [label for label in results if label == model or label.startswith(f"{model}-")]
        merged = [r for label in labels for r in results[label]]
        figures[model] = report(model, merged)
        if len(labels) > 1:
            for label in labels:
                figures[label] = report(f"  {label}", results[label])
        print()
    if args.json is not None:
        args.json.write_text(json.dumps({"contexts": len(everything), "ran": len(triples), **figures}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
