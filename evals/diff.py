"""`eval diff A B`: what changed between two runs of a golden set, case by case.

Typical use: the same set before and after a change of code, model or corpus version. Per case it reports a
changed outcome (status or pass/fail) and changed citations: a citation only in A is *dropped*, only in B is
*added*, one whose `bundle_id` changed for the same locator is *changed* (the text there is different: drift),
and one B could not re-resolve is *broken* (the source changed or vanished: link rot).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from quotebound.evals.metrics import DIRECTION
from quotebound.evals.report import EvalReport
from quotebound.evals.scoring import CaseScore

_UNPIN = re.compile(r"@v\d+#")  # a new corpus version re-pins every ref: compare locators, not versions


class CaseChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    before: str = Field(description="status, and `pass`/`fail`, in A")
    after: str
    outcome_changed: bool
    dropped: list[str] = Field(default_factory=list)
    added: list[str] = Field(default_factory=list)
    changed: list[str] = Field(default_factory=list)
    broken: list[str] = Field(default_factory=list)


class MetricChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    metric: str
    before: float | None
    after: float | None
    verdict: str = Field(description="better, worse, same or n/a")


class ReportDiff(BaseModel):
    model_config = ConfigDict(extra="forbid")

    a: str
    b: str
    only_in_a: list[str]
    only_in_b: list[str]
    cases: list[CaseChange]
    metrics: list[MetricChange]

    @property
    def changed(self) -> bool:
        return bool(self.only_in_a or self.only_in_b or self.cases)


def _label(case: CaseScore) -> str:
    return f"{case.status} ({'pass' if case.passed else 'fail'})"


def _citations(case: CaseScore) -> dict[str, str]:
    """locator ref (version pin dropped) -> bundle_id."""
    out: dict[str, str] = {}
    for entry in case.citations:
        ref, _, bundle_id = entry.rpartition(" ")
        out[_UNPIN.sub("#", ref, count=1)] = bundle_id
    return out


def _case_change(a: CaseScore, b: CaseScore) -> CaseChange | None:
    before, after = _citations(a), _citations(b)
    broken_after = {_UNPIN.sub("#", ref, count=1) for ref in b.unresolved}
    change = CaseChange(
        id=a.id,
        before=_label(a),
        after=_label(b),
        outcome_changed=(a.status, a.passed) != (b.status, b.passed),
        dropped=sorted(set(before) - set(after)),
        added=sorted(set(after) - set(before)),
        changed=sorted(ref for ref in set(before) & set(after) if before[ref] != after[ref]),
        broken=sorted(broken_after),
    )
    moved = change.outcome_changed or change.dropped or change.added or change.changed or change.broken
    return change if moved else None


def _metric_change(metric: str, before: float | None, after: float | None) -> MetricChange:
    if before is None or after is None:
        verdict = "n/a" if before is None and after is None else "changed"
    elif abs(after - before) < 1e-9:
        verdict = "same"
    else:
        better = after > before if DIRECTION[metric] == "higher" else after < before
        verdict = "better" if better else "worse"
    return MetricChange(metric=metric, before=before, after=after, verdict=verdict)


def diff_reports(a: EvalReport, b: EvalReport, *, a_name: str = "A", b_name: str = "B") -> ReportDiff:
    cases_a = {case.id: case for case in a.cases}
    cases_b = {case.id: case for case in b.cases}
    changes = [
        change
        for case_id, case in cases_a.items()
        if case_id in cases_b and (change := _case_change(case, cases_b[case_id])) is not None
    ]
    before, after = a.metrics.model_dump(), b.metrics.model_dump()
    return ReportDiff(
        a=a_name,
        b=b_name,
        only_in_a=sorted(set(cases_a) - set(cases_b)),
        only_in_b=sorted(set(cases_b) - set(cases_a)),
        cases=changes,
        metrics=[_metric_change(metric, before[metric], after[metric]) for metric in DIRECTION],
    )


def render_diff(diff: ReportDiff) -> str:
    """Plain text for a terminal: the cases that moved, then the metrics that did."""
    lines = [f"eval diff {diff.a} -> {diff.b}"]
    if not diff.changed:
        lines.append("no case changed outcome or citations")
    for case in diff.cases:
        head = f"  {case.id}: {case.before} -> {case.after}" if case.outcome_changed else f"  {case.id}: {case.after}"
        lines.append(head)
        for label, refs in (
            ("broken", case.broken),
            ("changed", case.changed),
            ("dropped", case.dropped),
            ("added", case.added),
        ):
            lines.extend(f"    {label}: {ref}" for ref in refs)
    if diff.only_in_a:
        lines.append(f"  only in {diff.a}: {', '.join(diff.only_in_a)}")
    if diff.only_in_b:
        lines.append(f"  only in {diff.b}: {', '.join(diff.only_in_b)}")
    moved = [m for m in diff.metrics if m.verdict not in {"same", "n/a"}]
    if moved:
        lines.append("metrics:")
        lines.extend(f"  {m.metric}: {m.before} -> {m.after} ({m.verdict})" for m in moved)
    return "\n".join(lines) + "\n"
