"""Versioned pydantic contracts (v1): sources, locators, evidence, the Answer Object and the envelopes.

These are the shapes every client sees (their JSON Schemas ship in `schemas/`): the Answer Object a model drafts,
the envelopes a run ends in, and the evidence pointers (EvidenceRef) and resolved passages (EvidenceBundle) the
gate checks against. Every model forbids unknown fields so a hostile or confused model cannot smuggle data past
the gate in an extra key.
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Final, Literal, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from quotebound.agent.core.errors import ErrorCode

SCHEMA_VERSION: Final = "v1"

ProvenanceKind = Literal["primary", "secondary", "unknown"]


class Contract(BaseModel):
    """Base of every contract: strict keys, and values re-validated when assigned."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


# --- Locators and references ----------------------------------------------------------------------------

_LOCATOR_RE = re.compile(r"^p\.(?P<page>[1-9]\d{0,5}) L(?P<start>[1-9]\d{0,6})(?:-L(?P<end>[1-9]\d{0,6}))?$")


class Locator(Contract):
    """A span of one page of a source: `p.<page> L<start>-L<end>` (lines count from 1 on each page)."""

    page: int = Field(ge=1)
    line_start: int = Field(ge=1)
    line_end: int = Field(ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.line_end < self.line_start:
            raise ValueError(f"locator ends (L{self.line_end}) before it starts (L{self.line_start})")
        return self

    @classmethod
    def parse(cls, text: str) -> Locator:
        """Parse `p.3 L10-L12` (or the single-line short form `p.3 L10`)."""
        match = _LOCATOR_RE.match(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"not a locator: {text!r} (expected the form 'p.<page> L<start>-L<end>')")
        start = int(match["start"])
        return cls(page=int(match["page"]), line_start=start, line_end=int(match["end"] or start))

    def __str__(self) -> str:
        return f"p.{self.page} L{self.line_start}-L{self.line_end}"


def canonical_locator(text: str) -> str:
    """The canonical spelling of a locator string (raises ValueError on a malformed one)."""
    return str(Locator.parse(text))


_SOURCE_ID_RE = re.compile(r"^[^\x00-\x1f#\\]{1,512}$")


def check_source_id(value: str) -> str:
    # A trailing `@v<N>` would read as a version pin inside an EvidenceRef.
    pinned_look_alike = re.search(r"@v\d+$", value) is not None
    if not _SOURCE_ID_RE.match(value) or value.startswith("/") or ".." in value.split("/") or pinned_look_alike:
        raise ValueError(f"not a valid source_id: {value!r}")
    return value


class EvidenceRef(Contract):
    """`doc://<source_id>#<locator>`, optionally pinned to a version: `doc://<source_id>@v2#<locator>`."""

    source_id: str
    locator: str
    version: int | None = Field(default=None, ge=1)

    _source_ok = field_validator("source_id")(check_source_id)

    @field_validator("locator")
    @classmethod
    def _locator_ok(cls, value: str) -> str:
        return canonical_locator(value)

    @classmethod
    def parse(cls, ref: str) -> EvidenceRef:
        if not isinstance(ref, str) or not ref.startswith("doc://") or "#" not in ref:
            raise ValueError(f"not an EvidenceRef: {ref!r} (expected 'doc://<source_id>#<locator>')")
        body, locator = ref[len("doc://") :].split("#", 1)
        version: int | None = None
        pinned = re.match(r"^(?P<sid>.+)@v(?P<v>[1-9]\d*)$", body)
        if pinned:
            body, version = pinned["sid"], int(pinned["v"])
        return cls(source_id=body, locator=locator, version=version)

    def __str__(self) -> str:
        pin = f"@v{self.version}" if self.version is not None else ""
        return f"doc://{self.source_id}{pin}#{self.locator}"


# --- Sources and evidence ------------------------------------------------------------------------------


class Source(Contract):
    """One version of one ingested document, as the locator index records it."""

    source_id: str
    version: int = Field(ge=1)
    content_hash: str = Field(description="sha256 of the normalized text the tools quote")
    media_type: Literal["text/plain", "text/markdown", "application/pdf"]
    title: str
    policy_label: str = "public"
    license: str | None = None
    attribution: str | None = None
    provenance_kind: ProvenanceKind = "unknown"
    n_pages: int = Field(ge=1)
    n_lines: int = Field(ge=1)
    ingested_at: datetime
    current: bool = True


class PolicyDecision(Contract):
    decision: Literal["allow", "deny"]
    reason: str = ""
    obligations_applied: list[str] = Field(default_factory=list)


class EvidenceBundle(Contract):
    """What resolving an EvidenceRef under the caller's policy returns: the only admissible ground truth."""

    bundle_id: str = Field(description="sha256 over ref, version and text digest")
    ref: str
    source_id: str
    version: int
    locator: str
    text: str = Field(description="verbatim text at the locator, after policy obligations")
    digest: str = Field(description="sha256 of `text`")
    content_hash: str = Field(description="sha256 of the whole source version")
    license: str | None = None
    attribution: str | None = None
    provenance_kind: ProvenanceKind = "unknown"
    policy: PolicyDecision
    flags: list[str] = Field(default_factory=list, description="e.g. instructional_text")


# --- The Answer Object: what a model drafts ---------------------------------------------------------------------


class Support(Contract):
    source_id: str
    locator: str
    quote: str = Field(min_length=1)


class CalcDerivation(Contract):
    """A number derived with `calc` from quoted operands; the validator recomputes it."""

    expr: str
    value: str


class Fact(Contract):
    text: str = Field(min_length=1)
    support: list[Support] = Field(default_factory=list)
    coverage: float = Field(default=0.0, ge=0.0, le=1.0)
    key: str | None = Field(default=None, description="normalized subject•predicate, for conflict checks")
    value: str | None = None
    calc: CalcDerivation | None = None
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    secondary_only: bool = False


GapWhy = Literal["no_quote_found", "low_coverage", "access_denied", "clarify_timeout"]


class Gap(Contract):
    need: str
    why: GapWhy


class ConflictValue(Contract):
    value: str
    source_id: str
    locator: str
    quote: str


class Conflict(Contract):
    key: str
    values: list[ConflictValue] = Field(min_length=2)
    delta: str = ""
    notes: str = ""


class CitationIndexEntry(Contract):
    source_id: str
    ingest_hash: str


class Extractions(Contract):
    entities: list[str] = Field(default_factory=list)
    numbers: list[str] = Field(default_factory=list)
    dates: list[str] = Field(default_factory=list)


class AnswerObject(Contract):
    mode: Literal["answer", "report_insufficient_evidence"]
    answer: str = ""
    facts: list[Fact] = Field(default_factory=list)
    gaps: list[Gap] = Field(default_factory=list)
    conflicts: list[Conflict] = Field(default_factory=list)
    analysis: str = ""
    citations_index: list[CitationIndexEntry] = Field(default_factory=list)
    extractions: Extractions = Field(default_factory=Extractions)
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)


