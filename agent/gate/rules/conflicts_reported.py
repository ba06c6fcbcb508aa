"""Conflicts reported: when two values the draft states (in two facts, or a fact and the answer) from two documents
differ for the same slot, the draft lists both together in one `evidence.conflicts` entry.

Picking one of two disagreeing documents silently hides the disagreement from the user, who may be relying on
the other. The slot is read from each value's quote sentence (`slots.py`), never from the facts' `key`s, so a
draft that leaves its keys out, or words them apart, is held to the same rule. Two values of one document are that
document's own slots (a release date and a reissue date), not a disagreement. Calc facts are derived, not stated,
and state no value here. Differences are judged within `tolerance_pct`.
"""

from __future__ import annotations

from itertools import combinations

from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules.conflicts_in_bundles import listed_together
from quotebound.agent.gate.slots import question_terms, same_slot, title_keys, values_differ
from quotebound.agent.gate.stated import stated_values


def check(inputs: GateInputs) -> list[Finding]:
    question = question_terms(inputs.question)
    tolerance = inputs.tolerance_pct
    conflicts = inputs.draft.evidence.conflicts
    findings: list[Finding] = []
    reported: set[frozenset[str]] = set()
    titles = {source.source_id: title_keys(source.title) for source in inputs.sources}
    for s, t in combinations(stated_values(inputs), 2):
        check_deadline()
        a, b = s.occurrence, t.occurrence
        if s.where == t.where or s.source_id == t.source_id or a.family != b.family:
            continue  # (one document's values are its own slots: a conflict is two sources disagreeing)
        if not values_differ(a, b, tolerance):
            continue
        documents = (titles.get(s.source_id, frozenset()), titles.get(t.source_id, frozenset()))
        if same_slot(a, b, question, documents=documents) is not None:
            continue
        pair = frozenset({a.text.casefold(), b.text.casefold()})
        if pair in reported or listed_together(conflicts, a, b, tolerance):
            continue
        reported.add(pair)
        findings.append(
            Finding(
                code=FindingCode.CONFLICT_OMITTED,
                message=f"{s.where} and {t.where} give different values for the same subject: {a.text!r} "
                f"({s.source_id} {s.locator}) and {b.text!r} ({t.source_id} {t.locator}); list both in "
                "evidence.conflicts with their quotes and locators",
                fact_index=t.fact_index if t.fact_index is not None else s.fact_index,
                token=b.text,
            )
        )
    return findings
