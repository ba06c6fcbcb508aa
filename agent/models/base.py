"""The one interface every model adapter implements, and what the graph hands it.

A model never touches the store: it reads evidence only from the bundles it is given and through the
allowlisted tools of the `ToolRegistry` it is handed (the registry enforces the allowlist and records every
call). Its output is a `Draft`, which the gate then checks from scratch.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from quotebound.agent.core.contracts import Draft, EvidenceBundle, GateStatus
from quotebound.tools.registry import ToolRegistry


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


@runtime_checkable
class DraftingModel(Protocol):
    """Writes the Answer Object and the three-level answer. `repair` may use only the repair tools."""

    model_id: str
    model_version: str  # recorded in every receipt (quotebound's version for extractive, the model name for chat)

    def draft(self, request: DraftInput, tools: ToolRegistry) -> Draft: ...

    def repair(self, request: DraftInput, tools: ToolRegistry) -> Draft: ...
