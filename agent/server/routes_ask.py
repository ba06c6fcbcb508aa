"""POST /ask and POST /ask/stream: one run of the agent per request, on the caller's own session.

A session is the caller's: its thread is `<namespace>.<session_id>`, the namespace a fingerprint of the API key,
so the same session_id under another key is another conversation. A caller without a key cannot pick a
session_id: the server issues an unguessable, signed one (agent/server/sessions.py), required to resume. The
caller only ever sees their own session_id (in a clarify envelope and the X-Session-Id header). When the session
is paused at a clarify and the body carries `context`, the run resumes with those replies (the chat page resends
the question).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, StreamingResponse

from quotebound.agent.core.contracts import AskRequest, Envelope, ResumeRequest
from quotebound.agent.server.auth import Principal
from quotebound.agent.server.deps import PrincipalDep, Service, ServiceDep
from quotebound.agent.server.errors import ApiError, ErrorBody, log
from quotebound.agent.server.models import AskBody

router = APIRouter()

SESSION_HEADER = "X-Session-Id"
_SESSION_DOC = {SESSION_HEADER: {"description": "the caller's session_id", "schema": {"type": "string"}}}
_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "unknown API key"},
    413: {"model": ErrorBody, "description": "request body too large"},
    422: {"model": ErrorBody, "description": "a bad request, with the fields at fault"},
}


ANONYMOUS_SESSION = ApiError(
    422,
    "bad_request",
    "without an API key a session_id is issued by the server: omit session_id to start a session, then send back "
    "the session_id it returned (X-Session-Id, or the clarify envelope's)",
)


def _session(body: AskBody, principal: Principal, service: Service) -> tuple[str, str]:
    """(the caller's session_id, the agent's thread id). A keyed caller's session_id is in their key's namespace;
    an anonymous caller's must be one the server issued (agent/server/sessions.py), so it is theirs alone."""
    if principal.tag is not None:
        session_id = body.session_id or secrets.token_urlsafe(24)
    elif body.session_id is None:
        session_id = service.tokens.issue()
    elif service.tokens.valid(body.session_id):
        session_id = body.session_id
    else:
        raise ANONYMOUS_SESSION  # the same answer whether or not anyone has a session by that name
    return session_id, f"{principal.namespace}.{session_id}"


def _ask_request(body: AskBody, thread: str, principal: Principal) -> AskRequest:
    """The agent's request: the body's question and context, the caller's role and labels from their key. Built
    unchecked: the agent validates it, and a bad one is its `CallerError` (a 422), as for any caller."""
    return AskRequest.model_construct(
        question=body.question,
        session_id=thread,
        role=principal.role,
        labels=list(principal.labels),
        context=dict(body.context or {}),
    )


def _resume_request(body: AskBody, thread: str) -> ResumeRequest:
    return ResumeRequest.model_construct(session_id=thread, replies=dict(body.context or {}))


def _envelope_json(envelope: Envelope, session_id: str) -> dict[str, Any]:
    data: dict[str, Any] = envelope.model_dump(mode="json")
    if data.get("status") == "clarify":
        data["session_id"] = session_id  # the caller's own id, not the namespaced thread
    return data


def _status(data: dict[str, Any]) -> int:
    return 503 if data.get("status") == "error" else 200


@router.post(
    "/ask",
    response_model=Envelope,
    summary="Ask a question (or answer a clarify): exactly one envelope",
    responses={
        200: {"description": "an answer, an abstention or a clarify pause", "headers": _SESSION_DOC},
        503: {"description": "an error envelope: the run could not be completed or recorded", "model": Envelope},
        **_ERRORS,
    },
)
async def ask(body: AskBody, principal: PrincipalDep, service: ServiceDep) -> JSONResponse:
    agent = service.agent
    session_id, thread = _session(body, principal, service)
    async with service.lock_for(thread):
        if body.context and await agent.apending(thread):
            envelope = await agent.aresume(_resume_request(body, thread), principal=principal.tag)
        else:
            envelope = await agent.aask(_ask_request(body, thread, principal), principal=principal.tag)
    data = _envelope_json(envelope, session_id)
    return JSONResponse(data, status_code=_status(data), headers={SESSION_HEADER: session_id})


