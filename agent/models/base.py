"""The one interface every model adapter implements, and what the graph hands it.

A model never touches the store: it reads evidence only from the bundles it is given and through the
allowlisted tools of the `ToolRegistry` it is handed (the registry enforces the allowlist and records every
call). Its output is a `Draft`, which the gate then checks from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from quotebound.agent.core.contracts import Draft, EvidenceBundle, GateStatus
from quotebound.tools.registry import ToolRegistry


@runtime_checkable
class Meaning(Protocol):
    """The shipped embedder's L2-normalized vectors of short texts (cached): how a model reads paraphrase."""

    def vectors(self, texts: Sequence[str]) -> list[Any]: ...


class DraftInput(BaseModel):
    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    question: str
    context: dict[str, str] = Field(default_factory=dict, description="clarify replies and session context")
    bundles: list[EvidenceBundle] = Field(default_factory=list, description="resolved evidence, policy applied")
    gate: GateStatus = "proceed"
    missing: list[str] = Field(default_factory=list, description="fields the user never supplied (clarify timeout)")
    findings: list[str] = Field(default_factory=list, description="gate findings to repair, as readable messages")
    previous: Draft | None = Field(default=None, description="the draft that failed the gate (repair only)")
    max_tool_calls: int = Field(default=12, ge=0, le=100)
    # Not part of any record: a handle on the store's meaning embedder (None for a hashing one, or in tests).
    meaning: Meaning | None = Field(default=None, exclude=True, description="word vectors for paraphrase")
    # Not part of any record: the readable sources' (id, title), by which a question may name the one it asks about.
    documents: tuple[tuple[str, str], ...] = Field(default=(), exclude=True, description="readable (id, title)")


@runtime_checkable
class DraftingModel(Protocol):
    """Writes the Answer Object and the three-level answer. `repair` may use only the repair tools."""

    model_id: str
    model_version: str  # recorded in every receipt (quotebound's version for extractive, the model name for chat)

    def draft(self, request: DraftInput, tools: ToolRegistry) -> Draft: ...

    def repair(self, request: DraftInput, tools: ToolRegistry) -> Draft: ...
