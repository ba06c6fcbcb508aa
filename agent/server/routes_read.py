"""The read side: GET /evidence/{ref}, /runs/{run_id}/trace, /audit/{audit_ref}, /healthz.

No ghost metadata: what a caller may not read does not exist for them. Evidence in a restricted source, in a source
that does not exist, or at a locator that does not exist gets the same 404 body; a run someone else made reads like
a run that never was; audit is refused (403) to every role the policy does not let read it, whatever the ref, so a
403 never confirms that a receipt exists. Blocking work (the store, the ledger, traces) runs on worker threads.
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam

from quotebound.agent.audit.receipt_view import redact_receipt
from quotebound.agent.core.contracts import EvidenceRef, Locator, Source
from quotebound.agent.core.errors import QuoteboundError
from quotebound.agent.core.receipt import Receipt
from quotebound.agent.core.version import __version__
from quotebound.agent.runs.trace import RunTrace
from quotebound.agent.server.auth import Principal
from quotebound.agent.server.deps import PrincipalDep, Service, ServiceDep
from quotebound.agent.server.errors import NOT_FOUND_EVIDENCE, ApiError, ErrorBody
from quotebound.agent.server.models import AuditRecord, EvidencePolicy, EvidenceView, Health
from quotebound.tools.resolve_evidence import resolve_evidence

router = APIRouter()

# FastAPI's `responses` type: status code -> OpenAPI response fields.
Responses = dict[int | str, dict[str, Any]]
_401: Responses = {401: {"model": ErrorBody, "description": "unknown API key"}}
_404: Responses = {404: {"model": ErrorBody, "description": "nothing the caller may read by that name"}}
_422: Responses = {422: {"model": ErrorBody, "description": "a malformed path parameter"}}
NOT_FOUND_RUN = ApiError(404, "not_found", "no such run")
NOT_FOUND_RECEIPT = ApiError(404, "not_found", "no such receipt")
FORBIDDEN_AUDIT = ApiError(403, "forbidden", "reading audit receipts needs a role the policy lets read audit")


# --- evidence ----------------------------------------------------------------------------------------------


# The shape of an EvidenceRef (agent/core/contracts.py); a source id that no source can have fails later, as a 404.
REF_SHAPE = re.compile(r"^doc://[^#]{1,530}#p\.[1-9][0-9]{0,5} L[1-9][0-9]{0,6}(-L[1-9][0-9]{0,6})?$")
BAD_REF = ApiError(422, "bad_request", "not an evidence ref: expected doc://<source_id>#p.<page> L<start>-L<end>")


def _stand_in(source_id: str, version: int | None) -> Source:
    """What a missing source is looked at as, so that it costs what a hidden one does (`_readable`)."""
    return Source.model_validate(
        {
            "source_id": source_id,
            "version": version or 1,
            "content_hash": "sha256:" + "0" * 64,
            "media_type": "text/plain",
            "title": source_id,
            "n_pages": 1,
            "n_lines": 1,
            "ingested_at": _EPOCH,
        }
    )


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _readable(service: Service, principal: Principal, ref: str) -> bool:
    """Whether `ref` names a span the caller may read. The same work whatever the answer: one source lookup, one
    policy decision and one locator-index read, on a stand-in when there is no such source, so a hidden source's
    404 costs what a missing one's does (its timing cannot tell that something hidden exists)."""
    context = service.agent.context
    parsed = EvidenceRef.parse(ref)
    span = Locator.parse(parsed.locator)
    source = context.corpus.source(parsed.source_id, parsed.version)
    subject = source if source is not None else _stand_in(parsed.source_id, parsed.version)
    decision = context.policy.decide(service.caller(principal), subject)
    pages = context.corpus.page_lines(subject.source_id, subject.version)
    located = span.page <= len(pages) and span.line_end <= pages[span.page - 1]
    return source is not None and decision.decision == "allow" and located


def _evidence(service: Service, principal: Principal, ref: str) -> EvidenceView:
    context = service.agent.context
    tools = context.tools_for(principal.role, list(principal.labels))
    try:
        if not _readable(service, principal, ref):
            raise NOT_FOUND_EVIDENCE
        bundle = resolve_evidence(tools, ref)
        source = tools.readable_source(bundle.source_id, bundle.version)
    except (QuoteboundError, ValueError):
        # unknown source, hidden source, unknown locator, a span too long: all the same answer
        raise NOT_FOUND_EVIDENCE from None
    return EvidenceView(
        ref=bundle.ref,
        source_id=bundle.source_id,
        title=source.title,
        locator=bundle.locator,
        version=bundle.version,
        quote=bundle.text,
        license=bundle.license,
        attribution=bundle.attribution,
        provenance_kind=bundle.provenance_kind,
        policy=EvidencePolicy(
            decision=bundle.policy.decision, obligations_applied=list(bundle.policy.obligations_applied)
        ),
        badge=source.policy_label,
        bundle_id=bundle.bundle_id,
    )


