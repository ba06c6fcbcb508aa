"""`evaluate`: run a golden set through an `Agent`, score every case, and build the report.

from quotebound import Agent
from quotebound.evals import evaluate, load_golden_set
with Agent.open(".quotebound") as agent:
    report = evaluate(agent, load_golden_set("golden.yaml"), concurrency=4)
print(report.metrics.outcome_accuracy, [case.id for case in report.failing])
"""

from __future__ import annotations

import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from quotebound.evals.golden import GoldenSet
from quotebound.evals.metrics import by_tag, compute
from quotebound.evals.report import EvalReport, RunInfo, file_digest, now
from quotebound.evals.runner import Progress, run_cases
from quotebound.evals.scoring import CaseScore, score_case

if TYPE_CHECKING:
    from quotebound.agent.facade.agent import Agent


def quotebound_version() -> str:
    try:
        return version("quotebound")
    except PackageNotFoundError:
        return "unknown"


def evaluate(
    agent: Agent,
    golden: GoldenSet,
    *,
    golden_path: str | Path | None = None,
    concurrency: int = 4,
    progress: Progress | None = None,
) -> EvalReport:
    started_at, started = now(), time.perf_counter()
    runs = run_cases(agent, golden.cases, concurrency=concurrency, progress=progress)
    duration = time.perf_counter() - started
    scores: list[CaseScore] = [
        score_case(run, agent.context.tools_for(run.case.role, list(run.case.labels))) for run in runs
    ]
    path = Path(golden_path) if golden_path is not None else None
    settings = agent.settings
    info = RunInfo(
        golden_set=golden.name,
        golden_path=str(path) if path else "",
        golden_digest=file_digest(path) if path and path.is_file() else "",
        store=str(settings.store),
        policy=str(settings.policy_file) if settings.policy_file else None,
        model_id=agent.model.model_id,
        quotebound_version=quotebound_version(),
        started_at=started_at,
        duration_s=round(duration, 3),
        concurrency=concurrency,
    )
    return EvalReport(run=info, metrics=compute(scores), by_tag=by_tag(scores), cases=scores)
