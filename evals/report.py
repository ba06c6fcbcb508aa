"""The eval report: one JSON document per run (machine-readable; the input of `eval diff` and of a baseline).

It carries what was run (set, its digest, store, model, versions), the metrics overall and per tag, the gate's
verdict when one was applied, and every case with its checks and envelopes.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from quotebound.agent.core.errors import CallerError, ErrorCode
from quotebound.evals.metrics import Metrics
from quotebound.evals.scoring import CaseScore

REPORT_SCHEMA: Final = "quotebound.eval-report/v1"


class GateCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    ok: bool
    detail: str


class GateVerdict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gate: str = Field(description="the gate file, or `default`")
    baseline: str | None = None
    ok: bool
    checks: list[GateCheck]

    @property
    def failed(self) -> list[GateCheck]:
        return [check for check in self.checks if not check.ok]


class RunInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    golden_set: str
    golden_path: str
    golden_digest: str = Field(description="sha256 of the golden set file")
    store: str
    policy: str | None
    model_id: str
    quotebound_version: str
    started_at: datetime
    duration_s: float
    concurrency: int


class EvalReport(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_: Literal["quotebound.eval-report/v1"] = Field(default=REPORT_SCHEMA, alias="schema")
    run: RunInfo
    metrics: Metrics
    by_tag: dict[str, Metrics]
    gate: GateVerdict | None = None
    cases: list[CaseScore]

    @property
    def failing(self) -> list[CaseScore]:
        return [case for case in self.cases if not case.passed]

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json", by_alias=True), indent=1, ensure_ascii=False) + "\n"


def file_digest(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


def load_report(path: str | Path) -> EvalReport:
    """Read a report written by `eval run` (a baseline, or one side of `eval diff`)."""
    path = Path(path)
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CallerError(ErrorCode.BAD_REQUEST, f"{path}: cannot read the report ({exc.strerror or exc})") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CallerError(ErrorCode.BAD_REQUEST, f"{path}: not a JSON eval report ({exc})") from exc
    if not isinstance(data, dict) or data.get("schema") != REPORT_SCHEMA:
        raise CallerError(ErrorCode.BAD_REQUEST, f"{path}: not a {REPORT_SCHEMA} report (its `schema` differs)")
    try:
        return EvalReport.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise CallerError(ErrorCode.BAD_REQUEST, f"{path}: malformed report at {where}: {first['msg']}") from exc
