"""`render_markdown`: an eval report as a pull-request comment (GitHub-flavoured Markdown).

Short on purpose: title with the gate verdict, the metrics, one row per tag, the gate's checks and the failing
cases. Envelopes are left out (too long for a comment); the HTML report has them.

The metric formatting and the per-tag columns live here and `report_html` imports them, so both reports show a
number the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from quotebound.evals.metrics import DIRECTION, Metrics
from quotebound.evals.report import EvalReport, GateVerdict
from quotebound.evals.scoring import CaseScore

MAX_FAILING: Final = 50

_LABELS: Final[dict[str, str]] = {
    "cases": "Cases",
    "passed": "Passed",
    "outcome_accuracy": "Outcome accuracy",
    "answer_correctness": "Answer correctness",
    "citation_coverage_facts": "Citation coverage (facts)",
    "citation_coverage_sentences": "Citation coverage (sentences)",
    "citation_resolvability": "Citation resolvability",
    "refusal_precision": "Refusal precision",
    "refusal_recall": "Refusal recall",
    "leakage": "Leakage (strings leaked)",
    "conflict_recall": "Conflict recall",
    "clarify_correctness": "Clarify correctness",
    "latency_p50_ms": "Latency p50",
    "latency_p95_ms": "Latency p95",
    "tool_calls_per_question": "Tool calls per question",
    "harness_errors": "Harness errors",
}
# Averages that are neither a share nor a count.
_RATIOS: Final = frozenset({"tool_calls_per_question"})
_TAG_COLUMNS: Final[tuple[tuple[str, str], ...]] = (
    ("cases", "Cases"),
    ("passed", "Passed"),
    ("outcome_accuracy", "Outcome"),
    ("answer_correctness", "Answer"),
    ("citation_resolvability", "Citations resolve"),
    ("leakage", "Leakage"),
    ("refusal_precision", "Refusal P"),
    ("refusal_recall", "Refusal R"),
    ("conflict_recall", "Conflict R"),
    ("clarify_correctness", "Clarify"),
    ("latency_p50_ms", "p50 latency"),
)
_BETTER: Final[dict[str, str]] = {"higher": "↑ higher", "lower": "↓ lower"}
# Characters that would start Markdown markup in a cell; data is shown, never interpreted.
_MARKUP: Final = re.compile(r"([\\`*_\[\]~|])")
_NEWLINE: Final = re.compile(r"\r\n|\r|\n")
# A `<` that could open a tag, comment or autolink; `<=` and `>=` (gate details) stay readable.
_TAG_START: Final = re.compile(r"<(?=[A-Za-z/!?])")


def _label(metric: str) -> str:
    return _LABELS.get(metric, metric)


def _better(metric: str) -> str:
    return _BETTER.get(DIRECTION.get(metric, ""), "")


def _format_metric(metric: str, value: float | None) -> str:
    """Shares as percentages, counts as integers, timings in whole ms; None (nothing to measure) as n/a."""
    if value is None:
        return "n/a"
    # Counts are the int fields of `Metrics`, so a metric added later formats right without touching this.
    if Metrics.model_fields[metric].annotation is int:
        return str(int(value))
    if metric.endswith("_ms"):
        return f"{value:.0f} ms"
    if metric in _RATIOS:
        return f"{value:.2f}"
    return f"{value * 100:.1f}%"


def _metric_values(metrics: Metrics) -> dict[str, str]:
    return {name: _format_metric(name, value) for name, value in metrics.model_dump().items()}


def _md(text: object, *, newline: str = "<br>") -> str:
    """Untrusted text made inert: HTML and markup characters escaped (`|` too), newlines kept inside the cell.

    Never put the result in a code span: backslash escapes do not apply there.
    """
    escaped = _TAG_START.sub("&lt;", str(text).replace("&", "&amp;"))
    return _NEWLINE.sub(newline, _MARKUP.sub(r"\\\1", escaped))


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """Cells must already be escaped (a cell may hold our own `<br>`)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def _title(report: EvalReport) -> str:
    run, metrics, gate = report.run, report.metrics, report.gate
    if gate is None:
        verdict, mark = "no gate applied", ""
    elif gate.ok:
        verdict, mark = "gate passed", "✅ "
    else:
        failed = ", ".join(_md(check.name, newline=" ") for check in gate.failed)
        verdict, mark = f"gate failed: {failed}", "❌ "
    return (
        f"### {mark}Eval {_md(run.golden_set, newline=' ')} · model {_md(run.model_id, newline=' ')} · "
        f"{metrics.cases} cases · {metrics.passed} passed · {verdict}"
    )


def _metrics_section(metrics: Metrics) -> list[str]:
    values = _metric_values(metrics)
    return [
        "#### Metrics",
        "",
        *_table(["Metric", "Value", "Better"], [[_label(m), v, _better(m)] for m, v in values.items()]),
    ]


def _by_tag_section(by_tag: dict[str, Metrics]) -> list[str]:
    if not by_tag:
        return []
    rows = []
    for tag, metrics in by_tag.items():
        values = _metric_values(metrics)
        rows.append([_md(tag), *(values[name] for name, _ in _TAG_COLUMNS)])
    return ["#### By tag", "", *_table(["Tag", *(header for _, header in _TAG_COLUMNS)], rows)]


def _gate_section(gate: GateVerdict) -> list[str]:
    against = f" against baseline {_md(gate.baseline, newline=' ')}" if gate.baseline else ""
    rows = [["✅" if check.ok else "❌", _md(check.name), _md(check.detail)] for check in gate.checks]
    return [f"#### Gate {_md(gate.gate, newline=' ')}{against}", "", *_table(["", "Check", "Detail"], rows)]


def _outcome(case: CaseScore) -> str:
    got = case.status + (f" ({case.reason_code})" if case.reason_code else "")
    return _md(f"{case.expect} → {got}")


def _failing_section(failing: list[CaseScore]) -> list[str]:
    if not failing:
        return []
    rows = [
        [_md(case.id), _md(", ".join(case.tags)), _outcome(case), "<br>".join(_md(reason) for reason in case.failures)]
        for case in failing[:MAX_FAILING]
    ]
    lines = [f"#### Failing cases ({len(failing)})", "", *_table(["Case", "Tags", "Expected → got", "Why"], rows)]
    if len(failing) > MAX_FAILING:
        lines += ["", f"… and {len(failing) - MAX_FAILING} more"]
    return lines


def render_markdown(report: EvalReport) -> str:
    """The report as a pull-request comment: verdict, metrics, per-tag table, gate checks, failing cases."""
    sections = [
        [_title(report)],
        _metrics_section(report.metrics),
        _by_tag_section(report.by_tag),
        _gate_section(report.gate) if report.gate is not None else [],
        _failing_section(report.failing),
    ]
    return "\n\n".join("\n".join(section) for section in sections if section) + "\n"
