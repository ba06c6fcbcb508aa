"""`quotebound eval run` and `quotebound eval diff`: golden sets through the graph, reports, the regression gate."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from quotebound.agent.cli.common import EXIT_FAILED, EXIT_OK, Progress, print_json, settings_from_args
from quotebound.agent.core.errors import CallerError, ErrorCode

EVAL_DESCRIPTION = """\
Run a golden set (YAML or JSONL; schema: evals/schemas/golden_set.v1.json) through the cite-or-abstain graph,
score every case, write a report, and apply the regression gate.

  quotebound eval run evals/golden/hoa.yaml --store .quotebound --policy examples/hoa/policy.yaml --out .eval
  quotebound eval run my-set.yaml --store DIR --baseline .eval/baseline.json --gate my-gate.yaml
  quotebound eval diff before/report.json after/report.json

Exit codes: 0 the gate passed (diff: nothing changed), 1 the gate failed (diff: something changed), 2 a bad golden
set, gate or report (the message names the file, the case and the field), 3 misconfiguration.
"""


class _EvalProgress:
    """A progress bar on a terminal; on a pipe or CI log, one line per tenth of the cases."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.bar = Progress(stream)
        self.printed = 0

    def __call__(self, done: int, total: int, run: Any) -> None:
        if self.bar.active:
            self.bar(done, total, f"{run.case.id} {run.status}")
            return
        tenth = 10 * done // total
        if tenth > self.printed or done == total:
            self.printed = tenth
            self.stream.write(f"eval: {done}/{total} cases\n")
            self.stream.flush()


def cmd_eval_run(args: argparse.Namespace) -> int:
    # deferred: the agent (langgraph), the eval harness and the policy modules would slow `quotebound --help`
    from langgraph.checkpoint.memory import InMemorySaver

    from quotebound.agent.facade.agent import Agent
    from quotebound.evals.gate import apply_gate, load_gate
    from quotebound.evals.golden import load_golden_set
    from quotebound.evals.harness import evaluate
    from quotebound.evals.report import load_report
    from quotebound.graphs import checkpoint_serde
    from quotebound.tools.policy_file import load_policy

    if args.concurrency is not None and args.concurrency < 1:
        raise CallerError(ErrorCode.BAD_REQUEST, f"--concurrency must be at least 1, not {args.concurrency}")
    golden = load_golden_set(args.golden).select(tags=args.tag or [], ids=args.case or [])
    # Everything the caller named is checked before the first case runs: no half-run on a typo.
    gate, gate_name = load_gate(args.gate)
    baseline = load_report(args.baseline) if args.baseline else None
    settings = settings_from_args(args)
    if args.model:
        settings = settings.model_copy(update={"model": args.model})
    policy = load_policy(settings)
    concurrency = args.concurrency or default_concurrency(settings.model)
    # Eval sessions live only as long as their case: nothing is checkpointed into the store's own file.
    with Agent(settings, policy=policy, checkpointer=InMemorySaver(serde=checkpoint_serde())) as agent:
        report = evaluate(
            agent, golden, golden_path=args.golden, concurrency=concurrency, progress=_EvalProgress(sys.stderr)
        )
    report.gate = apply_gate(gate, gate_name, report, baseline, str(args.baseline) if args.baseline else None)
    written = _write(report, args.out) if args.out else []
    print(_summary(report, written))
    return EXIT_OK if report.gate.ok else EXIT_FAILED


def default_concurrency(model: str) -> int:
    """Threads pay off while runs wait on a model server; the in-process extractive model is CPU-bound Python,
    and on a 2-core machine 4 threads ran 500 cases in 48.5 s against 28.7 s for one (benchmarks/bench_eval.py)."""
    return 1 if model == "extractive" else 4


def _write(report: Any, out: Path) -> list[Path]:
    from quotebound.evals.report_html import render_html  # deferred, like the harness above
    from quotebound.evals.report_md import render_markdown

    out.mkdir(parents=True, exist_ok=True)
    files = {
        out / "report.json": report.to_json(),
        out / "report.md": render_markdown(report),
        out / "report.html": render_html(report),
    }
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return list(files)


