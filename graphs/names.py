"""Node names: the one place they are spelled."""

from __future__ import annotations

from enum import StrEnum


class Node(StrEnum):
    PREFLIGHT = "preflight"
    CLARIFY = "clarify"
    RETRIEVE = "retrieve"
    RESOLVE = "resolve"
    DRAFT = "draft"
    VALIDATE = "validate"
    REPAIR = "repair"
    VERIFIED_ANSWER = "verified_answer"
    ABSTAIN = "abstain"


TERMINALS: frozenset[Node] = frozenset({Node.VERIFIED_ANSWER, Node.ABSTAIN})
