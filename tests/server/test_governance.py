"""No ghost metadata over HTTP (adr-0010 G5/G6), with the example policy: for a caller who may not read a source,
that source does not exist on any route. Tested as comparisons, as tests/integration/test_ghost_metadata.py does:
what a public caller gets when the only answer is in the restricted source equals what they get from a store where
that source was never ingested (envelopes, stream events, traces, health), and a restricted ref reads exactly like
a ref to nothing. Plus who may read traces and receipts."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from quotebound.agent.facade.agent import Agent
from quotebound.agent.server import create_app
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

from .conftest import EXAMPLES, MEMBER, PUBLIC, STEWARD, server_settings
from .helpers import sse_events

RESTRICTED = "security-gate-codes.md"
ONLY_IN_RESTRICTED = [
    "What is the master override code for the gate operator?",  # also a restricted topic under the example policy
    "What are the coordinates of camera 3?",
    "Who is the night patrol officer?",
]
SECRETS = ("security", "gate-codes", "4417", "70315", "44.0528", "alvarez", "sentinel", "restricted")
# Fields that differ between any two runs (ids, timings, checkpoints) or name the run's own session.
VARIABLE = {"audit_ref", "run_id", "latency_ms", "started_at", "ms", "checkpoint_id", "session_id"}


def stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k not in VARIABLE}
    if isinstance(value, list | tuple):
        return [stable(v) for v in value]
    return value


@pytest.fixture(scope="module")
def without_restricted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The same service over a store where the restricted sheet was never ingested."""
    root = tmp_path_factory.mktemp("server-without")
    docs = root / "docs"
    shutil.copytree(EXAMPLES, docs)
    (docs / RESTRICTED).unlink()
    (docs / f"{RESTRICTED}.meta.yaml").unlink()
    store = root / "store"
    with Store(server_settings(store), create=True) as opened:
        assert Ingestor(opened).ingest([docs]).ok
    with Agent(server_settings(store)) as agent, TestClient(create_app(agent)) as client:
        yield client


def ev(ref: str) -> str:
    return "/evidence/" + quote(ref, safe="")


