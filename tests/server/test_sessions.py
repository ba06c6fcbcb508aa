"""Sessions belong to callers (issue 14): a keyed caller's sessions are bound to their key, an anonymous caller's to
a session_id the server issued; someone else's session reads exactly like one that does not exist."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from quotebound import AskRequest, ResumeRequest
from quotebound.agent.core.errors import CallerError
from quotebound.agent.facade.agent import Agent

from .conftest import MEMBER, STEWARD, server_settings

SQFT = "What's the square footage of my unit?"
VARIABLE = ("run_id", "audit_ref", "latency_ms", "session_id")


def _stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VARIABLE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def test_an_anonymous_caller_cannot_resume_another_anonymous_callers_session(client: TestClient) -> None:
    # The reproduction: anonymous A pauses at a clarify on a session_id; anonymous B sends the same id with a reply.
    chosen = f"s-{uuid.uuid4().hex}"
    a_chosen = client.post("/ask", json={"question": SQFT, "session_id": chosen})
    b_chosen = client.post("/ask", json={"question": SQFT, "session_id": chosen, "context": {"unit": "4B"}})
    # Neither may pick a session_id: both are refused, before anything runs, with the same bytes.
    assert a_chosen.status_code == b_chosen.status_code == 422, (a_chosen.text, b_chosen.text)
    assert a_chosen.content == b_chosen.content
    assert "session_id" in a_chosen.json()["error"]["message"]

    # A gets a server-issued session with the clarify; only that token resumes it.
    first = client.post("/ask", json={"question": SQFT})
    paused = first.json()
    token = first.headers["X-Session-Id"]
    assert paused["status"] == "clarify" and paused["session_id"] == token and len(token) >= 40

    # B's guesses at A's token (its nonce with another tag, one character changed) read exactly like a token for
    # a session that never existed (a well-formed random one).
    nonce, _, tag = token.partition(".")
    guesses = [f"{nonce}.{'A' * len(tag)}", token[:-1] + ("A" if token[-1] != "A" else "B"), f"{uuid.uuid4().hex}.x"]
    answers = {
        (r.status_code, r.content)
        for r in (
            client.post("/ask", json={"question": SQFT, "session_id": guess, "context": {"unit": "4B"}})
            for guess in guesses
        )
    }
    assert len(answers) == 1 and next(iter(answers))[0] == 422, answers

    # A resumes with the token: the same run, answered.
    resumed = client.post("/ask", json={"question": SQFT, "session_id": token, "context": {"unit": "4B"}}).json()
    assert resumed["status"] == "answer" and resumed["meta"]["run_id"] == paused["meta"]["run_id"]
    assert "1,180" in resumed["answer"]["level1"]


def test_each_anonymous_caller_gets_their_own_session(client: TestClient) -> None:
    one = client.post("/ask", json={"question": SQFT})
    two = client.post("/ask", json={"question": SQFT})
    assert one.headers["X-Session-Id"] != two.headers["X-Session-Id"]
    # B resuming with its own token gets its own run, never A's.
    b = client.post(
        "/ask", json={"question": SQFT, "session_id": two.headers["X-Session-Id"], "context": {"unit": "2C"}}
    ).json()
    assert b["meta"]["run_id"] == two.json()["meta"]["run_id"] != one.json()["meta"]["run_id"]


def test_another_keys_session_reads_like_no_session(client: TestClient) -> None:
    owned = f"owned-{uuid.uuid4().hex}"
    paused = client.post("/ask", json={"question": SQFT, "session_id": owned}, headers=MEMBER).json()
    assert paused["status"] == "clarify"
    body = {"question": SQFT, "context": {"unit": "4B"}}
    theirs = client.post("/ask", json={**body, "session_id": owned}, headers=STEWARD)
    nothing = client.post("/ask", json={**body, "session_id": f"never-{uuid.uuid4().hex}"}, headers=STEWARD)
    assert theirs.status_code == nothing.status_code == 200
    assert theirs.json()["meta"]["run_id"] != paused["meta"]["run_id"]
    assert _stable(theirs.json()) == _stable(nothing.json())
    # ... and the member's session still waits for the member.
    mine = client.post("/ask", json={**body, "session_id": owned}, headers=MEMBER).json()
    assert mine["meta"]["run_id"] == paused["meta"]["run_id"] and mine["status"] == "answer"


def test_the_python_api_binds_a_session_to_its_principal(store_dir: Path) -> None:
    with Agent(server_settings(store_dir)) as agent:
        paused = agent.ask(AskRequest(question=SQFT, session_id="shared", role="member"), principal="key:alice")
        assert paused.status == "clarify"
        with pytest.raises(CallerError) as theirs:
            agent.resume(ResumeRequest(session_id="shared", replies={"unit": "4B"}), principal="key:mallory")
        with pytest.raises(CallerError) as nothing:
            agent.resume(ResumeRequest(session_id="shared", replies={"unit": "4B"}), principal=None)
        with pytest.raises(CallerError) as missing:
            agent.resume(ResumeRequest(session_id="nobody", replies={"unit": "4B"}), principal="key:mallory")
        assert theirs.value.code == nothing.value.code == missing.value.code
        assert theirs.value.message == nothing.value.message == missing.value.message.replace("nobody", "shared")
        answered = agent.resume(ResumeRequest(session_id="shared", replies={"unit": "4B"}), principal="key:alice")
        assert answered.status == "answer" and answered.meta.run_id == paused.meta.run_id
