"""Every error the service answers, in one shape: `{"error": {"code", "message", "fields"?, "audit_ref"?}}`.

Messages are fixed text written here, or a validation message about the caller's own request: never an exception's
text, a stack trace, a path, a class or an internal name. Details of unexpected failures go to the server log.
"""

from __future__ import annotations

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

log = logging.getLogger("quotebound.agent.server")

MAX_BODY_BYTES = 256 * 1024
INTERNAL_MESSAGE = "internal error; see the server log"
UNAVAILABLE_MESSAGE = "the service is unavailable right now; try again later or tell the operator"


class FieldProblem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    loc: str = Field(description="where in the request, e.g. `body.question`")
    msg: str


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(
        description="bad_request, unauthorized, forbidden, not_found, method_not_allowed, too_large, "
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
    413: ("too_large", f"the request body is too large (the limit is {MAX_BODY_BYTES} bytes)"),
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


class GuardMiddleware:
    """A request body over MAX_BODY_BYTES is refused (413) before a route reads it, and any exception nothing else
    handled becomes a fixed 500 (logged here with its traceback, never sent). Unlike Starlette's own last-resort
    handler it does not re-raise, so the server logs each failure once."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
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
        if int(length) > MAX_BODY_BYTES:
            await _send_error(send, 413, "too_large", _HTTP_CODES[413][1])
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY_BYTES:  # a chunked body: the route's body read fails with a JSON 413
                    raise StarletteHTTPException(413)
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
