"""The HTTP service end to end over the example corpus: asks, clarify and resume, streams, sessions, errors."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from quotebound.agent.audit import ledger_path
from quotebound.agent.audit.sqlite import SqliteLedger
from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.facade.agent import Agent
from quotebound.agent.server import ApiKeys, create_app

from .conftest import MEMBER, STEWARD, server_settings
from .helpers import assert_no_internals, sse_events

SQFT = "What's the square footage of my unit?"


def sid() -> str:
    return uuid.uuid4().hex


def test_an_answer_is_exactly_one_envelope(client: TestClient) -> None:
    response = client.post("/ask", json={"question": "What is the minimum lease term?"})
    assert response.status_code == 200, response.text
    envelope = response.json()
    assert envelope["status"] == "answer"
    assert set(envelope) == {"status", "answer", "evidence", "citations", "audit_ref", "meta"}
    assert "12" in envelope["answer"]["level1"] or "twelve" in envelope["answer"]["level1"].lower()
    session = response.headers["X-Session-Id"]
    assert len(session) >= 32  # generated: unguessable


def test_clarify_then_resume_with_context_on_the_same_session(client: TestClient) -> None:
    session = sid()
    first = client.post("/ask", json={"question": SQFT, "session_id": session}, headers=MEMBER)
    assert first.status_code == 200
    clarify = first.json()
    assert clarify["status"] == "clarify" and clarify["session_id"] == session  # the caller's own id
    assert [q["field"] for q in clarify["questions"]] == ["unit"]
    assert first.headers["X-Session-Id"] == session
    second = client.post(
        "/ask", json={"question": SQFT, "session_id": session, "context": {"unit": "4B"}}, headers=MEMBER
    )
    answer = second.json()
    assert answer["status"] == "answer", answer
    assert "1,180" in answer["answer"]["level1"]
    assert answer["meta"]["run_id"] == clarify["meta"]["run_id"]  # the resumed run is the same run


def test_a_generated_session_comes_back_in_the_clarify_envelope(client: TestClient) -> None:
    first = client.post("/ask", json={"question": SQFT}).json()
    assert first["status"] == "clarify" and len(first["session_id"]) >= 32
    second = client.post("/ask", json={"question": SQFT, "session_id": first["session_id"], "context": {"unit": "2C"}})
    assert second.json()["status"] == "answer" and "1,180" in second.json()["answer"]["level1"]


def test_an_abstention(client: TestClient) -> None:
    envelope = client.post("/ask", json={"question": "What is the master override code for the helipad beacon?"})
    assert envelope.status_code == 200
    body = envelope.json()
    assert body["status"] == "abstain" and body["reason_code"] == "no_evidence" and body["audit_ref"]


def test_the_stream_ends_with_the_envelope(client: TestClient) -> None:
    with client.stream("POST", "/ask/stream", json={"question": "What is the minimum lease term?"}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        text = response.read().decode()
    events = sse_events(text)
    names = [name for name, _ in events]
    assert names[-1] == "envelope" and names.count("envelope") == 1
    assert set(names[:-1]) <= {"node", "progress"} and "node" in names
    assert events[0][1]["type"] in ("node", "progress") and events[0][1]["node"] == "preflight"
    assert events[-1][1]["status"] == "answer"


def test_a_slow_run_keeps_its_stream_alive_with_pings(
    client: TestClient, agent: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the model drafts for longer than the ping interval, comment lines keep proxies from dropping the
    stream; the events and the envelope still arrive whole. No `no-store` header (Chromium then reports a stream
    read to its end as aborted, microsoft/playwright#42742)."""
    from quotebound.agent.server import routes_ask

    monkeypatch.setattr(routes_ask, "_PING_S", 0.05)
    real = agent.astream

    async def slow(*args: Any, **kwargs: Any) -> Any:
        async for event in real(*args, **kwargs):
            await asyncio.sleep(0.2)  # each step slower than a ping interval
            yield event

    monkeypatch.setattr(agent, "astream", slow)
    with client.stream("POST", "/ask/stream", json={"question": "What is the minimum lease term?"}) as response:
        assert "no-store" not in response.headers.get("cache-control", "")
        text = response.read().decode()
    assert ": ping\n\n" in text
    events = sse_events(text)
    assert events[0][1]["node"] == "preflight" and [name for name, _ in events].count("envelope") == 1
    assert events[-1][0] == "envelope" and events[-1][1]["status"] == "answer"


