"""What the gate reports: one `Finding` per broken rule, and the `GateReport` that gathers them."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class FindingCode(StrEnum):
    """Why a draft was blocked (or, for the non-blocking ones, annotated)."""

    SCHEMA = "schema"
    NO_SUPPORT = "no_support"
    NO_CITATIONS = "no_citations"
    UNKNOWN_SOURCE = "unknown_source"
    FAKE_LOCATOR = "fake_locator"
    QUOTE_NOT_VERBATIM = "quote_not_verbatim"
    REF_NOT_RESOLVED = "ref_not_resolved"
    QUOTE_TOO_SMALL = "quote_too_small"  # whitespace, a character or a lone word: too little to carry a claim
    QUOTE_DROPS_QUALIFIER = "quote_drops_qualifier"  # cut inside a clause, leaving out its "not", "no", "only" ...
    UNSUPPORTED_TOKEN = "unsupported_token"
    CALC_MISMATCH = "calc_mismatch"
    CALC_OPERAND_UNQUOTED = "calc_operand_unquoted"
    CONFLICT_OMITTED = "conflict_omitted"
    CONFLICT_VALUE_UNQUOTED = "conflict_value_unquoted"
    CLARIFY_REQUIRED = "clarify_required"
    CLARIFY_TIMEOUT_NOT_REPORTED = "clarify_timeout_not_reported"
    INSTRUCTIONAL_SUPPORT = "instructional_support"
    UNGROUNDED_TEXT = "ungrounded_text"  # no longer raised (claim support replaced it); older reports still parse
    UNSUPPORTED_CLAIM = "unsupported_claim"  # a claim's content words are not in the quotes cited for it
    MEANING_CHANGED = "meaning_changed"  # polarity, modality, direction or order differs from the quote's
    VALUE_UNBOUND = "value_unbound"  # a value stated for a subject (or unit) its quote does not give it to
    NOT_AN_ANSWER = "not_an_answer"  # the answer does not answer the question asked (type, subject, document)
    CONFLICT_NOT_REAL = "conflict_not_real"  # a listed conflict whose values are not about the same slot
    INPUT_BOUNDS = "input_bounds"  # the draft is too large, or checking it passed the deadline: fail closed
    SECONDARY_ONLY = "secondary_only"  # annotate, never block: the fact is still quoted, just weaker
    USER_GUARD = "user_guard"  # a caller's own guardrails-ai Guard failed


class Finding(BaseModel):
    """One broken rule, worded so the drafting model can repair it (and never naming a hidden source)."""

    model_config = ConfigDict(extra="forbid")

    code: FindingCode
    message: str
    fact_index: int | None = None
    token: str | None = None
    blocking: bool = True


class GateReport(BaseModel):
    """The gate's verdict: `ok` is True when no finding blocks."""

    model_config = ConfigDict(extra="forbid")

    ok: bool
    findings: list[Finding] = Field(default_factory=list)
    fact_confidence: list[float] = Field(default_factory=list)
    citation_confidence: list[list[float]] = Field(default_factory=list, description="per fact, per support")
    answer_confidence: float = 0.0
    secondary_only: list[int] = Field(default_factory=list, description="facts supported only by secondary sources")

    @property
    def blocking(self) -> list[Finding]:
        return [f for f in self.findings if f.blocking]

    def codes(self) -> set[FindingCode]:
        return {f.code for f in self.findings}