_DONE = object()
_PING_S = 15.0  # a comment line while a slow model drafts, so proxies do not drop an idle stream
# The stream is text. OpenAPI 3.1 has no schema for a stream's events (3.2's `itemSchema`): clients generated
# from the document read the body as a string (the `string` branch), while event-aware validators (schemathesis)
# check each event against the other branch.
_SSE_EVENT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "event": {"type": "string", "enum": ["node", "progress", "envelope"]},
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "description": "node / progress: the progress event as JSON; envelope: the envelope as JSON",
        },
    },
    "required": ["event", "data"],
}
_SSE_STREAM: dict[str, Any] = {
    "description": "server-sent events, each `event: <name>` and one `data: <JSON>` line: `node` and `progress` "
    "(data: a progress event), then exactly one `envelope` (data: the envelope, as POST /ask returns it); "
    "`: ping` comment lines keep an idle stream open",
    "anyOf": [{"type": "string"}, _SSE_EVENT],
}


async def _pump(service: Service, thread: str, body: AskBody, principal: Principal, queue: asyncio.Queue[Any]) -> None:
    """Drive one streamed run to its end, whoever is still listening, and hand its events to `queue`."""
    agent = service.agent
    started = False
    async with service.lock_for(thread):
        try:
            if body.context and await agent.apending(thread):
                events = agent.astream_resume(_resume_request(body, thread), principal=principal.tag)
            else:
                events = agent.astream(_ask_request(body, thread, principal), principal=principal.tag)
            async for event in events:
                started = True
                await queue.put(event)
        except Exception as exc:  # a bad request (raised before the first event) or a bug
            if started:  # too late for an error response: the stream ends without an envelope
                log.error("streamed run on a session failed after it started", exc_info=exc)
            await queue.put(exc)  # else the route raises it: a CallerError is a 422, anything else a logged 500
        finally:
            await queue.put(_DONE)


@router.post(
    "/ask/stream",
    summary="Ask, streamed: server-sent `node` and `progress` events, then one `envelope` event",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "`text/event-stream`: events `node` / `progress` (data: a progress event, JSON), then one "
            "`envelope` event (data: the envelope, JSON), then the stream ends",
            "content": {"text/event-stream": {"schema": _SSE_STREAM}},
            "headers": _SESSION_DOC,
        },
        **_ERRORS,
    },
)
async def ask_stream(body: AskBody, principal: PrincipalDep, service: ServiceDep) -> StreamingResponse:
    session_id, thread = _session(body, principal, service)
    queue: asyncio.Queue[Any] = asyncio.Queue()
    task = asyncio.create_task(_pump(service, thread, body, principal, queue))
    service.tasks.add(task)
    task.add_done_callback(service.tasks.discard)
    first = await queue.get()
    if isinstance(first, Exception):
        raise first  # before any byte is sent: a CallerError becomes a 422, anything else a 500
    # A plain StreamingResponse that ends the moment the envelope is sent. No `Cache-Control: no-store`:
    # Chromium reports a no-store fetch stream read to its end as aborted (microsoft/playwright#42742).
    headers = {SESSION_HEADER: session_id, "X-Accel-Buffering": "no"}
    return StreamingResponse(_events(first, queue, session_id), media_type="text/event-stream", headers=headers)


def _sse(event: str, data: dict[str, Any]) -> str:
    # json.dumps never emits a raw newline, so the data fits on one `data:` line
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _events(first: Any, queue: asyncio.Queue[Any], session_id: str) -> AsyncIterator[str]:
    item = first
    while item is not _DONE:
        if isinstance(item, Exception):
            return  # logged where it was raised; the stream just ends (a client sees no envelope)
        if item.type == "envelope":
            yield _sse("envelope", _envelope_json(item.envelope, session_id))
            return
        yield _sse(item.type, item.model_dump(mode="json"))
        # One getter per item, kept across pings (a get cancelled by a timeout could lose the item it took).
        getter = asyncio.ensure_future(queue.get())
        try:
            while not (await asyncio.wait({getter}, timeout=_PING_S))[0]:
                yield ": ping\n\n"
        finally:
            getter.cancel()  # the client went away mid-wait: the run goes on in `_pump`
        item = getter.result()
