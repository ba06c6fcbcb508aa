"""Who is calling the graph a LangGraph server serves (`langgraph dev`, `langgraph.json` "auth"): the same API keys
and roles as `quotebound serve` (agent/server/auth.py, `Settings.api_keys` from `QUOTEBOUND_API_KEYS_FILE`).

`Authorization: Bearer KEY` or `X-API-Key: KEY` names a key; no key is the role `public`; an unknown or malformed
key, or two different keys, is refused (401), never downgraded. The user returned carries the key's role and
labels (agent/facade/entry.py reads them from `configurable.langgraph_auth_user`, which the server sets itself and
strips from what clients send), so a run's role never comes from its input.

Threads belong to their caller: each is tagged with the caller's identity and only that caller reads, searches,
runs or resumes it. Callers without a key all share the identity `public`, so they may not list threads (a thread
id is an unguessable UUID only its creator knows). A run whose input names a `role` or `labels`, or whose resume
value is not an object of replies, is refused (422) with what is expected.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from langgraph_sdk import Auth

from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.entry import KEY_CLAIM, LABELS_CLAIM, ROLE_CLAIM
from quotebound.agent.server.auth import ANONYMOUS, ApiKeys, Principal

PUBLIC_IDENTITY = "public"
OWNER = "quotebound_owner"

auth = Auth()
_keys: ApiKeys | None = None
_keys_lock = asyncio.Lock()


async def _api_keys() -> ApiKeys:
    """The keys, read once from the environment (off the event loop: it reads the keys file)."""
    global _keys
    async with _keys_lock:
        if _keys is None:
            _keys = ApiKeys.from_settings(await asyncio.to_thread(Settings.from_env))
        return _keys


def _unauthorized() -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(
        status_code=401, detail="unknown API key", headers={"WWW-Authenticate": "Bearer"}
    )


def presented_key(headers: Mapping[bytes, bytes]) -> str | None:
    """The one API key a request presents, None for none; 401 for a malformed header or two different keys."""
    authorization = headers.get(b"authorization")
    header_key = headers.get(b"x-api-key")
    if authorization is None and header_key is None:
        return None
    presented: set[str] = set()
    if authorization is not None:
        scheme, _, token = authorization.decode("utf-8", errors="replace").strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise _unauthorized()
        presented.add(token.strip())
    if header_key is not None:
        presented.add(header_key.decode("utf-8", errors="replace").strip())
    if len(presented) != 1:
        raise _unauthorized()
    return presented.pop()


def user_of(principal: Principal) -> Auth.types.MinimalUserDict:
    user: dict[str, Any] = {
        "identity": principal.tag or PUBLIC_IDENTITY,
        "display_name": principal.name or principal.role,
        "is_authenticated": principal.tag is not None,
        "permissions": [],
        ROLE_CLAIM: principal.role,
        LABELS_CLAIM: list(principal.labels),
        KEY_CLAIM: principal.tag,
    }
    return user  # type: ignore[return-value]  # MinimalUserDict is total=False: the claims ride along


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes]) -> Auth.types.MinimalUserDict:
    key = presented_key(headers)
    if key is None:
        return user_of(ANONYMOUS)
    principal = (await _api_keys()).authenticate(key)
    if principal is None:
        raise _unauthorized()
    return user_of(principal)


def _invalid(detail: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=422, detail=detail)


def check_run(kwargs: Mapping[str, Any]) -> None:
    """Refuse (422) a run whose input sets the caller's identity, or whose resume value is not replies."""
    run_input = kwargs.get("input")
    if isinstance(run_input, Mapping):
        named = sorted(key for key in ("role", "labels") if key in run_input)
        if named:
            raise _invalid(
                f"{' and '.join(named)} cannot be set in the input: the caller's role and labels come from its API key"
            )
    command = kwargs.get("command")
    if isinstance(command, Mapping) and "resume" in command:
        resume = command["resume"]
        if not isinstance(resume, Mapping) or not resume:
            got = "an empty object" if isinstance(resume, Mapping) else type(resume).__name__
            raise _invalid(
                'expected the replies as an object {"<field>": "<reply>"} with one reply per field the clarify'
                f" envelope asks for; got {got}"
            )


def _is_owner(ctx: Auth.types.AuthContext) -> dict[str, str]:
    return {OWNER: ctx.user.identity}


@auth.on.threads.create
async def create_thread(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsCreate) -> dict[str, str]:
    value.setdefault("metadata", {})[OWNER] = ctx.user.identity
    return _is_owner(ctx)


@auth.on.threads.create_run
async def create_run(ctx: Auth.types.AuthContext, value: Auth.types.RunsCreate) -> dict[str, str]:
    check_run(value.get("kwargs") or {})
    value.setdefault("metadata", {})[OWNER] = ctx.user.identity
    return _is_owner(ctx)


@auth.on.threads.search
async def search_threads(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    if ctx.user.identity == PUBLIC_IDENTITY:
        raise Auth.exceptions.HTTPException(status_code=403, detail="callers without an API key cannot list threads")
    return _is_owner(ctx)


@auth.on.threads
async def own_threads(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    """read, update, delete: the caller's own threads only (another's reads like one that does not exist)."""
    return _is_owner(ctx)


@auth.on.assistants.read
async def read_assistants(ctx: Auth.types.AuthContext, value: Any) -> bool:
    return True


@auth.on.assistants.search
async def search_assistants(ctx: Auth.types.AuthContext, value: Any) -> bool:
    return True


@auth.on
async def deny_the_rest(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Assistants' changes, crons and the store are not part of the served graph."""
    return False
