"""`make_graph()`: the graph for LangGraph's own tooling (`langgraph.json`, `langgraph dev`, LangGraph Studio).

An edge of the library, like the CLI: it reads `QUOTEBOUND_*` from the environment (`Settings.from_env()`) and
opens one `Agent` (store, model, policy, audit ledger, and its session checkpoints in the store) per process. The
graph served is a thin adapter over that agent's public API, so a served run gets the same validation, envelopes,
receipts, traces and progress events as `Agent.ask`:

- Input (`ServedInput`, graphs/state.py): `{"question": ...}` or a chat's `{"messages": [...]}`, whose last message,
  a human one, is the question. Anything else fails the run with an input error saying what is expected.
- Identity: the caller's role and labels come from LangGraph's auth layer (agent/server/langgraph_auth.py puts
  them in the user it authenticates), never from the input; with no such user the caller is `public`.
- Output (`ServedOutput`): `envelope` (answer, abstain or error) and the same as an AI message in `messages`.
  A clarify pause is the run's interrupt, whose value is the clarify envelope: resume it on the same thread
  with `Command(resume={"unit": "4B"})`. A resume value of another shape asks again with the envelope plus an
  `error` saying what was expected.
- Streaming: `stream_mode="custom"` carries `Agent.astream`'s progress events (agent/runs/events.py), ending
  with the envelope event; `updates` carries the served steps' updates, never the inner graph's state.

A thread is a session: the agent's session (`langgraph:<thread_id>`) keeps the clarified values, so the next
question on the thread does not ask again.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import interrupt
from pydantic import ValidationError

from quotebound.agent.core.contracts import (
    CONTEXT_KEY_MAX,
    CONTEXT_VALUE_MAX,
    AskRequest,
    ClarifyEnvelope,
    Envelope,
    ErrorEnvelope,
    ResumeRequest,
)
from quotebound.agent.core.errors import CallerError, ErrorCode
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.runs.events import EnvelopeEvent, StreamEvent
from quotebound.graphs.state import ServedInput, ServedOutput

# What LangGraph's auth layer says about the caller: the user agent/server/langgraph_auth.py returns carries these.
ROLE_CLAIM = "quotebound_role"
LABELS_CLAIM = "quotebound_labels"
KEY_CLAIM = "quotebound_key"  # the API key's fingerprint (traces record it), None for a caller without a key

EXPECTED_INPUT = (
    'expected {"question": "..."} or {"messages": [...]} whose last message is a human message with the question'
)


class ServedInputError(CallerError, ValueError):
    """A served run's input (or resume value) is not what the graph takes. A `ValueError` too: a LangGraph server
    shows a `ValueError`'s message to its client, and hides other exceptions' behind "An internal error"."""


class ServedState(ServedInput, ServedOutput, total=False):
    """The served graph's own bookkeeping beside its input and output (the agent's run state is not here)."""

    asked: str | None  # the question `read_input` accepted for this run
    input_error: str | None  # why it accepted none
    handled: str | None  # the id of the last human message taken as a question (a later run must bring a new one)
    pending: dict[str, Any] | None  # the clarify envelope waiting for a reply


@dataclass(frozen=True)
class ServedCaller:
    """The caller of a served run, as LangGraph's auth layer identified them."""

    role: str = "public"
    labels: tuple[str, ...] = ()
    key: str | None = None


def served_caller(config: RunnableConfig) -> ServedCaller:
    """The caller from the user the server's auth handler returned (`configurable.langgraph_auth_user`, which the
    server sets itself and strips from what clients send). Anything else, or no user, is `public`."""
    user = (config.get("configurable") or {}).get("langgraph_auth_user")
    get = getattr(user, "get", None)
    if not callable(get):
        return ServedCaller()
    role, labels, key = get(ROLE_CLAIM), get(LABELS_CLAIM), get(KEY_CLAIM)
    if not isinstance(role, str) or not role:
        return ServedCaller()
    return ServedCaller(
        role=role,
        labels=tuple(label for label in labels or () if isinstance(label, str)),
        key=key if isinstance(key, str) else None,
    )


def _session(config: RunnableConfig) -> str:
    """The agent's session for the run's thread (a run without a thread gets a session of its own)."""
    thread = str((config.get("configurable") or {}).get("thread_id") or "")
    return f"langgraph:{thread}" if thread else f"langgraph:{uuid.uuid4().hex}"


