"""Real external benchmarks: RAMDocs, TAT-QA (dev) and BIPIA (email), gated quotebound vs a naive no-gate baseline.
Prints one table; asserts nothing.

    python benchmarks/bench_external.py [--datasets ramdocs,tatqa,bipia] [--limit N] [--models extractive,smollm2]
        [--naive] [--smollm2-gated 3] [--smollm2-naive 10] [--bipia-sample 300] [--embedder E] [--json OUT]

Systems: `extractive+gate` and `smollm2+gate` run the full graph (`Agent.ask`); `extractive naive` and `smollm2
naive` (`--naive`) are `evals/naive.py`: the same retrieval on the same store, the same scope and the same model,
no gate (the extractive model's first draft shipped as is; SmolLM2's raw reply to `prompts/naive_answer.md`).
Each dataset is ingested into temporary stores (shards of at most 1,000 chunks so every chunk is a retrieval
candidate and the scope alone decides what a question sees, see evals/datasets/corpus.py) with `--embedder`:
`hashing` by default (fast and deterministic); `minilm` is what `quotebound ingest` uses (the shipped model under
tools/embedders), which the reader and the gate read paraphrase with, at ~100x the ingest time.

Samples: `--limit N` questions per dataset (0 = all: RAMDocs 500, TAT-QA 1,668; BIPIA runs `--bipia-sample`
poisoned contexts unless `--limit` is given: the full 11,250 are benchmarks/bench_bipia.py's job), chosen with a
fixed seed. SmolLM2 through the full graph costs minutes per question on this machine, so it runs on a seeded
sub-sample of each dataset's questions: `--smollm2-naive` for its naive baseline and the first `--smollm2-gated`
of those through the graph; the table prints each system's own question count. SmolLM2-135M is served by
llama-cpp-python on loopback (`agent/models/local_llm.py`) with the limits tests/llm/test_smollm2.py uses.

Columns: n (questions), answered, abstained (abstentions and unanswered clarify questions), correct, wrong shipped,
unsupported shipped, seconds per question. The definitions: evals/datasets/outcome.py (answered, unsupported),
evals/datasets/{ramdocs,tatqa,bipia_email}.py (correct, wrong, and each dataset's own figures, printed below it).
Rows that must be 0 (printed under the table for every gated system, and in the JSON as `must_be_zero`):
- RAMDocs, "misinformation stated without a listed conflict": answers (status `answer`) whose shipped text mentions
  a `wrong_answers` value of the record (one no gold answer mentions) that no listed conflict mentions in a side's
  value or quote (`ramdocs.score`'s `misinfo_stated`). A wrong value reported as one side of a listed conflict is
  the disagreement reported, not misinformation stated; an abstention states nothing.
- TAT-QA, "off-target number shipped": answers to a question with numeric gold (arithmetic and count answers, and a
  span answer that is a single number) whose answer number (the headline's first number that the question does not
  name and that is no side of a listed conflict) is not the gold number up to rounding, its scale or a percent
  written as a fraction (`tatqa.score`'s `wrong`): a quoted table value shown where a change, ratio or total was
  asked, a sign flipped, a number from the wrong row. An answer with no answer number, or an abstention, ships none.
Each row lists the ids of the questions that count, so a regression can be read case by case.

Data: ../shared/datasets (RAMDocs MIT, TAT-QA CC BY 4.0, BIPIA MIT); nothing is copied into the repo.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar, get_args

from quotebound.agent.core.settings import AttemptLimits, EmbedderKind, Settings
from quotebound.agent.models.local_llm import llama_server, smollm2_gguf_path
from quotebound.evals.bipia import all_triples, load_attacks, load_emails, sample_triples
from quotebound.evals.bipia_run import build_store, settings_for
from quotebound.evals.datasets import DATASETS_DIR, bipia_email, ramdocs, tatqa
from quotebound.evals.datasets.corpus import build_shards
from quotebound.evals.datasets.gated import run_gated
from quotebound.evals.datasets.outcome import Outcome
from quotebound.evals.datasets.verdict import Verdict
from quotebound.evals.golden import GoldenCase
from quotebound.evals.naive import run_naive

DATASETS: Final = ("ramdocs", "tatqa", "bipia")
MODELS: Final = ("extractive", "smollm2")
SEED: Final = 2025
# Hashing by default: MiniLM (what `quotebound ingest` uses) embeds every chunk on the CPU, ~100x slower to ingest
# (219 s against 2 s for 131 RAMDocs questions on this shared 2-core machine), which puts a full run far past
# 15 minutes. `--embedder minilm` measures the reader and the gate as a user meets them (their paraphrase checks
# use the store's MiniLM vectors).
DEFAULT_EMBEDDER: Final[EmbedderKind] = "hashing"
BIPIA_SHARD: Final = 300  # poisoned emails per store, as bench_bipia.py
# tests/llm/test_smollm2.py's limits: short prompts, few rounds; the graph's shape is unchanged.
LLM_LIMITS: Final = AttemptLimits(
    context_token_budget=800, max_tool_calls=2, max_output_tokens=256, n_repairs=1, output_retries=1
)
T = TypeVar("T")
# dataset -> (the row's name, the summary figure it reads): see "Rows that must be 0" above.
MUST_BE_ZERO: Final = {
    "ramdocs": ("misinformation stated without a listed conflict", "misinfo_stated"),
    "tatqa": ("off-target number shipped", "wrong_numbers"),
}


@dataclass
class Plan:
    """One dataset: its cases, how to build its stores, and how to score and summarize its outcomes."""

    name: str
    cases: list[GoldenCase]
    shards: Callable[[Path], Iterator[tuple[Path, set[str], float]]]  # (store, case ids it serves, ingest s)
    score: Callable[[Outcome], Verdict]
    summarize: Callable[[Sequence[Any]], dict[str, float]]
    describe: Callable[[dict[str, float]], str]
    note: str = ""


@dataclass
class System:
    label: str
    model: str
    gated: bool
    ids: set[str] | None = None  # the case ids it runs (None = all)
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0


def seeded(items: Sequence[T], n: int, seed: int = SEED) -> list[T]:
    """`n` items drawn with a fixed seed, kept in the population's order (all of them when n is 0 or too big)."""
    if n <= 0 or n >= len(items):
        return list(items)
    chosen = set(random.Random(seed).sample(range(len(items)), n))
    return [item for i, item in enumerate(items) if i in chosen]


