"""The connection-level limits of `quotebound serve`: uvicorn's HTTP/1.1 protocol with an idle timeout.

uvicorn closes a keep-alive connection that stays silent after a response, but a connection that never completes
its request headers (opened and left idle, or a trickle of header bytes) is kept until the client leaves. Here
every connection must complete each request's headers within `Settings.server.idle_timeout_s` of opening (or of
its previous response); past that it gets a 408 with the service's JSON error body and is closed. What comes after
the headers is the app's (agent/server/errors.py GuardMiddleware: the body-read timeout and the size limit).

uvicorn.Config(app, host=..., port=..., **uvicorn_options(settings.server))
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from quotebound.agent.core.settings import ServerLimits

_HEADER_BYTES = 16 * 1024  # h11's own default: longer request heads are refused (431 / 400)


def _timeout_response(limits: ServerLimits) -> bytes:
    message = f"the request headers did not arrive within {limits.idle_timeout_s:g} s"
    body = json.dumps({"error": {"code": "timeout", "message": message}}).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class IdleTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol, with a timer from the connection's opening (and each response's end) to the next
    request's complete headers. `limits` is set on the subclass `protocol_for` makes."""

    limits: ServerLimits = ServerLimits()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._idle_timer: asyncio.TimerHandle | None = None
        self._last_cycle: Any = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._idle_timer = self.loop.call_later(self.limits.idle_timeout_s, self._expired)

    def _disarm(self) -> None:
        timer = getattr(self, "_idle_timer", None)
        if timer is not None:
            timer.cancel()
            self._idle_timer = None

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not None and self.cycle is not self._last_cycle:
            self._last_cycle = self.cycle  # a new request's headers are in: the app's limits take over
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # waiting for the next request on this connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _expired(self) -> None:
        self._idle_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being served (its headers came): never cut a response short
        self.transport.write(_timeout_response(self.limits))
        self.transport.close()


def protocol_for(limits: ServerLimits) -> type[IdleTimeoutProtocol]:
    return type("IdleTimeoutProtocol", (IdleTimeoutProtocol,), {"limits": limits})


def uvicorn_options(limits: ServerLimits) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.Config` that enforce `limits` at the connection."""
    return {
        "http": protocol_for(limits),
        "timeout_keep_alive": max(1, math.ceil(limits.idle_timeout_s)),
        "h11_max_incomplete_event_size": _HEADER_BYTES,
    }
