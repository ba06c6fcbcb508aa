"""`benchmarks/bench_gate_calibration.py` runs, as `make bench` would run it, on a few cases of every kind, with the
MiniLM paraphrase scorer and without it; and the hoa calibration set is what it claims to be: every honest quote is
verbatim at its locator in a real store, read under the case's role and examples/hoa/policy.yaml."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from quotebound.agent.core.settings import Settings
from quotebound.evals.calibration import CALIBRATION_DIR, load_file
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.policy import Caller
from quotebound.tools.policy_file import FilePolicy
from quotebound.tools.resolve_evidence import resolve_evidence
from quotebound.tools.store import Store

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_gate_calibration.py"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    assert "Warning" not in done.stderr, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("flags", "embedder", "scorer"),
    [
        pytest.param(["--no-paraphrase"], "hashing", "none", id="no-paraphrase"),
        pytest.param([], "minilm", "MiniLM", id="minilm", marks=pytest.mark.slow),  # the real embedding model
        pytest.param(["--embedder", "hashing"], "hashing", "MiniLM", id="hashing-store", marks=pytest.mark.slow),
    ],
)
def test_bench_prints_acceptance_block_rates_and_timings(flags: list[str], embedder: str, scorer: str) -> None:
    out = bench("--corpus", "hoa", "--kind", "honest", "--kind", "obeyed_injection", "--kind", "disallowed_tool",
                "--limit", "6", *flags)  # fmt: skip
    assert f"gate calibration: 6 drafts checked ({embedder} embedder; paraphrase: {scorer})" in out, out
    assert "honest first-pass acceptance: " in out and "natural " in out and "terse " in out
    assert "disallowed_tool " in out and "gate validate_draft: p50 " in out


def test_bench_json_counts_every_selected_case() -> None:
    out = bench("--corpus", "hoa", "--kind", "value_moved", "--kind", "honest", "--limit", "8", "--tool-repeat", "0",
                "--no-paraphrase", "--json")  # fmt: skip
    figures = json.loads(out)
    assert figures["cases"] == 8 and figures["paraphrase"] == "none"
    kinds = figures["blocked_by_kind"]
    assert figures["honest"]["total"] + sum(v["total"] for v in kinds.values()) == 8
    assert len(figures["wrongly_blocked"]) == figures["honest"]["total"] - figures["honest"]["accepted"]
    assert figures["gate_ms"]["p95"] >= figures["gate_ms"]["p50"] > 0


def test_every_honest_quote_is_verbatim_at_its_locator(ingested: Path) -> None:
    hoa = load_file(CALIBRATION_DIR / "hoa.yaml")
    policy = FilePolicy.load(ROOT / "examples" / "hoa" / "policy.yaml")
    wrong: list[str] = []
    with Store(Settings(store=ingested, embedder="hashing")) as store:
        corpus = Corpus(store)
        for case in hoa.cases:
            if not case.honest:
                continue
            tools = ToolContext(corpus, caller=Caller(role=case.role), policy=policy)
            anchors = [(s.source_id, s.locator, s.quote) for f in case.draft.evidence.facts for s in f.support]
            anchors += [(v.source_id, v.locator, v.quote) for c in case.draft.evidence.conflicts for v in c.values]
            for source_id, locator, quote in anchors:
                text = resolve_evidence(tools, f"doc://{source_id}#{locator}").text
                if quote not in text:
                    wrong.append(f"{case.id}: {quote!r} not at {source_id}#{locator}")
    assert wrong == []