# --- the datasets ---------------------------------------------------------------------------------------------------


def ramdocs_plan(data: Path, limit: int, embedder: EmbedderKind) -> Plan:
    records = seeded(ramdocs.load_records(data), limit)
    by_id = {r.case_id: r for r in records}

    def shards(root: Path) -> Iterator[tuple[Path, set[str], float]]:
        units = ramdocs.units(records)
        for s in build_shards(
            units, root, license="MIT", attribution=ramdocs.ATTRIBUTION, provenance="unknown", embedder=embedder
        ):
            yield s.store_dir, set(s.keys), s.ingest_seconds

    def describe(f: dict[str, float]) -> str:
        return (
            f"all gold reported {f['all_gold_share']:.1%}, misinformation stated {f['misinfo_stated']:.0f}, "
            f"conflict listed {f['conflict_listed']:.0f}/{f['answered_disagreeing']:.0f} answers where docs disagree "
            f"({f['conflict_share']:.1%}; misinfo questions {f['conflict_share_misinfo']:.1%} of "
            f"{f['answered_misinfo']:.0f}), abstention {f['abstention_share']:.1%}"
        )

    return Plan(
        "ramdocs",
        list(ramdocs.golden_set(records).cases),
        shards,
        lambda o: ramdocs.score(o, by_id[o.case_id]),
        ramdocs.summarize,
        describe,
    )


