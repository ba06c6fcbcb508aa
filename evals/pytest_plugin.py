"""pytest plugin (entry point `quotebound`): golden cases as test items in your own suite.

Any file named `*.golden.yaml`, `*.golden.yml` or `*.golden.jsonl` under your test paths is collected; each of
its cases becomes one item (`tests/qa.golden.yaml::lease-minimum-term`) that passes when every check of the
case holds and fails with the case's reasons otherwise. Configure the store the cases run against:

    # pyproject.toml
    [tool.pytest.ini_options]
    quotebound_store = ".quotebound"
    quotebound_policy = "policy.yaml"      # optional
    quotebound_model = "extractive"        # optional

or `pytest --quotebound-store DIR [--quotebound-policy FILE] [--quotebound-model SPEC]`. One `Agent` serves the
whole session. Without a store, collecting a golden file is an error that says how to set one: never a silent skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from quotebound.agent.core.settings import Settings
from quotebound.evals.golden import GoldenCase, GoldenSetError, load_golden_set

if TYPE_CHECKING:
    from quotebound.agent.facade.agent import Agent

_SUFFIXES = (".golden.yaml", ".golden.yml", ".golden.jsonl")
_AGENT_KEY = pytest.StashKey["Agent"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("quotebound", "quotebound golden cases")
    group.addoption("--quotebound-store", help="store the golden cases run against (ini: quotebound_store)")
    group.addoption("--quotebound-policy", help="policy file for the golden cases (ini: quotebound_policy)")
    group.addoption("--quotebound-model", help="model spec for the golden cases (ini: quotebound_model)")
    parser.addini("quotebound_store", "store the golden cases (*.golden.yaml) run against")
    parser.addini("quotebound_policy", "policy file for the golden cases")
    parser.addini("quotebound_model", "model spec for the golden cases (default extractive)")


def _option(config: pytest.Config, name: str) -> str | None:
    value = config.getoption(f"--quotebound-{name}") or config.getini(f"quotebound_{name}")
    if not value:
        return None
    path = Path(str(value))
    if name != "model" and not path.is_absolute():
        path = config.rootpath / path  # ini paths are relative to the project, not to where pytest was started
    return str(path) if name != "model" else str(value)


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.name.endswith(_SUFFIXES):
        return GoldenFile.from_parent(parent, path=file_path)
    return None


class GoldenFile(pytest.File):
    def collect(self) -> Iterator[GoldenItem]:
        if _option(self.config, "store") is None:
            raise self.CollectError(
                f"{self.path.name}: golden cases need a store: set `quotebound_store` in your pytest ini "
                "or pass --quotebound-store DIR"
            )
        try:
            golden = load_golden_set(self.path)
        except GoldenSetError as exc:
            raise self.CollectError(str(exc)) from exc
        for case in golden.cases:
            item = GoldenItem.from_parent(self, name=case.id, case=case)
            for tag in case.tags:
                item.user_properties.append(("tag", tag))
            yield item


class GoldenCaseFailed(AssertionError):
    pass


class GoldenItem(pytest.Item):
    def __init__(self, *, case: GoldenCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        # deferred: the plugin loads in every pytest session; scoring (the tools) only when a golden case runs
        from quotebound.evals.runner import run_case
        from quotebound.evals.scoring import score_case

        agent = _agent(self.config)
        score = score_case(run_case(agent, self.case), agent.context.tools_for(self.case.role, list(self.case.labels)))
        if not score.passed:
            raise GoldenCaseFailed(score.failures, score.envelopes[-1] if score.envelopes else None)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, GoldenCaseFailed):
            failures, final = excinfo.value.args
            lines = [f"golden case {self.case.id!r} ({self.case.expect}): {self.case.question}"]
            lines.extend(f"  - {failure}" for failure in failures)
            if final is not None:
                lines.append(f"  final envelope status: {final.get('status')}")
            return "\n".join(lines)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"golden case {self.case.id}"


def _agent(config: pytest.Config) -> Agent:
    agent = config.stash.get(_AGENT_KEY, None)
    if agent is None:
        # deferred: the plugin loads in every pytest session; langgraph only when a golden case runs
        from quotebound.agent.facade.agent import Agent

        store = _option(config, "store")
        policy = _option(config, "policy")
        model = _option(config, "model")
        settings = Settings(store=Path(str(store)), policy_file=Path(policy) if policy else None)
        if model:
            settings = settings.model_copy(update={"model": model})
        agent = Agent(settings)
        config.stash[_AGENT_KEY] = agent
    return agent


def pytest_unconfigure(config: pytest.Config) -> None:
    agent = config.stash.get(_AGENT_KEY, None)
    if agent is not None:
        agent.close()