class AnswerLevels(Contract):
    level1: str
    level2: str
    level3: str


GateStatus = Literal["proceed", "clarify", "proceed_after_clarify_timeout", "deny"]


class Draft(Contract):
    """What a model hands the gate: the visible three-level answer and the Answer Object behind it."""

    levels: AnswerLevels
    evidence: AnswerObject


# --- Requests and responses ------------------------------------------------------------------------------


class ReasonCode(StrEnum):
    """Why a run abstained: a closed set, worded so none of them reveals a restricted source."""

    NO_EVIDENCE = "no_evidence"
    INSUFFICIENT_EVIDENCE = "insufficient_evidence"
    CONFLICT_UNRESOLVED = "conflict_unresolved"
    CLARIFY_TIMEOUT = "clarify_timeout"
    NOT_PERMITTED = "not_permitted"
    VERIFICATION_FAILED = "verification_failed"
    RETRIEVAL_UNAVAILABLE = "retrieval_unavailable"
    MODEL_ERROR = "model_error"


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("question is blank")
    return value


# The request fields every front end shares (the Agent API here, the HTTP body in agent/server/models.py).
Question = Annotated[str, Field(min_length=1, max_length=4000), AfterValidator(_not_blank)]
CONTEXT_KEY_PATTERN = r"^[A-Za-z0-9_.-]+$"
CONTEXT_KEY_MAX = 64
CONTEXT_VALUE_MAX = 2000
MAX_CONTEXT_ITEMS = 32
ContextKey = Annotated[str, Field(min_length=1, max_length=CONTEXT_KEY_MAX, pattern=CONTEXT_KEY_PATTERN)]
ContextValue = Annotated[str, Field(max_length=CONTEXT_VALUE_MAX)]
SessionId = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9._:-]+$")]


