"""Request and response bodies of the HTTP service that are not already contracts (agent/contracts.py)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from quotebound.agent.core.contracts import (
    CONTEXT_KEY_MAX,
    CONTEXT_KEY_PATTERN,
    CONTEXT_VALUE_MAX,
    MAX_CONTEXT_ITEMS,
    ContextKey,
    ContextValue,
    ProvenanceKind,
    Question,
)
from quotebound.agent.core.receipt import Receipt

# A caller's session_id: the agent's pattern, shorter, because the service prefixes it with the caller's namespace.
SESSION_ID_MAX = 100
SESSION_ID_PATTERN = r"^[A-Za-z0-9._:-]+$"
# pydantic writes a constrained key as `patternProperties`, which leaves any other key unconstrained in JSON Schema;
# clients (and fuzzers) read this instead: every key matches, every value is a string.
_CONTEXT_SCHEMA = {
    "anyOf": [
        {
            "type": "object",
            "maxProperties": MAX_CONTEXT_ITEMS,
            "propertyNames": {"minLength": 1, "maxLength": CONTEXT_KEY_MAX, "pattern": CONTEXT_KEY_PATTERN},
            "additionalProperties": {"type": "string", "maxLength": CONTEXT_VALUE_MAX},
        },
        {"type": "null"},
    ]
}


class AskBody(BaseModel):
    """POST /ask and /ask/stream. The caller's role and labels come from their API key, never from the body."""

    model_config = ConfigDict(extra="forbid")

    question: Question = Field(description="the question, as the user typed it")
    session_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=SESSION_ID_MAX,
        pattern=SESSION_ID_PATTERN,
        description="the conversation; omitted = a new, unguessable one (returned in the X-Session-Id header and "
        "in a clarify envelope). Sessions are per API key; without a key, only a session_id the server issued "
        "is accepted (send back the one it returned to resume).",
    )
    context: Annotated[dict[ContextKey, ContextValue] | None, WithJsonSchema(_CONTEXT_SCHEMA)] = Field(
        default=None,
        max_length=MAX_CONTEXT_ITEMS,
        description="clarify replies (field -> value): when the session is paused at a clarify they resume it",
    )


class EvidencePolicy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    decision: str
    obligations_applied: list[str]


class EvidenceView(BaseModel):
    """GET /evidence/{ref}: one cited span as the caller may read it (the evidence drawer)."""

    model_config = ConfigDict(extra="forbid")

    ref: str = Field(description="the pinned EvidenceRef, `doc://<source_id>@v<N>#<locator>`")
    source_id: str
    title: str
    locator: str
    version: int
    quote: str = Field(description="the verbatim text at the locator, after the caller's policy obligations")
    license: str | None
    attribution: str | None
    provenance_kind: ProvenanceKind
    policy: EvidencePolicy
    badge: str = Field(description="the source's policy label, shown to a caller who may read it")
    bundle_id: str = Field(description="the same bundle_id an envelope's citation carries for this span")


class AuditRecord(BaseModel):
    """GET /audit/{audit_ref}: one receipt of the ledger, as the viewer may see it."""

    model_config = ConfigDict(extra="forbid")

    seq: int
    audit_ref: str
    created_at: str
    hash: str
    hash_ok: bool = Field(description="whether the stored hash matches the receipt (run `audit verify` for the chain)")
    body: Receipt


class Health(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: str
    version: str
    sources: int = Field(description="current sources the caller may read")
