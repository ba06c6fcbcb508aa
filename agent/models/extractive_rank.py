"""Ranking and choosing among the extractive model's scored lines: the best line answers, and close ones about the
same subject are kept so that a disagreement shows up as a conflict instead of being silently resolved.
"""

from __future__ import annotations

import dataclasses
import re

from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_qualifiers import asked_years, change_figure, labels_only, row_labels, unstated
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_role import role_word
from quotebound.agent.models.extractive_same_subject import dated_apart, same_subject
from quotebound.agent.models.extractive_score import Index, Scored, answers, says_enough, score_line
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_values import Value, extract_values, kind_class, value_differs
from quotebound.agent.models.extractive_words import tokens


def identifiers(question: Question) -> frozenset[str]:
    """Question words mixing letters and digits ("4b", "c-12"): they name one thing, so they are never optional."""
    return frozenset(w for w in question.words if any(c.isdigit() for c in w) and any(c.isalpha() for c in w))


def mentioned(line: Line) -> set[str]:
    """What a line names: its own words and its document's name. Every line of "CC0-1.0.txt" is about CC0, so a
    question naming CC0 is answered by it, though the line itself never repeats the name."""
    return tokens(line.text) | tokens(re.sub(r"\.[A-Za-z0-9]{1,5}$", "", line.source_id).replace("-", " "))


def _named_by(line: Line, pool: LinePool) -> set[str]:
    """What a line names (`mentioned`), a table row with its header: "| 2 | Snow removal | $4,800 |" under
    "| Line | Item | FY2025 budget |" gives FY2025's figure."""
    header = pool.header_row(line)
    return mentioned(line) | (tokens(header.text) if header is not None else set())


def rank_candidates(question: Question, index: Index, pool: LinePool) -> list[Line]:
    """The lines that may answer: a line about unit 4B must mention 4B; a general sentence about every unit does
    not answer for 4B. The rule applies only to identifiers some readable line mentions, so an unknown one still
    leads to a gap, not to nothing."""
    candidates = pool.candidates()
    named = [w for w in sorted(identifiers(question)) if w in index.weights]
    if named:
        candidates = [line for line in candidates if set(named) <= _named_by(line, pool)]  # one read per line
    return candidates


def rank(question: Question, index: Index, pool: LinePool, t: Thresholds) -> list[Scored]:
    candidates = rank_candidates(question, index, pool)
    scored = [score_line(question, index, pool, line, t) for line in candidates]
    pinned = bool(asked_years(question))  # the qualifiers are read only for a question pinned to a year
    labels = row_labels([line.text for line in candidates]) if pinned else frozenset()
    good = [
        s
        for s in scored
        if answers(question, s, t)
        and says_enough(question, index, s.line, t)
        and not labels_only(s.line.text)
        and not change_figure(question, s.line.text, s.value)
        and not pool.is_header_row(s.line)  # column titles state no figure
        and not (
            pinned
            and unstated(
                question, index.weights, index.senses, s.line.text, pool.context_text(s.line), labels, t.meaning_floor
            )
        )
    ]
    # A secondary source (a newsletter retelling a rule) answers only when no other source does: a document of
    # record that answers governs, however closely the retelling echoes the question's words.
    secondary = {line.source_id for line in candidates if pool.provenance.get(line.source_id) == "secondary"}
    return sorted(good, key=lambda s: (s.line.source_id in secondary, -s.score, s.line.key))


def _agreeing(scored: Scored, value: Value) -> Scored:
    """A line that also states `value` does not contradict it (e.g. "two (2) of the seven (7) members")."""
    if scored.value is None or not value_differs(scored.value, value, 0.0):
        return scored
    same = [
        v
        for v in extract_values(scored.line.text)
        if kind_class(v.kind) == kind_class(value.kind) and not value_differs(v, value, 0.0)
    ]
    return dataclasses.replace(scored, value=same[0]) if same else scored


def _same_holder(ranked: list[Scored], question: Question, t: Thresholds) -> list[Scored]:
    """For "who is the <role>": close lines that give the best line's name too, each its own quote of the same
    holder (agreement only: a name is never set against another)."""
    top = ranked[0]
    if top.value is None or role_word(question) is None:
        return []
    same = [
        s
        for s in ranked[1:]
        if s.score >= top.score - t.co_answer_margin and s.value is not None and s.value.text == top.value.text
    ]
    return same[: t.max_facts - 1]


def choose(ranked: list[Scored], question: Question, t: Thresholds) -> list[Scored]:
    """The best line, plus lines close to it that state a value of the same family (agreement or conflict);
    every distinct value gets a line before any value gets a second one."""
    if not ranked:
        return []
    top = ranked[0]
    if top.value is None or top.value.kind == "entity":  # names are too loosely extracted to claim disagreement
        return [top, *_same_holder(ranked, question, t)]
    if len([w for w in question.words if not any(c.isdigit() for c in w)]) < 2:
        return [top]  # one word names no subject•predicate: lines about different things would look alike
    close = [
        _agreeing(s, top.value)
        for s in ranked
        if s.score >= top.score - t.co_answer_margin
        and s.value is not None
        and kind_class(s.value.kind) == kind_class(top.value.kind)  # "January" never conflicts with "7:00 p.m."
        and s.value_period == top.value_period
    ]
    # a differing value from a line about something else (another date, another policy) is not a conflict
    dated = kind_class(top.value.kind) in ("date", "time", "year", "month")
    close = [
        s
        for s in close
        if s.value is None
        or not value_differs(s.value, top.value, t.conflict_tolerance_pct)
        or (
            same_subject(s.line.text, top.line.text, question.words)
            and (dated or not dated_apart(s.line.text, top.line.text))
        )
    ]
    picked: list[Scored] = []
    seen: list[Value] = []
    for s in close:
        assert s.value is not None
        if all(value_differs(s.value, other, 0.0) for other in seen):
            picked.append(s)
            seen.append(s.value)
    for s in close:
        if s not in picked:
            picked.append(s)
    picked = picked[: t.max_facts]
    order = {s.line.key: i for i, s in enumerate(ranked)}
    return sorted(picked, key=lambda s: order[s.line.key])
