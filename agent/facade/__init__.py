"""The `Agent` an application embeds: it opens a store, runs the graph per request, streams, resumes and replays."""

from quotebound.agent.facade.agent import Agent

__all__ = ["Agent"]
