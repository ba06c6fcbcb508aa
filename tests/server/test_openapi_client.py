"""The OpenAPI document describes what the server sends (issue 14): a client generated from /openapi.json by
openapi-python-client (a real generator, as an integrator would use) reads every answer it gets, the event stream
and the error bodies included."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from quotebound.agent.facade.agent import Agent
from quotebound.agent.server import create_app

from .conftest import MEMBER_KEY, STEWARD_KEY
from .helpers import sse_events

PACKAGE = "qb_generated_client"


@pytest.fixture(scope="module")
def generated(client: TestClient, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The client package generated from the served document, imported from a temporary folder."""
    root = tmp_path_factory.mktemp("openapi-client")
    document = client.get("/openapi.json")
    assert document.status_code == 200
    (root / "openapi.json").write_text(document.text, encoding="utf-8")
    (root / "config.yaml").write_text("post_hooks: []\n", encoding="utf-8")  # no formatter run on the output
    result = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(root / "openapi.json"),
         "--meta", "none", "--output-path", str(root / PACKAGE), "--config", str(root / "config.yaml")],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stdout + result.stderr, result.stdout + result.stderr
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _api(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.default.{name}")


def _client(generated: Any, http: TestClient, token: str | None = None) -> Any:
    made = generated.AuthenticatedClient(base_url="http://testserver", token=token) if token else None
    made = made or generated.Client(base_url="http://testserver")
    made.set_httpx_client(http)  # the generated calls go through the app in process
    return made


def test_the_generated_client_reads_the_event_stream(generated: Any, client: TestClient) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    api = _client(generated, client)
    response = _api("ask_stream_ask_stream_post").sync_detailed(
        client=api, body=models.AskBody(question="What is the minimum lease term?")
    )
    assert response.status_code == 200
    assert isinstance(response.parsed, str)  # the stream, as text: not parsed as one JSON object
    events = sse_events(response.parsed)
    assert events[-1][0] == "envelope" and events[-1][1]["status"] == "answer"


def test_the_generated_client_reads_answers_and_errors(generated: Any, client: TestClient) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    api = _client(generated, client)
    lease = models.AskBody(question="What is the minimum lease term?")
    answer = _api("ask_ask_post").sync_detailed(client=api, body=lease)
    assert answer.status_code == 200 and isinstance(answer.parsed, models.AnswerEnvelope)
    # A bad body: the server's error shape, read as ErrorBody (never FastAPI's HTTPValidationError).
    bad = _api("ask_ask_post").sync_detailed(client=api, body=models.AskBody(question="   "))
    assert bad.status_code == 422 and isinstance(bad.parsed, models.ErrorBody)
    assert bad.parsed.error.code == "bad_request"
    # An anonymous caller naming a session: a 422 in the same shape.
    named = _api("ask_ask_post").sync_detailed(client=api, body=models.AskBody(question="q?", session_id="mine"))
    assert named.status_code == 422 and isinstance(named.parsed, models.ErrorBody)
    # /audit/{ref}: 422 for a malformed path parameter, 403 for a role that may not read audit.
    member = _client(generated, client, token=MEMBER_KEY)
    too_long = _api("audit_audit_audit_ref_get").sync_detailed(client=member, audit_ref="a" * 300)
    assert too_long.status_code in (403, 422) and isinstance(too_long.parsed, models.ErrorBody), too_long.content
    # /evidence/{ref}: a 404 is an ErrorBody too.
    missing = _api("evidence_evidence_ref_get").sync_detailed(client=api, ref="doc://nothing.md#p.1 L1")
    assert missing.status_code == 404 and isinstance(missing.parsed, models.ErrorBody)
    assert missing.parsed.error.code == "not_found"


def test_every_error_the_document_declares_is_the_error_body(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in json.dumps(document)
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")) and status != "503":
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (path, method, status)
    stream = document["paths"]["/ask/stream"]["post"]["responses"]["200"]["content"]
    assert set(stream) == {"text/event-stream"} and {"type": "string"} in stream["text/event-stream"]["schema"]["anyOf"]


def test_an_audit_422_is_the_error_body(agent: Agent, generated: Any) -> None:
    """The 422 /audit/{ref} sends to a role that reads audit (FastAPI's validation of the path), read by the
    generated client as the document says."""
    models = importlib.import_module(f"{PACKAGE}.models")
    with TestClient(create_app(agent)) as http:
        api = _client(generated, http, token=STEWARD_KEY)
        response = _api("audit_audit_audit_ref_get").sync_detailed(client=api, audit_ref="a" * 300)
    assert response.status_code == 422 and isinstance(response.parsed, models.ErrorBody), response.content
    assert response.parsed.error.code == "bad_request"
