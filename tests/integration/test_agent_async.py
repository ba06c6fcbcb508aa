"""Embedding: `aask`/`aresume`, streamed runs (`astream`, `stream`), the compiled graph as a LangGraph subgraph,
any checkpointer (InMemorySaver, the default SqliteSaver) holding a clarify pause, and `langgraph.json`.

Coroutines run under `asyncio.run` inside plain tests: no async test plugin is needed."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command
from pydantic import TypeAdapter

from quotebound.agent.core.contracts import (
    AbstainEnvelope,
    AnswerEnvelope,
    AskRequest,
    ClarifyEnvelope,
    ErrorEnvelope,
    ResumeRequest,
)
from quotebound.agent.core.errors import CallerError
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.runs.events import EnvelopeEvent, NodeEvent, ProgressEvent, StreamEvent
from quotebound.graphs import RunContext, RunState, build_graph

ROOT = Path(__file__).resolve().parents[2]
SQFT = "What's the square footage of my unit?"
ASSESSMENT = "What is the monthly regular assessment per unit for 2025?"


def open_agent(store_dir: Path, **kwargs: Any) -> Agent:
    return Agent(Settings(store=store_dir, embedder="hashing"), **kwargs)


@pytest.fixture
def agent(store_dir: Path) -> Iterator[Agent]:
    with open_agent(store_dir) as opened:
        yield opened


def sid() -> str:
    return uuid.uuid4().hex


async def collect(events: AsyncIterator[Any]) -> list[Any]:
    return [event async for event in events]


# --- aask / aresume ------------------------------------------------------------------------------------------


def test_aask_and_aresume_match_ask_and_resume(agent: Agent) -> None:
    async def run() -> tuple[Any, Any, Any]:
        session = sid()
        first = await agent.aask(AskRequest(question=SQFT, session_id=session))
        second = await agent.aresume(ResumeRequest(session_id=session, replies={"unit": "4B"}))
        other = await agent.aask(ASSESSMENT)
        return first, second, other

    first, second, other = asyncio.run(run())
    assert isinstance(first, ClarifyEnvelope) and [q.field for q in first.questions] == ["unit"]
    assert isinstance(second, AnswerEnvelope) and "1,180" in second.answer.level1
    sync = agent.ask(ASSESSMENT)
    assert isinstance(other, AnswerEnvelope) and other.answer == sync.answer
    # every end has its receipt, async runs too
    for envelope in (first, second, other):
        assert agent.ledger.get(envelope.audit_ref) is not None


def test_async_bad_requests_raise_like_sync(agent: Agent) -> None:
    with pytest.raises(CallerError):
        asyncio.run(agent.aask("   "))
    with pytest.raises(CallerError):
        asyncio.run(agent.aresume(ResumeRequest(session_id=sid(), replies={"unit": "4B"})))
    with pytest.raises(CallerError):
        asyncio.run(collect(agent.astream(AskRequest.model_construct(question="?", session_id="not a valid id!"))))
    with pytest.raises(CallerError):
        asyncio.run(collect(agent.astream_resume(ResumeRequest(session_id=sid(), replies={"unit": "4B"}))))


def test_async_failure_is_an_error_envelope_with_a_receipt(agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the model exploded: /secret/path budget-2025.md")

    monkeypatch.setattr(agent.context.policy.__class__, "precheck", broken)
    envelope = asyncio.run(agent.aask(ASSESSMENT))
    assert isinstance(envelope, ErrorEnvelope)
    assert "secret" not in envelope.model_dump_json() and "budget" not in envelope.model_dump_json()
    assert agent.ledger.get(envelope.audit_ref) is not None
    events = asyncio.run(collect(agent.astream(ASSESSMENT)))
    assert [type(e) for e in events] == [EnvelopeEvent] and isinstance(events[0].envelope, ErrorEnvelope)
    assert agent.ledger.get(events[0].envelope.audit_ref) is not None


# --- streaming -----------------------------------------------------------------------------------------------


def _shape(events: list[Any]) -> None:
    """Exactly one final EnvelopeEvent; everything is JSON and parses back as a StreamEvent."""
    assert events and isinstance(events[-1], EnvelopeEvent)
    assert not any(isinstance(e, EnvelopeEvent) for e in events[:-1])
    adapter: TypeAdapter[Any] = TypeAdapter(StreamEvent)
    for event in events:
        dumped = json.loads(json.dumps(event.model_dump(mode="json")))
        assert adapter.validate_python(dumped) == event


def test_astream_reports_nodes_progress_and_one_envelope(agent: Agent) -> None:
    events = asyncio.run(collect(agent.astream(AskRequest(question=ASSESSMENT, session_id=sid()))))
    _shape(events)
    nodes = [e.node for e in events if isinstance(e, NodeEvent)]
    assert nodes == ["preflight", "retrieve", "resolve", "draft", "validate", "verified_answer"]
    progress = {e.node: e.data for e in events if isinstance(e, ProgressEvent)}
    retrieved = next(e for e in events if isinstance(e, NodeEvent) and e.node == "retrieve")
    assert progress["retrieve"]["hits"] == retrieved.summary["hits"] > 0
    assert progress["draft"] == {"attempt": 1} and progress["validate"] == {"attempt": 1}
    final = events[-1].envelope
    assert isinstance(final, AnswerEnvelope)
    assert final.answer == agent.ask(ASSESSMENT).answer
    assert agent.ledger.get(final.audit_ref) is not None


def test_stream_events_carry_no_run_text(agent: Agent) -> None:
    events = asyncio.run(collect(agent.astream(ASSESSMENT)))
    progress = json.dumps([e.model_dump(mode="json") for e in events[:-1]])
    for text in ("assessment", "325", "budget", "minutes", ".md", "doc://"):
        assert text not in progress.casefold()


def test_astream_clarify_then_astream_resume(agent: Agent) -> None:
    session = sid()
    first = asyncio.run(collect(agent.astream(AskRequest(question=SQFT, session_id=session))))
    _shape(first)
    assert [e.node for e in first if isinstance(e, NodeEvent)] == ["preflight"]
    assert isinstance(first[-1].envelope, ClarifyEnvelope)
    second = asyncio.run(collect(agent.astream_resume(ResumeRequest(session_id=session, replies={"unit": "4B"}))))
    _shape(second)
    assert [e.node for e in second if isinstance(e, NodeEvent)][:2] == ["clarify", "preflight"]
    assert next(e for e in second if isinstance(e, NodeEvent)).summary == {"replies": 1}
    assert isinstance(second[-1].envelope, AnswerEnvelope) and "1,180" in second[-1].envelope.answer.level1


def test_sync_stream_twin(agent: Agent) -> None:
    session = sid()
    first = list(agent.stream(AskRequest(question=SQFT, session_id=session)))
    _shape(first)
    assert isinstance(first[-1].envelope, ClarifyEnvelope)
    second = list(agent.stream_resume(ResumeRequest(session_id=session, replies={"unit": "4B"})))
    _shape(second)
    assert isinstance(second[-1].envelope, AnswerEnvelope)
    pool = list(agent.stream("What are the opening hours of the swimming pool?"))
    assert isinstance(pool[-1].envelope, AbstainEnvelope)
    assert [e.node for e in pool if isinstance(e, NodeEvent)][-1] == "abstain"


# --- checkpointers -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("saver", ["memory", "sqlite-default"])
def test_clarify_round_trip_through_each_checkpointer(store_dir: Path, saver: str) -> None:
    checkpointer = InMemorySaver() if saver == "memory" else None
    with open_agent(store_dir, checkpointer=checkpointer) as agent:
        if saver == "sqlite-default":
            from langgraph.checkpoint.sqlite import SqliteSaver

            assert isinstance(agent.graph.checkpointer, SqliteSaver)
        session = sid()
        assert isinstance(agent.ask(AskRequest(question=SQFT, session_id=session)), ClarifyEnvelope)
        # the pause is in the checkpointer, not in the agent
        assert agent.graph.get_state(agent._config(session)).interrupts
        assert isinstance(agent.resume(ResumeRequest(session_id=session, replies={"unit": "4B"})), AnswerEnvelope)

        async def run() -> tuple[Any, Any]:
            other = sid()
            paused = await agent.aask(AskRequest(question=SQFT, session_id=other))
            return paused, await agent.aresume(ResumeRequest(session_id=other, replies={"unit": "4B"}))

        paused, answered = asyncio.run(run())
        assert isinstance(paused, ClarifyEnvelope) and isinstance(answered, AnswerEnvelope)
    if saver == "sqlite-default":
        # persisted: a new agent on the same store resumes a pause made by the last one
        with open_agent(store_dir) as first:
            session = sid()
            assert isinstance(first.ask(AskRequest(question=SQFT, session_id=session)), ClarifyEnvelope)
        with open_agent(store_dir) as second:
            assert isinstance(second.resume(ResumeRequest(session_id=session, replies={"unit": "4B"})), AnswerEnvelope)


# --- the compiled graph as a subgraph ------------------------------------------------------------------------


class ChatState(RunState, total=False):
    reply: str


def _chat_app(checkpointer: Any) -> CompiledStateGraph[Any, Any, Any, Any]:
    """A parent graph with the compiled quotebound graph as one of its nodes, then its own `reply` node."""

    def reply(state: ChatState) -> dict[str, Any]:
        envelope = state.get("envelope")  # the typed envelope the terminal wrote
        status, level1 = (envelope.status, envelope.answer.level1) if envelope is not None else (None, "")
        return {"reply": f"[{status}] {level1}"}

    parent = StateGraph(ChatState, context_schema=RunContext)
    parent.add_node("quotebound", build_graph(Settings()))
    parent.add_node("reply", reply)
    parent.add_edge(START, "quotebound")
    parent.add_edge("quotebound", "reply")
    parent.add_edge("reply", END)
    return parent.compile(checkpointer=checkpointer)


def test_compiled_graph_runs_as_a_subgraph_with_the_run_context(agent: Agent) -> None:
    app = _chat_app(InMemorySaver())
    session = sid()
    config = {"configurable": {"thread_id": session}}
    state = agent._new_run(AskRequest(question=ASSESSMENT, session_id=session)).fallback
    result = app.invoke(state, config, context=agent.context)
    assert result["envelope"].status == "answer" and result["reply"].startswith("[answer] ")
    assert result["path"][-1] == "verified_answer"
    assert agent.ledger.get(result["envelope"].audit_ref) is not None
    # clarify: the subgraph's interrupt pauses the parent, whose checkpointer keeps it; resume the parent
    other = sid()
    config = {"configurable": {"thread_id": other}}
    paused = app.invoke(
        agent._new_run(AskRequest(question=SQFT, session_id=other)).fallback, config, context=agent.context
    )
    assert paused["__interrupt__"][0].value["status"] == "clarify"
    resumed = app.invoke(Command(resume={"unit": "4B"}), config, context=agent.context)
    assert resumed["envelope"].status == "answer" and "1,180" in resumed["reply"]


# --- langgraph.json ------------------------------------------------------------------------------------------


def test_langgraph_json_points_at_a_factory_of_a_compiled_graph(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib
    import inspect

    config = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))
    assert set(config) >= {"dependencies", "graphs"} and config["dependencies"] == ["."]
    assert list(config["graphs"]) == ["quotebound"]
    module_name, _, attr = config["graphs"]["quotebound"].partition(":")
    assert module_name and attr
    if module_name.endswith(".py"):  # a file path relative to langgraph.json
        assert (ROOT / module_name).is_file()
        module_name = "quotebound." + module_name.removeprefix("./").removesuffix(".py").replace("/", ".")
    factory = getattr(importlib.import_module(module_name), attr)
    assert not inspect.signature(factory).parameters  # a one-argument factory would be handed the run's config
    monkeypatch.setenv("QUOTEBOUND_STORE", str(store_dir))
    from quotebound.agent.facade import entry

    assert inspect.iscoroutinefunction(factory)  # a server awaits it: the blocking file opening runs on a thread
    entry.load_graph.cache_clear()
    try:
        served = asyncio.run(factory())
        assert asyncio.run(factory()) is served  # built once per process, not per run
        assert isinstance(served, CompiledStateGraph) and served.checkpointer is None
        graph = served.copy(update={"checkpointer": InMemorySaver()})  # what the server does: its own checkpointer
        config_ = {"configurable": {"thread_id": sid()}}
        paused = graph.invoke({"question": SQFT}, config_)
        assert paused["__interrupt__"][0].value["status"] == "clarify"
        answered = graph.invoke(Command(resume={"unit": "4B"}), config_)
        assert answered["envelope"]["status"] == "answer"
        # the thread is the session: the next question about "my unit" is answered for 4B without asking again
        again = graph.invoke({"question": SQFT}, config_)
        assert "__interrupt__" not in again and again["envelope"]["status"] == "answer", again
        assert again["context"] == {"unit": "4B"}
    finally:
        entry.load_graph.cache_clear()
        while entry.served_agents:
            entry.served_agents.pop().close()
