"""Side channels (issue 14): what a public caller can measure must not tell which topics the policy protects, nor
which sources exist behind it.

- A pre-check refusal ("What is the gate code?", ended before any retrieval) reads like an ordinary abstention, and
  now takes as long: its latency is drawn from the ordinary abstentions' (graphs/timing.py). Measured here as a
  caller would, over HTTP, both kinds interleaved, medians compared with a margin.
- A hidden source's /evidence 404 does the same work as a missing source's: the same store queries and the same
  policy decisions (counted, so the comparison is exact rather than a flaky sub-millisecond timing).
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from quotebound.agent.facade.agent import Agent
from quotebound.agent.server import create_app
from quotebound.tools.policy_file import load_policy

from .conftest import server_settings

DENIED = ["What is the gate code?", "What is the alarm code for the clubhouse?"]
ORDINARY = ["What is the rule about pet llamas on balconies?", "Who won the chess tournament in the clubhouse?"]
ROUNDS = 14


@pytest.fixture
def agent(store_dir: Path) -> Iterator[Agent]:
    settings = server_settings(store_dir)
    with Agent(settings, policy=load_policy(settings)) as opened:
        yield opened


def _timed(client: TestClient, question: str) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    response = client.post("/ask", json={"question": question})
    elapsed = time.perf_counter() - started
    assert response.status_code == 200, response.text
    return elapsed, response.json()


def test_a_precheck_refusal_takes_as_long_as_an_ordinary_abstention(agent: Agent) -> None:
    with TestClient(create_app(agent)) as client:
        # Both kinds read the same to a public caller (the premise of the side channel).
        for question in DENIED + ORDINARY:
            _, envelope = _timed(client, question)
            assert envelope["status"] == "abstain" and envelope["reason_code"] == "no_evidence", (question, envelope)
        for question in ORDINARY * 2:  # warm the caches every run shares
            _timed(client, question)
        denied: list[float] = []
        ordinary: list[float] = []
        for i in range(ROUNDS):  # interleaved, so load on the machine hits both alike
            pair = [(DENIED[i % 2], denied), (ORDINARY[i % 2], ordinary)]
            for question, into in pair if i % 2 else reversed(pair):
                into.append(_timed(client, question)[0])
    fast, slow = statistics.median(denied), statistics.median(ordinary)
    print(f"\nmedian latency: pre-check refusal {fast * 1000:.1f} ms, ordinary abstention {slow * 1000:.1f} ms")
    # Before the fix: ~10x faster. The margin allows for noise on a loaded machine, not for a shortcut.
    assert fast >= 0.7 * slow, (denied, ordinary)
    assert fast <= 2.0 * slow + 0.05, (denied, ordinary)  # padded to the ordinary, not beyond


HIDDEN = "doc://security-gate-codes.md#p.1 L1-L3"
MISSING = "doc://no-such-document-at-all.md#p.1 L1-L3"


def _counting(target: Any, name: str, calls: list[str]) -> Callable[..., Any]:
    original = getattr(target, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return original(*args, **kwargs)

    return counted


def test_a_hidden_sources_404_does_the_same_work_as_a_missing_ones(
    agent: Agent, monkeypatch: pytest.MonkeyPatch
) -> None:
    work: list[str] = []
    policy = agent.context.policy
    for name in ("decide", "obligations"):
        monkeypatch.setattr(policy, name, _counting(policy, name, work))
    statements: list[str] = []
    agent.store.db.set_trace_callback(statements.append)
    try:
        with TestClient(create_app(agent)) as client:

            def fetch(ref: str) -> tuple[int, bytes, list[str]]:
                client.get("/evidence/" + quote(ref, safe=""))  # warm any per-ref cache alike
                work.clear()
                statements.clear()
                response = client.get("/evidence/" + quote(ref, safe=""))
                # the statements' shape: sqlite's trace shows the bound values, which name the source
                shape = [re.sub(r"'[^']*'|\b\d+\b", "?", re.sub(r"\s+", " ", sql)).strip() for sql in statements]
                return response.status_code, response.content, [*work, *shape]

            hidden, missing = fetch(HIDDEN), fetch(MISSING)
    finally:
        agent.store.db.set_trace_callback(None)
    assert hidden[0] == missing[0] == 404 and hidden[1] == missing[1]
    assert hidden[2] == missing[2], (hidden[2], missing[2])
    assert "decide" in hidden[2]  # the check is real: the work was counted
