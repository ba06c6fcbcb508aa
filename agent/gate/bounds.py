"""The gate's input bounds and deadline: how large a draft it checks, and how long checking may take.

A draft comes from a model the gate does not trust, so its size is the model's choice: a 1 MB level1, a thousand
facts, a 4,000-character value compared with every other value. Whatever a draft holds, the gate answers quickly,
and past these bounds it answers "blocked" (a finding `input_bounds`, which the drafting model can repair by
writing less), never "verified" and never an exception that ends the run.

The limits are generous: an honest answer is a few sentences over a few quoted lines (the largest honest
calibration draft is about 2,300 characters in all, with 2 facts of 4 quotes each), so only a runaway or hostile
draft nears them. They live in `Bounds`, one place, each with the reason it has the size it has.

The deadline bounds what the size limits cannot (a draft inside every limit that still costs a rule too much): it is
wall-clock time from the start of `validate_draft`, read between rules and inside the loops that can run long
(`check_deadline`), and when it passes the report blocks with what was found so far.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from quotebound.agent.core.contracts import Draft
from quotebound.agent.gate.findings import Finding, FindingCode


@dataclass(frozen=True)
class Bounds:
    """How large a draft the gate checks, and for how long. Defaults: many times the largest honest draft."""

    # the shown prose: level1/2/3, the answer, the analysis (an honest level2 is a few hundred characters)
    max_text_chars: int = 20_000
    # one fact's text, a gap's need, a conflict's notes or delta: a sentence or two
    max_item_chars: int = 4_000
    # one quote: up to the 60 lines quote_fetch returns
    max_quote_chars: int = 20_000
    # keys, values, source ids, locators, calc expressions and results, extracted entities: a name or a figure
    # (values are compared pairwise by edit distance, so their length is kept short)
    max_short_chars: int = 300
    max_facts: int = 50
    max_supports: int = 20  # per fact
    max_conflicts: int = 20
    max_values: int = 20  # per conflict
    max_list_items: int = 100  # gaps, citations_index entries, each extractions list
    max_total_chars: int = 100_000  # everything the draft holds, together
    # wall clock for one validation, store reads and the paraphrase embedder included: an honest draft takes a few
    # ms, but a cold embedder on a busy machine took 300 ms once in the calibration run, and a deadline that
    # blocks honest drafts at random would cost a repair each time; hostile drafts stop here at the latest
    deadline_ms: float = 1_000.0


DEFAULT_BOUNDS = Bounds()


def _extraction_lists(draft: Draft) -> tuple[tuple[str, list[str]], ...]:
    extractions = draft.evidence.extractions
    return ("entities", extractions.entities), ("numbers", extractions.numbers), ("dates", extractions.dates)


def _fields(draft: Draft, b: Bounds) -> Iterator[tuple[str, str, int]]:
    """(where, text, limit) for every string field of `draft`, in reading order."""
    levels, evidence = draft.levels, draft.evidence
    yield "level1", levels.level1, b.max_text_chars
    yield "level2", levels.level2, b.max_text_chars
    yield "level3", levels.level3, b.max_text_chars
    yield "evidence.answer", evidence.answer, b.max_text_chars
    yield "evidence.analysis", evidence.analysis, b.max_text_chars
    for i, fact in enumerate(evidence.facts):
        yield f"fact {i} text", fact.text, b.max_item_chars
        yield f"fact {i} key", fact.key or "", b.max_short_chars
        yield f"fact {i} value", fact.value or "", b.max_short_chars
        if fact.calc is not None:
            yield f"fact {i} calc.expr", fact.calc.expr, b.max_short_chars
            yield f"fact {i} calc.value", fact.calc.value, b.max_short_chars
        for j, s in enumerate(fact.support):
            yield f"fact {i} support {j} source_id", s.source_id, b.max_short_chars
            yield f"fact {i} support {j} locator", s.locator, b.max_short_chars
            yield f"fact {i} support {j} quote", s.quote, b.max_quote_chars
    for k, conflict in enumerate(evidence.conflicts):
        yield f"conflict {k} key", conflict.key, b.max_short_chars
        yield f"conflict {k} delta", conflict.delta, b.max_item_chars
        yield f"conflict {k} notes", conflict.notes, b.max_item_chars
        for m, v in enumerate(conflict.values):
            yield f"conflict {k} value {m}", v.value, b.max_short_chars
            yield f"conflict {k} value {m} source_id", v.source_id, b.max_short_chars
            yield f"conflict {k} value {m} locator", v.locator, b.max_short_chars
            yield f"conflict {k} value {m} quote", v.quote, b.max_quote_chars
    for g, gap in enumerate(evidence.gaps):
        yield f"gap {g} need", gap.need, b.max_item_chars
    for e, entry in enumerate(evidence.citations_index):
        yield f"citations_index {e} source_id", entry.source_id, b.max_short_chars
        yield f"citations_index {e} ingest_hash", entry.ingest_hash, b.max_short_chars
    for name, items in _extraction_lists(draft):
        for n, item in enumerate(items):
            yield f"extractions.{name} {n}", item, b.max_short_chars


def _counts(draft: Draft, b: Bounds) -> Iterator[tuple[str, int, int]]:
    """(what, how many, limit) for every list of `draft`."""
    evidence = draft.evidence
    yield "facts", len(evidence.facts), b.max_facts
    for i, fact in enumerate(evidence.facts[: b.max_facts]):
        yield f"fact {i} supports", len(fact.support), b.max_supports
    yield "conflicts", len(evidence.conflicts), b.max_conflicts
    for k, conflict in enumerate(evidence.conflicts[: b.max_conflicts]):
        yield f"conflict {k} values", len(conflict.values), b.max_values
    yield "gaps", len(evidence.gaps), b.max_list_items
    yield "citations_index entries", len(evidence.citations_index), b.max_list_items
    for name, items in _extraction_lists(draft):
        yield f"extractions.{name}", len(items), b.max_list_items


def _finding(what: str) -> Finding:
    return Finding(
        code=FindingCode.INPUT_BOUNDS,
        message=f"the draft is too large to check: {what}; write less: state the answer in a few sentences, "
        "with one fact per claim and quotes of the lines that carry it",
    )


def bounds_findings(draft: Draft, bounds: Bounds = DEFAULT_BOUNDS) -> list[Finding]:
    """One blocking `input_bounds` finding per list or field of `draft` past `bounds` (at most a few: the first
    list too long, the first field too long, and the total), or nothing when the draft is inside every bound.
    Linear in the draft's size, and reads only lengths."""
    findings: list[Finding] = []
    over = next(((w, n, limit) for w, n, limit in _counts(draft, bounds) if n > limit), None)
    if over is not None:
        what, n, limit = over
        findings.append(_finding(f"{what}: {n:,} (the limit is {limit:,})"))
        return findings  # a list past its bound: the fields below it are not worth walking
    total = 0
    first_long: tuple[str, int, int] | None = None
    for where, text, limit in _fields(draft, bounds):
        total += len(text)
        if first_long is None and len(text) > limit:
            first_long = (where, len(text), limit)
    if first_long is not None:
        where, n, limit = first_long
        findings.append(_finding(f"{where} has {n:,} characters (the limit is {limit:,})"))
    if total > bounds.max_total_chars:
        findings.append(_finding(f"it holds {total:,} characters in all (the limit is {bounds.max_total_chars:,})"))
    return findings


