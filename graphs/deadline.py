"""`call_with_deadline`: run a model call on a worker thread and stop waiting for it after `timeout_s`.

Python cannot kill a thread, so a call past its deadline is abandoned, not stopped: the caller closes what the
call could still touch (its tool registry) and moves on. The worker is a daemon, so an abandoned call never
keeps the process alive.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class DeadlineExceededError(TimeoutError):
    """The call did not return within its deadline."""


def call_with_deadline(fn: Callable[[], T], timeout_s: float, *, name: str = "quotebound-model") -> T:
    """`fn()`'s result, or its exception re-raised here; `DeadlineExceededError` after `timeout_s` seconds."""
    value: list[T] = []
    error: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            value.append(fn())
        except BaseException as exc:  # handed to the waiting thread, which decides what it means
            error.append(exc)
        finally:
            done.set()

    # The caller's context variables (LangChain callbacks, tracing) follow the call onto the worker.
    context = contextvars.copy_context()
    threading.Thread(target=context.run, args=(run,), name=name, daemon=True).start()
    if not done.wait(timeout_s):
        raise DeadlineExceededError(f"no result within {timeout_s:g} s")
    if error:
        raise error[0]
    return value[0]
