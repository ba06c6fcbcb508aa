"""The HTTP service (`quotebound serve`): a FastAPI app over one `Agent`, with the chat page in `static/`.

from quotebound.agent.server import create_app
app = create_app(agent, api_keys=ApiKeys.from_settings(agent.settings))
"""

from __future__ import annotations

from quotebound.agent.server.app import create_app
from quotebound.agent.server.auth import ApiKeys, Principal

__all__ = ["ApiKeys", "Principal", "create_app"]
