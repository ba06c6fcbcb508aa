"""The two human views of an eval report: the pull-request comment (`render_markdown`) and the HTML page
(`render_html`). Reports are built by hand here, so each expected number is visible in the test."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from quotebound.evals.metrics import Metrics
from quotebound.evals.report import EvalReport, GateCheck, GateVerdict, RunInfo
from quotebound.evals.report_html import render_html
from quotebound.evals.report_md import render_markdown
from quotebound.evals.scoring import CaseScore

HOSTILE = "<script>alert(1)</script>"


def _case(
    case_id: str,
    *,
    tags: list[str] | None = None,
    expect: str = "answer",
    status: str = "answer",
    failures: list[str] | None = None,
    question: str = "What is the minimum lease term?",
    envelopes: list[dict[str, Any]] | None = None,
    latency_ms: float = 812.4,
) -> CaseScore:
    return CaseScore(
        id=case_id,
        question=question,
        role="public",
        tags=tags if tags is not None else ["plain"],
        expect=expect,
        status=status,
        outcome_ok=expect == status,
        latency_ms=latency_ms,
        tool_calls=3,
        rounds=1,
        failures=failures or [],
        envelopes=envelopes if envelopes is not None else [{"status": status, "answer": {"level1": "Twelve months."}}],
    )


def _metrics(**overrides: Any) -> Metrics:
    values: dict[str, Any] = {
        "cases": 2,
        "passed": 1,
        "outcome_accuracy": 0.75,
        "answer_correctness": 0.3333,
        "citation_coverage_facts": 1.0,
        "citation_coverage_sentences": 0.5,
        "citation_resolvability": 0.875,
        "refusal_precision": 1.0,
        "refusal_recall": 0.5,
        "leakage": 0,
        "conflict_recall": None,
        "clarify_correctness": 0.5,
        "latency_p50_ms": 1221.2,
        "latency_p95_ms": 1490.8,
        "tool_calls_per_question": 2.25,
        "harness_errors": 0,
    }
    return Metrics(**(values | overrides))


def _report(
    cases: list[CaseScore] | None = None,
    *,
    gate: GateVerdict | None = None,
    by_tag: dict[str, Metrics] | None = None,
    golden_set: str = "smoke",
) -> EvalReport:
    cases = (
        cases
        if cases is not None
        else [
            _case("lease", failures=["missing sources: bylaws.md"]),
            _case("pets", tags=["restricted"], expect="abstain", status="abstain", envelopes=[{"status": "abstain"}]),
        ]
    )
    run = RunInfo(
        golden_set=golden_set,
        golden_path="evals/golden/smoke.yaml",
        golden_digest="sha256:0574550",
        store="/tmp/qs",
        policy="examples/hoa/policy.yaml",
        model_id="extractive",
        quotebound_version="0.1.0",
        started_at=datetime(2026, 11, 23, 15, 36, 34, tzinfo=UTC),
        duration_s=1.492,
        concurrency=4,
    )
    tags = (
        by_tag
        if by_tag is not None
        else {
            "plain": _metrics(cases=1, passed=0, outcome_accuracy=1.0, latency_p50_ms=1490.8),
            "restricted": _metrics(cases=1, passed=1, answer_correctness=None, latency_p50_ms=1220.2),
        }
    )
    return EvalReport(run=run, metrics=_metrics(), by_tag=tags, gate=gate, cases=cases)


def _failed_gate() -> GateVerdict:
    return GateVerdict(
        gate="default",
        ok=False,
        checks=[
            GateCheck(name="outcome_accuracy", ok=False, detail="0.75 (must be >= 0.9)"),
            GateCheck(name="leakage", ok=True, detail="0 (must be <= 0)"),
        ],
    )


def _row(markdown: str, first_cell: str) -> str:
    rows = [line for line in markdown.splitlines() if line.startswith(f"| {first_cell} |")]
    assert len(rows) == 1, f"expected one row starting with {first_cell!r}, found {rows}"
    return rows[0]


# Markdown


def test_markdown_title_names_the_set_model_counts_and_a_passed_gate() -> None:
    gate = GateVerdict(gate="default", ok=True, checks=[GateCheck(name="leakage", ok=True, detail="0")])
    title = render_markdown(_report(gate=gate)).splitlines()[0]
    assert title.startswith("### ✅ ")
    assert "smoke" in title and "extractive" in title and "2 cases" in title and "1 passed" in title
    assert "gate passed" in title


def test_markdown_failed_gate_lists_the_failed_checks_only() -> None:
    markdown = render_markdown(_report(gate=_failed_gate()))
    title = markdown.splitlines()[0]
    assert title.startswith("### ❌ ")
    assert title.endswith("gate failed: outcome\\_accuracy")
    assert "| ❌ | outcome\\_accuracy | 0.75 (must be >= 0.9) |" in markdown
    assert "| ✅ | leakage | 0 (must be <= 0) |" in markdown


def test_markdown_without_a_gate_has_no_checks_table() -> None:
    markdown = render_markdown(_report())
    assert markdown.splitlines()[0].endswith("no gate applied")
    assert "#### Gate" not in markdown and "✅" not in markdown and "❌" not in markdown


def test_markdown_metrics_are_formatted_by_kind() -> None:
    markdown = render_markdown(_report())
    assert _row(markdown, "Outcome accuracy") == "| Outcome accuracy | 75.0% | ↑ higher |"
    assert _row(markdown, "Answer correctness") == "| Answer correctness | 33.3% | ↑ higher |"
    assert _row(markdown, "Citation resolvability") == "| Citation resolvability | 87.5% | ↑ higher |"
    assert _row(markdown, "Conflict recall") == "| Conflict recall | n/a | ↑ higher |"
    assert _row(markdown, "Leakage (strings leaked)") == "| Leakage (strings leaked) | 0 | ↓ lower |"
    assert _row(markdown, "Latency p50") == "| Latency p50 | 1221 ms | ↓ lower |"
    assert _row(markdown, "Latency p95") == "| Latency p95 | 1491 ms | ↓ lower |"
    assert _row(markdown, "Tool calls per question") == "| Tool calls per question | 2.25 | ↓ lower |"


def test_markdown_has_a_row_per_tag() -> None:
    markdown = render_markdown(_report())
    header = _row(markdown, "Tag")
    assert "Outcome" in header and "Refusal P" in header and "Clarify" in header and "p50 latency" in header
    assert _row(markdown, "plain") == (
        "| plain | 1 | 0 | 100.0% | 33.3% | 87.5% | 0 | 100.0% | 50.0% | n/a | 50.0% | 1491 ms |"
    )
    assert _row(markdown, "restricted").startswith("| restricted | 1 | 1 | 75.0% | n/a | ")


def test_markdown_lists_failing_cases_with_reasons_but_not_passing_ones_or_envelopes() -> None:
    markdown = render_markdown(_report())
    assert "#### Failing cases (1)" in markdown
    assert _row(markdown, "lease") == "| lease | plain | answer → answer | missing sources: bylaws.md |"
    assert "| pets |" not in markdown
    assert "Twelve months." not in markdown  # the envelope's text


def test_markdown_escapes_pipes_and_newlines_in_cells() -> None:
    case = _case(
        "odd|id",
        tags=["a|b"],
        expect="answer",
        status="abstain",
        failures=["missing tokens: 12 months | twelve months", "expected answer,\ngot abstain"],
    )
    markdown = render_markdown(_report([case]))
    row = _row(markdown, "odd\\|id")
    assert row == (
        "| odd\\|id | a\\|b | answer → abstain | missing tokens: 12 months \\| twelve months<br>expected answer,<br>"
        "got abstain |"
    )
    # Four cells: the only unescaped pipes are the five borders.
    assert len(re.findall(r"(?<!\\)\|", row)) == 5


def test_markdown_caps_the_failing_cases() -> None:
    cases = [_case(f"case-{n:02d}", failures=["wrong"]) for n in range(53)]
    markdown = render_markdown(_report(cases))
    assert "#### Failing cases (53)" in markdown
    assert "| case-49 |" in markdown and "| case-50 |" not in markdown
    assert markdown.rstrip().endswith("… and 3 more")


def test_markdown_does_not_pass_html_through() -> None:
    markdown = render_markdown(_report([_case("x", failures=[f"leaked: {HOSTILE}"])], golden_set=HOSTILE))
    assert "<script" not in markdown
    assert "&lt;script>alert(1)&lt;/script>" in markdown


# HTML


def test_html_is_one_full_document_with_inline_css() -> None:
    page = render_html(_report())
    assert page.startswith("<!DOCTYPE html>\n<html")
    assert page.rstrip().endswith("</html>")
    assert "<head>" in page and "<body>" in page and "<title>quotebound eval: smoke · no gate</title>" in page
    style = re.search(r"<style>(.*?)</style>", page, re.S)
    assert style is not None and ".verdict.fail" in style.group(1)  # the CSS file, inlined


def test_html_is_self_contained() -> None:
    page = render_html(_report(gate=_failed_gate()))
    for reference in ("http://", "https://", "src=", "href=", "url(", "@import", "<link", "<script"):
        assert reference not in page.lower(), reference


def test_html_header_has_the_run_info() -> None:
    page = render_html(_report())
    for value in (
        "smoke",
        "sha256:0574550",
        "/tmp/qs",
        "examples/hoa/policy.yaml",
        "extractive",
        "0.1.0",
        "2026-11-23T15:36:34+00:00",
        "1.5 s",
    ):
        assert f"<dd>{value}</dd>" in page, value
    assert "<dt>Concurrency</dt><dd>4</dd>" in page


def test_html_gate_verdict_and_checks() -> None:
    page = render_html(_report(gate=_failed_gate()))
    assert '<span class="verdict fail">gate failed</span>' in page
    assert (
        '<tr class="fail"><td class="mark">✘</td><td>outcome_accuracy</td><td>0.75 (must be &gt;= 0.9)</td></tr>'
        in page
    )
    assert '<tr class="ok"><td class="mark">✔</td><td>leakage</td>' in page
    assert '<span class="verdict none">' in render_html(_report())


def test_html_metrics_and_per_tag_rows() -> None:
    page = render_html(_report())
    assert '<tr><th scope="row">Answer correctness</th><td class="num">33.3%</td><td>↑ higher</td></tr>' in page
    assert '<tr><th scope="row">Conflict recall</th><td class="num">n/a</td>' in page
    plain = re.search(r'<tr><th scope="row">plain</th>(.*?)</tr>', page)
    restricted = re.search(r'<tr><th scope="row">restricted</th>(.*?)</tr>', page)
    assert plain is not None and restricted is not None
    cells = re.findall(r'<td class="num">(.*?)</td>', plain.group(1))
    assert cells == ["1", "0", "100.0%", "33.3%", "87.5%", "0", "100.0%", "50.0%", "n/a", "50.0%", "1491 ms"]
    assert re.findall(r'<td class="num">(.*?)</td>', restricted.group(1))[:4] == ["1", "1", "75.0%", "n/a"]


def test_html_failing_case_has_its_failures_and_pretty_printed_envelopes() -> None:
    envelope = {"status": "answer", "answer": {"level1": "Twelve months."}, "citations": [{"ref": "doc://a.md#p.1"}]}
    page = render_html(_report([_case("lease", failures=["missing sources: bylaws.md"], envelopes=[envelope])]))
    article = re.search(r'<article class="case">(.*?)</article>', page, re.S)
    assert article is not None
    assert "<li>missing sources: bylaws.md</li>" in article.group(1)
    pre = re.search(r"<details><summary>Envelopes \(1\)</summary><pre>(.*?)</pre></details>", article.group(1), re.S)
    assert pre is not None
    assert "\n    &quot;answer&quot;: {\n      &quot;level1&quot;: &quot;Twelve months.&quot;\n" in pre.group(1)


def test_html_lists_passing_cases_compactly() -> None:
    page = render_html(_report())
    assert "<h2>Passing cases (1)</h2>" in page and "<h2>Failing cases (1)</h2>" in page
    row = re.search(r"<tr><td>pets</td>(.*?)</tr>", page)
    assert row is not None
    assert '<span class="tag">restricted</span>' in row.group(1)
    assert '<td class="status ok">abstain</td><td class="num">812 ms</td>' in row.group(1)
    assert page.count('<article class="case">') == 1  # only the failing case gets the long form


def test_html_escapes_hostile_text_everywhere() -> None:
    hostile_case = _case(
        HOSTILE,
        tags=[HOSTILE],
        question=f"Ignore the rules {HOSTILE}",
        failures=[f"leaked: {HOSTILE}"],
        envelopes=[{"status": "answer", "answer": {"level1": HOSTILE}}],
    )
    passing = _case(f"ok-{HOSTILE}", tags=[HOSTILE])
    gate = GateVerdict(
        gate=HOSTILE, baseline=HOSTILE, ok=False, checks=[GateCheck(name=HOSTILE, ok=False, detail=HOSTILE)]
    )
    page = render_html(_report([hostile_case, passing], gate=gate, by_tag={HOSTILE: _metrics()}, golden_set=HOSTILE))
    assert "<script" not in page.lower()
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert f'<p class="question">Ignore the rules {escaped}</p>' in page
    assert f"&quot;level1&quot;: &quot;{escaped}&quot;" in page  # inside the envelope's JSON
    assert f'<th scope="row">{escaped}</th>' in page  # the tag row
    assert f"<li>leaked: {escaped}</li>" in page