class AskRequest(Contract):
    """One question for `Agent.ask`, `aask`, `stream` and `astream`: the asker's role, labels and session."""

    question: Question
    session_id: SessionId | None = None
    role: str = Field(default="public", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    labels: list[Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")]] = Field(
        default_factory=list, max_length=32
    )
    context: dict[ContextKey, ContextValue] = Field(
        default_factory=dict, max_length=MAX_CONTEXT_ITEMS, description="clarify replies: field -> value"
    )


class ResumeRequest(Contract):
    """The replies to a paused run's clarify questions, for `Agent.resume` and its async and streamed twins."""

    session_id: SessionId
    replies: dict[ContextKey, ContextValue] = Field(
        max_length=MAX_CONTEXT_ITEMS, description="clarify replies: field -> value"
    )


class Citation(Contract):
    ref: str
    bundle_id: str


class Meta(Contract):
    run_id: str
    model_id: str
    latency_ms: float = Field(ge=0)
    schema_version: Literal["v1"] = SCHEMA_VERSION


class ClarifyQuestion(Contract):
    field: str
    prompt: str
    options: list[str] = Field(default_factory=list)
    allow_free_text: bool = True


class ClarifyNotes(Contract):
    reason: list[Literal["UnknownIntent", "AmbiguousSubject", "InsufficientParameters", "InsufficientGrounding"]]


class AnswerEnvelope(Contract):
    status: Literal["answer"] = "answer"
    answer: AnswerLevels
    evidence: AnswerObject
    citations: list[Citation] = Field(min_length=1)
    audit_ref: str
    meta: Meta


class AbstainEnvelope(Contract):
    status: Literal["abstain"] = "abstain"
    reason_code: ReasonCode
    answer: AnswerLevels
    gaps: list[Gap] = Field(default_factory=list)
    remediation_hints: list[str] = Field(default_factory=list)
    evidence: AnswerObject | None = None
    audit_ref: str
    meta: Meta


class ClarifyEnvelope(Contract):
    status: Literal["clarify"] = "clarify"
    session_id: str
    questions: list[ClarifyQuestion] = Field(min_length=1)
    notes: ClarifyNotes
    audit_ref: str
    meta: Meta


class ErrorEnvelope(Contract):
    """A run that could not end in an answer, an abstention or a clarify (the audit ledger refused its receipt,
    the store failed). `message` is fixed text per `code`: never an exception's text, a path or a source name."""

    status: Literal["error"] = "error"
    code: ErrorCode
    message: str
    retryable: bool
    audit_ref: str = Field(description="the error's receipt; it resolves to nothing when the ledger itself failed")
    meta: Meta


Envelope = Annotated[AnswerEnvelope | AbstainEnvelope | ClarifyEnvelope | ErrorEnvelope, Field(discriminator="status")]


# --- Tool results and retrieval pointers -------------------------------------------------------------------


class SearchHit(Contract):
    locator: str
    snippet: str


class QuoteResult(Contract):
    source_id: str
    locator: str
    quote: str


class CalcResult(Contract):
    value: str


class RetrievalHit(Contract):
    """A pointer from retrieval: never text. Text is only read through the tools."""

    source_id: str
    version: int
    locator: str
    score: float
    lexical_rank: int | None = None
    dense_rank: int | None = None

    def ref(self) -> EvidenceRef:
        return EvidenceRef(source_id=self.source_id, locator=self.locator)