def served_question(value: Mapping[str, Any], handled: str | None = None) -> tuple[str, HumanMessage | None]:
    """The question a served run's input asks, and the human message to add for it (None when it came as one).
    `value` is the input (or the thread's state after it): a `question`, else the last of `messages` if it is a
    human message not already answered (`handled`). Raises `CallerError` saying what is expected."""
    question = value.get("question")
    if question is not None:
        if not isinstance(question, str) or not question.strip():
            raise CallerError(ErrorCode.BAD_REQUEST, f"`question` must be a non-empty string; {EXPECTED_INPUT}")
        return question, HumanMessage(content=question, id=uuid.uuid4().hex)
    messages = value.get("messages")
    last = messages[-1] if isinstance(messages, list) and messages else None
    if isinstance(last, HumanMessage) and last.id != handled:
        text = last.text
        if not text.strip():
            raise CallerError(ErrorCode.BAD_REQUEST, f"the last human message has no text; {EXPECTED_INPUT}")
        return text, None
    if last is not None and not isinstance(last, HumanMessage | AIMessage):
        raise CallerError(ErrorCode.BAD_REQUEST, f"the last message is not a human message; {EXPECTED_INPUT}")
    raise CallerError(ErrorCode.BAD_REQUEST, f"no question in the input; {EXPECTED_INPUT}")


def check_replies(value: object, envelope: ClarifyEnvelope) -> dict[str, str]:
    """The replies in a resume value for `envelope`'s questions; `CallerError` saying what was expected when the
    value is not an object with one non-empty text per question asked (and nothing else)."""
    fields = [question.field for question in envelope.questions]
    example = "{" + ", ".join(f'"{field}": "..."' for field in fields) + "}"
    expected = f"expected the replies as an object {example}"
    if not isinstance(value, Mapping):
        raise CallerError(ErrorCode.BAD_REQUEST, f"{expected}; got {type(value).__name__}")
    replies: dict[str, str] = {}
    unknown: list[str] = []
    for key, reply in value.items():
        if not isinstance(key, str) or key.strip().lower() not in fields:
            unknown.append(str(key)[:CONTEXT_KEY_MAX])
        elif not isinstance(reply, str | int | float) or isinstance(reply, bool) or not str(reply).strip():
            raise CallerError(ErrorCode.BAD_REQUEST, f"{expected}; the reply for {key!r} is not a non-empty text")
        elif len(str(reply)) > CONTEXT_VALUE_MAX:
            too_long = f"the reply for {key!r} is over {CONTEXT_VALUE_MAX} characters"
            raise CallerError(ErrorCode.BAD_REQUEST, f"{expected}; {too_long}")
        else:
            replies[key.strip().lower()] = str(reply).strip()
    if unknown:
        raise CallerError(ErrorCode.BAD_REQUEST, f"{expected}; not asked: {', '.join(sorted(unknown))}")
    missing = [field for field in fields if field not in replies]
    if missing:
        raise CallerError(ErrorCode.BAD_REQUEST, f"{expected}; missing: {', '.join(missing)}")
    return replies


def envelope_text(envelope: Envelope | ErrorEnvelope) -> str:
    """The envelope as a chat message's text (the envelope itself is the record: this is for display)."""
    if isinstance(envelope, ClarifyEnvelope):
        return "\n".join(["I need more detail before I can answer:", *(f"- {q.prompt}" for q in envelope.questions)])
    if isinstance(envelope, ErrorEnvelope):
        return f"Error ({envelope.code.value}): {envelope.message}"
    return "\n\n".join(part for part in (envelope.answer.level1, envelope.answer.level2) if part)


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
        # Sessions are checkpointed in the store (`checkpoints.sqlite`): a restarted server still resumes them.
        agent = Agent(Settings.from_env())
        served_agents.append(agent)
        return build_server_graph(agent)


def _drive(events: Iterator[StreamEvent]) -> Envelope | ErrorEnvelope:
    """Run the agent's stream to its envelope, passing every progress event to the served run's `custom` stream.
    The agent's graph runs in an empty context: inside a node it would otherwise join the served graph as its
    subgraph (the server's checkpointer, its interrupts, its raw state in the stream)."""
    write = get_stream_writer()
    isolated = contextvars.Context()
    envelope: Envelope | ErrorEnvelope | None = None
    while (event := isolated.run(next, events, None)) is not None:
        write(event.model_dump(mode="json"))
        if isinstance(event, EnvelopeEvent):
            envelope = event.envelope
    if envelope is None:  # every stream of the agent ends with its envelope
        raise RuntimeError("the run's stream ended without an envelope")
    return envelope


