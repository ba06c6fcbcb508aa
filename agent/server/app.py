"""`create_app(agent)`: the FastAPI app of `quotebound serve`.

Routes: GET / (the chat page) and /static/*, POST /ask, POST /ask/stream, GET /evidence/{ref},
GET /runs/{run_id}/trace, GET /audit/{audit_ref}, GET /healthz, GET /openapi.json. The interactive docs pages
(/docs, /redoc) are off: they load their scripts from a CDN, and the service runs offline.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from starlette.staticfiles import StaticFiles

from quotebound.agent.core.settings import ServerLimits
from quotebound.agent.core.version import __version__
from quotebound.agent.server import routes_ask, routes_read
from quotebound.agent.server.auth import ApiKeys
from quotebound.agent.server.deps import Service
from quotebound.agent.server.errors import GuardMiddleware, install_error_handlers
from quotebound.agent.server.sessions import SessionTokens

if TYPE_CHECKING:
    from quotebound.agent.facade.agent import Agent

STATIC = Path(__file__).resolve().parent / "static"
_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}

DESCRIPTION = """\
Question answering over your own documents that cites verbatim or abstains.

Callers are identified by an API key (`Authorization: Bearer KEY` or `X-API-Key: KEY`) mapped to a role; no key
means role `public`, an unknown key is refused (401). Sessions belong to callers: a keyed caller's session_id is
theirs alone; a caller without a key omits session_id and gets a server-issued one (X-Session-Id, and in a clarify
envelope) to send back when resuming. Every answer, abstention, clarify pause and error has a
receipt in the audit ledger (`audit_ref`). Errors are `{"error": {"code", "message", "fields"?}}`.
"""


def create_app(agent: Agent, *, api_keys: ApiKeys | None = None) -> FastAPI:
    """The service over `agent` (which the caller keeps and closes). `api_keys` defaults to the agent's settings'
    keys (`Settings.api_keys`); with none, every caller is `public`."""
    app = _App(
        title="quotebound",
        version=__version__,
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
    )
    keys = api_keys if api_keys is not None else ApiKeys.from_settings(agent.settings)
    settings = getattr(agent, "settings", None)
    store = getattr(settings, "store", None)
    tokens = SessionTokens.for_store(store) if store is not None else SessionTokens(secrets.token_bytes(32))
    limits = getattr(settings, "server", None) or ServerLimits()
    app.state.service = Service(agent=agent, keys=keys, tokens=tokens)
    install_error_handlers(app)
    app.add_middleware(GuardMiddleware, limits=limits)
    app.include_router(routes_ask.router)
    app.include_router(routes_read.router)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html", headers=_PAGE_HEADERS)

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


_ERROR = {"$ref": "#/components/schemas/ErrorBody"}
# Every operation may be refused with these, in the service's one error shape (agent/server/errors.py).
_COMMON_ERRORS = {
    "408": "the request (its headers or body) did not arrive in time",
    "422": "a bad request, with the fields at fault",
    "500": "an internal error (details in the server log)",
}
_BODY_ERRORS = {"413": "request body too large"}


class _App(FastAPI):
    def openapi(self) -> dict[str, Any]:
        """The OpenAPI document, saying what the server sends: every error is `ErrorBody` (FastAPI's own
        `HTTPValidationError` is never sent), the event stream is text (not a JSON object), and a key is optional
        (each operation also accepts no key: role public)."""
        if self.openapi_schema is None:
            document = super().openapi()
            for operations in document.get("paths", {}).values():
                for operation in operations.values():
                    if isinstance(operation, dict):
                        _describe_operation(operation)
            schemas = document.get("components", {}).get("schemas", {})
            for unused in ("HTTPValidationError", "ValidationError"):
                schemas.pop(unused, None)
            self.openapi_schema = document
        return self.openapi_schema


def _describe_operation(operation: dict[str, Any]) -> None:
    if operation.get("security") and {} not in operation["security"]:
        operation["security"].append({})
    responses: dict[str, Any] = operation.setdefault("responses", {})
    errors = dict(_COMMON_ERRORS)
    if operation.get("security"):
        errors["401"] = "unknown API key"
    if "requestBody" in operation:
        errors.update(_BODY_ERRORS)
    elif not operation.get("parameters"):
        errors.pop("422")  # nothing of the request to be bad
    for status, description in errors.items():
        responses.setdefault(status, {"description": description})
    for status, response in responses.items():
        if status.startswith(("4", "5")) and status != "503":  # a 503 of /ask is an error envelope
            response["content"] = {"application/json": {"schema": dict(_ERROR)}}
