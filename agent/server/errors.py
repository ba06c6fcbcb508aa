"""Every error the service answers, in one shape: `{"error": {"code", "message", "fields"?, "audit_ref"?}}`.

Messages are fixed text written here, or a validation message about the caller's own request: never an exception's
text, a stack trace, a path, a class or an internal name. Details of unexpected failures go to the server log.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from quotebound.agent.core.errors import CallerError, OperatorError
from quotebound.agent.core.settings import ServerLimits

log = logging.getLogger("quotebound.agent.server")

INTERNAL_MESSAGE = "internal error; see the server log"
UNAVAILABLE_MESSAGE = "the service is unavailable right now; try again later or tell the operator"


class FieldProblem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    loc: str = Field(description="where in the request, e.g. `body.question`")
    msg: str


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(
        description="bad_request, unauthorized, forbidden, not_found, method_not_allowed, timeout, too_large, "
        "unavailable or internal"
    )
    message: str
    fields: list[FieldProblem] | None = None
    audit_ref: str | None = None


class ErrorBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    error: ErrorDetail


class ApiError(Exception):
    """An error answer decided by a route (404, 403, 401, 422 ...)."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def error_response(
    status: int,
    code: str,
    message: str,
    *,
    fields: list[dict[str, str]] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    detail: dict[str, Any] = {"code": code, "message": message}
    if fields is not None:
        detail["fields"] = fields
    return JSONResponse({"error": detail}, status_code=status, headers=headers)


NOT_FOUND_EVIDENCE = ApiError(404, "not_found", "no such evidence")

_HTTP_CODES = {
    400: ("bad_request", "the request could not be read"),
    401: ("unauthorized", "unknown API key"),
    403: ("forbidden", "not allowed"),
    404: ("not_found", "not found"),
    405: ("method_not_allowed", "method not allowed"),
    406: ("not_acceptable", "not acceptable"),
    408: ("timeout", "the request took too long to arrive"),
    413: ("too_large", "the request body is too large"),
    415: ("bad_request", "unsupported media type: send JSON"),
}


def _loc(parts: Any) -> str:
    return ".".join(str(part) for part in parts) if isinstance(parts, list | tuple) else str(parts)


MAX_FIELD_PROBLEMS = 50


def _field_problems(exc: RequestValidationError) -> list[dict[str, str]]:
    problems = []
    for error in exc.errors()[:MAX_FIELD_PROBLEMS]:
        msg = str(error.get("msg", "invalid"))
        if error.get("type") == "json_invalid":
            msg = "the body is not valid JSON"
        # Only where and what: never the input echoed back, pydantic's URLs or the context object.
        problems.append({"loc": _loc(error.get("loc", ())), "msg": msg})
    return problems


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = _field_problems(exc)
        summary = "; ".join(f"{p['loc']}: {p['msg']}" for p in problems[:5])
        return error_response(422, "bad_request", f"invalid request: {summary}", fields=problems)

    @app.exception_handler(ApiError)
    async def _api(request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message, headers=exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc, LimitExceeded):
            return error_response(exc.status_code, exc.code, exc.message, headers={"Connection": "close"})
        code, message = _HTTP_CODES.get(exc.status_code, ("error", "the request failed"))
        if exc.status_code >= 500:
            code, message = "internal", INTERNAL_MESSAGE
        headers = dict(exc.headers) if exc.headers else None
        return error_response(exc.status_code, code, message, headers=headers)

    @app.exception_handler(CallerError)
    async def _caller(request: Request, exc: CallerError) -> JSONResponse:
        # The agent's own request checks; the routes validate first, so this is a race (a session resumed twice).
        log.info("caller error %s on %s", exc.code.value, request.url.path)
        return error_response(422, "bad_request", _caller_message(exc))

    @app.exception_handler(OperatorError)
    async def _operator(request: Request, exc: OperatorError) -> JSONResponse:
        log.error("operator error on %s: %s", request.url.path, exc)
        return error_response(503, "unavailable", UNAVAILABLE_MESSAGE)


def _caller_message(exc: CallerError) -> str:
    # Fixed text: the agent's message names the session's internal (namespaced) thread id.
    if "not waiting for a reply" in exc.message:
        return "the session is not waiting for a reply (it was answered already): ask again"
    return "the request was refused as invalid"


class LimitExceeded(StarletteHTTPException):
    """A request over one of the server's limits (`Settings.server`): raised while its body is read, so the route's
    body read fails with this status and fixed message (FastAPI re-raises an HTTPException as it is)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(status, message)
        self.code = code
        self.message = message


def too_large(limits: ServerLimits) -> LimitExceeded:
    message = f"the request body is too large (the limit is {limits.max_body_bytes} bytes)"
    return LimitExceeded(413, "too_large", message)


def too_slow(limits: ServerLimits) -> LimitExceeded:
    return LimitExceeded(
        408,
        "timeout",
        f"the request body did not arrive within {limits.body_timeout_s:g} s (its Content-Length "
        "promised more than was sent, or it was sent too slowly)",
    )


class GuardMiddleware:
    """Every request's limits (`Settings.server`) and last-resort errors. A body over `max_body_bytes` is refused
    (413) before a route reads it (or as soon as a chunked body passes it); a body not fully read within
    `body_timeout_s` of the request's start (a Content-Length larger than what is sent, a trickle) is a 408, so
    no request holds the service longer than that. Any exception nothing else handled becomes a fixed 500 (logged
    here with its traceback, never sent). Unlike Starlette's own last-resort handler it does not re-raise, so the
    server logs each failure once."""

    def __init__(self, app: ASGIApp, limits: ServerLimits | None = None) -> None:
        self.app = app
        self.limits = limits or ServerLimits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limits = self.limits
        started = False

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        length = dict(scope.get("headers") or []).get(b"content-length", b"0")
        if not length.isdigit():
            await _send_error(send, 400, "bad_request", "the Content-Length header is not a number")
            return
        if int(length) > limits.max_body_bytes:
            error = too_large(limits)
            await _send_error(send, error.status_code, error.code, error.message)
            return
        received = 0
        deadline = asyncio.get_running_loop().time() + limits.body_timeout_s
        body_done = False

        async def limited_receive() -> Message:
            nonlocal received, body_done
            if body_done:  # after the body: only a disconnect can come, and the route waits for it as long as it needs
                return await receive()
            remaining = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(remaining, 0.001))
            except TimeoutError:
                log.info("request body not read within %ss on %s", limits.body_timeout_s, scope.get("path"))
                raise too_slow(limits) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limits.max_body_bytes:  # a chunked body: the route's body read fails with a JSON 413
                    raise too_large(limits)
                body_done = not message.get("more_body", False)
            return message

        try:
            await self.app(scope, limited_receive, tracked_send)
        except Exception:
            if started:
                raise  # too late to answer: the server logs it
            log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            await _send_error(send, 500, "internal", INTERNAL_MESSAGE)


async def _send_error(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
