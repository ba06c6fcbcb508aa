"""`make_graph()`: the graph for LangGraph's own tooling (`langgraph.json`, `langgraph dev`, LangGraph Studio).

An edge of the library, like the CLI: it reads `QUOTEBOUND_*` from the environment (`Settings.from_env()`) and
opens the store, model, policy and audit ledger once. A LangGraph server cannot hand the graph a `RunContext`
(run contexts there are JSON), so the graph served is a thin wrapper: one node, `quotebound`, that runs the
cite-or-abstain graph as a subgraph with that context. Its input is the request (`question`, and optionally
`role`, `labels`, `context`); its output is `envelope`: the answer, abstain or error envelope, or, when the run
pauses for clarify, the interrupt (resume it with `Command(resume={"unit": "4B"})` on the same thread).
A thread is a session here too: the clarified values (`context`) are kept in the wrapper's state, so the next
question on the thread does not ask again.
"""

from __future__ import annotations

import asyncio
import threading
from functools import cache
from typing import Annotated, Any, TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import GraphBubbleUp
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from quotebound.agent.core.contracts import AskRequest
from quotebound.agent.core.errors import CallerError, ErrorCode
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.graphs import build_graph
from quotebound.graphs.checkpoints import checkpoint_serde
from quotebound.graphs.state import merge_dicts


class ServerState(TypedDict, total=False):
    question: str
    role: str
    labels: list[str]
    # the session's clarified values: a request's `context` merges into those of earlier runs on the thread
    context: Annotated[dict[str, str], merge_dicts]
    envelope: dict[str, Any] | None


# The agents `load_graph` opened: they live as long as the process (a test closes them).
served_agents: list[Agent] = []
_loading = threading.Lock()


async def make_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The factory `langgraph.json` names. A LangGraph server awaits it on its event loop, where opening the
    store, ledger and model files would block: the work runs on a thread (`load_graph`)."""
    return await asyncio.to_thread(load_graph)


@cache
def load_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The served graph, built from the environment once per process (a LangGraph server calls its factory for
    every run; a factory taking one argument would be handed the run's config)."""
    with _loading:  # two first runs at once must not open the store twice
        if served_agents:
            return build_server_graph(served_agents[-1])
        # The Agent opens and checks what a run needs (policy, store, ledger, model); only its context is used.
        agent = Agent(Settings.from_env(), checkpointer=InMemorySaver(serde=checkpoint_serde()))
        served_agents.append(agent)
        return build_server_graph(agent)


def build_server_graph(agent: Agent) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The wrapper graph running `agent`'s runs (its caller closes it). The server's checkpointer (or a parent
    graph's) is the one used: the graph is compiled without one."""
    inner = build_graph(agent.settings)

    def quotebound(state: ServerState, config: RunnableConfig) -> dict[str, Any]:
        session = str((config.get("configurable") or {}).get("thread_id") or "") or None
        try:
            request = AskRequest(
                question=state["question"],
                session_id=session,
                role=state.get("role", "public"),
                labels=state.get("labels") or [],
                context=state.get("context") or {},
            )
        except ValueError as exc:  # pydantic's ValidationError: the request is at fault, as with `Agent.ask`
            raise CallerError(ErrorCode.BAD_REQUEST, str(exc)) from exc
        run = agent._new_run(request)
        context: dict[str, str] = {}
        try:
            result = inner.invoke(run.payload, config, context=agent.context)
            envelope = agent._finish(result)
            context = dict(result.get("context") or {})
        except GraphBubbleUp:
            raise  # the clarify pause: the server checkpoints it; resuming re-enters the subgraph where it stopped
        except Exception as exc:  # as with `Agent.ask`: an error envelope with its own receipt
            envelope = agent._failed(exc, run, None)
        return {"envelope": envelope.model_dump(mode="json"), "context": context}

    builder = StateGraph(ServerState)
    builder.add_node("quotebound", quotebound)
    builder.add_edge(START, "quotebound")
    builder.add_edge("quotebound", END)
    return builder.compile(name="quotebound")