def tatqa_plan(data: Path, limit: int, embedder: EmbedderKind) -> Plan:
    documents = tatqa.load_documents(data)
    chosen = seeded(tatqa.questions(documents), limit)
    by_id = {q.case_id: q for q in chosen}
    texts = {d.source_id: d.file_text for d in documents}
    needed = [d for d in documents if any(q.source_id == d.source_id for q in chosen)]

    def shards(root: Path) -> Iterator[tuple[Path, set[str], float]]:
        units = tatqa.units(needed)
        built = build_shards(
            units, root, license="CC BY 4.0", attribution=tatqa.ATTRIBUTION, provenance="primary", embedder=embedder
        )
        for s in built:
            yield s.store_dir, {q.case_id for q in chosen if q.source_id in s.keys}, s.ingest_seconds

    def describe(f: dict[str, float]) -> str:
        return (
            f"arithmetic {f['arithmetic']:.0f}: answered {f['arithmetic_answered_share']:.1%}, abstained "
            f"{f['arithmetic_abstained_share']:.1%}, correct {f['arithmetic_correct']:.0f}, wrong numbers "
            f"{f['arithmetic_wrong_numbers']:.0f}; wrong numbers (all types) {f['wrong_numbers']:.0f} "
            f"(source values shown as the answer {f['wrong_from_source']:.0f}, "
            f"sign flipped {f['sign_flipped']:.0f}); spans {f['spans']:.0f}: answered {f['span_answered']:.0f}, "
            f"contain gold {f['span_correct']:.0f}, gold inside a verbatim quote {f['span_quoted']:.0f}, "
            f"strict EM {f['span_exact']:.0f}/{f['span_single']:.0f}"
        )

    return Plan(
        "tatqa",
        list(tatqa.golden_set(chosen).cases),
        shards,
        lambda o: tatqa.score(o, by_id[o.case_id], texts[by_id[o.case_id].source_id]),
        tatqa.summarize,
        describe,
    )


def bipia_plan(data: Path, limit: int, embedder: EmbedderKind) -> Plan:
    everything = all_triples(load_emails(data), load_attacks(data))
    triples = sample_triples(everything, limit)
    by_id = {bipia_email.case_id(t): t for t in triples}

    def shards(root: Path) -> Iterator[tuple[Path, set[str], float]]:
        for number in range(0, len(triples), BIPIA_SHARD):
            shard = triples[number : number + BIPIA_SHARD]
            started = time.perf_counter()
            store_dir = build_store(shard, root / f"bipia-{number}", embedder=embedder)
            yield store_dir, {bipia_email.case_id(t) for t in shard}, time.perf_counter() - started

    def describe(f: dict[str, float]) -> str:
        return (
            f"ASR {f['asr']:.2%} ({f['reached']:.0f}), obeyed in drafts {f['obeyed_in_drafts']:.0f}, abstention "
            f"{f['abstention_share']:.1%}, abstention on 'unknown' questions {f['unknown_abstention_share']:.1%} "
            f"of {f['unknown']:.0f}"
        )

    note = f"{len(triples)} of {len(everything)} contexts (all of them: benchmarks/bench_bipia.py)"
    return Plan(
        "bipia",
        list(bipia_email.golden_set(triples).cases),
        shards,
        lambda o: bipia_email.score(o, by_id[o.case_id]),
        bipia_email.summarize,
        describe,
        note,
    )


# --- running ---------------------------------------------------------------------------------------------------------


def systems_for(plan: Plan, models: Sequence[str], naive: bool, n_gated: int, n_naive: int) -> list[System]:
    systems: list[System] = []
    if "extractive" in models:
        systems.append(System("extractive+gate", "extractive", gated=True))
        if naive:
            systems.append(System("extractive naive", "extractive", gated=False))
    if "smollm2" in models:
        sample = [c.id for c in seeded(plan.cases, n_naive if naive else n_gated, SEED + 1)]
        systems.append(System("smollm2+gate", "smollm2", gated=True, ids=set(sample[:n_gated])))
        if naive:
            systems.append(System("smollm2 naive", "smollm2", gated=False, ids=set(sample)))
    return systems


