"""Writing the extractive model's draft from its facts: the conflicts between quoted values, the three answer
levels around the quotes (only words about evidence beside them), and the Answer Object with its extractions."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeVar

from quotebound.agent.core.contracts import (
    AnswerLevels,
    AnswerObject,
    CitationIndexEntry,
    Conflict,
    ConflictValue,
    Draft,
    Extractions,
    Fact,
    Gap,
)
from quotebound.agent.models.base import DraftInput
from quotebound.agent.models.extractive_calc import (
    ToolBudget,
    calc,
    currency,
    operand,
)
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_values import Value, extract_values, value_differs
from quotebound.agent.models.extractive_words import tokens

_DIGIT = re.compile(r"\d")
_CONFLICT_NOTE = "The quoted values differ beyond the tolerance; the answer lists every value and defers."


def entity_answers(facts: list[Fact]) -> str:
    """Level 1 when other documents answer for other things of the question's name (facts `side_fact` left
    unkeyed): each document's value, none chosen over another; "" when there are none."""
    quoted = [f for f in facts if f.calc is None and f.value and f.support]
    if len(quoted) < 2 or not any(f.key is None for f in quoted[1:]):
        return ""
    says = ", ".join(f"{f.support[0].source_id} says {f.value}" for f in quoted)
    return f"The documents give different answers for this name: {says}; each quote states which it describes."


def unwrapped(text: str) -> str:
    """A sentence wrapped over lines, read on one line (the quote keeps its line breaks)."""
    return " ".join(text.split()) if "\n" in text else text


def as_value(text: str) -> Value:
    found = extract_values(text)
    return found[0] if found else Value(text, "text", 0)


def find_conflicts(facts: list[Fact], budget: ToolBudget, t: Thresholds) -> list[Conflict]:
    """Quoted facts sharing a key whose values differ beyond the tolerance: every value, with its quote."""
    groups: dict[str, list[Fact]] = {}
    for fact in facts:
        if fact.key and fact.value and fact.calc is None and fact.support:
            groups.setdefault(fact.key, []).append(fact)
    conflicts: list[Conflict] = []
    for key in sorted(groups):
        group = groups[key]
        values = [as_value(f.value or "") for f in group]
        if not any(value_differs(v, values[0], t.conflict_tolerance_pct) for v in values[1:]):
            continue
        listed = [_conflict_value(f) for f in group]
        # a delta only between values that are amounts whole: "11" read from "11 November 1993" is a day, not one
        whole = all(v.text == (f.value or "").strip() for v, f in zip(values, group, strict=True))
        delta = _delta(values, budget) if whole else ""
        conflicts.append(Conflict(key=key, values=listed, delta=delta, notes=_CONFLICT_NOTE))
    return conflicts


def _conflict_value(fact: Fact) -> ConflictValue:
    first = fact.support[0]
    return ConflictValue(value=fact.value or "", source_id=first.source_id, locator=first.locator, quote=first.quote)


def _delta(values: list[Value], budget: ToolBudget) -> str:
    """The gap between exactly two distinct amounts, computed by calc (never typed), with its unit."""
    kinds = {v.kind for v in values}
    numbers = sorted({n for v in values if (n := v.number()) is not None})
    if len(kinds) != 1 or not kinds <= {"money", "number", "percent"} or len(numbers) != 2:
        return ""
    high = next(v for v in values if v.number() == numbers[1])
    low = next(v for v in values if v.number() == numbers[0])
    gap = calc(budget, f"{operand(high).rstrip('%')} - {operand(low).rstrip('%')}")
    if gap is None:
        return ""
    return f"{gap} percentage points" if "percent" in kinds else f"{currency(high)}{gap}"


# --- Levels and the Answer Object ---------------------------------------------------------------------------


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _cites(facts: list[Fact]) -> list[str]:
    return list(dict.fromkeys(f"{s.source_id} {s.locator}" for f in facts for s in f.support))


def _quotes(facts: list[Fact], pool: LinePool) -> str:
    sentences: list[str] = []
    for fact in facts:
        for s in fact.support:
            quote = unwrapped(s.quote.strip())
            end = "" if quote.endswith((".", "!", "?")) else "."
            sentence = f'{s.source_id} {s.locator} states: "{quote}"{end}'
            if sentence not in sentences:
                sentences.append(sentence)
    secondary = sorted(
        {s.source_id for f in facts for s in f.support if pool.provenance.get(s.source_id) == "secondary"}
    )
    if secondary:
        sentences.append(f"{', '.join(secondary)} is a secondary source.")
    return " ".join(sentences)


def _terms(words: list[str] | tuple[str, ...]) -> str:
    plain = [w for w in words if not _DIGIT.search(w)]
    return ", ".join(plain) if plain else "the terms of the question"


def _as_written(question: Question, words: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(question.as_written(w) for w in words))


def _conflict_levels(conflict: Conflict, facts: list[Fact], pool: LinePool) -> tuple[str, str]:
    order = {"primary": 0, "unknown": 1, "secondary": 2}
    values = sorted(
        conflict.values,
        key=lambda v: (order.get(pool.provenance.get(v.source_id, "unknown"), 1), v.source_id, v.locator),
    )
    says = ", ".join(f"{v.source_id} says {v.value}" for v in values)
    level1 = f"The sources disagree: {says}; confirm which applies before relying on either."
    kinds = {pool.provenance.get(v.source_id, "unknown") for v in values}
    if kinds == {"primary"}:
        hierarchy = "All of these are primary sources."
    elif "primary" in kinds:
        primary = ", ".join(sorted({v.source_id for v in values if pool.provenance.get(v.source_id) == "primary"}))
        hierarchy = f"The primary source is {primary}; the other sources are listed too."
    else:
        hierarchy = "None of these is a primary source."
    cited = [f for f in facts if f.calc is None]
    return level1, f"{_quotes(cited, pool)} {hierarchy}"