def _share(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _summary(report: Any, written: list[Path]) -> str:
    m = report.metrics
    lines = [
        f"{report.run.golden_set}: {m.passed}/{m.cases} cases passed with {report.run.model_id} "
        f"in {report.run.duration_s:.1f} s (concurrency {report.run.concurrency})",
        f"  outcome accuracy {_share(m.outcome_accuracy)}, answer correctness {_share(m.answer_correctness)}, "
        f"citation resolvability {_share(m.citation_resolvability)}, leakage {m.leakage}",
        f"  refusal precision {_share(m.refusal_precision)} / recall {_share(m.refusal_recall)}, conflict recall "
        f"{_share(m.conflict_recall)}, clarify correctness {_share(m.clarify_correctness)}",
        f"  citation coverage: facts {_share(m.citation_coverage_facts)}, sentences "
        f"{_share(m.citation_coverage_sentences)}; latency p50 {m.latency_p50_ms} ms / p95 {m.latency_p95_ms} ms; "
        f"{m.tool_calls_per_question} tool calls per question",
    ]
    for case in report.failing[:10]:
        lines.append(f"  FAIL {case.id}: {'; '.join(case.failures)}")
    if len(report.failing) > 10:
        lines.append(f"  ... and {len(report.failing) - 10} more failing cases (see the report)")
    gate = report.gate
    verdict = "passed" if gate.ok else "FAILED"
    lines.append(f"gate {gate.gate}: {verdict}" + (f" (baseline {gate.baseline})" if gate.baseline else ""))
    lines.extend(f"  {check.name}: {check.detail}" for check in gate.failed)
    lines.extend(f"wrote {path}" for path in written)
    return "\n".join(lines)


def cmd_eval_diff(args: argparse.Namespace) -> int:
    from quotebound.evals.diff import diff_reports, render_diff  # deferred, like the harness above
    from quotebound.evals.report import load_report

    diff = diff_reports(
        load_report(args.before), load_report(args.after), a_name=str(args.before), b_name=str(args.after)
    )
    if args.json:
        print_json(diff.model_dump(mode="json"), sys.stdout)
    else:
        sys.stdout.write(render_diff(diff))
    return EXIT_FAILED if diff.changed else EXIT_OK


def add_parser(sub: Any) -> None:
    """Register `eval run` and `eval diff` on the top-level subparsers."""
    evals = sub.add_parser(
        "eval",
        help="run a golden set through the gate and report; diff two reports",
        description=EVAL_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = evals.add_subparsers(dest="eval_command", metavar="ACTION", required=True)

    p = actions.add_parser(
        "run",
        help="run a golden set; write JSON, Markdown and HTML reports; exit 1 when the gate fails",
        description="Runs every case (ask, then the scripted clarify replies), scores it, prints a summary and, "
        "with --out, writes report.json (the input of a baseline or `eval diff`), report.md (for a pull request) "
        "and report.html (self-contained: per-category table, failing cases with their envelopes). The gate "
        "(--gate, else evals/gates/default.yaml) fails on unresolvable citations, any leak, refusal "
        "precision/recall below its floor, or, with --baseline, a metric or case regressing past its tolerance.",
    )
    p.add_argument("golden", type=Path, metavar="SET", help="golden set file (.yaml, .yml or .jsonl)")
    p.add_argument("--store", default=".quotebound", help="store folder (default: .quotebound)")
    p.add_argument("--qdrant-url", help="a Qdrant server instead of the embedded store (env QUOTEBOUND_QDRANT_URL)")
    p.add_argument(
        "--policy", type=Path, metavar="FILE", help="policy file the cases run under (env QUOTEBOUND_POLICY)"
    )
    p.add_argument("--model", metavar="SPEC", help="extractive (default), chat:<provider>:<model>, openai:<m>@<url>")
    p.add_argument(
        "--concurrency",
        type=int,
        metavar="N",
        help="cases run at once (default: 1 for the in-process extractive model, 4 for a model server)",
    )
    p.add_argument("--out", type=Path, metavar="DIR", help="write report.json, report.md and report.html here")
    p.add_argument("--baseline", type=Path, metavar="REPORT", help="a report.json to compare against")
    p.add_argument("--gate", type=Path, metavar="GATE", help="gate file (YAML); default evals/gates/default.yaml")
    p.add_argument("--tag", action="append", metavar="TAG", help="only the cases with this tag (repeatable)")
    p.add_argument("--case", action="append", metavar="ID", help="only this case (repeatable)")
    p.set_defaults(func=cmd_eval_run)

    p = actions.add_parser(
        "diff",
        help="which cases changed outcome or citations between two reports",
        description="Compares two report.json files case by case: changed outcomes, and citations dropped, "
        "added, changed (same locator, different text: drift) or broken (no longer resolvable: link rot). "
        "Exits 1 when anything changed, 0 when nothing did.",
    )
    p.add_argument("before", type=Path, metavar="A", help="the earlier report.json")
    p.add_argument("after", type=Path, metavar="B", help="the later report.json")
    p.add_argument("--json", action="store_true", help="print the diff as JSON")
    p.set_defaults(func=cmd_eval_diff)
