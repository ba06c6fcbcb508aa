"""The regression gate: absolute limits on a run's metrics, and tolerances against a baseline run.

A gate file (YAML, `schema: quotebound.eval-gate/v1`; the default is `evals/gates/default.yaml`):

    require:      {metric: {min: X} | {max: Y}}   # always applied
    tolerance:    {metric: T}                     # with a baseline: may move the wrong way by at most T
    max_case_regressions: N                       # with a baseline: cases that passed there and fail now

A metric with nothing to measure (None, e.g. no answer had citations) passes its limit and says so.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated, Final, Literal, Self

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from quotebound.agent.core.errors import CallerError, ErrorCode
from quotebound.evals.metrics import DIRECTION
from quotebound.evals.report import EvalReport, GateCheck, GateVerdict

GATE_SCHEMA: Final = "quotebound.eval-gate/v1"


class Limit(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _one_bound(self) -> Self:
        if self.min is None and self.max is None:
            raise ValueError("a limit needs `min` or `max`")
        return self


def _known_metrics(values: dict[str, object]) -> dict[str, object]:
    unknown = sorted(set(values) - set(DIRECTION))
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; known: {', '.join(sorted(DIRECTION))}")
    return values


class Gate(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_: Literal["quotebound.eval-gate/v1"] = Field(default=GATE_SCHEMA, alias="schema")
    require: dict[str, Limit] = Field(default_factory=dict)
    tolerance: dict[str, Annotated[float, Field(ge=0)]] = Field(default_factory=dict)
    max_case_regressions: int = Field(default=0, ge=0)

    _metrics_known = field_validator("require", "tolerance")(_known_metrics)


def load_gate(path: str | Path | None) -> tuple[Gate, str]:
    """The gate in `path` (or the default one) and the name to report it under."""
    if path is None:
        text = resources.files("quotebound.evals").joinpath("gates/default.yaml").read_text(encoding="utf-8")
        name = "default"
    else:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CallerError(ErrorCode.BAD_REQUEST, f"{path}: cannot read the gate ({exc.strerror or exc})") from exc
        name = str(path)
    try:
        return Gate.model_validate(yaml.safe_load(text)), name
    except yaml.YAMLError as exc:
        raise CallerError(ErrorCode.BAD_REQUEST, f"{name}: not valid YAML ({exc})") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise CallerError(
            ErrorCode.BAD_REQUEST, f"{name}: {where}: {first['msg'].removeprefix('Value error, ')}"
        ) from exc


def _fmt(value: float | int | None) -> str:
    return "n/a" if value is None else f"{value:g}"


def apply_gate(
    gate: Gate, name: str, report: EvalReport, baseline: EvalReport | None = None, baseline_name: str | None = None
) -> GateVerdict:
    metrics = report.metrics.model_dump()
    checks: list[GateCheck] = []
    for metric, limit in gate.require.items():
        value = metrics[metric]
        if value is None:
            checks.append(GateCheck(name=metric, ok=True, detail="nothing to measure in this run"))
            continue
        ok = (limit.min is None or value >= limit.min) and (limit.max is None or value <= limit.max)
        bound = f">= {_fmt(limit.min)}" if limit.min is not None else ""
        bound += (" and " if bound and limit.max is not None else "") + (
            f"<= {_fmt(limit.max)}" if limit.max is not None else ""
        )
        checks.append(GateCheck(name=metric, ok=ok, detail=f"{_fmt(value)} (must be {bound})"))
    if baseline is not None:
        checks.extend(_against_baseline(gate, report, baseline))
    return GateVerdict(gate=name, baseline=baseline_name, ok=all(c.ok for c in checks), checks=checks)


def _against_baseline(gate: Gate, report: EvalReport, baseline: EvalReport) -> list[GateCheck]:
    now, before = report.metrics.model_dump(), baseline.metrics.model_dump()
    checks: list[GateCheck] = []
    for metric, tolerance in gate.tolerance.items():
        value, old = now[metric], before[metric]
        if value is None or old is None:
            checks.append(GateCheck(name=f"{metric} vs baseline", ok=True, detail=f"{_fmt(old)} -> {_fmt(value)}"))
            continue
        worse = (old - value) if DIRECTION[metric] == "higher" else (value - old)
        ok = worse <= tolerance + 1e-9
        checks.append(
            GateCheck(
                name=f"{metric} vs baseline",
                ok=ok,
                detail=f"{_fmt(old)} -> {_fmt(value)} (tolerance {_fmt(tolerance)})",
            )
        )
    passed_before = {case.id for case in baseline.cases if case.passed}
    regressed = [case.id for case in report.cases if case.id in passed_before and not case.passed]
    checks.append(
        GateCheck(
            name="case regressions",
            ok=len(regressed) <= gate.max_case_regressions,
            detail=(
                f"{len(regressed)} case(s) passed in the baseline and fail now"
                + (f": {', '.join(regressed[:20])}" if regressed else "")
                + f" (at most {gate.max_case_regressions})"
            ),
        )
    )
    return checks
