"""One `ErrorCode` enum, and errors typed by who must act on them.

- `ModelError`: the model did something wrong (unknown tool, bad arguments, fabricated locator). It becomes a
  tool message the model can read and repair from; it never crashes a run.
- `CallerError`: the request is bad (unknown source, malformed question). Reported as a 4xx / usage error.
- `OperatorError`: the deployment is misconfigured or broken (store missing, model files corrupt).

Messages must never name a source the caller may not read: "unknown source" is the same text whether the
source does not exist or is hidden by policy.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

Actor = Literal["model", "caller", "operator"]


class ErrorCode(StrEnum):
    # the model must act
    TOOL_NOT_ALLOWED = "tool_not_allowed"
    INVALID_TOOL_ARGUMENTS = "invalid_tool_arguments"
    UNKNOWN_SOURCE = "unknown_source"
    UNKNOWN_LOCATOR = "unknown_locator"
    PATTERN_REJECTED = "pattern_rejected"
    NO_MATCH = "no_match"
    CALC_ERROR = "calc_error"
    TOOL_CALL_LIMIT = "tool_call_limit"
    INVALID_MODEL_OUTPUT = "invalid_model_output"
    # the caller must act
    BAD_REQUEST = "bad_request"
    UNREADABLE_FILE = "unreadable_file"
    # the operator must act
    MISCONFIGURED = "misconfigured"
    STORE_UNAVAILABLE = "store_unavailable"
    MODEL_FILES_INVALID = "model_files_invalid"
    RETRIEVAL_UNAVAILABLE = "retrieval_unavailable"
    TOOL_FAILED = "tool_failed"  # a tool raised an unexpected exception: a bug or a broken dependency
    AUDIT_UNAVAILABLE = "audit_unavailable"  # the run's receipt could not be written: nothing may ship
    INTERNAL_ERROR = "internal_error"  # a run failed in a way nothing above names (a bug)


class QuoteboundError(Exception):
    """Base of every error quotebound raises on purpose."""

    actor: Actor = "operator"

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[QuoteboundError], tuple[ErrorCode, str]]:
        # Exceptions pickle with their args; ours take (code, message), so say so (process pools, checkpoints).
        return (type(self), (self.code, self.message))

    def to_dict(self) -> dict[str, str]:
        return {"error": self.code.value, "actor": self.actor, "message": self.message}

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"


class ModelError(QuoteboundError):
    """The model's request was wrong; it may retry or repair."""

    actor: Actor = "model"


class CallerError(QuoteboundError):
    """The caller sent a bad request or a bad file."""

    actor: Actor = "caller"


class OperatorError(QuoteboundError):
    """The deployment is misconfigured or a dependency is down."""

    actor: Actor = "operator"
