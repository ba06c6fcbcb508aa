"""Faults inside a node end the run in an abstention, never a crash: this module turns an exception into the
state's `failure` record and logs it for the operator.

The record keeps a reason code and a short detail (an error code or an exception's class name), never the
exception's text: that may quote a path, a source, model output or server internals, and the envelope and the
receipt are built from the record. The text goes to the operator's log only, with the traceback when the
exception was not one quotebound raised on purpose.
"""

from __future__ import annotations

import logging
import sqlite3

from quotebound.agent.core.contracts import ReasonCode
from quotebound.agent.core.errors import OperatorError, QuoteboundError
from quotebound.agent.models.chat import unreachable
from quotebound.graphs.deadline import DeadlineExceededError
from quotebound.graphs.names import Node
from quotebound.graphs.state import Failure
from quotebound.tools.registry import ToolRegistry

log = logging.getLogger("quotebound.faults")


def failure(reason: ReasonCode, detail: str) -> Failure:
    return Failure(reason_code=reason, detail=detail)


def store_fault(node: Node, exc: BaseException) -> Failure:
    """The store or an index failed (vector store, locator index, embedder): `retrieval_unavailable`."""
    if isinstance(exc, OperatorError):
        log.warning("%s: the store failed: %s", node.value, exc)  # deliberate and self-describing: no traceback
        return failure(ReasonCode.RETRIEVAL_UNAVAILABLE, exc.code.value)
    log.error("%s: unexpected %s reading the store", node.value, type(exc).__name__, exc_info=exc)
    return failure(ReasonCode.RETRIEVAL_UNAVAILABLE, type(exc).__name__)


def is_store_fault(exc: BaseException) -> bool:
    """Errors that mean the store, not the caller of it, is broken."""
    return isinstance(exc, OperatorError | sqlite3.Error)


def model_fault(node: Node, model_id: str, exc: BaseException) -> Failure:
    """The untrusted model failed (raised, returned garbage, timed out), or its server could not be reached:
    `model_error`, never an abstention for missing evidence. A server that cannot be reached (connection refused,
    a timeout, a host name that does not resolve, an HTTP error status) is one line for the operator, saying so:
    a traceback through the HTTP stack would add nothing."""
    why = unreachable(exc)
    if why is not None:
        log.warning("%s: the model %s could not be reached (%s); the run abstains", node.value, model_id, why)
        return failure(ReasonCode.MODEL_ERROR, type(exc).__name__)
    expected = isinstance(exc, QuoteboundError | DeadlineExceededError)  # self-describing: no traceback needed
    trace = None if expected else exc
    log.warning("%s: model %s failed: %s: %.500s", node.value, model_id, type(exc).__name__, exc, exc_info=trace)
    return failure(ReasonCode.MODEL_ERROR, type(exc).__name__)


def tool_fault(node: Node, tools: ToolRegistry) -> Failure:
    """A tool met a store fault or raised (the registry logged it): `retrieval_unavailable`."""
    first = tools.faults[0]
    log.warning("%s: tool %s failed (%s); the run abstains", node.value, first.name, first.error)
    return failure(ReasonCode.RETRIEVAL_UNAVAILABLE, first.error or "tool_failed")


def gate_fault(node: Node, exc: BaseException) -> Failure:
    """The gate itself raised: the draft could not be verified, so nothing ships (`verification_failed`)."""
    log.error("%s: the gate raised %s", node.value, type(exc).__name__, exc_info=exc)
    return failure(ReasonCode.VERIFICATION_FAILED, type(exc).__name__)
