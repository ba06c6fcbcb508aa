"""Builders shared by the unit tests of the extractive model: a document resolved whole as one bundle, and a tool
registry with no calls left, so the model reads only what it was given."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from quotebound.agent.core.contracts import EvidenceBundle, PolicyDecision
from quotebound.tools.registry import ToolRegistry

NO_TOOLS = cast(ToolRegistry, SimpleNamespace(max_calls=0, calls=[]))


def whole_document(source_id: str, text: str) -> EvidenceBundle:
    """`text` (lines joined by newlines) resolved whole under an allow decision, from L1 of page 1."""
    return EvidenceBundle(
        bundle_id="b",
        ref=f"doc://{source_id}@v1",
        source_id=source_id,
        version=1,
        locator=f"p.1 L1-L{len(text.split(chr(10)))}",
        text=text,
        digest="d",
        content_hash="sha256:x",
        policy=PolicyDecision(decision="allow"),
    )
