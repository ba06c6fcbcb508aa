"""Whose session is it: sessions belong to callers.

A caller with an API key names their sessions freely; the agent's thread is `<key fingerprint>.<session_id>`, so
the same session_id under another key is another conversation. A caller without a key has no identity to bind a
session to, so the server issues one: an anonymous session_id is an unguessable token the server signed
(`<nonce>.<tag>`, the tag an HMAC of the nonce under the service's session key). It comes back in the
X-Session-Id header and the clarify envelope, and is what an anonymous caller sends to resume. An anonymous
caller cannot pick a session_id (a 422 says to omit it), so two anonymous callers never share one, and a guess at
someone else's token is refused the same way whether or not any session exists.

The session key is kept in `STORE/session.key` (created once, owner-only), so paused sessions survive a restart.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import secrets
from pathlib import Path

log = logging.getLogger("quotebound.agent.server")

KEY_FILE = "session.key"
_KEY_BYTES = 32
_NONCE_BYTES = 18  # 24 characters of base64url
_TAG_BYTES = 18


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


class SessionTokens:
    """Issues and checks anonymous callers' session tokens."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("a session key needs at least 16 bytes")
        self._key = key

    @classmethod
    def for_store(cls, store: Path) -> SessionTokens:
        """The store's session key (made on first use). A store where it cannot be kept gets a key for this process
        only: anonymous sessions paused before a restart then cannot be resumed (logged)."""
        path = Path(store) / KEY_FILE
        try:
            return cls(path.read_bytes())
        except FileNotFoundError:
            pass
        except (OSError, ValueError):
            log.error("the session key %s cannot be read: anonymous sessions last until a restart", path)
            return cls(secrets.token_bytes(_KEY_BYTES))
        key = secrets.token_bytes(_KEY_BYTES)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first
            return cls.for_store(store)
        except OSError:
            log.error("the session key %s cannot be written: anonymous sessions last until a restart", path)
            return cls(key)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
        return cls(key)

    def _tag(self, nonce: str) -> str:
        mac = hmac.new(self._key, b"quotebound-session:" + nonce.encode("ascii"), hashlib.sha256).digest()
        return _b64(mac[:_TAG_BYTES])

    def issue(self) -> str:
        nonce = _b64(secrets.token_bytes(_NONCE_BYTES))
        return f"{nonce}.{self._tag(nonce)}"

    def valid(self, token: str) -> bool:
        nonce, dot, tag = token.partition(".")
        if not dot or not nonce.isascii() or not tag.isascii():
            return False
        return hmac.compare_digest(self._tag(nonce), tag)
