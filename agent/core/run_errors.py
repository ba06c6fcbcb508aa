"""The error envelope: what a caller gets when a run cannot end in an answer, an abstention or a clarify.

Its message is fixed text per error code, so nothing about the failure (an exception's text, a file path, a DSN,
a source name) can reach the caller; the operator's log has the details under the same audit_ref.
"""

from __future__ import annotations

from pydantic import ValidationError

from quotebound.agent.core.contracts import ErrorEnvelope, Meta
from quotebound.agent.core.errors import ErrorCode, QuoteboundError

_TELL = "If it persists, tell the operator and quote the audit_ref."
_MESSAGES: dict[ErrorCode, str] = {
    ErrorCode.AUDIT_UNAVAILABLE: "The run could not be recorded in the audit ledger, so no answer was given. "
    f"Try again later. {_TELL}",
    ErrorCode.STORE_UNAVAILABLE: f"The document store is unavailable right now. Try again later. {_TELL}",
    ErrorCode.RETRIEVAL_UNAVAILABLE: f"The document index is unavailable right now. Try again later. {_TELL}",
    ErrorCode.MISCONFIGURED: "quotebound is misconfigured, so no answer was given. Tell the operator and quote "
    "the audit_ref.",
    ErrorCode.MODEL_FILES_INVALID: "quotebound is misconfigured, so no answer was given. Tell the operator and "
    "quote the audit_ref.",
}
_UNEXPECTED = "The run failed unexpectedly, so no answer was given. Tell the operator and quote the audit_ref."
RETRYABLE = frozenset({ErrorCode.AUDIT_UNAVAILABLE, ErrorCode.STORE_UNAVAILABLE, ErrorCode.RETRIEVAL_UNAVAILABLE})


def error_code(exc: BaseException) -> ErrorCode:
    """Our own errors keep their code; anything else is a bug, reported as one."""
    return exc.code if isinstance(exc, QuoteboundError) else ErrorCode.INTERNAL_ERROR


def error_envelope(code: ErrorCode, *, audit_ref: str, run_id: str, model_id: str, latency_ms: float) -> ErrorEnvelope:
    return ErrorEnvelope(
        code=code,
        message=_MESSAGES.get(code, _UNEXPECTED),
        retryable=code in RETRYABLE,
        audit_ref=audit_ref,
        meta=Meta(run_id=run_id, model_id=model_id, latency_ms=max(0.0, latency_ms)),
    )


def request_error_envelope(code: ErrorCode, message: str, *, model_id: str = "") -> ErrorEnvelope:
    """The envelope of an error before any run started (a bad request, a store that will not open): nothing was
    recorded, so its `audit_ref` and `run_id` are empty. For local callers (the CLI), whose user is the operator:
    `message` is the error's own text, which may name a path."""
    return ErrorEnvelope(
        code=code,
        message=message,
        retryable=code in RETRYABLE,
        audit_ref="",
        meta=Meta(run_id="", model_id=model_id, latency_ms=0.0),
    )


_MAX_PROBLEMS = 5


def request_problems(exc: ValueError) -> str:
    """A request's validation errors as one line, "field: what is wrong; ...": never pydantic's multi-line dump,
    the input echoed back, or its documentation links (a 10,000-character question must not come back whole)."""
    if not isinstance(exc, ValidationError):
        return " ".join(str(exc).split())
    problems = []
    for error in exc.errors()[:_MAX_PROBLEMS]:
        where = ".".join(str(part) for part in error.get("loc", ())) or "request"
        problem = f"{where}: {error.get('msg', 'invalid')}"
        value = error.get("input")
        if error.get("type") == "string_too_long" and isinstance(value, str):
            problem += f" (it has {len(value)})"
        problems.append(problem)
    more = exc.error_count() - len(problems)
    return "invalid request: " + "; ".join(problems) + (f"; and {more} more" if more > 0 else "")
