"""A sentence that answers in other words: when no line answers by the question's words, the sentence closest to
the question in meaning (the shipped embedder's cosine) answers, if it holds a value of the asked type.

Word-by-word coverage misses a sentence that says the same thing differently ("When did version 3 come out?"
against "Version 3, 29 June 2007"), and the unknown-word limit rejects one whose question words no line spells
("published"). Meaning alone is not an answer, though: a sentence close to the question without a value of the
asked type says something about the subject, not the thing asked. So the fallback admits a sentence only when
- the question asks a typed value that extraction reads precisely: a date (when), a duration (how long), a
  percentage, or an amount of money. A bare number ("how much" without a currency), a name or a code is extracted
  too loosely: a list's "4." reads as a count, "WILL ANY COPYRIGHT HOLDER" as a name. A count of a named noun
  ("how many directors") is the exception: it is read strictly, as the number that noun follows
  (`extractive_counted`);
- the question asks a stated value, not a derived one (no rate to convert, no calculation, no change);
- the sentence, framed by its document's name (a title line "Version 2.0, January 2004" is about the document),
  is at or above `semantic_floor` in cosine and it also says at least one of the question's words;
- the sentence (or its document's name) says every number the question says: "version 1.0" is not answered by
  "Version 2.0, January 2004", however close the two read;
- no other typed sentence with a different value comes within `semantic_margin` of it: two close candidates
  ("reinstated permanently ... 30 days", "provisionally ... 60 days") are a choice meaning cannot make.
Without an embedder (a hashing store, unit tests) nothing changes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from quotebound.agent.models.base import Meaning
from quotebound.agent.models.extractive_counted import counted_noun, counted_value, recounted
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_rank import mentioned, rank_candidates
from quotebound.agent.models.extractive_score import Index, Scored, admissible, score_line
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_values import line_value, value_differs

# The asked kind -> the value kinds that answer it when only meaning connects the sentence to the question.
TYPED: dict[str, frozenset[str]] = {
    "date": frozenset({"date", "time", "year", "month"}),
    "duration": frozenset({"duration"}),
    "percent": frozenset({"percent"}),
    "money": frozenset({"money"}),
    "amount": frozenset({"money"}),
}


def asks_typed_value(question: Question) -> bool:
    """The question asks one stated value of a precisely read type (a count only of a named noun)."""
    plain = question.op is None and question.period is None and not question.change
    counted = question.kind == "count" and counted_noun(question) is not None
    return plain and (question.kind in TYPED or counted)


def framed(line: Line) -> str:
    """The sentence as the embedder reads it: its document's name first, its hard wraps folded."""
    name = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", line.source_id).replace("/", " ").replace("-", " ")
    return f"{name}: {' '.join(line.text.split())}"


def closeness(question: str, lines: Sequence[Line], meaning: Meaning) -> list[float]:
    """Each line's cosine to the question (the vectors are L2-normalized), in one batch."""
    vectors = meaning.vectors([question, *(framed(line) for line in lines)])
    matrix = np.stack([np.asarray(v, dtype=np.float32) for v in vectors])
    return [float(c) for c in matrix[1:] @ matrix[0]]


def _holds(question: Question, line: Line, kinds: frozenset[str]) -> bool:
    value = line_value(question, line.text)  # the value `score_line` gives the line
    return value is not None and value.kind in kinds


def _typed(question: Question, index: Index, pool: LinePool, t: Thresholds) -> list[Scored]:
    kinds = TYPED[question.kind or ""]
    # the value first (a pattern match): only a line holding one of the asked type is worth scoring
    holding = [line for line in rank_candidates(question, index, pool) if _holds(question, line, kinds)]
    return [
        s
        for s in (score_line(question, index, pool, line, t) for line in holding)
        if s.value is not None and s.value.kind in kinds and s.coverage > 0 and admissible(question, s)
    ]


def _counted(question: Question, index: Index, pool: LinePool, t: Thresholds) -> list[Scored]:
    """The lines stating a count of the asked noun, each with that count as its value (`extractive_counted`)."""
    noun = counted_noun(question) or ""
    holding = [line for line in rank_candidates(question, index, pool) if counted_value(noun, line.text)]
    scored = (recounted(noun, score_line(question, index, pool, line, t)) for line in holding)
    return [s for s in scored if s is not None and s.coverage > 0 and admissible(question, s)]


def semantic_rank(
    question: Question, index: Index, pool: LinePool, t: Thresholds, meaning: Meaning | None
) -> list[Scored]:
    """The one sentence that answers by meaning and type (see the module), or nothing."""
    if meaning is None or question.kind is None or not asks_typed_value(question):
        return []
    typed = _counted(question, index, pool, t) if question.kind == "count" else _typed(question, index, pool, t)
    if not typed:
        return []
    cosines = closeness(question.text, [s.line for s in typed], meaning)
    order = sorted(range(len(typed)), key=lambda i: (-cosines[i], typed[i].line.key))
    best = order[0]
    top = typed[best]
    figures = {w for w in question.words if any(ch.isdigit() for ch in w)}  # a figure has no paraphrase
    if cosines[best] < t.semantic_floor or top.value is None or not figures <= mentioned(top.line):
        return []  # the closest sentence is about another figure (version, unit, year): no answer, not the next one
    for i in order[1:]:
        other = typed[i].value
        close = cosines[i] >= cosines[best] - t.semantic_margin
        if close and other is not None and value_differs(other, top.value, t.conflict_tolerance_pct):
            return []  # two sentences near the question give different values: meaning cannot choose
    return [top]