def test_the_stream_clarifies_and_resumes(client: TestClient) -> None:
    # Without a key the server issues the session (issue 14): the clarify envelope and the header carry it.
    response = client.post("/ask/stream", json={"question": SQFT})
    first = sse_events(response.text)
    assert first[-1][0] == "envelope" and first[-1][1]["status"] == "clarify"
    session = response.headers["X-Session-Id"]
    assert first[-1][1]["session_id"] == session
    body = {"question": SQFT, "session_id": session, "context": {"unit": "2C"}}
    second = sse_events(client.post("/ask/stream", json=body).text)
    assert second[0] == ("node", {"type": "node", "node": "clarify", "summary": {"replies": 1}})
    assert second[-1][1]["status"] == "answer" and "Parking space: C-07" in second[-1][1]["answer"]["level1"]


def test_a_bad_stream_request_is_a_422_before_any_event(client: TestClient) -> None:
    response = client.post("/ask/stream", json={"question": "  "})
    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_request"


def test_sessions_are_per_api_key(client: TestClient) -> None:
    shared = sid()
    paused = client.post("/ask", json={"question": SQFT, "session_id": shared}, headers=MEMBER).json()
    assert paused["status"] == "clarify"
    # Another caller with the same session_id and a reply: their own new run, not the member's paused one.
    other = client.post(
        "/ask",
        json={"question": "What is the minimum lease term?", "session_id": shared, "context": {"unit": "1A"}},
        headers=STEWARD,
    ).json()
    assert other["status"] == "answer" and other["meta"]["run_id"] != paused["meta"]["run_id"]
    assert "820" not in other["answer"]["level1"]  # 1A's square footage: the member's question was not resumed
    # A caller without a key cannot name a session at all (the server issues theirs): refused, nothing resumed.
    anonymous = client.post("/ask", json={"question": SQFT, "session_id": shared, "context": {"unit": "1A"}})
    assert anonymous.status_code == 422 and anonymous.json()["error"]["code"] == "bad_request"
    # ... and the member's session is still paused, and resumes with the member's own reply.
    resumed = client.post(
        "/ask", json={"question": SQFT, "session_id": shared, "context": {"unit": "4D"}}, headers=MEMBER
    ).json()
    assert resumed["status"] == "answer" and "1,420" in resumed["answer"]["level1"]
    assert resumed["meta"]["run_id"] == paused["meta"]["run_id"]
    # The steward, same session_id, no reply: a run of their own, on their own session's context (unit 1A).
    steward = client.post("/ask", json={"question": SQFT, "session_id": shared}, headers=STEWARD).json()
    assert steward["meta"]["run_id"] != paused["meta"]["run_id"]
    assert steward["status"] == "answer" and "1,420" not in steward["answer"]["level1"], steward


