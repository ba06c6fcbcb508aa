"""Clarify: no answer ships while the user is being asked for a missing detail, and when that question timed out
the draft must say, in the open, that it could not answer precisely.

Preflight asks for a detail the answer depends on (which unit? which year?). Until the user replies, any answer
would be a guess. If they never reply, the run may go on, but only as an insufficient-evidence report that
names the missing detail, in a gap and in the text the user reads first.
"""

from __future__ import annotations

import re

from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs

_CANNOT = re.compile(
    r"\b(?:could\s*not|cannot|can\s+not|can['’]t|couldn['’]t|unable\s+to|not\s+(?:be\s+)?possible|impossible)\b",
    re.I,
)
_NOT_SUPPLIED = re.compile(
    r"(?:\bnot|\bnever|\bwithout|n['’]t)\W+(?:\w+\W+){0,3}?"
    r"(?:suppl|provid|giv|specif|shar|tell|told|answer|includ|enter|confirm|stat)\w*",
    re.I,
)


def says_clarify_timeout(text: str) -> bool:
    """Does `text` say the precise answer could not be given because the user did not supply a detail?"""
    return bool(_CANNOT.search(text)) and bool(_NOT_SUPPLIED.search(text))


def check(inputs: GateInputs) -> list[Finding]:
    if inputs.gate == "clarify":
        return [
            Finding(
                code=FindingCode.CLARIFY_REQUIRED,
                message="preflight asked the user for missing details; no answer may ship before they reply",
            )
        ]
    if inputs.gate != "proceed_after_clarify_timeout":
        return []
    draft = inputs.draft
    problems: list[str] = []
    evidence = draft.evidence
    if evidence.mode != "report_insufficient_evidence":
        problems.append("set mode to 'report_insufficient_evidence'")
    if not any(gap.why == "clarify_timeout" for gap in evidence.gaps):
        problems.append("add a gap with why 'clarify_timeout' naming each missing detail")
    if not (says_clarify_timeout(draft.levels.level1) or says_clarify_timeout(draft.levels.level2)):
        problems.append(
            "say in level1 or level2 that the precise answer could not be given because the user did not "
            "supply the missing detail"
        )
    return [
        Finding(code=FindingCode.CLARIFY_TIMEOUT_NOT_REPORTED, message=f"the clarification timed out: {p}")
        for p in problems
    ]
