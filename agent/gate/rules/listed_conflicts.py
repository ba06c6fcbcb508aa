"""Listed conflicts are real: each value of a conflict the draft lists is quoted verbatim at its locator and stated
by its quote, the values disagree about one slot, and a delta, when it gives a figure, is their difference.

Listing a conflict tells the user the documents disagree. A made-up disagreement is as false as a made-up fact:
each side is held to the same standard as a support, and the sides must be two values of the same subject, read
from their quotes' sentences as `slots.py` reads them ("a quorum of 25%" and "the quorum at an adjourned meeting,
15%" are two rules, not a disagreement; "$316 million" twice is no disagreement at all). A pair the gate itself
would demand is one whatever its wording: the draft's answer against another document's answer to the question in
the question's words ("founded ... in 1912" and an infobox's "Established: 1850", asked when the school was
established; `answer_slot.py`), or in a word as close as a paraphrase of the question's ("was constructed in
1885", asked when it was built; only with a scorer that models meaning), or two documents each naming a thing of
the class a "what <noun>" question asks for ("American football" and "cricket", asked what sport Tim Martin is
associated with; `slot_class.py`, also only with such a scorer). The notes and delta are claims resting on
the conflict's quotes (`claims.py`); a delta's figure is recomputed here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from decimal import Decimal
from itertools import combinations

from quotebound.agent.core.contracts import Conflict
from quotebound.agent.gate.answer_slot import (
    answer_values,
    answers_apart,
    counts_alike,
    fills_question,
    fills_reworded,
    names_by_document,
)
from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.conflicts import parse_value
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.slot_alike import answers_alike
from quotebound.agent.gate.slot_class import asked_class, classed_alike
from quotebound.agent.gate.slots import Occurrence, QuestionTerms, question_terms, same_slot, values_differ
from quotebound.agent.gate.stated import locate, quote_sentences, split_sentences, stated_values
from quotebound.agent.gate.tokens import extract_tokens, quote_keys
from quotebound.agent.gate.verification import Verification, citation_finding

_DAYS_PER_YEAR = Decimal("365.25")


def _value_in_quote(value: str, quote: str, tolerance_pct: float) -> bool:
    """The quote states the value: its figure (in any spelling, "five" or "5"), or its words."""
    parsed = parse_value(value)
    if parsed.token is not None and parsed.token.key in quote_keys(quote):
        return True
    if " ".join(value.casefold().split()) in " ".join(quote.casefold().split()):
        return True
    return bool(locate(value, split_sentences(quote), tolerance_pct, False))


def _plain(text: str) -> str:
    return " ".join(text.casefold().split())


Side = tuple[str, Sequence[Occurrence]]  # a listed value's source, and the places its value stands in its quote


Demanded = Callable[[str, Occurrence, str, Occurrence], bool]  # (source, value, source, value): the gate asks it


def why_not_real(
    sides: Sequence[Side], question: QuestionTerms, tolerance_pct: float, demanded: Demanded | None = None
) -> str | None:
    """None when two sides are different values of one slot, else why the listed conflict is no disagreement. A
    pair the gate itself would ask the draft to list (`demanded`: the draft's answer, and another document's
    answer to the question in its own words) is one, however differently the two documents word it."""
    reasons: list[str] = []
    for (first_source, first), (second_source, second) in combinations(sides, 2):
        check_deadline()
        for a in first:
            for b in second:
                if a.family != b.family:
                    reasons.append("values of different kinds")
                    continue
                if not values_differ(a, b, tolerance_pct):
                    continue
                reason = same_slot(a, b, question, one_source=first_source == second_source, listed=True)
                if reason is None:
                    return None
                if demanded is not None and (
                    demanded(first_source, a, second_source, b) or demanded(second_source, b, first_source, a)
                ):
                    return None
                reasons.append(reason)
    return reasons[0] if reasons else "the listed values are the same"


def _demanded(inputs: GateInputs, question: QuestionTerms, listed: Mapping[int, str]) -> Demanded:
    """Pairs of two documents answering the question differently, `mine` giving a value the draft answers with:
    `other` answers the question in the question's own words (`conflicts_in_bundles` demands such a pair), or
    counts the same thing about the subject the question names ("1,791 people" and "Of the 2,500 people who live
    in Kensett", asked the population of Kensett; `answer_slot.counts_alike`). `listed`: the value each side's
    occurrence was located for, by the occurrence's id (a name read at its capitals, "American", is judged as the
    value the draft gives, "American football")."""
    answers = [s.occurrence for s in answer_values(inputs, stated_values(inputs))]
    names = names_by_document(inputs)
    tolerance = inputs.tolerance_pct
    paraphrase, asked = inputs.paraphrase, inputs.question or ""
    noun = asked_class(asked)

    def answers_question(other_source: str, other: Occurrence) -> bool:
        document = names.get(other_source, frozenset())
        return fills_question(other, question, document) or (
            paraphrase is not None and fills_reworded(other, question, document, asked, paraphrase)
        )

    def demanded(source: str, mine: Occurrence, other_source: str, other: Occurrence) -> bool:
        documents = (names.get(source, frozenset()), names.get(other_source, frozenset()))
        return (
            source != other_source
            and any(a.family == mine.family and not values_differ(a, mine, tolerance) for a in answers)
            and answers_apart(mine, other, tolerance)
            and (
                answers_question(other_source, other)
                or counts_alike(mine, other, question)
                or answers_alike(mine, other, question, documents)
                or classed_alike(
                    mine, other, question, documents, noun, paraphrase, (listed.get(id(mine)), listed.get(id(other)))
                )
            )
        )

    return demanded


def _differences(sides: Sequence[Side]) -> list[Decimal]:
    """Every difference a delta may state between two sides: amounts and percentage points, the relative change in
    percent, and for dates the years and days between them."""
    out: list[Decimal] = []
    for (_, first), (_, second) in combinations(sides, 2):
        for a in first:
            for b in second:
                ta, tb = a.value.token, b.value.token
                if ta is None or tb is None:
                    continue
                x, y = ta.number, tb.number
                if x is not None and y is not None:
                    out.append(abs(x - y))
                    if min(abs(x), abs(y)) > 0:
                        out += [abs(x - y) / abs(x) * 100, abs(x - y) / abs(y) * 100]
                elif ta.kind == tb.kind == "date" and isinstance(ta.key[1], str) and isinstance(tb.key[1], str):
                    out += _date_differences(ta.key[1], tb.key[1])
    return out


def _date_differences(x: str, y: str) -> list[Decimal]:
    years = abs(int(x[:4]) - int(y[:4]))
    out = [Decimal(years)]
    if len(x) == len(y) == 10:
        days = abs((date.fromisoformat(x) - date.fromisoformat(y)).days)
        out += [Decimal(days), (Decimal(days) / _DAYS_PER_YEAR).quantize(Decimal("0.1"))]
    return out


def _delta_finding(where: str, delta: str, sides: Sequence[Side], tolerance: float) -> Finding | None:
    """A delta that gives a figure must give the recomputed difference of the listed values."""
    figures = [t for t in extract_tokens(delta) if t.number is not None]
    if not figures:
        return None  # words only: a note, checked as a claim on the conflict's quotes
    allowed = _differences(sides)
    for token in figures:
        value = abs(token.number) if token.number is not None else Decimal(0)
        places = re.search(r"[.,](\d+)\D*$", token.text)
        half_unit = Decimal(5) / Decimal(10) ** ((len(places.group(1)) if places else 0) + 1)
        slack = max(half_unit, value * Decimal(str(tolerance)) / 100)  # as rounded, or within the tolerance
        if not any(abs(value - d) <= slack for d in allowed):
            return Finding(
                code=FindingCode.CALC_MISMATCH,
                message=f"{where}: the delta {delta!r} is not the difference of the listed values; leave delta empty "
                "or give their difference",
                token=token.text,
            )
    return None


def _sides(conflict: Conflict, checks: Sequence[Verification], tolerance: float) -> list[Side]:
    return [
        (v.source_id, locate(v.value, quote_sentences(v.quote, c.context or v.quote), tolerance, True, whole=True))
        for v, c in zip(conflict.values, checks, strict=True)
    ]


def check(inputs: GateInputs) -> list[Finding]:
    question = question_terms(inputs.question)
    tolerance = inputs.tolerance_pct
    findings: list[Finding] = []
    listed: dict[int, str] = {}  # the listed value each located occurrence stands for, by id (see `_demanded`)
    demanded = _demanded(inputs, question, listed) if inputs.draft.evidence.conflicts and question.asked else None
    for k, (conflict, checks) in enumerate(zip(inputs.draft.evidence.conflicts, inputs.conflict_checks, strict=True)):
        check_deadline()
        where = f"conflict {k} ({conflict.key!r})"
        sound = True
        for m, (value, verification) in enumerate(zip(conflict.values, checks, strict=True)):
            if not verification.ok:
                findings.append(
                    citation_finding(f"{where} value {m}", value.source_id, value.locator, verification, None)
                )
                sound = False
            elif not _value_in_quote(value.value, value.quote, tolerance):
                findings.append(
                    Finding(
                        code=FindingCode.CONFLICT_VALUE_UNQUOTED,
                        message=f"{where} value {m}: the value {value.value!r} does not appear in its quote",
                        token=value.value,
                    )
                )
                sound = False
        if not sound:
            continue
        sides = _sides(conflict, checks, tolerance)
        listed.clear()  # this conflict's occurrences only (an id may be reused once an earlier one is gone)
        listed.update(
            (id(o), v.value)
            for v, (_, places) in zip(conflict.values, sides, strict=True)
            for o in places
            if _plain(v.value) in _plain(o.sentence)  # the value as the sentence gives it, never more than it says
        )
        if any(not places for _, places in sides):
            continue  # a value its quote states only in other words: nothing to compare (the value is quoted)
        reason = why_not_real(sides, question, tolerance, demanded)
        if reason is not None:
            shown = " vs ".join(repr(v.value) for v in conflict.values)
            findings.append(
                Finding(
                    code=FindingCode.CONFLICT_NOT_REAL,
                    message=f"{where}: {shown} is not a disagreement about one subject ({reason}); list a conflict "
                    "only for two sources giving different values for the same thing, or remove it",
                )
            )
        delta = _delta_finding(where, conflict.delta, sides, tolerance) if conflict.delta.strip() else None
        if delta is not None:
            findings.append(delta)
    return findings
