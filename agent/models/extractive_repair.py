"""Repair for the extractive model: narrow a failed draft with the repair tools (quote_fetch, search_source, calc).

Every support is checked again (against the bundles, else with `quote_fetch`): a quote that is not verbatim is
replaced by the text really at its locator, a locator that does not exist is relocated by the quote's own
words or dropped, and supports or facts a finding names for removal are dropped. Conflict values a finding
names (value, source_id, locator) are fetched and added. The levels are then rebuilt from what remains.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from quotebound.agent.core.contracts import Draft, Fact, Locator, Support
from quotebound.agent.models.extractive_calc import ToolBudget, calc
from quotebound.agent.models.extractive_cues import period_of
from quotebound.agent.models.extractive_line_text import clean
from quotebound.agent.models.extractive_pool import LinePool, looks_instructional
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_values import extract_values, line_value
from quotebound.tools.calc import numbers_in, recompute

_LOCATOR = re.compile(r"p\.\d+ L\d+(?:-L\d+)?")
_DROP = re.compile(
    r"instruction|injection|injected|not permitted|restricted|unsupported|irrelevant|\bdrop|\bremove", re.I
)
_CONFLICT = re.compile(r"conflict|disagree|distinct values|differing", re.I)
_QUOTED = re.compile(r"['\"‘“]([^'\"‘“’”]*\d[^'\"‘“’”]*)['\"’”]")
_SPAN = re.compile(r"(?<!\w)['‘]([^'‘’\n]{1,120})['’](?!\w)")  # a finding's quoted value: 'Jane Doe'
_CONSTANTS = frozenset({"12", "100"})  # the calc constants this model writes itself (rate by twelve, percent)


@dataclass(frozen=True)
class Named:
    source_id: str
    locator: str
    message: str


def _plain(number: str) -> str:
    return re.sub(r"[$€£¥₹,\s]", "", number)


def named_refs(findings: list[str], known_ids: list[str]) -> list[Named]:
    """(source_id, locator) pairs a finding mentions: the nearest known source id before each locator, else
    the file-like token just before it."""
    named: list[Named] = []
    for message in findings:
        for match in _LOCATOR.finditer(message):
            before = message[: match.start()]
            positions = [(before.rfind(sid), sid) for sid in known_ids if sid in before]
            if positions:
                source_id = max(positions, key=lambda p: (p[0], len(p[1])))[1]
            else:
                candidates = re.findall(
                    r"(?:doc://)?([^\s'\"(),;#@]+\.[A-Za-z0-9]+|[^\s'\"(),;#@]+/[^\s'\"(),;#@]+)", before
                )
                if not candidates:
                    continue
                source_id = candidates[-1]
            try:
                locator = str(Locator.parse(match.group()))
            except ValueError:
                continue
            named.append(Named(source_id, locator, message))
    return named


def _stated_values(message: str) -> list[str]:
    """The values a finding quotes ("states 'Jane Doe' where ..."), then any figure it names unquoted."""
    quoted = [m.strip() for m in _SPAN.findall(message) if m.strip()]
    return list(dict.fromkeys([*quoted, *(v.text for v in extract_values(message))]))


_REF = r"(\S+) (p\.\d+ L\d+(?:-L\d+)?)"
_VALUE_BEFORE_REF = re.compile(rf"'([^'\n]{{1,120}})' \({_REF}\)")  # 'New Orleans' (b.txt p.1 L3-L3)
_REF_STATES_VALUE = re.compile(rf"{_REF} states '([^'\n]{{1,120}})'")  # b.txt p.1 L3-L3 states 'New Orleans'


def conflict_values(findings: list[str]) -> dict[tuple[str, str], str]:
    """The value a conflict finding reads at each place it names, (source_id, locator) -> value: the gate reads
    the slot's value from the sentence ("'Miami, Florida' (a.txt p.1 L1-L1)"), where the draft's own reading of
    a line may be another value of it. The first value named for a place is kept."""
    found: dict[tuple[str, str], str] = {}
    for message in findings:
        if not _CONFLICT.search(message) or "same subject" not in message:
            continue
        pairs = [(m.start(), (m[2], m[3]), m[1]) for m in _VALUE_BEFORE_REF.finditer(message)]
        pairs += [(m.start(), (m[1], m[2]), m[3]) for m in _REF_STATES_VALUE.finditer(message)]
        for _, ref, value in sorted(pairs):
            found.setdefault(ref, value.strip())
    return found


def with_conflict_values(facts: list[Fact], values: dict[tuple[str, str], str]) -> list[Fact]:
    """Each quoted fact valued as a conflict finding reads its place, when its quote states that value."""
    out: list[Fact] = []
    for fact in facts:
        first = fact.support[0] if fact.support and fact.calc is None else None
        value = values.get((first.source_id, first.locator)) if first is not None else None
        if first is not None and value and value in first.quote and value != fact.value:
            fact = fact.model_copy(update={"value": value})
        out.append(fact)
    return out


def _local_text(pool: LinePool, source_id: str, locator: str) -> str | None:
    span = Locator.parse(locator)
    lines = [pool.lines.get((source_id, span.page, n)) for n in range(span.line_start, span.line_end + 1)]
    return "\n".join(line.text for line in lines if line is not None) if all(lines) else None


def _tainted(pool: LinePool, source_id: str, locator: str, quote: str) -> bool:
    span = Locator.parse(locator)
    keys = {(source_id, span.page, n) for n in range(span.line_start, span.line_end + 1)}
    return bool(keys & pool.excluded) or any(looks_instructional(line) for line in quote.split("\n"))


def verify(support: Support, pool: LinePool, budget: ToolBudget) -> Support | None:
    """The support with the text really at its locator, relocated by its words if the locator is unknown."""
    try:
        locator = str(Locator.parse(support.locator))
    except ValueError:
        locator = ""
    text = _local_text(pool, support.source_id, locator) if locator else None
    if text is None and locator:
        fetched = budget.call("quote_fetch", {"source_id": support.source_id, "locator": locator})
        text = str(fetched["quote"]) if isinstance(fetched, dict) and "quote" in fetched else None
    if not text or not text.strip():
        probe = max(support.quote.split("\n"), key=len).strip()[:150]
        searchable = re.search(r"\w", probe) is not None
        found = budget.call("quote_fetch", {"source_id": support.source_id, "pattern": probe}) if searchable else None
        if not isinstance(found, dict) or "quote" not in found:
            return None
        locator, text = str(found["locator"]), str(found["quote"])
    if _tainted(pool, support.source_id, locator, text):
        return None
    return Support(source_id=support.source_id, locator=locator, quote=text)


def _repair_one(
    fact: Fact,
    question: Question,
    pool: LinePool,
    budget: ToolBudget,
    drop_refs: set[tuple[str, str]],
    drop_tokens: set[str],
) -> Fact | None:
    supports: list[Support] = []
    for support in fact.support:
        if (support.source_id, support.locator) in drop_refs:
            continue
        fixed = verify(support, pool, budget)
        if fixed is not None and (fixed.source_id, fixed.locator) not in drop_refs and fixed not in supports:
            supports.append(fixed)
    if not supports:
        return None
    quotes = "\n".join(s.quote for s in supports)
    plain_quotes = _plain(quotes)
    if fact.calc is not None:
        operands = [_plain(n) for n in numbers_in(fact.calc.expr)] if recompute(fact.calc.expr) else []
        if not operands or any(n not in plain_quotes and n not in _CONSTANTS for n in operands):
            return None
        value = calc(budget, fact.calc.expr)
        if value is None or value != fact.calc.value or _plain(value) in drop_tokens:
            return None  # a stale or refused derivation is dropped rather than re-worded
        return fact.model_copy(update={"support": supports})
    value = fact.value
    if value is None or value not in quotes:
        picked = line_value(question, supports[0].quote)
        value = picked.text if picked is not None else None
    if value is not None and _plain(value) in drop_tokens:
        return None
    digits = re.findall(r"\d[\d,.]*\d|\d", fact.text)
    text = fact.text if all(d in quotes for d in digits) and fact.text.strip() else clean(supports[0].quote)
    return fact.model_copy(update={"support": supports, "value": value, "text": text or supports[0].quote.strip()})


def restored_keys(question: Question, facts: list[Fact]) -> list[Fact]:
    """The previous draft's facts with the keys drafting grouped them by: a draft shows each key cut to the words
    its quotes state (`extractive.quoted_key`), and repair groups answers and conflicts by the question's words
    again. An operand of a calc (a fact all of whose quotes the calc cites) keeps its own key."""
    operands = {(s.source_id, s.locator) for f in facts if f.calc is not None for s in f.support}
    out: list[Fact] = []
    for fact in facts:
        refs = {(s.source_id, s.locator) for s in fact.support}
        if fact.calc is None and refs and refs <= operands:
            out.append(fact)
            continue
        period = period_of(fact.support[0].quote) if fact.support and fact.calc is None else None
        key = question.subject_key(period) if question.period and period else question.key
        out.append(fact if fact.key == key else fact.model_copy(update={"key": key}))
    return out


def repair_facts(
    question: Question, previous: Draft, findings: list[str], pool: LinePool, budget: ToolBudget
) -> list[Fact]:
    known_ids = sorted(
        {*pool.provenance, *(s.source_id for f in previous.evidence.facts for s in f.support)}, key=len, reverse=True
    )
    named = named_refs(findings, known_ids)
    drop_refs = {(n.source_id, n.locator) for n in named if _DROP.search(n.message) and not _CONFLICT.search(n.message)}
    drop_tokens = {_plain(t) for m in findings if not _CONFLICT.search(m) for t in _QUOTED.findall(m)}
    facts: list[Fact] = []
    before = restored_keys(question, previous.evidence.facts)
    for fact in before:
        fixed = _repair_one(fact, question, pool, budget, drop_refs, drop_tokens)
        if fixed is not None and fixed not in facts:
            facts.append(fixed)
    if any(f.key == question.key for f in before) and not any(f.key == question.key for f in facts):
        facts = []  # what is left are operands (another rate, one side of a sum): on their own they answer nothing
    keys = Counter(f.key for f in facts if f.key and f.value and f.calc is None)
    key = keys.most_common(1)[0][0] if keys else question.key
    cited = {(s.source_id, s.locator) for f in facts for s in f.support}
    for ref in named:
        if not _CONFLICT.search(ref.message) or (ref.source_id, ref.locator) in cited:
            continue
        support = verify(Support(source_id=ref.source_id, locator=ref.locator, quote="-"), pool, budget)
        if support is None or (support.source_id, support.locator) in cited:
            continue
        stated = [v for v in _stated_values(ref.message) if v in support.quote]
        picked = line_value(question, support.quote)
        value = stated[0] if stated else picked.text if picked is not None else None
        text = clean(support.quote) or support.quote.strip()
        facts.append(Fact(text=text, support=[support], key=key, value=value, coverage=0.0))
        cited.add((support.source_id, support.locator))
    return with_conflict_values(facts, conflict_values(findings))
