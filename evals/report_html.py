"""`render_html`: an eval report as one self-contained HTML page (inline CSS, no scripts, nothing fetched).

Every value from the report is untrusted: questions come from golden sets, envelopes quote documents, so any of
them may hold `<script>`. All of it goes through `_e` (html.escape) and nothing from the data is put in an
attribute unescaped; the page also carries a CSP that forbids scripts, in case an escape is ever missed.
The skeleton and the CSS are files in `templates/`, filled with `string.Template`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from importlib import resources
from string import Template
from typing import Any

from quotebound.evals.metrics import Metrics
from quotebound.evals.report import EvalReport, GateVerdict, RunInfo
from quotebound.evals.report_md import _TAG_COLUMNS, _better, _format_metric, _label
from quotebound.evals.scoring import CaseScore


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _template(name: str) -> str:
    return resources.files("quotebound.evals").joinpath(f"templates/{name}").read_text(encoding="utf-8")


def _table(header: Sequence[str], rows: Iterable[str], *, css: str = "") -> str:
    """`header` is plain text (escaped here); `rows` are already-built `<tr>` elements."""
    head = "".join(f'<th scope="col">{_e(cell)}</th>' for cell in header)
    klass = f' class="{css}"' if css else ""
    return f"<table{klass}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>"


def _num(text: str) -> str:
    return f'<td class="num">{_e(text)}</td>'


def _run_info(run: RunInfo) -> str:
    items = [
        ("Golden set", run.golden_set),
        ("Golden file", run.golden_path or "n/a"),
        ("Digest", run.golden_digest or "n/a"),
        ("Store", run.store),
        ("Policy", run.policy or "n/a"),
        ("Model", run.model_id),
        ("quotebound", run.quotebound_version),
        ("Started", run.started_at.isoformat(timespec="seconds")),
        ("Duration", f"{run.duration_s:.1f} s"),
        ("Concurrency", run.concurrency),
    ]
    return '<dl class="run">\n' + "\n".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in items) + "\n</dl>"


def _verdict_badge(gate: GateVerdict | None) -> str:
    if gate is None:
        return '<span class="verdict none">no gate applied</span>'
    return '<span class="verdict ok">gate passed</span>' if gate.ok else '<span class="verdict fail">gate failed</span>'


def _gate(gate: GateVerdict | None) -> str:
    if gate is None:
        return f"<p>{_verdict_badge(gate)}</p>"
    against = f" against baseline <code>{_e(gate.baseline)}</code>" if gate.baseline else ""
    rows = [
        f'<tr class="{"ok" if check.ok else "fail"}"><td class="mark">{"✔" if check.ok else "✘"}</td>'
        f"<td>{_e(check.name)}</td><td>{_e(check.detail)}</td></tr>"
        for check in gate.checks
    ]
    return f"<p>{_verdict_badge(gate)} gate <code>{_e(gate.gate)}</code>{against}</p>\n" + _table(
        ["", "Check", "Detail"], rows
    )


def _metrics(metrics: Metrics) -> str:
    rows = [
        f'<tr><th scope="row">{_e(_label(name))}</th>{_num(_format_metric(name, value))}'
        f"<td>{_e(_better(name))}</td></tr>"
        for name, value in metrics.model_dump().items()
    ]
    return _table(["Metric", "Value", "Better"], rows)


def _by_tag(by_tag: dict[str, Metrics]) -> str:
    if not by_tag:
        return '<p class="muted">No tags.</p>'
    rows = []
    for tag, metrics in by_tag.items():
        values = metrics.model_dump()
        cells = "".join(_num(_format_metric(name, values[name])) for name, _ in _TAG_COLUMNS)
        rows.append(f'<tr><th scope="row">{_e(tag)}</th>{cells}</tr>')
    return _table(["Tag", *(header for _, header in _TAG_COLUMNS)], rows)


def _tags(tags: list[str]) -> str:
    return '<span class="tags">' + "".join(f'<span class="tag">{_e(tag)}</span>' for tag in tags) + "</span>"


def _json(data: Any) -> str:
    return _e(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def _failing_case(case: CaseScore) -> str:
    got = case.status + (f" ({case.reason_code})" if case.reason_code else "")
    failures = "".join(f"<li>{_e(reason)}</li>" for reason in case.failures)
    checks = case.model_dump(mode="json", exclude={"envelopes", "question", "failures"})
    return (
        '<article class="case">\n'
        f"<h3>{_e(case.id)} {_tags(case.tags)}</h3>\n"
        f'<p class="question">{_e(case.question)}</p>\n'
        f"<p>role <code>{_e(case.role)}</code> · expected <b>{_e(case.expect)}</b> → got <b>{_e(got)}</b>"
        f" · {_e(f'{case.latency_ms:.0f}')} ms · {_e(case.tool_calls)} tool calls · {_e(case.rounds)} round(s)</p>\n"
        f'<ul class="failures">{failures}</ul>\n'
        f"<details><summary>Envelopes ({len(case.envelopes)})</summary><pre>{_json(case.envelopes)}</pre></details>\n"
        f"<details><summary>Checks</summary><pre>{_json(checks)}</pre></details>\n"
        "</article>"
    )


def _failing(failing: list[CaseScore]) -> str:
    if not failing:
        return '<p class="muted">None.</p>'
    return "\n".join(_failing_case(case) for case in failing)


def _passing(passing: list[CaseScore]) -> str:
    if not passing:
        return '<p class="muted">None.</p>'
    rows = [
        f"<tr><td>{_e(case.id)}</td><td>{_tags(case.tags)}</td>"
        f'<td class="status ok">{_e(case.status)}</td>{_num(f"{case.latency_ms:.0f} ms")}</tr>'
        for case in passing
    ]
    return _table(["Case", "Tags", "Status", "Latency"], rows)


def render_html(report: EvalReport) -> str:
    """The whole report as one HTML page: run info, gate, metrics, per-tag table, failing and passing cases."""
    run, gate = report.run, report.gate
    verdict = "no gate" if gate is None else ("gate passed" if gate.ok else "gate failed")
    failing = report.failing
    passing = [case for case in report.cases if case.passed]
    return Template(_template("report.html")).substitute(
        title=_e(f"quotebound eval: {run.golden_set} · {verdict}"),
        css=_template("report.css"),
        heading=_e(f"quotebound eval: {run.golden_set}")
        + f" <small>{_e(report.metrics.passed)}/{_e(report.metrics.cases)} passed</small>",
        run=_run_info(run),
        gate=_gate(gate),
        metrics=_metrics(report.metrics),
        by_tag=_by_tag(report.by_tag),
        failing_count=len(failing),
        failing=_failing(failing),
        passing_count=len(passing),
        passing=_passing(passing),
    )