def ask(client: TestClient, question: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    # A keyed caller names the session; without a key the server issues it (issue 14).
    body = {"question": question, **({"session_id": uuid.uuid4().hex} if headers else {})}
    response = client.post("/ask", json=body, headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


# --- asks, streams, traces, health: a restricted source reads like no source at all ------------------------------


@pytest.mark.parametrize("question", ONLY_IN_RESTRICTED)
def test_a_restricted_answer_reads_like_a_store_without_the_source(
    question: str, client: TestClient, without_restricted: TestClient
) -> None:
    hidden = ask(client, question)
    absent = ask(without_restricted, question)
    assert hidden["status"] == "abstain" and hidden["reason_code"] == "no_evidence", hidden
    assert stable(hidden) == stable(absent)
    text = str(hidden).casefold()
    for leak in SECRETS:
        assert leak not in text, leak


@pytest.mark.parametrize("question", ONLY_IN_RESTRICTED)
def test_a_restricted_stream_reads_like_a_store_without_the_source(
    question: str, client: TestClient, without_restricted: TestClient
) -> None:
    hidden = sse_events(client.post("/ask/stream", json={"question": question}).text)
    absent = sse_events(without_restricted.post("/ask/stream", json={"question": question}).text)
    assert [stable(e) for e in hidden] == [stable(e) for e in absent]
    assert hidden[-1][0] == "envelope"


@pytest.mark.parametrize("question", ONLY_IN_RESTRICTED)
def test_a_restricted_trace_reads_like_a_store_without_the_source(
    question: str, client: TestClient, without_restricted: TestClient
) -> None:
    traces = []
    for service in (client, without_restricted):
        run_id = ask(service, question)["meta"]["run_id"]
        response = service.get(f"/runs/{run_id}/trace")
        assert response.status_code == 200
        traces.append(response.json())
    assert stable(traces[0]) == stable(traces[1])
    text = str(traces[0]).casefold()
    for leak in SECRETS:
        assert leak not in text, leak


def test_health_counts_read_like_a_store_without_the_source(client: TestClient, without_restricted: TestClient) -> None:
    for headers in (PUBLIC, MEMBER):
        assert (
            client.get("/healthz", headers=headers).json() == without_restricted.get("/healthz", headers=headers).json()
        )
    assert client.get("/healthz", headers=STEWARD).json()["sources"] == 9


# --- the evidence drawer ----------------------------------------------------------------------------------------


def test_evidence_cited_in_an_answer_opens_in_the_drawer(client: TestClient) -> None:
    envelope = ask(client, "What is the minimum lease term?")
    citation = envelope["citations"][0]
    response = client.get(ev(citation["ref"]))
    assert response.status_code == 200
    drawer = response.json()
    assert drawer["ref"] == citation["ref"] and drawer["bundle_id"] == citation["bundle_id"]
    assert drawer["source_id"] == "declaration.md" and drawer["badge"] == "public"
    assert "twelve (12) months" in drawer["quote"] and drawer["title"].startswith("Declaration")
    assert drawer["license"] == "CC0-1.0" and drawer["provenance_kind"] == "primary"
    assert drawer["policy"] == {"decision": "allow", "obligations_applied": []}


def test_evidence_is_resolved_under_the_callers_policy(client: TestClient) -> None:
    ref = "doc://resident-contacts.md#p.1 L8-L9"
    member = client.get(ev(ref), headers=MEMBER).json()
    steward = client.get(ev(ref), headers=STEWARD).json()
    assert "[email withheld]" in member["quote"] and "cedarhollow.example" not in member["quote"]
    assert any("mask-contact-details" in o for o in member["policy"]["obligations_applied"])
    assert "dana.whitlock@cedarhollow.example" in steward["quote"] and member["badge"] == "members"
    assert member["bundle_id"] != steward["bundle_id"]  # over the visible text


NOWHERE = [
    "doc://no-such-document.md#p.1 L1-L3",
    "doc://bylaws.md#p.999 L1-L3",  # a readable source, a locator it does not have
    "doc://security-gate-codes.md@v9#p.1 L1-L3",
    "doc://declaration.md#p.1 L1-L999",  # too long a span
]


@pytest.mark.parametrize(
    ("headers", "hidden"),
    [
        (PUBLIC, ["doc://security-gate-codes.md#p.1 L1-L3", "doc://resident-contacts.md#p.1 L8-L9"]),
        (MEMBER, ["doc://security-gate-codes.md#p.1 L1-L3", "doc://security-gate-codes.md@v1#p.1 L19-L19"]),
    ],
    ids=["public", "member"],
)
def test_hidden_evidence_reads_exactly_like_no_evidence(
    client: TestClient, headers: dict[str, str], hidden: list[str]
) -> None:
    answers = []
    for ref in hidden + NOWHERE:
        response = client.get(ev(ref), headers=headers)
        answers.append((response.status_code, response.content, sorted(k for k in response.headers if k != "date")))
    assert all(answer == answers[0] for answer in answers), answers
    assert answers[0][0] == 404 and answers[0][1] == b'{"error":{"code":"not_found","message":"no such evidence"}}'
    assert client.get(ev(hidden[0]), headers=STEWARD).status_code == 200


def test_a_malformed_ref_is_a_422(client: TestClient) -> None:
    for ref in ("bylaws.md", "doc://bylaws.md#page one", "doc://#p.1 L1", "doc://bylaws.md#p.0 L1"):
        response = client.get(ev(ref))
        assert response.status_code == 422 and response.json()["error"]["code"] == "bad_request", ref
    # well-formed, but no source could have that id: the same 404 as any other ref to nothing
    assert client.get(ev("doc:///etc/passwd#p.1 L1")).json() == {
        "error": {"code": "not_found", "message": "no such evidence"}
    }


# --- traces: to the caller who ran it, and to roles that read audit -----------------------------------------------


def test_a_trace_is_for_its_caller_and_the_steward(client: TestClient) -> None:
    session = uuid.uuid4().hex
    envelope = client.post(
        "/ask", json={"question": "What is the minimum lease term?", "session_id": session}, headers=MEMBER
    ).json()
    run_id = envelope["meta"]["run_id"]
    own = client.get(f"/runs/{run_id}/trace", headers=MEMBER)
    assert own.status_code == 200
    trace = own.json()
    assert trace["run_id"] == run_id and trace["session_id"] == session and trace["status"] == "answer"
    assert trace["audit_ref"] == envelope["audit_ref"] and trace["steps"][0]["node"] == "preflight"
    assert client.get(f"/runs/{run_id}/trace", headers=STEWARD).status_code == 200
    other = client.get(f"/runs/{run_id}/trace")  # public: not theirs
    nothing = client.get(f"/runs/{uuid.uuid4().hex}/trace", headers=MEMBER)
    assert other.status_code == nothing.status_code == 404
    assert other.content == nothing.content == b'{"error":{"code":"not_found","message":"no such run"}}'


def test_a_clarified_run_keeps_one_trace(client: TestClient) -> None:
    session = uuid.uuid4().hex
    question = "What's the square footage of my unit?"
    paused = client.post("/ask", json={"question": question, "session_id": session}, headers=MEMBER).json()
    body = {"question": question, "session_id": session, "context": {"unit": "4B"}}
    answered = client.post("/ask", json=body, headers=MEMBER).json()
    trace = client.get(f"/runs/{paused['meta']['run_id']}/trace", headers=MEMBER).json()
    assert trace["status"] == "answer" and trace["envelope"]["audit_ref"] == answered["audit_ref"]
    assert "clarify" in [step["node"] for step in trace["steps"]]


def test_an_anonymous_trace_is_not_a_keyholders(client: TestClient) -> None:
    run_id = ask(client, "What is the minimum lease term?")["meta"]["run_id"]
    assert client.get(f"/runs/{run_id}/trace").status_code == 200  # the run_id is the anonymous caller's capability
    assert client.get(f"/runs/{run_id}/trace", headers=MEMBER).status_code == 404


# --- audit: steward only ------------------------------------------------------------------------------------------


def test_audit_is_for_roles_that_read_audit(client: TestClient) -> None:
    envelope = ask(client, "What is the minimum lease term?", MEMBER)
    ref = "/audit/" + quote(envelope["audit_ref"], safe="")
    unknown = "/audit/" + quote(f"audit://quotebound/{uuid.uuid4().hex}", safe="")
    refused = [client.get(path, headers=h) for path in (ref, unknown) for h in (PUBLIC, MEMBER)]
    assert {r.status_code for r in refused} == {403}
    assert len({r.content for r in refused}) == 1  # the same 403 whether the receipt exists or not
    shown = client.get(ref, headers=STEWARD)
    assert shown.status_code == 200
    record = shown.json()
    assert record["audit_ref"] == envelope["audit_ref"] and record["hash_ok"] is True
    assert record["body"]["run_id"] == envelope["meta"]["run_id"] and record["body"]["status"] == "answer"
    missing = client.get(unknown, headers=STEWARD)
    assert missing.status_code == 404 and missing.json()["error"] == {"code": "not_found", "message": "no such receipt"}


def test_a_stewards_receipt_shows_the_restricted_query(client: TestClient) -> None:
    envelope = ask(client, "What are the coordinates of camera 3?", STEWARD)
    record = client.get("/audit/" + quote(envelope["audit_ref"], safe=""), headers=STEWARD).json()
    assert record["body"]["query"]["text"] == "What are the coordinates of camera 3?"  # keep_query_text


def test_a_policy_denial_is_not_spelled_out_in_a_public_trace(client: TestClient) -> None:
    question = ONLY_IN_RESTRICTED[0]  # a restricted topic: refused before retrieval
    public_run = ask(client, question)["meta"]["run_id"]
    public = client.get(f"/runs/{public_run}/trace").text.casefold()
    for leak in ("deny", "restricted", "not_permitted", "security_access_codes"):
        assert leak not in public, leak
    steward_run = ask(client, question, STEWARD)["meta"]["run_id"]
    steward = client.get(f"/runs/{steward_run}/trace", headers=STEWARD).json()
    assert steward["steps"][0]["output"]["gate"] == "proceed"  # the steward may ask it