# --- the deadline -------------------------------------------------------------------------------------------

_DEADLINE: ContextVar[float | None] = ContextVar("gate_deadline", default=None)


class DeadlineExceeded(Exception):
    """Raised by `check_deadline` once the current validation's deadline has passed; `validate.py` turns it into
    a blocking `input_bounds` finding."""


@contextmanager
def deadline(ms: float) -> Iterator[None]:
    """Within the block, `check_deadline` raises once `ms` milliseconds have passed. Nested blocks keep the
    earlier deadline (a judge inside a validation does not extend it)."""
    end = time.perf_counter() + ms / 1000
    outer = _DEADLINE.get()
    token = _DEADLINE.set(end if outer is None else min(outer, end))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check_deadline() -> None:
    """Raise `DeadlineExceeded` when the current validation is past its deadline (no deadline set: never).
    Cheap enough for every iteration of a loop over facts, quotes or claims."""
    end = _DEADLINE.get()
    if end is not None and time.perf_counter() > end:
        raise DeadlineExceeded


def deadline_finding(ms: float) -> Finding:
    return Finding(
        code=FindingCode.INPUT_BOUNDS,
        message=f"checking the draft took longer than the gate's deadline ({ms:g} ms), so it is not verified; "
        "write less: fewer facts, shorter texts and quotes of only the lines that carry each claim",
    )