def test_healthz_counts_only_what_the_caller_may_read(client: TestClient) -> None:
    public = client.get("/healthz").json()
    steward = client.get("/healthz", headers=STEWARD).json()
    assert public["status"] == "ok" and public["version"]
    assert public["sources"] < steward["sources"]  # restricted sources are not even counted for the public


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "Bearer not-a-key-0000000000"},
        {"X-API-Key": "not-a-key-0000000000"},
        {"Authorization": "Basic bWVtYmVyOnNlY3JldA=="},
        {"Authorization": "Bearer"},
        {**MEMBER, **STEWARD},  # two different keys
    ],
    ids=["bearer", "x-api-key", "basic", "empty-bearer", "two-keys"],
)
def test_an_unknown_key_is_401_everywhere(client: TestClient, headers: dict[str, str]) -> None:
    for method, path, body in [
        ("POST", "/ask", {"question": "What is the minimum lease term?"}),
        ("GET", "/healthz", None),
        ("GET", "/evidence/doc%3A%2F%2Fbylaws.md%23p.1%20L1", None),
        ("GET", f"/runs/{sid()}/trace", None),
        ("GET", "/audit/audit%3A%2F%2Fquotebound%2Fx", None),
    ]:
        response = client.request(method, path, json=body, headers=headers)
        assert response.status_code == 401, (path, response.text)
        assert response.json() == {"error": {"code": "unauthorized", "message": "unknown API key"}}
        assert response.headers["WWW-Authenticate"] == "Bearer"


BAD_BODIES: list[tuple[str, Any, str]] = [
    ("missing-question", {"session_id": "s1"}, "body.question"),
    ("question-not-a-string", {"question": 123}, "body.question"),
    ("question-blank", {"question": "   "}, "body.question"),
    ("question-too-long", {"question": "x" * 4001}, "body.question"),
    ("extra-field-role", {"question": "What is the minimum lease term?", "role": "steward"}, "body.role"),
    ("extra-field-labels", {"question": "q?", "labels": ["restricted"]}, "body.labels"),
    ("bad-session-id", {"question": "q?", "session_id": "no spaces or slashes/"}, "body.session_id"),
    ("long-session-id", {"question": "q?", "session_id": "s" * 101}, "body.session_id"),
    ("session-id-not-a-string", {"question": "q?", "session_id": 7}, "body.session_id"),
    ("context-not-a-mapping", {"question": "q?", "context": ["unit", "4B"]}, "body.context"),
    ("context-bad-key", {"question": "q?", "context": {"un it": "4B"}}, "body.context"),
    ("context-value-not-a-string", {"question": "q?", "context": {"unit": 4}}, "body.context.unit"),
    ("context-value-too-long", {"question": "q?", "context": {"unit": "4" * 2001}}, "body.context.unit"),
    ("body-not-an-object", ["What is the minimum lease term?"], "body"),
]


@pytest.mark.parametrize("path", ["/ask", "/ask/stream"])
@pytest.mark.parametrize(("case", "body", "loc"), BAD_BODIES, ids=[c[0] for c in BAD_BODIES])
def test_a_bad_body_is_a_clear_422(client: TestClient, path: str, case: str, body: Any, loc: str) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert set(error) == {"code", "message", "fields"} and error["code"] == "bad_request"
    assert error["message"].startswith("invalid request: ")
    assert any(field["loc"].startswith(loc) for field in error["fields"]), error
    assert all(set(field) == {"loc", "msg"} for field in error["fields"])
    assert_no_internals(response.text)
    assert "errors.pydantic.dev" not in response.text


