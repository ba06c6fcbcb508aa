"""What every route depends on: the service (the agent and its keys) and the calling principal."""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPBearer

from quotebound.agent.server.auth import ANONYMOUS, ApiKeys, Principal
from quotebound.agent.server.errors import ApiError
from quotebound.agent.server.sessions import SessionTokens
from quotebound.tools.policy import Caller

if TYPE_CHECKING:
    from quotebound.agent.facade.agent import Agent


@dataclass
class Service:
    agent: Agent
    keys: ApiKeys
    tokens: SessionTokens  # anonymous callers' session ids (agent/server/sessions.py)
    # One run at a time per session thread: two tabs resuming the same clarify must not both resume it.
    _locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)
    # Streamed runs go on in the background when their client disconnects, so every run ends with its receipt.
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    def lock_for(self, thread: str) -> asyncio.Lock:
        lock = self._locks.get(thread)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[thread] = lock
        return lock

    def caller(self, principal: Principal) -> Caller:
        return Caller(role=principal.role, labels=frozenset(principal.labels))

    def reads_audit(self, principal: Principal) -> bool:
        return bool(self.agent.context.policy.reads_audit(self.caller(principal)))


def get_service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


UNAUTHORIZED = ApiError(401, "unauthorized", "unknown API key", headers={"WWW-Authenticate": "Bearer"})

# Declared for the OpenAPI document (and its clients); the header values are read below, strictly.
_bearer = HTTPBearer(auto_error=False, description="an API key: `Authorization: Bearer KEY`; none = role public")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="an API key (instead of Authorization)")


def current_principal(
    request: Request,
    service: Annotated[Service, Depends(get_service)],
    _bearer_doc: Annotated[Any, Security(_bearer)] = None,
    _key_doc: Annotated[Any, Security(_api_key)] = None,
) -> Principal:
    """No key = public. A malformed Authorization header, two different keys, or an unknown key = 401."""
    authorization = request.headers.get("authorization")
    header_key = request.headers.get("x-api-key")
    if authorization is None and header_key is None:
        return ANONYMOUS
    presented: set[str] = set()
    if authorization is not None:
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise UNAUTHORIZED
        presented.add(token.strip())
    if header_key is not None:
        presented.add(header_key.strip())
    if len(presented) != 1:
        raise UNAUTHORIZED
    principal = service.keys.authenticate(presented.pop())
    if principal is None:
        raise UNAUTHORIZED
    return principal


ServiceDep = Annotated[Service, Depends(get_service)]
PrincipalDep = Annotated[Principal, Depends(current_principal)]
