"""Conflicts in the bundles: when a readable line of the resolved evidence gives, for the slot of a value the draft
states, a different value, the draft lists the two values together in `evidence.conflicts`.

The model was given that line. Answering from one passage while another passage it was given says otherwise is
an omitted conflict, even if the model never quoted the other one and whatever `key` it wrote: the slot is read
from the sentences themselves (`slots.py`), numbers, money, percentages and dates within `tolerance_pct`, and
names too ("born in Paris" against "born in Lyon"). Lines flagged as instructional text are never read, and a
value another fact of the draft states is left to `conflicts_reported`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from quotebound.agent.core.contracts import Conflict
from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.slots import Occurrence, question_terms, same_slot, title_keys, values_differ
from quotebound.agent.gate.stated import Evidence, Stated, agrees, evidence_values, is_subject, needles, stated_values


def listed_together(conflicts: Sequence[Conflict], a: Occurrence, b: Occurrence, tolerance_pct: float) -> bool:
    """Some listed conflict gives both values (each side is verified by `listed_conflicts`)."""
    return any(
        any(agrees(v.value, a, tolerance_pct) for v in c.values)
        and any(agrees(v.value, b, tolerance_pct) for v in c.values)
        for c in conflicts
    )


def _stated_elsewhere(stated: Sequence[Stated], other: Occurrence, tolerance_pct: float) -> bool:
    """The draft itself states `other`'s value (a name at least as fully: "Louisiana" does not state "New
    Orleans, Louisiana")."""
    return any(
        s.occurrence.family == other.family
        and not values_differ(s.occurrence, other, tolerance_pct)
        and other.name_words <= s.occurrence.name_words
        for s in stated
    )


def _candidates(evidence: Sequence[Evidence]) -> Callable[[Occurrence], list[Evidence]]:
    """For a stated value, the evidence values `same_slot` may pair it with (a nearest word of one in the other's
    context) or that stand in its own sentence, in reading order: an index built once per draft, so each stated
    value is compared with the few lines that can concern its slot, not with every value of every bundle."""
    by_context: dict[str, list[int]] = defaultdict(list)
    by_nearest: dict[str, list[int]] = defaultdict(list)
    by_sentence: dict[str, list[int]] = defaultdict(list)
    for n, e in enumerate(evidence):
        for k in e.occurrence.context:
            by_context[k].append(n)
        for k in e.occurrence.nearest:
            by_nearest[k].append(n)
        by_sentence[e.occurrence.sentence].append(n)

    def find(mine: Occurrence) -> list[Evidence]:
        found: set[int] = set(by_sentence.get(mine.sentence, ()))
        for k in mine.nearest:
            found.update(by_context.get(k, ()))
        for k in mine.context:
            found.update(by_nearest.get(k, ()))
        return [evidence[n] for n in sorted(found)]

    return find


def check(inputs: GateInputs) -> list[Finding]:
    question = question_terms(inputs.question)
    tolerance = inputs.tolerance_pct
    conflicts = inputs.draft.evidence.conflicts
    stated = stated_values(inputs)
    if not stated:
        return []
    names = any(s.occurrence.family == "name" for s in stated)
    candidates = _candidates(list(evidence_values(inputs.bundles, inputs.flagged, names, needles(stated))))
    titles = {source.source_id: title_keys(source.title) for source in inputs.sources}
    findings: list[Finding] = []
    reported: set[tuple[str, str, str]] = set()
    for s in stated:
        check_deadline()
        mine = s.occurrence
        evidence = [e for e in candidates(mine) if e.occurrence.family == mine.family]
        # A sentence that also states the draft's value for its slot agrees with it: its other values are about
        # something else ("the seventh studio album by the American music duo Carpenters").
        agreeing = {
            e.occurrence.sentence
            for e in evidence
            if not values_differ(mine, e.occurrence, tolerance)
            and mine.name_words <= e.occurrence.name_words
            and (e.occurrence.sentence == mine.sentence or same_slot(mine, e.occurrence, question) is None)
        }
        for e in evidence:
            other = e.occurrence
            if other.sentence in agreeing or is_subject(other, question):
                continue
            if not values_differ(mine, other, tolerance):
                continue
            documents = (titles.get(s.source_id, frozenset()), titles.get(e.source_id, frozenset()))
            if same_slot(mine, other, question, e.source_id == s.source_id, documents=documents) is not None:
                continue
            if _stated_elsewhere(stated, other, tolerance) or listed_together(conflicts, mine, other, tolerance):
                continue
            seen = (s.where, mine.text.casefold(), other.text.casefold())
            if seen in reported:
                continue
            reported.add(seen)
            findings.append(
                Finding(
                    code=FindingCode.CONFLICT_OMITTED,
                    message=f"{e.source_id} {e.locator} states {other.text!r} where {s.where} states {mine.text!r} "
                    f"({s.source_id} {s.locator}), for the same subject; list both values in evidence.conflicts "
                    "with their quotes and locators, or answer with both",
                    fact_index=s.fact_index,
                    token=other.text,
                )
            )
    return findings
