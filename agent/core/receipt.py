"""`Receipt`: the body of one audit receipt (the run's tamper-evident record), written for every run whatever its end.

What it keeps: who asked (role, labels), what (the question's sha256, its text only where the policy keeps it
for that caller), when, the node path, every tool call (arguments hashed), the evidence bundles (ref, digest,
bundle id, policy decision and obligations), instructional-text flags, refused tool calls, the policy pre-check,
model id and version, prompt and policy versions, the gate's findings (codes only), the output's hash, latency,
status and reason. What it never keeps: source text, quotes, model output, exception messages.

Receipts are governed artifacts themselves: `agent/audit/receipt_view.py` redacts one for the role reading it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Final, Literal

from pydantic import Field

from quotebound.agent.core.contracts import Contract, PolicyDecision, ReasonCode
from quotebound.agent.core.errors import ErrorCode

RECEIPT_SCHEMA_VERSION: Final = "receipt.v1"
# Tool calls a registry refused before running any tool: outside the allowlist, over the limit, bad arguments.
REFUSED_TOOL_ERRORS = frozenset(
    {ErrorCode.TOOL_NOT_ALLOWED.value, ErrorCode.TOOL_CALL_LIMIT.value, ErrorCode.INVALID_TOOL_ARGUMENTS.value}
)

RunStatus = Literal["answer", "abstain", "clarify", "error"]
Sha256 = Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$")]


class ReceiptCaller(Contract):
    role: str
    labels: list[str] = Field(default_factory=list)


class ReceiptQuery(Contract):
    sha256: Sha256 = Field(description="of the question as asked")
    text: str | None = Field(default=None, description="only where the policy keeps query text for the caller")
    context_sha256: Sha256 | None = Field(default=None, description="of the session's clarify replies, if any")
    context: dict[str, str] | None = Field(default=None, description="the replies, kept like `text`")


class ReceiptToolCall(Contract):
    name: str = Field(max_length=64, description="as the model asked (truncated): it may not be a real tool")
    node: str
    ok: bool
    error: str | None = None
    args_sha256: Sha256
    ms: float | None = None


class ReceiptBundle(Contract):
    """One evidence bundle the model was given."""

    ref: str
    source_id: str
    bundle_id: str
    digest: str
    policy: PolicyDecision


class ReceiptCitation(Contract):
    ref: str
    bundle_id: str


class ReceiptFlag(Contract):
    """Instructional text (possible prompt injection) found in a bundle: recorded, never obeyed."""

    ref: str
    locator: str


class ReceiptPrecheck(Contract):
    """The policy pre-check on the question (before retrieval). `topic` names a restricted topic."""

    decision: Literal["allow", "deny"]
    reason: str | None = None
    topic: str | None = None


class ReceiptPolicy(Contract):
    version: str
    precheck: ReceiptPrecheck | None = Field(default=None, description="None when the run ended before it")
    obligations_applied: list[str] = Field(default_factory=list, description="union over the bundles")


class ReceiptModel(Contract):
    id: str
    version: str


class ReceiptFinding(Contract):
    code: str
    blocking: bool = True


class ReceiptGate(Contract):
    preflight: str | None = Field(default=None, description="proceed | clarify | proceed_after_clarify_timeout | deny")
    signals: list[str] = Field(default_factory=list)
    passed: bool | None = Field(default=None, description="the hard gate's verdict; None when it never ran")
    findings: list[ReceiptFinding] = Field(default_factory=list)
    repairs: int = 0


class Receipt(Contract):
    schema_version: Literal["receipt.v1"] = RECEIPT_SCHEMA_VERSION
    audit_ref: str
    run_id: str
    session_id: str | None = None
    status: RunStatus
    reason_code: ReasonCode | None = None
    error_code: ErrorCode | None = None
    failure_detail: str | None = Field(default=None, description="an error code or exception class, never its text")
    caller: ReceiptCaller
    query: ReceiptQuery
    started_at: datetime
    finished_at: datetime
    latency_ms: float = Field(ge=0)
    path: list[str] = Field(default_factory=list, description="the nodes that ran, in order")
    error_at: list[str] = Field(default_factory=list, description="the node(s) running when an error ended the run")
    tool_calls: list[ReceiptToolCall] = Field(default_factory=list)
    refused_tool_calls: list[ReceiptToolCall] = Field(default_factory=list)
    bundles: list[ReceiptBundle] = Field(default_factory=list)
    citations: list[ReceiptCitation] = Field(default_factory=list)
    instructional_flags: list[ReceiptFlag] = Field(default_factory=list)
    policy: ReceiptPolicy
    model: ReceiptModel
    prompt_versions: dict[str, str] = Field(default_factory=dict, description="prompt name -> sha256 of its file")
    gate: ReceiptGate = Field(default_factory=ReceiptGate)
    output_sha256: Sha256 = Field(description="of the envelope returned, as canonical JSON")
