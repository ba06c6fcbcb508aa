"""The two terminals: `verified_answer` and `abstain`. Each builds its envelope and writes the run's receipt."""

from __future__ import annotations

import time
from collections.abc import Iterable

from langgraph.runtime import Runtime

from quotebound.agent.audit import new_audit_ref
from quotebound.agent.core.contracts import (
    AbstainEnvelope,
    AnswerEnvelope,
    AnswerLevels,
    AnswerObject,
    Citation,
    CitationIndexEntry,
    Draft,
    EvidenceBundle,
    Gap,
    Meta,
    ReasonCode,
)
from quotebound.agent.core.errors import ModelError
from quotebound.agent.models.extractive_write import extractions
from quotebound.graphs.context import RunContext
from quotebound.graphs.faults import is_store_fault
from quotebound.graphs.names import Node
from quotebound.graphs.receipts import write_receipt
from quotebound.graphs.state import Failure, RunState, checked_draft
from quotebound.graphs.timing import is_ordinary_abstention
from quotebound.tools.context import ToolContext
from quotebound.tools.injection import is_instructional
from quotebound.tools.policy import Caller
from quotebound.tools.resolve_evidence import resolve_evidence

_WHY: dict[ReasonCode, str] = {
    ReasonCode.NO_EVIDENCE: "no passage in the documents available to you answers this question",
    ReasonCode.INSUFFICIENT_EVIDENCE: "the documents available to you do not support a complete answer",
    ReasonCode.CONFLICT_UNRESOLVED: "the documents disagree and the disagreement could not be reported reliably",
    ReasonCode.CLARIFY_TIMEOUT: "the detail needed for a precise answer was not supplied",
    ReasonCode.NOT_PERMITTED: "this topic is not open to your role",
    ReasonCode.VERIFICATION_FAILED: "the drafted answer could not be verified against its quotes",
    ReasonCode.RETRIEVAL_UNAVAILABLE: "the document index is unavailable right now",
    ReasonCode.MODEL_ERROR: "the answering model failed",
}
_RETRY_LATER = "Try again later; if it persists, tell the operator and quote the audit_ref."
# quotebound itself failed (the answering model, the index): the documents were never fully searched, so the
# envelope must not read like missing evidence (no "Insufficient evidence", no `no_quote_found` gap).
_SYSTEM_FAILURES = frozenset({ReasonCode.MODEL_ERROR, ReasonCode.RETRIEVAL_UNAVAILABLE})
_NO_ANSWER = {
    ReasonCode.MODEL_ERROR: "No answer: the answering model failed",
    ReasonCode.RETRIEVAL_UNAVAILABLE: "No answer: the document index is unavailable",
}
_MAX_TOPICS = 6
# What the caller sees when nothing verifiable answers. A policy denial the caller may not be told about reads
# exactly like this, so the envelope cannot reveal that something hidden exists.
_NOTHING_FOUND_GAP = Gap(
    need="a passage, in the documents available to you, that answers the question", why="no_quote_found"
)


def _meta(state: RunState, ctx: RunContext) -> Meta:
    return Meta(
        run_id=state["run_id"],
        model_id=ctx.model.model_id,
        latency_ms=round((time.time() - state["started_at"]) * 1000, 1),
    )


def _abstain_reason(state: RunState, draft: Draft | None, gate_ok: bool) -> ReasonCode:
    failure = state.get("failure")
    if failure is not None:
        return failure.reason_code
    if state.get("gate") == "proceed_after_clarify_timeout":
        return ReasonCode.CLARIFY_TIMEOUT
    if not gate_ok:
        return ReasonCode.VERIFICATION_FAILED
    if draft is not None and draft.evidence.facts:
        return ReasonCode.INSUFFICIENT_EVIDENCE
    return ReasonCode.NO_EVIDENCE


def _caller(state: RunState) -> Caller:
    return Caller(role=state.get("role", "public"), labels=frozenset(state.get("labels") or ()))


def shown_reason(reason: ReasonCode, caller: Caller, ctx: RunContext) -> ReasonCode:
    """The reason the caller is told: a denial is `not_permitted` only for roles the policy lets see denials."""
    if reason is ReasonCode.NOT_PERMITTED and not ctx.policy.reveals_denials(caller):
        return ReasonCode.NO_EVIDENCE
    return reason


