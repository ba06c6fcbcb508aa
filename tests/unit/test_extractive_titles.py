"""A document's title frames every line of it, as its file name does: a question word only the title says counts
with the partial credit of a heading, so a line of "Owners Association — Minutes" is about the Association."""

from __future__ import annotations

from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_score import build_index, score_line
from quotebound.agent.models.extractive_thresholds import Thresholds


def test_the_title_frames_each_line_of_its_document() -> None:
    question = analyze("Who presented the Association's financial report?")
    pool = LinePool.from_texts("minutes.md", ["Treasurer Priya Raman presented the financial report."])
    pool.add(Line("other.md", 1, 1, "The Association meets monthly."))
    line = pool.lines[("minutes.md", 1, 1)]
    untitled = score_line(question, build_index(question, pool), pool, line, Thresholds())
    pool.titles["minutes.md"] = "Cedar Hollow Owners Association — Minutes"
    assert "Owners Association" in pool.context_text(line)
    titled = score_line(question, build_index(question, pool), pool, line, Thresholds())
    assert titled.coverage > untitled.coverage
    assert titled.coverage < 1.0  # a title's word counts as a heading's does, not as the line's own


def test_a_first_line_that_is_a_paragraph_frames_nothing() -> None:
    pool = LinePool.from_texts("bio.txt", ["Profession Chef.", "He cooked."])
    line = pool.lines[("bio.txt", 1, 2)]
    pool.titles["bio.txt"] = "Peter Jacobs is a British fencer who competed at the Olympics and won a medal in 1962."
    assert "fencer" not in pool.context_text(line)
    pool.titles["bio.txt"] = "x" * 120
    assert "xxx" not in pool.context_text(line)
    pool.titles["bio.txt"] = "Peter Jacobs — Biography"
    assert "Biography" in pool.context_text(line)