def settings(store_dir: Path, model: str, llm_url: str | None, embedder: EmbedderKind) -> Settings:
    base = settings_for(store_dir, embedder)
    if model == "extractive":
        return base
    return base.model_copy(update={"model": f"openai:smollm2@{llm_url}", "attempts": LLM_LIMITS})


def progress(label: str, every: int) -> Callable[[int, int, object], None]:
    def report(done: int, total: int, _: object) -> None:
        if done == total or done % every == 0:
            print(f"    {label}: {done}/{total}", file=sys.stderr, flush=True)

    return report


def run_plan(plan: Plan, systems: list[System], root: Path, llm_url: str | None, embedder: EmbedderKind) -> float:
    """Build the plan's stores shard by shard and run every system on the cases each shard serves; returns the
    ingest seconds."""
    ingest = 0.0
    for store_dir, ids, seconds in plan.shards(root):
        ingest += seconds
        print(f"  {plan.name}: shard of {len(ids)} questions ingested in {seconds:.1f} s", file=sys.stderr)
        for system in systems:
            cases = [c for c in plan.cases if c.id in ids and (system.ids is None or c.id in system.ids)]
            if not cases:
                continue
            config = settings(store_dir, system.model, llm_url, embedder)
            every = 1 if system.model == "smollm2" else 100
            started = time.perf_counter()
            if system.gated:
                run = run_gated(store_dir, cases, system.label, model=None, settings=config,
                                progress=progress(system.label, every))  # fmt: skip
            else:
                run = run_naive(store_dir, cases, system.label, model=None, settings=config,
                                progress=progress(system.label, every))  # fmt: skip
            system.seconds += time.perf_counter() - started
            system.outcomes += run
    return ingest


def case_record(outcome: Outcome, verdict: Verdict) -> dict[str, object]:
    """One question's result for the JSON output: enough to read why it scored as it did."""
    return {
        "id": outcome.case_id, "status": outcome.status, "reason_code": outcome.reason_code,
        "correct": verdict.correct, "wrong": verdict.wrong,
        "unsupported": list(verdict.unsupported), "headline": outcome.headline[:300], "error": outcome.error,
    }  # fmt: skip


# --- the table -------------------------------------------------------------------------------------------------------

HEADER: Final = f"{'dataset':<8} {'system':<17} {'n':>5} {'answered':>8} {'abstained':>9} {'correct':>7} " \
                f"{'wrong':>5} {'unsupp.':>7} {'s/q':>7} {'wall s':>7}"  # fmt: skip


def row(dataset: str, system: System, f: dict[str, float]) -> str:
    return (
        f"{dataset:<8} {system.label:<17} {f['questions']:>5.0f} {f['answered']:>8.0f} {f['abstained']:>9.0f} "
        f"{f['correct']:>7.0f} {f['wrong']:>5.0f} {f['unsupported']:>7.0f} {f['seconds_per_question']:>7.2f} "
        f"{system.seconds:>7.0f}"
    )


def zero_row(dataset: str, system: System, f: dict[str, float], verdicts: Sequence[Verdict]) -> dict[str, Any] | None:
    """The dataset's must-be-0 row for a gated system (None for a dataset without one, or an ungated system)."""
    if dataset not in MUST_BE_ZERO or not system.gated:
        return None
    name, figure = MUST_BE_ZERO[dataset]
    ids = [v.case_id for v in verdicts if v.wrong]
    return {"dataset": dataset, "system": system.label, "row": name, "value": f[figure], "answered": f["answered"],
            "questions": f["questions"], "cases": ids}  # fmt: skip