def _covered_topics(caller: Caller, ctx: RunContext) -> list[str]:
    """Titles of current sources this caller may read: the safe alternatives (never a hidden one)."""
    tools = ctx.tools_for(caller.role, sorted(caller.labels))
    try:
        titles = {source.title for source in ctx.corpus.sources() if tools.can_read(source.source_id)}
    except Exception as exc:
        if not is_store_fault(exc):
            raise
        return []  # a broken store still gets its abstention (the hints just lack topics)
    titles = {title for title in titles if not is_instructional(title)}  # a title is document text: never injected text
    return sorted(titles, key=str.casefold)[:_MAX_TOPICS]


def remediation_hints(reason: ReasonCode, caller: Caller, ctx: RunContext) -> list[str]:
    """What the caller can do instead: rephrase, broaden, a covered topic, how to ask for access. Depends on
    the shown reason and on what the caller may read only, so a hidden source changes nothing here."""
    if reason in (ReasonCode.RETRIEVAL_UNAVAILABLE, ReasonCode.MODEL_ERROR):
        return [_RETRY_LATER]
    hints: list[str] = []
    if reason is ReasonCode.CLARIFY_TIMEOUT:
        hints.append("Ask again and answer the clarifying question(s) to get a precise answer.")
    elif reason is ReasonCode.CONFLICT_UNRESOLVED:
        hints.append("Ask about one document or one date at a time, so each value can be quoted with its source.")
    else:
        hints.append("Rephrase the question with the exact term, name or section you are looking for.")
        hints.append("Ask a broader question (a wider time window, the general rule instead of one case).")
    topics = _covered_topics(caller, ctx)
    if topics:
        hints.append("Topics the documents available to you cover: " + "; ".join(topics) + ".")
    access = ctx.settings.access_request_hint or ctx.policy.access_request_hint
    if access and reason is not ReasonCode.CLARIFY_TIMEOUT:
        hints.append(access)
    hints.append("When you follow up with a steward, quote this answer's audit_ref.")
    return hints


def _resolve_support(tools: ToolContext, source_id: str, locator: str, quote: str) -> EvidenceBundle | None:
    """The bundle a support cites, as the caller may read it now, or None when it no longer holds the quote."""
    try:
        bundle = resolve_evidence(tools, f"doc://{source_id}#{locator}")
    except ModelError:
        return None
    return bundle if _holds(quote, bundle.text) else None


def _citations_index(bundles: Iterable[EvidenceBundle]) -> list[CitationIndexEntry]:
    """The citations index the caller sees, built by the system: one entry per cited source, in order of first
    citation, with the content hash of the source version the quote was resolved in. The model's own
    `citations_index` is never shown or trusted: it is replaced by this one wherever a draft's evidence ships."""
    index: dict[str, CitationIndexEntry] = {}
    for bundle in bundles:
        index.setdefault(
            bundle.source_id, CitationIndexEntry(source_id=bundle.source_id, ingest_hash=bundle.content_hash)
        )
    return list(index.values())


def _shown_evidence(evidence: AnswerObject, tools: ToolContext) -> AnswerObject:
    """A passed draft's evidence as an abstention shows it, its citations index rebuilt from the supports that
    still resolve (one that no longer does is left out of the index, never taken from the model) and its
    extractions read from the checked quotes."""
    shown = evidence.model_copy(deep=True)
    bundles = (_resolve_support(tools, s.source_id, s.locator, s.quote) for fact in shown.facts for s in fact.support)
    shown.citations_index = _citations_index(b for b in bundles if b is not None)
    shown.extractions = extractions(shown.facts)  # read from the checked quotes, never the model's
    return shown


def _abstention(state: RunState, ctx: RunContext, node: Node) -> AbstainEnvelope:
    caller = _caller(state)
    passed = checked_draft(state)
    draft = state.get("draft")
    reason = shown_reason(_abstain_reason(state, draft, passed is not None), caller, ctx)
    # Only a draft that passed the gate and has verified facts may show its (partial) evidence and gaps; with no
    # facts every abstention reads the same, whatever the model wrote, so its wording cannot leak anything either.
    shown = passed if (passed is not None and passed.evidence.facts) else None
    if reason is ReasonCode.NO_EVIDENCE or reason in _SYSTEM_FAILURES:
        shown = None
    gaps = list(shown.evidence.gaps) if shown else []
    if not gaps and reason not in _SYSTEM_FAILURES:  # a failed model or index is not missing evidence
        if reason is ReasonCode.CLARIFY_TIMEOUT:
            missing = ", ".join(state.get("missing") or []) or "the details asked for"
            gaps = [Gap(need=f"the clarifying details that were not supplied: {missing}", why="clarify_timeout")]
        else:
            gaps = [_NOTHING_FOUND_GAP]
    explanation = _WHY[reason]
    level2 = shown.levels.level2 if shown else f"quotebound answers only with verified quotes; {explanation}."
    envelope = AbstainEnvelope(
        reason_code=reason,
        answer=AnswerLevels(
            level1=shown.levels.level1 if shown else _NO_ANSWER.get(reason, "Insufficient evidence"),
            level2=level2,
            level3=f"Citations: None — {explanation}.",
        ),
        gaps=gaps,
        remediation_hints=remediation_hints(reason, caller, ctx),
        evidence=_shown_evidence(shown.evidence, ctx.tools_for(caller.role, sorted(caller.labels))) if shown else None,
        audit_ref=new_audit_ref(),
        meta=_meta(state, ctx),
    )
    write_receipt(ctx, {**state, "path": [*state.get("path", []), node.value]}, envelope)
    return envelope


