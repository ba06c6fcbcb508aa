"""`call_with_deadline`: the model call's result or exception, or a timeout that does not wait for the call."""

from __future__ import annotations

import contextvars
import threading

import pytest

from quotebound.graphs.deadline import DeadlineExceededError, call_with_deadline

REQUEST: contextvars.ContextVar[str] = contextvars.ContextVar("request", default="none")


def test_the_result_comes_back() -> None:
    assert call_with_deadline(lambda: 6 * 7, timeout_s=5) == 42


def test_the_calls_exception_is_raised_in_the_caller() -> None:
    def fail() -> None:
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        call_with_deadline(fail, timeout_s=5)


def test_a_call_past_its_deadline_is_abandoned_not_awaited() -> None:
    release, finished = threading.Event(), threading.Event()

    def hang() -> str:
        release.wait(60)
        finished.set()
        return "late"

    with pytest.raises(DeadlineExceededError):
        call_with_deadline(hang, timeout_s=0.05)
    assert not finished.is_set()  # the caller moved on while the call still ran
    release.set()
    assert finished.wait(10)


def test_the_callers_context_variables_follow_the_call() -> None:
    token = REQUEST.set("ask-17")
    try:
        assert call_with_deadline(REQUEST.get, timeout_s=5) == "ask-17"
    finally:
        REQUEST.reset(token)
