"""The service under a real server (uvicorn on loopback): what only a real connection shows."""

from __future__ import annotations

import time

import httpx

from quotebound.agent.facade.agent import Agent


def test_a_client_that_leaves_mid_stream_does_not_lose_the_runs_receipt(live_server: tuple[str, Agent]) -> None:
    url, agent = live_server
    before = agent.ledger.verify().count
    body = {"question": "What is the minimum lease term?"}
    with httpx.Client(base_url=url, timeout=60) as client, client.stream("POST", "/ask/stream", json=body) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("event:"):
                break  # the first event: then the client hangs up
    deadline = time.monotonic() + 60
    while agent.ledger.verify().count == before:  # the run goes on without its listener, to its receipt
        assert time.monotonic() < deadline, "the abandoned run never wrote its receipt"
        time.sleep(0.1)
    report = agent.ledger.verify()
    assert report.ok and report.count == before + 1


def test_the_server_answers_over_http(live_server: tuple[str, Agent]) -> None:
    url, _ = live_server
    response = httpx.post(url + "/ask", json={"question": "What is the minimum lease term?"}, timeout=60)
    assert response.status_code == 200 and response.json()["status"] == "answer"
    assert "server" not in response.headers  # no server software named
