"""The part of a joint question that the documents can answer, when the other part's words are spelled by no line.

"Who is the night patrol officer, and how often does the patrol come by?": no line says "often" or "come", so the
whole question fails the unknown-word limit and abstains, although "Night patrol officer: Jordan Alvarez."
answers its first part word for word. The limit exists because a word no line spells may be the very thing asked
("When did version 3 expire?" is not answered by the release date); so it is not relaxed here. It is judged per
part instead: a part whose own words pass it is asked on its own, by the ordinary reading (the same coverage,
type and conflict rules), and the part no line speaks of stays unanswered rather than sinking the part that is.
Only one part may be so asked: when both parts pass, the joint reading (`extractive_parts`) already applies.
"""

from __future__ import annotations

from quotebound.agent.models.base import Meaning
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import Question, analyze
from quotebound.agent.models.extractive_score import Index, build_index
from quotebound.agent.models.extractive_thresholds import Thresholds


def within_limit(question: Question, index: Index, t: Thresholds) -> bool:
    """The unknown-word limit: the share of the question's words that no line spells."""
    return bool(index.weights) and len(index.unknown) / max(1, len(question.words)) <= t.max_unknown_fraction


def known_part(
    parts: tuple[str, str] | None, pool: LinePool, meaning: Meaning | None, t: Thresholds
) -> tuple[Question, Index] | None:
    """The one part of a joint question within the unknown-word limit (with its index), or None."""
    if parts is None:
        return None
    known = []
    for text in parts:
        part = analyze(text)
        index = build_index(part, pool, meaning, t.meaning_floor)
        if within_limit(part, index, t):
            known.append((part, index))
    return known[0] if len(known) == 1 else None
