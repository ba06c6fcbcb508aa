"""quotebound: question answering over your own documents that cites verbatim or abstains.

from quotebound import Agent, AskRequest
agent = Agent.open(".quotebound")
envelope = agent.ask("What is the minimum lease term?")
envelope = agent.ask(AskRequest(question="What is my unit's square footage?", session_id="s1", role="member"))
"""

# Absolute imports only: pytest imports this file as a plain module when it collects the repository root.
from __future__ import annotations

from typing import TYPE_CHECKING, Any

# The request models are light (pydantic, already loaded for SCHEMA_VERSION): imported eagerly.
from quotebound.agent.core.contracts import SCHEMA_VERSION, AskRequest, ResumeRequest
from quotebound.agent.core.version import __version__

if TYPE_CHECKING:
    from quotebound.agent.facade.agent import Agent
    from quotebound.graphs import build_graph

__all__ = ["SCHEMA_VERSION", "Agent", "AskRequest", "ResumeRequest", "__version__", "build_graph"]


def __getattr__(name: str) -> Any:
    # Lazy: langgraph and the stores load only when an application asks for them (keeps `--help` instant).
    if name == "Agent":
        from quotebound.agent.facade.agent import Agent

        return Agent
    if name == "build_graph":
        from quotebound.graphs import build_graph  # lazy, like Agent: langgraph loads on first use

        return build_graph
    raise AttributeError(name)
