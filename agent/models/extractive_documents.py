"""Each document's own answer: the extractive model reports what every readable document says, not only the best.

The model answers from its best line. When the question's documents each answer it on their own (several pages
about things of one name, or copies that disagree), the best line alone states one side silently: a reader
relying on another document never learns that it says something else. So, after the best line is chosen, every
other document contributes its own best answering line (already ranked and filtered by `answers`), provided that
line names the question's subject in full (a question naming none, "How many units are there?", gets no sides:
lines sharing its common nouns may be about anything), gives a value of the same class as the best one (a date for
a date, a name for a name) and scores close enough to the best to be an answer to the same question.

Equal values are agreement and are not repeated; differing values are the sides a conflict, or the per-entity
answers of an ambiguous name, lists with their quotes.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from quotebound.agent.models.extractive_predicate import predicate_name
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_sides import names_subject
from quotebound.agent.models.extractive_subject import subject_names
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_values import kind_class, value_differs

# Another document's own answer may score lower than the best line (its page words the question differently), but
# every ranked line already covers the question's words (`answers`): the margin only keeps out lines that share
# them by the way. Wider than `Thresholds.co_answer_margin`, which compares lines of any document to the best.
SIDE_MARGIN: Final = 0.5


def named(question: Question, scored: Scored) -> Scored | None:
    """A who-question's line with the name its verb governs as its value (`extractive_predicate`); None when it
    names none (its first name is too loose a reading to set against another document's); other lines as they are."""
    if scored.value is None or scored.value.kind != "entity":
        return scored
    name = predicate_name(question, scored.line.text)
    return None if name is None else dataclasses.replace(scored, value=name)


def other_sides(question: Question, ranked: list[Scored], chosen: list[Scored], t: Thresholds) -> list[Scored]:
    """Per document the chosen lines do not come from, its best ranked line whose value is of the class of the
    best line's and differs from every value already shown, when it scores within `SIDE_MARGIN` of the best."""
    names = subject_names(question)
    top = named(question, chosen[0]) if chosen else None
    if top is None or top.value is None or not names:
        return []  # with no name to hold to, lines sharing a common noun ("units") may be about anything
    assert top.value is not None
    shown = [top.value, *(s.value for s in chosen[1:] if s.value is not None)]
    done = {s.line.source_id for s in chosen}
    sides: list[Scored] = []
    for s in ranked:
        if s.line.source_id in done:
            continue
        if not names_subject(s.line.text, names):
            continue  # another thing's line that shares words of the question
        side = named(question, s)
        if side is None or side.value is None or side.score < top.score - SIDE_MARGIN:
            continue
        if kind_class(side.value.kind) != kind_class(top.value.kind):
            continue
        done.add(s.line.source_id)  # a document's own answer is its best answering line, never a lower one
        if all(value_differs(side.value, v, t.conflict_tolerance_pct) for v in shown):
            sides.append(side)
            shown.append(side.value)
    return sides
