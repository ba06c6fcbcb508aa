"""The extractive model reads up to a promising line's section heading when the lines between were not read."""

from __future__ import annotations

from typing import Any, cast

from quotebound.agent.models.extractive_calc import ToolBudget
from quotebound.agent.models.extractive_frame import _framed, read_frames
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_rank import rank
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.tools.registry import ToolRegistry

DOC = ["## New business", "", "### Building 4 deck repairs", "", "Rot was found.", "The assessment is due on June 1."]


class FakeBudget(ToolBudget):
    def __init__(self, calls: int) -> None:
        super().__init__(cast(ToolRegistry, None), calls)
        self.asked: list[dict[str, Any]] = []

    @property
    def left(self) -> int:
        return self.limit - self.used

    def call(self, name: str, args: dict[str, Any]) -> Any | None:
        self.used += 1
        self.asked.append(args)
        first, last = (int(n.rstrip("-")) for n in args["locator"].split("L")[1:3])
        return {"quote": "\n".join(DOC[first - 1 : last])}


def _pool() -> LinePool:
    pool = LinePool()
    pool.add(Line("minutes.md", 1, 6, DOC[5]))
    return pool


def test_a_line_is_framed_only_through_read_lines_up_to_a_heading() -> None:
    pool = _pool()
    assert not _framed(pool, pool.lines[("minutes.md", 1, 6)])
    for n in range(1, 6):
        pool.add(Line("minutes.md", 1, n, DOC[n - 1]))
    assert _framed(pool, pool.lines[("minutes.md", 1, 6)])


def test_the_heading_above_an_unframed_line_is_fetched_and_lets_it_answer() -> None:
    question = analyze("When is the Building 4 deck assessment due?")
    pool, t = _pool(), Thresholds()
    index = build_index(question, pool)
    assert not rank(question, index, pool, t)  # "Building 4 deck" is said only by the heading, not yet read
    budget = FakeBudget(calls=3)
    assert read_frames(question, index, pool, budget, t)
    assert budget.asked == [{"source_id": "minutes.md", "locator": "p.1 L1-L5"}]
    ranked = rank(question, build_index(question, pool), pool, t)
    assert ranked and ranked[0].line.line_no == 6


def test_no_fetch_without_spare_calls() -> None:
    question = analyze("When is the Building 4 deck assessment due?")
    pool = _pool()
    budget = FakeBudget(calls=0)
    assert not read_frames(question, build_index(question, pool), pool, budget, Thresholds())
    assert budget.asked == []


def test_no_fetch_when_a_line_answers_already() -> None:
    question = analyze("When is the assessment due?")
    pool = _pool()
    budget = FakeBudget(calls=3)
    assert not read_frames(question, build_index(question, pool), pool, budget, Thresholds())
    assert budget.asked == []