@router.get(
    "/evidence/{ref:path}",
    response_model=EvidenceView,
    summary="One cited span, resolved under the caller's policy (the evidence drawer)",
    responses={**_401, **_404, **_422},
)
async def evidence(
    ref: Annotated[
        str,
        PathParam(
            max_length=600,
            description="a percent-encoded EvidenceRef, `doc://<source_id>[@v<N>]#p.<page> L<start>[-L<end>]`, "
            "e.g. doc%3A%2F%2Fbylaws.md%23p.1%20L3-L4",
        ),
    ],
    principal: PrincipalDep,
    service: ServiceDep,
) -> EvidenceView:
    # A malformed ref is a 422 (checked without the store); a well-formed one that names nothing the caller may
    # read is the same 404 as every other.
    if not REF_SHAPE.match(ref):
        raise BAD_REF
    return await asyncio.to_thread(_evidence, service, principal, ref)


# --- traces ------------------------------------------------------------------------------------------------


def _own_session(value: Any, prefix: str) -> Any:
    return value[len(prefix) :] if isinstance(value, str) and value.startswith(prefix) else value


# What a step's summaries say about the gate and a run's failure: for a caller whose policy hides denials, a policy
# denial must read like any other abstention, so these go from every trace they read (denied or not: their absence
# must not single out the denied ones). The path of a denied run is still shorter (it never retrieves).
_DENIAL_KEYS = frozenset({"gate", "failure"})


def _without_denials(trace: RunTrace) -> RunTrace:
    steps = [
        step.model_copy(
            update={
                "input": {k: v for k, v in step.input.items() if k not in _DENIAL_KEYS},
                "output": {k: v for k, v in step.output.items() if k not in _DENIAL_KEYS},
            }
        )
        for step in trace.steps
    ]
    return trace.model_copy(update={"steps": steps})


@router.get(
    "/runs/{run_id}/trace",
    response_model=RunTrace,
    summary="A run step by step: to the caller who ran it, and to roles that read audit",
    responses={**_401, **_404, **_422},
)
async def run_trace(
    run_id: Annotated[str, PathParam(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")],
    principal: PrincipalDep,
    service: ServiceDep,
) -> RunTrace:
    trace = await asyncio.to_thread(service.agent.trace, run_id)
    if trace is None:
        raise NOT_FOUND_RUN
    if trace.principal != principal.tag:
        if not service.reads_audit(principal):
            raise NOT_FOUND_RUN  # someone else's run reads exactly like no run
        return trace
    # The caller's own run: their own session_id, not the namespaced thread.
    prefix = principal.namespace + "."
    update: dict[str, Any] = {"session_id": _own_session(trace.session_id, prefix)}
    if isinstance(trace.envelope, dict) and "session_id" in trace.envelope:
        update["envelope"] = {**trace.envelope, "session_id": _own_session(trace.envelope["session_id"], prefix)}
    trace = trace.model_copy(update=update)
    if not service.agent.context.policy.reveals_denials(service.caller(principal)):
        trace = _without_denials(trace)
    return trace


# --- audit -------------------------------------------------------------------------------------------------


def _receipt(service: Service, principal: Principal, audit_ref: str) -> AuditRecord:
    context = service.agent.context
    row = service.agent.ledger.find(audit_ref)
    if row is None:
        raise NOT_FOUND_RECEIPT
    entry = row.entry()
    receipt = Receipt.model_validate(entry["body"])
    viewer = service.caller(principal)

    def readable(source_id: str, version: int | None) -> bool:
        source = context.corpus.source(source_id, version)
        return source is not None and context.policy.decide(viewer, source).decision == "allow"

    # Reading receipts is not reading the sources: refs the viewer may not read stay withheld.
    shown = redact_receipt(receipt, reads_audit=True, readable=readable)
    return AuditRecord(
        seq=entry["seq"],
        audit_ref=entry["audit_ref"],
        created_at=entry["created_at"],
        hash=entry["hash"],
        hash_ok=row.hash == row.expected_hash(),
        body=shown,
    )


@router.get(
    "/audit/{audit_ref:path}",
    response_model=AuditRecord,
    summary="One receipt of the audit ledger (roles the policy lets read audit only)",
    responses={**_401, 403: {"model": ErrorBody, "description": "the caller's role may not read audit"}, **_404},
)
async def audit(
    audit_ref: Annotated[
        str, PathParam(max_length=256, description="a percent-encoded audit_ref, e.g. audit%3A%2F%2Fquotebound%2F…")
    ],
    principal: PrincipalDep,
    service: ServiceDep,
) -> AuditRecord:
    if not service.reads_audit(principal):
        raise FORBIDDEN_AUDIT  # whatever the ref: a 403 must not tell which receipts exist
    return await asyncio.to_thread(_receipt, service, principal, audit_ref)


# --- health ------------------------------------------------------------------------------------------------


def _readable_sources(service: Service, principal: Principal) -> int:
    context = service.agent.context
    viewer = service.caller(principal)
    sources = context.corpus.sources()
    return sum(1 for source in sources if context.policy.decide(viewer, source).decision == "allow")


@router.get("/healthz", response_model=Health, summary="Liveness, the version, and the sources the caller may read")
async def healthz(principal: PrincipalDep, service: ServiceDep) -> Health:
    count = await asyncio.to_thread(_readable_sources, service, principal)
    return Health(status="ok", version=__version__, sources=count)
