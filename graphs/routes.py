"""The edges that branch. Each router returns a Literal of node names, so the drawing shows every branch."""

from __future__ import annotations

from typing import Literal

from quotebound.graphs.state import RunState, checked_draft


def after_preflight(state: RunState) -> Literal["clarify", "retrieve", "abstain"]:
    gate = state.get("gate")
    if gate == "deny":  # the policy pre-check refused the question: nothing is retrieved
        return "abstain"
    return "clarify" if gate == "clarify" else "retrieve"


def after_evidence_step(state: RunState) -> Literal["abstain", "continue"]:
    return "abstain" if state.get("failure") else "continue"


def after_validate(state: RunState, *, n_repairs: int) -> Literal["verified_answer", "repair", "abstain"]:
    if state.get("failure"):
        return "abstain"
    passed = checked_draft(state)  # the draft the gate passed, and only if the report is about that very draft
    if passed is not None:
        return "verified_answer" if passed.evidence.mode == "answer" else "abstain"
    if state.get("repairs", 0) < n_repairs:
        return "repair"
    return "abstain"