def quoted_key(key: str | None, quotes: Iterable[str]) -> str | None:
    """A fact's or conflict's key cut to the words its quotes state: the key groups facts by the question's words
    while drafting, and what is shown must rest on the quotes ("balance fund reserve", not "fall")."""
    if not key:
        return key
    stated = set().union(*(tokens(q) for q in quotes))
    kept = [w for w in key.split() if tokens(w) <= stated]
    return " ".join(kept) or None


Keyed = TypeVar("Keyed", Fact, Conflict)


def _keyed(item: Keyed, quotes: list[str]) -> Keyed:
    key = quoted_key(item.key, quotes)
    if isinstance(item, Conflict):
        key = key or ""
    return item if key == item.key else item.model_copy(update={"key": key})


def assemble(
    question: Question,
    request: DraftInput,
    facts: list[Fact],
    conflicts: list[Conflict],
    pool: LinePool,
    unknown: tuple[str, ...],
) -> Draft:
    gaps: list[Gap] = []
    cites = _cites(facts)
    timeout = request.gate == "proceed_after_clarify_timeout"
    if timeout:
        missing = list(dict.fromkeys(m.strip() for m in request.missing if m.strip())) or ["the requested details"]
        gaps = [Gap(need=m, why="clarify_timeout") for m in missing]
        level1 = f"A precise answer could not be given because you did not supply: {_terms(missing)}."
        partial = (
            f"Only partial evidence is available. {_quotes(facts, pool)}" if facts else "No partial evidence was found."
        )
        level2 = (
            f"The precise answer depends on details you were asked for and did not supply ({_terms(missing)}), "
            f"so this response is contextual only. {partial}"
        )
        why = "the missing details were not supplied and no partial evidence was found"
    elif not facts:
        gaps = [Gap(need=f"a quoted answer to: {question.text.strip()}", why="no_quote_found")]
        level1 = "Insufficient evidence: no passage in the available documents answers this question."
        # The question's terms as it wrote them: the model's normalized forms ("feet" for "footage", "building"
        # for "buildings") are not words the question or a document holds, and the gate rejects what neither holds.
        absent = f"None of the retrieved passages mentions {_terms(_as_written(question, unknown))}." if unknown else ""
        terms = _terms(_as_written(question, question.words))
        covered = f"No quoted line covers enough of the question's terms ({terms}) to answer it."
        level2 = f"{absent} {covered}".strip()
        why = "no quote in the available documents answers the question"
    elif conflicts:
        level1, level2 = _conflict_levels(conflicts[0], facts, pool)
        why = ""
    elif entity_answers(facts):
        level1, level2 = entity_answers(facts), _quotes(facts, pool)
        why = ""
    else:
        derived = next((f for f in facts if f.calc is not None), None)
        level1 = derived.text if derived is not None else _sentence(facts[0].text)
        quoted = [f for f in facts if f.calc is None] or facts
        method = " The figure was computed with calc from the quoted figures." if derived is not None else ""
        level2 = f"{_quotes(quoted if derived is None else [derived], pool)}{method}"
        why = ""
    level3 = f"Citations: {'; '.join(cites)}" if cites else f"Citations: None — {why}."
    mode = "report_insufficient_evidence" if timeout or not facts else "answer"
    cited_sources = list(dict.fromkeys(s.source_id for f in facts for s in f.support))
    evidence = AnswerObject(
        mode=mode,
        answer=level1,
        facts=[_keyed(f, [s.quote for s in f.support]) for f in facts],
        gaps=gaps,
        conflicts=[_keyed(c, [v.quote for v in c.values]) for c in conflicts],
        analysis="",
        citations_index=[
            CitationIndexEntry(source_id=sid, ingest_hash=pool.content_hash[sid])
            for sid in cited_sources
            if sid in pool.content_hash
        ],
        extractions=extractions(facts),
        confidence=max((f.confidence or 0.0 for f in facts), default=None),
    )
    return Draft(levels=AnswerLevels(level1=level1, level2=level2, level3=level3), evidence=evidence)


_ENTITY = re.compile(r"\b[A-Z][\w'’&.-]*(?:\s+(?:of\s+|and\s+)?[A-Z][\w'’&.-]*)+")


def extractions(facts: list[Fact]) -> Extractions:
    numbers: list[str] = []
    dates: list[str] = []
    entities: list[str] = []
    for quote in dict.fromkeys(s.quote for f in facts for s in f.support):
        for value in extract_values(quote):
            if value.kind in ("entity", "identifier"):
                continue  # names are collected below, from the whole quote; codes are neither
            target = dates if value.kind in ("date", "time", "year", "month") else numbers
            if value.text not in target:
                target.append(value.text)
        for match in _ENTITY.finditer(quote.replace("*", "").replace("|", " ")):
            name = re.sub(r"^(?:The|A|An)\s+", "", match.group().strip(" .,"))
            if " " in name and name not in entities:
                entities.append(name)
    return Extractions(entities=entities, numbers=numbers, dates=dates)