def test_invalid_json_is_a_422(client: TestClient) -> None:
    response = client.post("/ask", content=b'{"question": ', headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.json()["error"]["fields"][0]["msg"] == "the body is not valid JSON"


def test_an_oversized_body_is_refused_before_it_is_read(client: TestClient) -> None:
    response = client.post("/ask", json={"question": "x" * 300_000})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


def test_an_oversized_chunked_body_is_refused_too(client: TestClient) -> None:
    def chunks() -> Any:
        yield b'{"question": "'
        for _ in range(40):
            yield b"x" * 10_000
        yield b'"}'

    response = client.post("/ask", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


def test_unknown_routes_and_methods_use_the_error_shape(client: TestClient) -> None:
    assert client.get("/nope").json() == {"error": {"code": "not_found", "message": "not found"}}
    response = client.get("/ask")
    assert response.status_code == 405 and response.json()["error"]["code"] == "method_not_allowed"


def test_the_openapi_document_is_served_and_the_cdn_docs_are_not(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert {"/ask", "/ask/stream", "/evidence/{ref}", "/runs/{run_id}/trace", "/audit/{audit_ref}", "/healthz"} <= set(
        document["paths"]
    )
    schemas = document["components"]["schemas"]
    assert {"AnswerEnvelope", "AbstainEnvelope", "ClarifyEnvelope", "ErrorEnvelope", "AskBody"} <= set(schemas)
    assert schemas["AskBody"]["additionalProperties"] is False
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404
    assert_no_internals(client.get("/openapi.json").text)  # no module, file or path names in the document


def test_the_chat_page_and_its_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/../conftest.py").status_code == 404


class _Broken:
    """An agent whose every method fails the way a bug would: with text that must never reach a caller."""

    settings = SimpleNamespace(api_keys=[])

    def __init__(self) -> None:
        def fail(*args: object, **kwargs: object) -> Any:
            raise RuntimeError("secret at /srv/quotebound/private.md: Traceback in quotebound.graphs")

        self.context = SimpleNamespace(
            tools_for=fail,
            policy=SimpleNamespace(reads_audit=lambda caller: True),
            corpus=SimpleNamespace(sources=fail),
        )
        self.ledger = SimpleNamespace(find=fail)
        self.trace = fail

    async def apending(self, session_id: str) -> bool:
        return False

    async def aask(self, *args: object, **kwargs: object) -> Any:
        raise RuntimeError("secret at /srv/quotebound/private.md: Traceback in quotebound.graphs")

    async def astream(self, *args: object, **kwargs: object) -> Any:
        raise RuntimeError("secret at /srv/quotebound/private.md")
        yield  # an async generator


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/ask", {"question": "anything?"}),
        ("POST", "/ask/stream", {"question": "anything?"}),
        ("GET", "/evidence/doc%3A%2F%2Fbylaws.md%23p.1%20L1", None),
        ("GET", "/runs/abc/trace", None),
        ("GET", "/audit/audit%3A%2F%2Fquotebound%2Fx", None),
        ("GET", "/healthz", None),
    ],
)
def test_an_unexpected_failure_is_a_fixed_500(
    method: str, path: str, body: Any, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(_Broken(), api_keys=ApiKeys())  # type: ignore[arg-type]
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.request(method, path, json=body)
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "internal", "message": "internal error; see the server log"}}
    assert "secret" not in response.text
    assert_no_internals(response.text)
    assert "/srv/quotebound/private.md" in caplog.text  # the operator's log has it


class _DownLedger(SqliteLedger):
    def append(self, audit_ref: str, run_id: str, body: Any) -> Any:
        raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the audit receipt could not be written (/srv/a.db)")


def test_an_error_envelope_is_a_503_with_the_envelope(store_dir: Path) -> None:
    settings = server_settings(store_dir)
    with Agent(settings, ledger=_DownLedger(ledger_path(settings))) as agent, TestClient(create_app(agent)) as client:
        response = client.post("/ask", json={"question": "What is the minimum lease term?"})
    assert response.status_code == 503
    envelope = response.json()
    assert envelope["status"] == "error" and envelope["code"] == "audit_unavailable" and envelope["retryable"]
    assert "/srv" not in response.text


def test_an_operator_error_outside_a_run_is_a_fixed_503(client: TestClient, agent: Agent, monkeypatch: Any) -> None:
    def down(*args: object) -> Any:
        raise OperatorError(ErrorCode.STORE_UNAVAILABLE, "the locator index /srv/index.sqlite is unreadable")

    monkeypatch.setattr(agent.context.corpus, "sources", down)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable" and "/srv" not in response.text


def test_every_request_gets_a_receipt(client: TestClient, agent: Agent) -> None:
    refs = [
        client.post("/ask", json={"question": q}).json()["audit_ref"] for q in ("What is the minimum lease term?", SQFT)
    ]
    assert all(agent.ledger.get(ref) is not None for ref in refs)
    assert agent.ledger.verify().ok
