"""The regression gate (absolute limits, tolerances against a baseline) and `eval diff`, on hand-made reports."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.core.errors import CallerError
from quotebound.evals.diff import diff_reports, render_diff
from quotebound.evals.gate import Gate, apply_gate, load_gate
from quotebound.evals.metrics import by_tag, compute, percentile
from quotebound.evals.report import EvalReport, RunInfo, load_report
from quotebound.evals.scoring import CaseScore

REF = "doc://bylaws.md@v1#p.1 L3-L3"


def case(case_id: str, *, expect: str = "answer", status: str = "answer", **fields: Any) -> CaseScore:
    base: dict[str, Any] = {
        "id": case_id,
        "question": f"question {case_id}?",
        "role": "public",
        "tags": ["plain"],
        "expect": expect,
        "status": status,
        "outcome_ok": expect == status,
        "latency_ms": 100.0,
        "tool_calls": 3,
        "rounds": 1,
    }
    if status == "answer":
        base |= {"citations": [f"{REF} sha256:aaa"], "citations_resolved": 1, "facts": 1, "facts_supported": 1}
    base |= fields
    score = CaseScore(**base)
    if not score.outcome_ok:
        score.failures.append(f"expected {expect}, got {status}")
    return score


def report(cases: list[CaseScore]) -> EvalReport:
    info = RunInfo(
        golden_set="t",
        golden_path="t.yaml",
        golden_digest="sha256:x",
        store="s",
        policy=None,
        model_id="extractive",
        quotebound_version="0",
        started_at=datetime(2026, 11, 23, tzinfo=UTC),
        duration_s=1.0,
        concurrency=1,
    )
    return EvalReport(run=info, metrics=compute(cases), by_tag=by_tag(cases), cases=cases)


def good_cases() -> list[CaseScore]:
    return [
        case("a"),
        case("b"),
        case("gate", expect="abstain", status="abstain", tags=["restricted"]),
        case("missing", expect="abstain", status="abstain", tags=["missing"]),
    ]


def default_gate() -> Gate:
    return load_gate(None)[0]


def test_metrics_count_what_happened() -> None:
    cases = [*good_cases(), case("wrong", expect="abstain", status="answer")]
    metrics = compute(cases)
    assert metrics.cases == 5 and metrics.passed == 4
    assert metrics.outcome_accuracy == 0.8
    assert metrics.refusal_precision == 1.0  # every abstention was due
    assert metrics.refusal_recall == pytest.approx(2 / 3, abs=1e-4)  # one due abstention answered instead
    assert set(by_tag(cases)) == {"plain", "restricted", "missing"}
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0 and percentile([], 95) is None


def test_clean_run_passes_the_default_gate() -> None:
    verdict = apply_gate(default_gate(), "default", report(good_cases()))
    assert verdict.ok, verdict.failed


@pytest.mark.parametrize(
    ("broken", "failing_check"),
    [
        (case("leaky", leaks=["4417"]), "leakage"),
        (case("rot", citations_resolved=0, unresolved=[REF]), "citation_resolvability"),
        (case("no-refusal", expect="abstain", status="answer"), "refusal_recall"),
        (case("needless-refusal", status="abstain"), "refusal_precision"),
        (case("broke", status="failed", error="harness: boom"), "harness_errors"),
    ],
)
def test_each_absolute_limit_fails_the_gate(broken: CaseScore, failing_check: str) -> None:
    cases = [*good_cases(), broken]
    verdict = apply_gate(default_gate(), "default", report(cases))
    assert not verdict.ok
    assert failing_check in {check.name for check in verdict.failed}


def test_regression_against_the_baseline_fails_and_names_the_case() -> None:
    baseline = report(good_cases())
    now = report([case("a"), case("b", status="abstain"), *good_cases()[2:]])
    verdict = apply_gate(default_gate(), "default", now, baseline, "base.json")
    failed = {check.name: check.detail for check in verdict.failed}
    assert "case regressions" in failed and "b" in failed["case regressions"]
    assert "outcome_accuracy vs baseline" in failed
    assert apply_gate(default_gate(), "default", baseline, baseline, "base.json").ok


def test_tolerance_lets_a_small_move_through() -> None:
    gate = Gate.model_validate({"tolerance": {"tool_calls_per_question": 1.0}})
    slower = report([case("a", tool_calls=4), case("b", tool_calls=4)])
    assert apply_gate(gate, "g", slower, report([case("a"), case("b")]), "base").ok
    much_slower = report([case("a", tool_calls=9), case("b", tool_calls=9)])
    assert not apply_gate(gate, "g", much_slower, report([case("a"), case("b")]), "base").ok


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("require: {leakage: {}}", "a limit needs `min` or `max`"),
        ("require: {loudness: {max: 1}}", "unknown metric(s) loudness"),
        ("tolerance: {outcome_accuracy: -1}", "tolerance.outcome_accuracy"),
        ("schema: other/v9", "schema"),
        ("require: [", "not valid YAML"),
    ],
)
def test_bad_gate_file_is_a_clear_caller_error(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "gate.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CallerError) as raised:
        load_gate(path)
    assert fragment in str(raised.value) and "gate.yaml" in str(raised.value)


def test_diff_shows_changed_outcomes_and_citations(tmp_path: Path) -> None:
    before = report([case("a"), case("b"), case("c"), case("gone")])
    after = report(
        [
            case("a"),  # unchanged
            case("b", citations=[f"{REF} sha256:bbb"]),  # same locator, different text: drift
            case("c", status="abstain", citations=[]),  # outcome changed, citation dropped
            case("new"),
        ]
    )
    after.cases[0].unresolved.append(REF)  # "a" now cites something that no longer resolves
    diff = diff_reports(before, after, a_name="v1", b_name="v2")
    changes = {change.id: change for change in diff.cases}
    assert set(changes) == {"a", "b", "c"}
    assert changes["a"].broken == ["doc://bylaws.md#p.1 L3-L3"]
    assert changes["b"].changed == ["doc://bylaws.md#p.1 L3-L3"] and not changes["b"].outcome_changed
    assert changes["c"].outcome_changed and changes["c"].dropped == ["doc://bylaws.md#p.1 L3-L3"]
    assert (diff.only_in_a, diff.only_in_b) == (["gone"], ["new"])
    text = render_diff(diff)
    assert "c: answer (pass) -> abstain (fail)" in text and "changed: doc://bylaws.md#p.1 L3-L3" in text
    assert not diff_reports(before, before).changed


def test_report_round_trips_through_json_and_rejects_others(tmp_path: Path) -> None:
    original = report(good_cases())
    path = tmp_path / "report.json"
    path.write_text(original.to_json(), encoding="utf-8")
    assert load_report(path) == original
    (tmp_path / "other.json").write_text('{"schema": "something/v1"}', encoding="utf-8")
    with pytest.raises(CallerError, match=r"not a quotebound\.eval-report/v1 report"):
        load_report(tmp_path / "other.json")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(CallerError, match="not a JSON eval report"):
        load_report(tmp_path / "broken.json")
