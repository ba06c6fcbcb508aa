"""`resolve_evidence(ref)`: an EvidenceRef resolved under the caller's policy into an EvidenceBundle.

The bundle is the only admissible ground truth downstream: its text is what the model may read and what the
validator checks quotes against. Policy obligations are applied before anything is hashed or flagged: `text`,
`digest`, `bundle_id`, the instructional-text flags and `content_hash` are all over the visible text, and
`policy.obligations_applied` lists what changed it (`mask:email x1 (rule mask-contact-details)`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from quotebound.agent.core.contracts import EvidenceBundle, EvidenceRef, Locator, RetrievalHit
from quotebound.agent.core.errors import ErrorCode, ModelError
from quotebound.agent.core.offline import TokenCounter
from quotebound.tools.context import ToolContext
from quotebound.tools.injection import FLAG_PREFIX, instructional_locators


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def bundle_id(pinned_ref: str, digest: str) -> str:
    """A bundle's id: the pinned ref and the digest of its text (`sha256:` prefix optional), hashed together."""
    return "sha256:" + _sha256(f"{pinned_ref}\n{digest.removeprefix('sha256:')}")


def resolve_evidence(ctx: ToolContext, ref: str) -> EvidenceBundle:
    try:
        parsed = EvidenceRef.parse(ref)
    except ValueError as exc:
        raise ModelError(ErrorCode.INVALID_TOOL_ARGUMENTS, str(exc)) from exc
    source = ctx.readable_source(parsed.source_id, parsed.version)
    decision = ctx.policy.decide(ctx.caller, source)
    span = Locator.parse(parsed.locator)
    if not ctx.corpus.locator_exists(source.source_id, str(span), source.version):
        raise ModelError(ErrorCode.UNKNOWN_LOCATOR, f"{span} is not in the locator index of {source.source_id!r}")
    n_lines = span.line_end - span.line_start + 1
    if n_lines > ctx.limits.max_quote_lines:
        raise ModelError(
            ErrorCode.INVALID_TOOL_ARGUMENTS,
            f"{span} spans {n_lines} lines; resolve at most {ctx.limits.max_quote_lines} at a time",
        )
    lines, applied = ctx.visible_lines(source, span)
    text = "\n".join(lines)
    numbered = [(span.page, span.line_start + offset, line) for offset, line in enumerate(lines)]
    flags = [FLAG_PREFIX + locator for locator in instructional_locators(numbered)]
    digest = _sha256(text)
    pinned = EvidenceRef(source_id=source.source_id, locator=str(span), version=source.version)
    return EvidenceBundle(
        bundle_id=bundle_id(str(pinned), digest),
        ref=str(pinned),
        source_id=source.source_id,
        version=source.version,
        locator=str(span),
        text=text,
        digest="sha256:" + digest,
        content_hash="sha256:" + ctx.visible_content_hash(source),
        license=source.license,
        attribution=source.attribution,
        provenance_kind=source.provenance_kind,
        policy=decision.model_copy(update={"obligations_applied": applied}),
        flags=flags,
    )


def resolve_hits(
    ctx: ToolContext, hits: Iterable[RetrievalHit], *, budget: int, counter: TokenCounter
) -> list[EvidenceBundle]:
    """Search hits as evidence: each pointer resolved under `ctx`'s policy, in rank order, packed into `budget`
    tokens. A hit that does not resolve for this caller is simply no evidence."""
    bundles: list[EvidenceBundle] = []
    used = 0
    for hit in hits:
        try:
            bundle = resolve_evidence(ctx, f"doc://{hit.source_id}@v{hit.version}#{hit.locator}")
        except ModelError:
            continue  # unresolvable or not allowed for this caller: it simply is not evidence
        cost = counter.count(bundle.text)
        if used + cost > budget:
            continue  # a later, smaller bundle may still fit
        used += cost
        bundles.append(bundle)
    return bundles
