"""How long an abstention takes must not tell which topics the policy protects.

A policy pre-check denial ends the run at `preflight`, before any retrieval or model call, while an ordinary
abstention ("nothing in your documents answers this") runs retrieval, drafting and validation first. Their
envelopes read the same to a caller the policy does not tell about denials, so their latency must too. Every
ordinary abstention's latency (run start to envelope) is kept here, in a bounded window; a hidden denial waits
until its run is as old as a latency drawn from that window (until one is timed, `Settings.gate.denial_floor_ms`).
Both then come from the same distribution, whatever the corpus, the model or the machine.
"""

from __future__ import annotations

import random
import threading
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from quotebound.agent.core.contracts import ReasonCode
from quotebound.graphs.names import Node

WINDOW = 256  # the latest ordinary abstentions
MAX_WAIT_S = 60.0  # a padding never exceeds this (a window of slow runs must not stall denials without bound)


class AbstentionTimes:
    """The latencies of ordinary abstentions, and the wait that makes a denial look like one. Thread-safe."""

    def __init__(self, floor_ms: float, window: int = WINDOW) -> None:
        self._floor_s = floor_ms / 1000
        self._seen: deque[float] = deque(maxlen=window)
        self._lock = threading.Lock()
        self._random = random.SystemRandom()

    def observe(self, started_at: float, now: float | None = None) -> None:
        """An ordinary abstention's run, started at `started_at` (time.time()), has its envelope now."""
        elapsed = (time.time() if now is None else now) - started_at
        if 0 <= elapsed <= MAX_WAIT_S:
            with self._lock:
                self._seen.append(elapsed)

    def target(self) -> float:
        """A latency (seconds) drawn from the ordinary abstentions seen (the floor while there are none)."""
        with self._lock:
            if not self._seen:
                return self._floor_s
            return self._random.choice(self._seen)

    def pad(self, started_at: float) -> float:
        """Wait until the run started at `started_at` is as old as an ordinary abstention; returns the wait."""
        wait = min(self.target() - (time.time() - started_at), MAX_WAIT_S)
        if wait > 0:
            time.sleep(wait)
        return max(wait, 0.0)


def is_ordinary_abstention(state: Mapping[str, Any], shown: ReasonCode) -> bool:
    """Whether an abstention is one a hidden denial must look like: the caller is told `no_evidence`, it was not
    a denial, and the run did not wait on the caller (a clarify pause would count their typing)."""
    failure = state.get("failure")
    denied = failure is not None and getattr(failure, "reason_code", None) is ReasonCode.NOT_PERMITTED
    return shown is ReasonCode.NO_EVIDENCE and not denied and Node.CLARIFY.value not in (state.get("path") or [])