def zero_line(z: dict[str, Any]) -> str:
    shown = ", ".join(z["cases"][:12]) + (" ..." if len(z["cases"]) > 12 else "")
    return (
        f"{z['dataset']:<8} {z['system']:<17} {z['row']}: {z['value']:.0f} "
        f"(of {z['answered']:.0f} answers, {z['questions']:.0f} questions){': ' + shown if shown else ''}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATASETS_DIR)
    parser.add_argument("--datasets", default=",".join(DATASETS), help=f"comma-separated, of {', '.join(DATASETS)}")
    parser.add_argument("--models", default=",".join(MODELS), help=f"comma-separated, of {', '.join(MODELS)}")
    parser.add_argument("--limit", type=int, default=0, help="questions per dataset (0 = all; BIPIA: --bipia-sample)")
    parser.add_argument("--naive", action="store_true", help="also run the naive no-gate baseline of each model")
    parser.add_argument("--smollm2-gated", type=int, default=3, help="SmolLM2 questions per dataset through the graph")
    parser.add_argument("--smollm2-naive", type=int, default=10, help="SmolLM2 questions per dataset, naive")
    parser.add_argument("--bipia-sample", type=int, default=300, help="BIPIA contexts when --limit is 0")
    parser.add_argument("--embedder", choices=get_args(EmbedderKind), default=DEFAULT_EMBEDDER,
                        help="the stores' embedder (default: %(default)s)")  # fmt: skip
    parser.add_argument("--json", type=Path, help="write every figure here")
    args = parser.parse_args(argv)
    datasets = [d for d in args.datasets.split(",") if d]
    models = [m for m in args.models.split(",") if m]
    if unknown := (set(datasets) - set(DATASETS)) | (set(models) - set(MODELS)):
        parser.error(f"unknown dataset(s) or model(s): {', '.join(sorted(unknown))}")
    logging.basicConfig(level=logging.ERROR)  # abstentions are expected; keep the log to real errors

    builders = {"ramdocs": ramdocs_plan, "tatqa": tatqa_plan, "bipia": bipia_plan}
    started = time.perf_counter()
    embedder: EmbedderKind = args.embedder
    print(f"embedder: {embedder}", file=sys.stderr, flush=True)
    figures: dict[str, Any] = {"embedder": embedder, "seed": SEED, "datasets": {}, "must_be_zero": []}
    lines: list[str] = []
    zeros: list[dict[str, Any]] = []
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="bench-external-") as tmp:
        llm_url = None
        if "smollm2" in models:
            llm_url = stack.enter_context(llama_server(smollm2_gguf_path(), ctx=8192, timeout_s=180))
        for name in datasets:
            limit = args.limit or (args.bipia_sample if name == "bipia" else 0)
            plan = builders[name](args.data, limit, embedder)
            systems = systems_for(plan, models, args.naive, args.smollm2_gated, args.smollm2_naive)
            print(f"{name}: {len(plan.cases)} questions {plan.note}", file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            ingest = run_plan(plan, systems, Path(tmp) / name, llm_url, embedder)
            wall = time.perf_counter() - t0
            figures["datasets"][name] = {"questions": len(plan.cases), "ingest_s": ingest, "wall_s": wall}
            lines.append(f"{name}: {len(plan.cases)} questions, ingest {ingest:.0f} s, wall {wall:.0f} s {plan.note}")
            for system in (s for s in systems if s.outcomes):
                verdicts = [plan.score(o) for o in system.outcomes]
                f = plan.summarize(verdicts)
                cases = [case_record(o, v) for o, v in zip(system.outcomes, verdicts, strict=True)]
                figures["datasets"][name][system.label] = {**f, "wall_s": system.seconds, "cases": cases}
                lines.append(row(name, system, f))
                lines.append(f"{'':<8} {'':<17} {plan.describe(f)}")
                if (zero := zero_row(name, system, f, verdicts)) is not None:
                    zeros.append(zero)
    print()
    print(HEADER)
    for line in lines:
        print(line)
    if zeros:
        print("\nmust be 0:")
        for zero in zeros:
            print(zero_line(zero))
    figures["must_be_zero"] = zeros
    total = time.perf_counter() - started
    print(f"\nembedder: {embedder}; wall: {total:.0f} s")
    figures["wall_s"] = total
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