def abstain(state: RunState, runtime: Runtime[RunContext]) -> RunState:
    reached = time.time()
    envelope = _abstention(state, runtime.context, Node.ABSTAIN)
    if is_ordinary_abstention(state, envelope.reason_code):  # what a hidden denial's latency is drawn from
        runtime.context.abstention_times.observe(state["started_at"], reached)
    return {"path": [Node.ABSTAIN.value], "envelope": envelope}


def _holds(quote: str, text: str) -> bool:
    """The quote is still in the text to be cited: verbatim, or once whitespace is collapsed (as the gate allows)."""
    return quote in text or (bool(quote.strip()) and " ".join(quote.split()) in " ".join(text.split()))


def _unverified(state: RunState, ctx: RunContext, detail: str) -> RunState:
    """`verified_answer` failing closed: an abstention (`verification_failed`) with its receipt, showing nothing of
    the draft (without it `_abstention` has no passed draft whose partial evidence it could show). The receipt
    keeps the gate's verdict as it was, and says why the terminal refused (`failure_detail`)."""
    failure = Failure(reason_code=ReasonCode.VERIFICATION_FAILED, detail=detail)
    abstention = _abstention({**state, "failure": failure, "draft": None}, ctx, Node.VERIFIED_ANSWER)
    return {"path": [Node.VERIFIED_ANSWER.value], "failure": failure, "envelope": abstention}


def verified_answer(state: RunState, runtime: Runtime[RunContext]) -> RunState:
    ctx = runtime.context
    draft = checked_draft(state)
    report = state.get("gate_report")
    if draft is None or report is None or draft.evidence.mode != "answer":
        # The route sends only a passed answer here; anything else (a report about another draft, a draft
        # changed since it was checked) ships nothing of the draft.
        return _unverified(state, ctx, "unchecked_draft")
    tools = ctx.tools_for(state.get("role", "public"), state.get("labels"))
    evidence = draft.evidence.model_copy(deep=True)
    for fact, confidence in zip(evidence.facts, report.fact_confidence, strict=False):
        fact.confidence = round(confidence, 4)
    for index in set(report.secondary_only):
        if index < len(evidence.facts):
            evidence.facts[index].secondary_only = True
    evidence.confidence = round(report.answer_confidence, 4)
    citations: dict[str, Citation] = {}
    resolved: list[EvidenceBundle] = []
    for fact in evidence.facts:
        for support in fact.support:
            bundle = _resolve_support(tools, support.source_id, support.locator, support.quote)
            if bundle is None:
                # The source changed (or went) between the gate and here: what was checked is not what would be
                # cited. Nothing of the draft ships; the receipt says why.
                return _unverified(state, ctx, "citation_changed_after_gate")
            resolved.append(bundle)
            citations.setdefault(bundle.ref, Citation(ref=bundle.ref, bundle_id=bundle.bundle_id))
    # The citations (refs and bundle ids) and the citations index both come from the bundles just resolved for the
    # checked supports; whatever index the model wrote is replaced, whether it matched or not.
    evidence.citations_index = _citations_index(resolved)
    # The extractions (names, numbers, dates) are read by the system from the checked quotes, never taken from the
    # model: the caller sees only what the quotes state.
    evidence.extractions = extractions(evidence.facts)
    envelope = AnswerEnvelope(
        answer=draft.levels.model_copy(),
        evidence=evidence,
        citations=list(citations.values()),
        audit_ref=new_audit_ref(),
        meta=_meta(state, ctx),
    )
    write_receipt(ctx, {**state, "path": [*state.get("path", []), Node.VERIFIED_ANSWER.value]}, envelope)
    return {"path": [Node.VERIFIED_ANSWER.value], "envelope": envelope}
