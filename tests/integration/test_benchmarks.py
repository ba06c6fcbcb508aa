"""The benchmark scripts run, as `make bench` and the docs run them: each script as its own process, on the smallest
arguments that still take every code path, checking the figures' sanity lines (sessions that resumed, runs that
ended, no warnings) rather than any timing. A refactor that breaks a benchmark fails here, not at the next
`make bench`. The external-dataset scripts skip, with that reason, when ../shared/datasets is absent."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from quotebound.evals.bipia import ATTACKS_FILE, EMAILS_FILE
from quotebound.evals.datasets import DATASETS_DIR, ramdocs, tatqa

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"

needs_bipia = pytest.mark.skipif(
    not (DATASETS_DIR / EMAILS_FILE).is_file() or not (DATASETS_DIR / ATTACKS_FILE).is_file(),
    reason=f"BIPIA data not found in {DATASETS_DIR}",
)
needs_all_data = pytest.mark.skipif(
    not all((DATASETS_DIR / name).is_file() for name in (ramdocs.FILE, tatqa.FILE, EMAILS_FILE, ATTACKS_FILE)),
    reason=f"RAMDocs/TAT-QA/BIPIA data not found in {DATASETS_DIR}",
)


def bench(script: str, *args: str) -> str:
    """Run benchmarks/`script` with `args`; its stdout. Fails with both streams when it exits non-zero or warns."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{script} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    assert "Warning" not in done.stderr and "Deserializing unregistered type" not in done.stderr, done.stderr
    return done.stdout


def test_bench_gate() -> None:
    out = bench("bench_gate.py", "--runs", "5")
    assert "validate_draft: 5 facts, 10 supports, 6 bundles, 5 runs each" in out
    assert re.search(r"warm token cache: mean [\d.]+ ms", out), out
    assert "validate_draft: 20 facts, " in out, out  # the figure the gate's 2 ms goal is stated for
    for label in ("first validation", "from nothing (sources unread)", "repair"):
        assert re.search(re.escape(label) + r": cpu p50 [\d.]+ ms, p95 [\d.]+ ms", out), out


def test_bench_gate_speed_honest_passes_and_every_hostile_draft_blocks() -> None:
    """The 20-fact honest draft passes, and each hostile draft comes back blocked (not an exception, not ok)."""
    out = bench("bench_gate_speed.py", "--runs", "3", "--rules")
    assert re.search(
        r"validate_draft, honest draft: 20 facts, \d+ supports, \d+ bundles, 3 runs each; ok=True$", out, re.M
    ), out
    rows = (
        "first validation (new run)",
        "from nothing (sources unread)",
        "token cache cleared",
        "repair (same draft again)",
    )
    for label in rows:
        times = r" +wall p50 +[\d.]+ ms, p95 +[\d.]+ ms, max +[\d.]+ ms; cpu p50 +[\d.]+ ms$"
        assert re.search(re.escape(label) + times, out, re.M), out
    steps = re.findall(r"^  (\w+) +[\d.]+ +[\d.]+$", out, re.M)  # the --rules table: gathering, each rule, the sum
    assert steps[0] == "gather" and steps[-1] == "sum" and len(steps) >= 10, out
    hostile = re.findall(r"^  (.+?) +[\d.]+ ms  ok=(True|False)  blocking: (.+)$", out, re.M)
    assert len(hostile) == 7, out
    assert all(ok == "False" and codes != "none" for _, ok, codes in hostile), out


def test_bench_graph_both_corpora() -> None:
    out = bench("bench_graph.py", "--repeat", "1", "--chunks", "200", "--embedder", "hashing")
    assert "examples/hoa: 9 sources" in out
    assert "generated corpus (bench_corpus.make_markdown, 200 requested)" in out
    assert out.count("quotebound graph / prebuilt ReAct = ") == 2, out
    assert "warning:" not in out, out  # the baseline ran the same tool calls with the same results
    hoa_status = r"16 questions × 1 timed pass \(\+1 warm-up\); end status: answer \d+, abstain \d+, clarify [1-9]"
    assert re.search(hoa_status, out), out


def test_bench_corpus_small_sizes() -> None:
    out = bench("bench_corpus.py", "--embedder", "hashing", "--pdfs", "1", "--sizes", "150", "--queries", "5")
    assert "ingest 50 PDF pages" in out
    for mode in ("hybrid", "lexical", "dense"):
        assert re.search(rf"retrieval {mode} +at +150 chunks: p50 [\d.]+ ms", out), out


def test_bench_eval_outcomes_do_not_change_with_concurrency() -> None:
    out = bench("bench_eval.py", "--cases", "8", "--concurrency", "1,2", "--embedder", "hashing")
    assert out.count("8 cases, concurrency") == 2, out
    assert "OUTCOMES DIFFER" not in out


def test_bench_server_sessions_clarify_then_resume() -> None:
    """Every session is a clarify and its resume, through /ask and /ask/stream: the resume must reach the run the
    clarify paused (an anonymous caller sends back the session_id the server issued)."""
    out = bench("bench_server.py", "--sessions", "4", "--concurrency", "1,2", "--embedder", "hashing")
    assert out.count("4/4 sessions 200 clarify/200 answer") == 2, out
    assert "tracing: 4 questions x 3" in out


@needs_all_data
def test_bench_external_extractive_tiny() -> None:
    out = bench("bench_external.py", "--limit", "3", "--models", "extractive", "--naive")
    for dataset in ("ramdocs", "tatqa", "bipia"):
        assert re.search(rf"^{dataset} +extractive\+gate +3 ", out, re.MULTILINE), out
        assert re.search(rf"^{dataset} +extractive naive +3 ", out, re.MULTILINE), out
    assert "embedder: hashing;" in out  # fast stores by default


@needs_all_data
def test_bench_external_minilm_stores_on_request(tmp_path: Path) -> None:
    figures = tmp_path / "external.json"
    out = bench("bench_external.py", "--limit", "2", "--datasets", "ramdocs", "--models", "extractive",
                "--embedder", "minilm", "--json", str(figures))  # fmt: skip
    assert "embedder: minilm;" in out  # the stores a user's `quotebound ingest` makes
    assert json.loads(figures.read_text())["embedder"] == "minilm"


@needs_bipia
def test_bench_bipia_every_model_tiny() -> None:
    out = bench("bench_bipia.py", "--sample", "12", "--models", "extractive,obeying,honest", "--shard-size", "6")
    assert "running 12 with extractive, obeying, honest" in out
    for model in ("extractive", "obeying", "honest"):
        assert re.search(rf"^{model}: 12 runs, ASR 0\.00% \(0\)", out, re.MULTILINE), out
