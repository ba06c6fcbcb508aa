"""The evaluation harness: golden sets as data, the metrics of cite-or-abstain, reports and a regression gate.

    from quotebound import Agent
    from quotebound.evals import evaluate, load_golden_set
    with Agent.open(".quotebound") as agent:
        report = evaluate(agent, load_golden_set("golden.yaml"), concurrency=4)

The CLI is `quotebound eval run|diff`; the pytest plugin collects `*.golden.yaml` files (evals/pytest_plugin.py).
Imports are lazy so that `import quotebound.evals.golden` (the pytest plugin, a schema check) stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from quotebound.evals.golden import GoldenCase, GoldenSet, load_golden_set
    from quotebound.evals.harness import evaluate
    from quotebound.evals.report import EvalReport, load_report

__all__ = ["EvalReport", "GoldenCase", "GoldenSet", "evaluate", "load_golden_set", "load_report"]

_HOMES = {
    "GoldenCase": "golden",
    "GoldenSet": "golden",
    "load_golden_set": "golden",
    "evaluate": "harness",
    "EvalReport": "report",
    "load_report": "report",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
