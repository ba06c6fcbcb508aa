"""The extractive model's ranking of answering lines: a document of record before a secondary retelling."""

from __future__ import annotations

from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_rank import rank
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_thresholds import Thresholds


def _pool(*texts: str) -> LinePool:
    pool = LinePool.from_texts("rules.md", texts)
    return pool


def test_a_primary_source_that_answers_comes_before_a_closer_secondary_retelling() -> None:
    question = analyze("Must dogs be leashed in the Common Area?")
    pool = _pool("In the Common Area of the Property, every dog must be leashed by its owner at all times.")
    pool.add(Line("newsletter.md", 1, 1, "Dogs must be leashed in the Common Area."))
    pool.provenance.update({"rules.md": "primary", "newsletter.md": "secondary"})
    ranked = rank(question, build_index(question, pool), pool, Thresholds())
    assert [s.line.source_id for s in ranked] == ["rules.md", "newsletter.md"]
    pool.provenance["rules.md"] = "secondary"  # two retellings: the closer one first
    ranked = rank(question, build_index(question, pool), pool, Thresholds())
    assert ranked[0].score >= ranked[1].score


def test_an_identifier_the_question_names_is_named_by_the_line_or_by_its_document() -> None:
    question = analyze("Does CC0 give up the affirmer's trademark and patent rights?")
    pool = LinePool()
    pool.add(Line("CC0-1.0.txt", 1, 1, "No trademark or patent rights held by Affirmer are waived or abandoned."))
    pool.add(Line("CC0-1.0.txt", 1, 2, "CC0 is a public domain dedication."))
    pool.add(Line("other.txt", 1, 1, "No trademark or patent rights held by Affirmer are waived or abandoned."))
    ranked = rank(question, build_index(question, pool), pool, Thresholds())
    # the other document's copy of the sentence names no CC0: it is not about it
    assert [(s.line.source_id, s.line.line_no) for s in ranked][:1] == [("CC0-1.0.txt", 1)]
    assert all(s.line.source_id == "CC0-1.0.txt" for s in ranked)
