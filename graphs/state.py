"""The graph's state: a TypedDict of typed values whose list and dict fields merge through Annotated reducers.

The values are the contracts themselves (`Draft`, `EvidenceBundle`, `RetrievalHit`, the gate's `Finding`) and
the small models below, so a node reads and writes typed objects and never re-validates what another node
wrote. A checkpointer stores them through LangGraph's serializer; `graphs/checkpoints.py` names the types it
may rebuild. A thread is a session: `context` and `clarify_counters` persist across questions on the same
thread; the per-run fields are reset by the caller's input (`langgraph.types.Overwrite`).
"""

from __future__ import annotations

import hashlib
import operator
from typing import Annotated, Any, Literal, TypedDict, TypeVar

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict as SchemaDict

from quotebound.agent.core.contracts import (
    AbstainEnvelope,
    AnswerEnvelope,
    ClarifyNotes,
    ClarifyQuestion,
    Draft,
    EvidenceBundle,
    GateStatus,
    ReasonCode,
    RetrievalHit,
)
from quotebound.agent.gate import Finding, GateReport

V = TypeVar("V")
Signal = Literal["UnknownIntent", "AmbiguousSubject", "InsufficientParameters", "InsufficientGrounding"]
Source = Literal["text", "session"]  # where a question's values come from: its own text, the session


def merge_dicts(left: dict[str, V] | None, right: dict[str, V] | None) -> dict[str, V]:
    return {**(left or {}), **(right or {})}


class _Record(BaseModel):
    """A state record: strict keys, and immutable once written (a later node cannot edit what an earlier one
    recorded, nor what the gate checked)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Failure(_Record):
    """Why the run must abstain, as the envelope and the receipt tell it. `detail` is an error code or an
    exception's class name, never its text; `topic` is a policy denial's topic, kept for the receipt only."""

    reason_code: ReasonCode
    detail: str | None = None
    topic: str | None = None


class ResolvedContext(_Record):
    """What preflight found the question referring to: where its values come from, and which session keys
    ("my unit" -> unit) join the question downstream."""

    sources: list[Source] = Field(default_factory=list)
    keys: list[str] = Field(default_factory=list)


class ClarifyPlan(_Record):
    """Preflight's outcome for clarify: the questions to ask (and why), or, when nothing needs asking, the
    session values the question refers to."""

    questions: list[ClarifyQuestion] = Field(default_factory=list)
    notes: ClarifyNotes = Field(default_factory=lambda: ClarifyNotes(reason=[]))
    round: int = 0
    resolved_context: ResolvedContext | None = None


class ClarifyCounter(TypedDict):
    """How often one clarify prompt was asked, and when last (epoch seconds)."""

    count: int
    last: float


class ToolCall(_Record):
    """One tool call of the model, as the state and the run's trace keep it: `result` is a truncated JSON
    summary (None for a failed call); the receipt keeps only a hash of `args`."""

    name: str
    node: str
    args: dict[str, Any]  # the model's own arguments, as it sent them
    ok: bool
    result: str | None
    error: str | None
    ms: float
    at: float = 0.0  # when the call started (epoch seconds)


def draft_digest(draft: Draft) -> str:
    """The sha256 of a draft's JSON: what ties a gate report to the exact draft it checked."""
    return hashlib.sha256(draft.model_dump_json().encode("utf-8")).hexdigest()


class CheckedReport(GateReport):
    """The gate's report on one exact draft. `ok` also counts the caller's own guard; `draft_sha256` is the
    `draft_digest` of the draft checked, so a terminal ships a draft only if it is that one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    draft_sha256: str

    @classmethod
    def of(cls, report: GateReport, draft_sha256: str, *, ok: bool) -> CheckedReport:
        fields = {name: getattr(report, name) for name in GateReport.model_fields}
        return cls(**{**fields, "ok": ok, "draft_sha256": draft_sha256})

    def passed(self, draft: Draft | None) -> bool:
        """True when the gate passed `draft` itself (not an earlier draft, nor one changed since)."""
        return self.ok and draft is not None and self.draft_sha256 == draft_digest(draft)


TerminalEnvelope = AnswerEnvelope | AbstainEnvelope


class RunState(TypedDict, total=False):
    # the request
    run_id: str
    question: str
    role: str
    labels: list[str]
    session_id: str
    started_at: float
    # the session (persists across runs on one thread)
    context: Annotated[dict[str, str], merge_dicts]
    clarify_counters: Annotated[dict[str, ClarifyCounter], merge_dicts]
    # preflight
    gate: GateStatus
    signals: list[Signal]
    missing: list[str]
    clarify: ClarifyPlan | None
    # evidence
    hits: list[RetrievalHit]
    bundles: list[EvidenceBundle]
    # drafting and the gate
    draft: Draft | None
    findings: list[Finding]
    gate_report: CheckedReport | None
    repairs: int
    failure: Failure | None
    # the record of the run
    path: Annotated[list[str], operator.add]
    tool_calls: Annotated[list[ToolCall], operator.add]
    envelope: TerminalEnvelope | None


def checked_draft(state: RunState) -> Draft | None:
    """The draft the gate passed, if the state's report is bound to the state's draft; None otherwise."""
    draft = state.get("draft")
    report = state.get("gate_report")
    return draft if report is not None and report.passed(draft) else None


# --- the graph served by a LangGraph server (agent/facade/entry.py) ----------------------------------------------
# `typing_extensions.TypedDict`: pydantic, which renders the input and output schemas LangGraph Studio shows, reads
# `typing.TypedDict` only from Python 3.12 on.


class ServedInput(SchemaDict, total=False):
    """What a LangGraph client sends: a `question`, or a chat's `messages` (the last one, a human message, is the
    question). The caller's role and labels are not input: they come from LangGraph's auth layer
    (agent/server/langgraph_auth.py). `context` holds values the caller already knows (e.g. {"unit": "4B"})."""

    question: str
    messages: Annotated[list[AnyMessage], add_messages]
    context: Annotated[dict[str, str], merge_dicts]


class ServedOutput(SchemaDict, total=False):
    """What a served run returns: the `envelope` (answer, abstain or error; a clarify pause comes as the run's
    interrupt), the same as an AI message appended to `messages`, and the session's clarified values."""

    envelope: dict[str, Any] | None
    messages: Annotated[list[AnyMessage], add_messages]
    context: Annotated[dict[str, str], merge_dicts]
