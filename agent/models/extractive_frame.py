"""The frame of a promising line: the unread lines above it, up to its section heading.

A sentence in a section often leaves its subject to the heading ("### Building 4 deck repairs" ... "The special
assessment is due on June 1, 2025."). Retrieval and search return lines, not the lines between them, and a line's
heading is read only through an unbroken run of read lines (`LinePool.context_text`). When no line answers yet,
for the few best lines that could answer but whose heading was not reached, the model fetches the lines above them
with `quote_fetch`, so their heading frames them (at the context credit), as a reader glances up to the title.
"""

from __future__ import annotations

from quotebound.agent.models.extractive_calc import ToolBudget
from quotebound.agent.models.extractive_line_text import is_heading
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_rank import rank
from quotebound.agent.models.extractive_score import Index, score_line
from quotebound.agent.models.extractive_thresholds import Thresholds


def _framed(pool: LinePool, line: Line) -> bool:
    """Is a heading reached from `line` through read lines (or is the line at its page's top)?"""
    n = line.line_no - 1
    while n >= 1:
        above = pool.lines.get((line.source_id, line.page, n))
        if above is None:
            return False
        if is_heading(above.text):
            return True
        n -= 1
    return True


def read_frames(question: Question, index: Index, pool: LinePool, budget: ToolBudget, t: Thresholds) -> bool:
    """Fetch the lines above the best unframed lines (within `frame_reach`); True when any were added."""
    spare = budget.left - (t.reserved_calls if question.op or question.period else 0)
    if spare <= 0 or t.frame_fetches <= 0:
        return False
    if rank(question, index, pool, t):
        return False  # a line answers already: the calls are kept (and the answer is the gate's to judge)
    scored = [score_line(question, index, pool, line, t) for line in pool.candidates()]
    near = [s for s in scored if s.coverage >= t.min_coverage - t.frame_gap and not _framed(pool, s.line)]
    near.sort(key=lambda s: (-s.score, s.line.key))
    added = False
    for s in near[: min(spare, t.frame_fetches)]:
        line = s.line
        first = max(1, line.line_no - t.frame_reach)
        if first >= line.line_no:
            continue
        locator = f"p.{line.page} L{first}-L{line.line_no - 1}"
        result = budget.call("quote_fetch", {"source_id": line.source_id, "locator": locator})
        if not isinstance(result, dict):
            continue
        for offset, text in enumerate(str(result.get("quote", "")).split("\n")):
            added = pool.add(Line(line.source_id, line.page, first + offset, text)) or added
    return added
