"""Load: 50 concurrent sessions against one real server (uvicorn on loopback), each paused at a clarify and resumed
with its own reply. Three callers (no key, a member key, a steward key) share session ids, so a leak between
namespaces would show as another session's unit in an answer. Every envelope has its receipt; the ledger verifies.
Bounded: 50 sessions, a timeout on every request, the whole run under LOAD_CAP_S."""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

import httpx
import pytest

from quotebound.agent.core.contracts import AskRequest, ResumeRequest
from quotebound.agent.facade.agent import Agent

from .conftest import MEMBER, STEWARD
from .helpers import sse_events

pytestmark = pytest.mark.load

SESSIONS = 50
LOAD_CAP_S = 300.0
REQUEST_TIMEOUT_S = 120.0
QUESTION = "What's the square footage of my unit?"
UNITS = [f"{building}{letter}" for building in range(1, 7) for letter in "ABCD"]  # 1A .. 6D, each a row of its own
CALLERS: list[dict[str, str]] = [{}, MEMBER, STEWARD]
ROLES = ["public", "member", "steward"]


async def _post(client: httpx.AsyncClient, path: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
    response = await client.post(path, json=body, headers=headers)
    assert response.status_code == 200, response.text
    if path.endswith("/stream"):
        events = sse_events(response.text)
        assert events[-1][0] == "envelope"
        return events[-1][1]
    return response.json()


async def _session(client: httpx.AsyncClient, i: int, latencies: list[float]) -> dict[str, Any]:
    headers = CALLERS[i % 3]
    # Shared by the two keyed callers (two different sessions); a caller without a key gets a server-issued one.
    named = f"load-{i // 3}" if headers else None
    unit = UNITS[i % len(UNITS)]
    path = "/ask/stream" if i % 2 else "/ask"
    started = time.perf_counter()
    first = {"question": QUESTION, **({"session_id": named} if named else {})}
    paused = await _post(client, path, first, headers)
    latencies.append(time.perf_counter() - started)
    session = named or paused["session_id"]
    assert paused["status"] == "clarify" and paused["session_id"] == session, paused
    started = time.perf_counter()
    body = {"question": QUESTION, "session_id": session, "context": {"unit": unit}}
    answered = await _post(client, path, body, headers)
    latencies.append(time.perf_counter() - started)
    return {"i": i, "unit": unit, "paused": paused, "answered": answered}


def test_fifty_concurrent_clarified_sessions(
    live_server: tuple[str, Agent], capsys: pytest.CaptureFixture[str]
) -> None:
    url, agent = live_server
    latencies: list[float] = []

    async def run_all() -> list[dict[str, Any]]:
        limits = httpx.Limits(max_connections=SESSIONS, max_keepalive_connections=SESSIONS)
        async with httpx.AsyncClient(base_url=url, timeout=REQUEST_TIMEOUT_S, limits=limits) as client:
            return list(await asyncio.gather(*(_session(client, i, latencies) for i in range(SESSIONS))))

    started = time.perf_counter()
    results = asyncio.run(asyncio.wait_for(run_all(), LOAD_CAP_S))
    wall = time.perf_counter() - started

    run_ids = set()
    for result in results:
        answered, unit = result["answered"], result["unit"]
        assert answered["status"] in ("answer", "abstain"), answered
        assert answered["meta"]["run_id"] == result["paused"]["meta"]["run_id"]  # its own paused run, resumed
        run_ids.add(answered["meta"]["run_id"])
        if answered["status"] == "answer":
            text = answered["answer"]["level1"]
            assert f"Unit: {unit}," in text, (unit, text)
        shown = str(answered)
        for other in UNITS:
            if other != unit:
                assert f"Unit: {other}," not in shown, (unit, other)
    assert len(run_ids) == SESSIONS
    # The same outcome as the same caller gets alone (a member's 5B abstains: the members-only contact sheet
    # names a "Unit 5B" too, and the extractive model will not pick between them).
    for result in results:
        alone = agent.ask(AskRequest(question=QUESTION, session_id=f"alone-{result['i']}", role=ROLES[result["i"] % 3]))
        alone = agent.resume(ResumeRequest(session_id=f"alone-{result['i']}", replies={"unit": result["unit"]}))
        assert result["answered"]["status"] == alone.status, (result["i"], result["unit"])
    answered_count = sum(r["answered"]["status"] == "answer" for r in results)
    assert answered_count >= SESSIONS - 4

    refs = [r[key]["audit_ref"] for r in results for key in ("paused", "answered")]
    assert len(set(refs)) == 2 * SESSIONS
    assert all(agent.ledger.get(ref) is not None for ref in refs)
    report = agent.ledger.verify()
    assert report.ok, report.summary()

    ordered = sorted(latencies)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    with capsys.disabled():
        print(
            f"\nload: {SESSIONS} sessions, {len(latencies)} requests in {wall:.1f} s wall; "
            f"per request p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms; "
            f"{answered_count} answered, {SESSIONS - answered_count} abstained; "
            f"ledger {report.summary()}"
        )
