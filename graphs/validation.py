"""`validate`: the hard gate. It recomputes every check itself (quotes, locators, tokens, conflicts, calc).

If checking fails (the store under the quotes, or the gate itself), the draft is unverified: the run abstains
(`retrieval_unavailable` for a store fault, `verification_failed` otherwise) and nothing of the draft ships."""

from __future__ import annotations

from typing import cast

from langgraph.runtime import Runtime

from quotebound.agent.core.contracts import Draft, Source
from quotebound.agent.core.errors import OperatorError
from quotebound.agent.gate import Finding, FindingCode, validate_draft
from quotebound.agent.gate.inputs import Paraphrase
from quotebound.agent.gate.paraphrase import paraphrase_scorer
from quotebound.graphs.context import RunContext
from quotebound.graphs.evidence import resolved_question
from quotebound.graphs.faults import gate_fault, is_store_fault, store_fault
from quotebound.graphs.names import Node
from quotebound.graphs.state import CheckedReport, RunState, draft_digest
from quotebound.tools.context import ToolContext
from quotebound.tools.injection import instructional_locators


def flagged_lines(draft: Draft, tools: ToolContext) -> dict[str, list[str]]:
    """Instructional lines of every source the draft cites, recomputed here rather than trusted from bundles: once
    per source version (a version's lines never change), then kept with the corpus for every later question."""
    cited = {s.source_id for f in draft.evidence.facts for s in f.support}
    cited |= {v.source_id for c in draft.evidence.conflicts for v in c.values}
    flagged: dict[str, list[str]] = {}
    for source_id in sorted(cited):
        if not tools.can_read(source_id):
            continue  # the gate reports it as an unknown source
        source = tools.corpus.source(source_id)
        if source is not None:
            flagged[source_id] = list(_instructional(tools, source))
    return flagged


def _instructional(tools: ToolContext, source: Source) -> tuple[str, ...]:
    """The instructional locators of one source version, kept with the corpus (keyed by its version and content
    hash, as the corpus's other readings are)."""
    key = ("instructional_locators", source.source_id, source.version, source.content_hash)
    found = tools.corpus.memo.get(key)
    if found is None:
        found = tuple(instructional_locators(tools.corpus.iter_lines(source.source_id, source.version)))
        tools.corpus.remember(key, found)
    return cast(tuple[str, ...], found)


def _paraphrase(ctx: RunContext) -> Paraphrase | None:
    """The gate's paraphrase scorer over the store's embedder (None for a hashing embedder, or when the embedder
    cannot be opened: the gate then accepts inflections only, which is stricter, never looser)."""
    try:
        return paraphrase_scorer(ctx.store.embedder)
    except (OperatorError, OSError):
        return None


def validate(state: RunState, runtime: Runtime[RunContext]) -> RunState:
    path = [Node.VALIDATE.value]
    # the draft's attempt number (1, then one more per repair), for a streamed run's progress
    runtime.stream_writer({"node": Node.VALIDATE.value, "attempt": state.get("repairs", 0) + 1})
    draft = state.get("draft")
    if draft is None:
        return {"path": path, "findings": [Finding(code=FindingCode.SCHEMA, message="no draft")], "gate_report": None}
    try:
        findings, report = _check(state, runtime.context, draft)
    except Exception as exc:  # the gate must never crash a run, and a draft it could not check never ships
        fault = store_fault(Node.VALIDATE, exc) if is_store_fault(exc) else gate_fault(Node.VALIDATE, exc)
        return {"path": path, "gate_report": None, "failure": fault}
    return {"path": path, "findings": findings, "gate_report": report}


def _check(state: RunState, ctx: RunContext, draft: Draft) -> tuple[list[Finding], CheckedReport]:
    checked = draft_digest(draft)  # taken first: the report vouches for the draft as it was when checked
    tools = ctx.tools_for(state.get("role", "public"), state.get("labels"))
    report = validate_draft(
        draft,
        bundles=state.get("bundles", []),
        ctx=tools,
        gate=state.get("gate", "proceed"),
        flagged=flagged_lines(draft, tools),
        conflict_tolerance_pct=ctx.settings.attempts.conflict_delta_percent,
        question=resolved_question(state),
        paraphrase=_paraphrase(ctx),
    )
    findings = list(report.findings)
    if ctx.user_guard is not None and report.ok:
        # guardrails-ai takes seconds to import: only a run with a caller's own Guard pays for it
        from quotebound.agent.gate.guardrails import run_user_guard

        findings += run_user_guard(ctx.user_guard, draft)
    ok = report.ok and not any(f.blocking for f in findings)
    return findings, CheckedReport.of(report, checked, ok=ok)
