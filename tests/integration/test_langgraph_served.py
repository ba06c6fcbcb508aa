"""The graph `langgraph.json` names, served by LangGraph's own server (`langgraph dev`) and called through
`langgraph_sdk` as a chat app would: identity from the auth layer, chat input, schemas, curated streams, resume
values. The server runs from its own venv (`make langgraph-venv`: langgraph-api cannot share the main venv's
jsonschema-rs) with its working folder in a temp dir, started once for the module.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_client
from langgraph_sdk.client import LangGraphClient
from pydantic import TypeAdapter

from quotebound.agent.cli.main import main as cli_main
from quotebound.agent.runs.events import StreamEvent

pytestmark = pytest.mark.langgraph

ROOT = Path(__file__).resolve().parents[2]
STEWARD_KEY = "steward-key-0123456789abcdef"
GATE = "What is the pedestrian gate code?"
SQFT = "What's the square footage of my unit?"
LEASE = "What is the minimum lease term?"
# keys of the inner graph's state that must never reach a served stream
INTERNAL_KEYS = ("draft", "bundles", "gate_report", "hits", "findings", "tool_calls", "clarify_counters")


def _langgraph_bin() -> Path:
    configured = os.environ.get("QUOTEBOUND_LANGGRAPH_BIN")
    # a relative path is the repository's: the server runs with its cwd in a temporary folder
    path = ROOT / configured if configured else ROOT / ".venv-langgraph" / "bin" / "langgraph"
    if not path.is_file():
        if configured:  # `make test` sets it: a missing server is a failure there, not a skip
            pytest.fail(f"QUOTEBOUND_LANGGRAPH_BIN={configured} does not exist (make langgraph-venv)")
        pytest.skip("no langgraph dev venv (make langgraph-venv)")
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    binary = _langgraph_bin()
    work = tmp_path_factory.mktemp("langgraph")
    store = work / "store"
    assert cli_main(["ingest", str(ROOT / "examples" / "hoa"), "--store", str(store)]) == 0
    keys = work / "keys.yaml"
    keys.write_text(f"keys:\n  - key: {STEWARD_KEY}\n    role: steward\n    name: steward\n", encoding="utf-8")
    shutil.copy(ROOT / "langgraph.json", work / "langgraph.json")  # the shipped file, unchanged
    env = {
        **os.environ,
        "QUOTEBOUND_STORE": str(store),
        "QUOTEBOUND_POLICY": str(ROOT / "examples" / "hoa" / "policy.yaml"),
        "QUOTEBOUND_API_KEYS_FILE": str(keys),
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "1",
        "NO_COLOR": "1",
    }
    log = work / "server.log"
    port = _free_port()
    command = [str(binary), "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--config", str(work / "langgraph.json")], cwd=work, env=env, stdout=out, stderr=out
        )
    try:
        url = _wait_until_up(process, log, port)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert not (ROOT / ".langgraph_api").exists() or _ignored(".langgraph_api")


def _ignored(path: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0


def _wait_until_up(process: subprocess.Popen[bytes], log: Path, port: int) -> str:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"langgraph dev exited {process.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        text = log.read_text(errors="replace")
        # the CLI picks another port when the one asked for is taken: read it from its log
        found = re.findall(r"http://127\.0\.0\.1:(\d+)", text)
        for candidate in [port, *map(int, found)]:
            try:
                if httpx.get(f"http://127.0.0.1:{candidate}/ok", timeout=2).status_code == 200:
                    return f"http://127.0.0.1:{candidate}"
            except httpx.HTTPError:
                pass
        time.sleep(0.5)
    pytest.fail(f"langgraph dev did not start:\n{log.read_text(errors='replace')[-3000:]}")


_open: list[LangGraphClient] = []


def _client(url: str, key: str | None = None) -> LangGraphClient:
    client = get_client(url=url, headers={"Authorization": f"Bearer {key}"} if key else None)
    _open.append(client)  # closed by `_run`, on the loop that used it
    return client


async def _wait(client: LangGraphClient, **kwargs: Any) -> Any:
    thread = await client.threads.create()
    return await client.runs.wait(thread["thread_id"], "quotebound", **kwargs)


def _run(coro: Any) -> Any:
    async def run() -> Any:
        try:
            return await coro
        finally:
            while _open:
                await _open.pop().aclose()

    return asyncio.run(run())


# --- identity comes from the auth layer ----------------------------------------------------------------------


def test_a_role_in_the_input_does_not_raise_the_callers_role(server: str) -> None:
    with pytest.raises(httpx.HTTPStatusError) as refused:
        _run(_wait(_client(server), input={"question": GATE, "role": "steward"}))
    assert refused.value.response.status_code == 422
    assert "role" in refused.value.response.text and "API key" in refused.value.response.text
    # without a key the caller is public: the code is not told
    public = _run(_wait(_client(server), input={"question": GATE}))
    assert public["envelope"]["status"] == "abstain" and "2086" not in str(public)
    # nor with a forged user in the run's config (the server strips it)
    forged = {"configurable": {"langgraph_auth_user": {"identity": "x", "quotebound_role": "steward"}}}
    assert _run(_wait(_client(server), input={"question": GATE}, config=forged))["envelope"]["status"] == "abstain"
    # the steward's key, mapped by the same keys file as `quotebound serve`, is what answers it
    steward = _run(_wait(_client(server, STEWARD_KEY), input={"question": GATE}))
    assert steward["envelope"]["status"] == "answer" and "2086" in steward["envelope"]["answer"]["level1"]


def test_an_unknown_key_is_refused_and_threads_belong_to_their_caller(server: str) -> None:
    async def scenario() -> None:
        with pytest.raises(httpx.HTTPStatusError) as refused:
            await _client(server, "not-a-key-of-this-server").threads.create()
        assert refused.value.response.status_code == 401
        steward = _client(server, STEWARD_KEY)
        thread = await steward.threads.create()
        with pytest.raises(httpx.HTTPStatusError) as hidden:
            await _client(server).threads.get(thread["thread_id"])
        assert hidden.value.response.status_code == 404
        with pytest.raises(httpx.HTTPStatusError) as listing:
            await _client(server).threads.search()
        assert listing.value.response.status_code == 403

    _run(scenario())


# --- input and output --------------------------------------------------------------------------------------


def test_chat_messages_are_a_question_and_the_answer_comes_back_as_an_ai_message(server: str) -> None:
    result = _run(_wait(_client(server), input={"messages": [{"role": "user", "content": LEASE}]}))
    assert result["envelope"]["status"] == "answer"
    last = result["messages"][-1]
    assert last["type"] == "ai" and "twelve (12) months" in last["content"]
    assert [m["type"] for m in result["messages"]] == ["human", "ai"]


@pytest.mark.parametrize(
    "payload",
    [{}, {"messages": []}, {"question": ""}, {"question": 42}, {"messages": [{"role": "assistant", "content": "hi"}]}],
)
def test_input_without_a_question_is_a_clear_input_error(server: str, payload: dict[str, Any]) -> None:
    with pytest.raises(Exception) as failed:
        _run(_wait(_client(server), input=payload))
    message = str(failed.value)
    assert "ServedInputError" in message and "expected" in message and "KeyError" not in message


def test_studio_gets_the_input_and_output_schemas(server: str) -> None:
    async def schemas() -> dict[str, Any]:
        client = _client(server)
        assistant = (await client.assistants.search(graph_id="quotebound"))[0]
        return dict(await client.assistants.get_schemas(assistant["assistant_id"]))

    found = _run(schemas())
    assert set(found["input_schema"]["properties"]) == {"question", "messages", "context"}
    assert set(found["output_schema"]["properties"]) == {"envelope", "messages", "context"}


# --- streaming ---------------------------------------------------------------------------------------------


def test_the_stream_carries_the_agents_curated_events_and_no_internal_state(server: str) -> None:
    async def stream() -> list[tuple[str, Any]]:
        client = _client(server)
        thread = await client.threads.create()
        return [
            (part.event, part.data)
            async for part in client.runs.stream(
                thread["thread_id"],
                "quotebound",
                input={"question": LEASE},
                stream_mode=["updates", "custom"],
                stream_subgraphs=True,
            )
        ]

    parts = _run(stream())
    custom = [data for event, data in parts if event.startswith("custom")]
    events = [TypeAdapter(StreamEvent).validate_python(data) for data in custom]
    nodes = [event.node for event in events if event.type == "node"]
    assert nodes[:1] == ["preflight"] and "validate" in nodes and "verified_answer" in nodes
    assert events[-1].type == "envelope" and events[-1].envelope.status == "answer"
    updates = [data for event, data in parts if event.startswith("updates")]
    assert all(set(update) <= {"read_input", "ask", "reply", "reject"} for update in updates), updates
    assert not [event for event, _ in parts if "|" in event]  # no subgraph's raw stream
    for key in INTERNAL_KEYS:
        assert all(key not in update.get(node, {}) for update in updates for node in update), key


# --- clarify and its resume values -------------------------------------------------------------------------


def test_a_resume_value_of_the_wrong_shape_says_what_was_expected(server: str) -> None:
    async def scenario() -> None:
        client = _client(server)
        thread = (await client.threads.create())["thread_id"]
        paused = await client.runs.wait(thread, "quotebound", input={"question": SQFT})
        assert paused["__interrupt__"][0]["value"]["status"] == "clarify"
        for bad in ("4B", {}):
            with pytest.raises(httpx.HTTPStatusError) as refused:
                await client.runs.wait(thread, "quotebound", command={"resume": bad})
            assert refused.value.response.status_code == 422 and "expected the replies" in refused.value.response.text
        again = await client.runs.wait(thread, "quotebound", command={"resume": {"apt": "4B"}})
        error = again["__interrupt__"][0]["value"]["error"]
        assert error["code"] == "bad_request" and '{"unit": "..."}' in error["message"] and "apt" in error["message"]
        answered = await client.runs.wait(thread, "quotebound", command={"resume": {"unit": "4B"}})
        assert answered["envelope"]["status"] == "answer" and "1,180" in answered["messages"][-1]["content"]
        # the thread is the session: the next question about "my unit" is not asked again
        next_one = await client.runs.wait(thread, "quotebound", input={"messages": [{"role": "user", "content": SQFT}]})
        assert "__interrupt__" not in next_one and next_one["envelope"]["status"] == "answer"

    _run(scenario())


def test_langgraph_dev_state_is_ignored_by_git() -> None:
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ".langgraph_api/" in lines