def build_server_graph(agent: Agent) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The served graph over `agent` (its caller closes the agent). The server's checkpointer (or a parent
    graph's) keeps the served state: the graph is compiled without one."""

    def session_context(session: str) -> dict[str, str]:
        values = agent.graph.get_state({"configurable": {"thread_id": session}}).values
        return dict(values.get("context") or {})

    def ended(envelope: Envelope | ErrorEnvelope, session: str) -> dict[str, Any]:
        data = envelope.model_dump(mode="json")
        clarify = isinstance(envelope, ClarifyEnvelope)
        return {
            "envelope": None if clarify else data,
            "pending": data if clarify else None,
            "messages": [AIMessage(content=envelope_text(envelope), id=uuid.uuid4().hex)],
            "context": session_context(session),
        }

    def read_input(state: ServedState, config: RunnableConfig) -> dict[str, Any]:
        """Take this run's question from its input; clear what the last run left (its question, envelope and
        pause). An input error is recorded here and raised by `reject`, so the thread keeps none of the input."""
        update: dict[str, Any] = {"question": None, "asked": None, "input_error": None, "envelope": None}
        update["pending"] = None
        try:
            question, message = served_question(state, state.get("handled"))
            caller = served_caller(config)
            AskRequest(question=question, role=caller.role, labels=list(caller.labels), context=_context(state))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'input'}: {e['msg']}" for e in exc.errors())
            return {**update, "input_error": f"bad input ({problems})"}
        except CallerError as exc:
            return {**update, "input_error": exc.message}
        messages: list[AnyMessage] = [message] if message is not None else []
        handled = message.id if message is not None else state["messages"][-1].id
        return {**update, "asked": question, "messages": messages, "handled": handled}

    def reject(state: ServedState) -> dict[str, Any]:
        raise ServedInputError(ErrorCode.BAD_REQUEST, state.get("input_error") or EXPECTED_INPUT)

    def ask(state: ServedState, config: RunnableConfig) -> dict[str, Any]:
        caller = served_caller(config)
        session = _session(config)
        request = AskRequest(
            question=str(state.get("asked")),
            session_id=session,
            role=caller.role,
            labels=list(caller.labels),
            context=_context(state),
        )
        return {**ended(_drive(agent.stream(request, principal=caller.key)), session), "asked": None}

    def reply(state: ServedState, config: RunnableConfig) -> dict[str, Any]:
        """Pause with the clarify envelope; resume with the replies. A value of another shape pauses again with
        the envelope and an `error` saying what was expected: the session waits on, nothing is lost."""
        pending = dict(state.get("pending") or {})
        envelope = ClarifyEnvelope.model_validate(pending)
        question: dict[str, Any] = pending
        while True:
            try:
                replies = check_replies(interrupt(question), envelope)
                break
            except CallerError as exc:
                question = {**pending, "error": {"code": ErrorCode.BAD_REQUEST.value, "message": exc.message}}
        caller = served_caller(config)
        session = _session(config)
        request = ResumeRequest(session_id=session, replies=replies)
        return ended(_drive(agent.stream_resume(request, principal=caller.key)), session)

    def after_input(state: ServedState) -> Literal["ask", "reject"]:
        return "reject" if state.get("input_error") else "ask"

    def after_run(state: ServedState) -> Literal["reply", "__end__"]:
        return "reply" if state.get("pending") else "__end__"

    builder = StateGraph(ServedState, input_schema=ServedInput, output_schema=ServedOutput)
    builder.add_node("read_input", read_input)
    builder.add_node("reject", reject)
    builder.add_node("ask", ask)
    builder.add_node("reply", reply)
    builder.add_edge(START, "read_input")
    builder.add_conditional_edges("read_input", after_input)
    builder.add_edge("reject", END)
    builder.add_conditional_edges("ask", after_run)
    builder.add_conditional_edges("reply", after_run)
    return builder.compile(name="quotebound")


def _context(state: ServedState) -> dict[str, str]:
    context = state.get("context") or {}
    return {str(key): str(value) for key, value in context.items()} if isinstance(context, Mapping) else {}


__all__ = [
    "EXPECTED_INPUT",
    "ServedCaller",
    "ServedInputError",
    "ServedState",
    "build_server_graph",
    "check_replies",
    "load_graph",
    "make_graph",
    "served_agents",
    "served_caller",
    "served_question",
]
