"""quotebound: question answering over your own documents that cites verbatim or abstains.

from quotebound import Agent
agent = Agent.open(".quotebound")
envelope = agent.ask("What is the minimum lease term?")
"""

# Absolute imports only: pytest imports this file as a plain module when it collects the repository root.
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quotebound.agent.core.contracts import SCHEMA_VERSION
from quotebound.agent.core.version import __version__

if TYPE_CHECKING:
    from quotebound.agent.facade.agent import Agent
    from quotebound.graphs import build_graph

__all__ = ["SCHEMA_VERSION", "Agent", "__version__", "build_graph"]


def __getattr__(name: str) -> Any:
    # Lazy: langgraph and the stores load only when an application asks for them (keeps `--help` instant).
    if name == "Agent":
        from quotebound.agent.facade.agent import Agent

        return Agent
    if name == "build_graph":
        from quotebound.graphs import build_graph

        return build_graph
    raise AttributeError(name)
