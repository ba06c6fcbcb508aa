"""A receipt as one viewer may see it (a receipt is itself governed data: what it
records about the asker is shown only to those the policy lets read it).

- Query text and clarify replies, the asker's labels and a restricted topic's name: only for a viewer the policy
  lets read audit (`policy.reads_audit`). Hashes stay for everyone: they reveal nothing one cannot already guess.
- Any ref or source id of a source the *viewer* may not read is replaced by `[withheld]`, with that bundle's
  policy reason and obligations (which can name a label or a rule); digests and bundle ids stay, so a viewer
  can still check integrity. This holds for audit readers too: reading receipts is not reading the sources.
Every viewer gets a receipt: a non-audit reader gets it redacted, never a different "not found".
"""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import EvidenceRef, PolicyDecision
from quotebound.agent.core.receipt import Receipt, ReceiptBundle, ReceiptCitation, ReceiptFlag, ReceiptPolicy

WITHHELD = "[withheld]"

# (source_id, version or None) -> may the viewer read it
Readable = Callable[[str, int | None], bool]


def _ref_readable(ref: str, readable: Readable) -> bool:
    try:
        parsed = EvidenceRef.parse(ref)
    except ValueError:
        return False  # not a ref we can place: default deny
    return readable(parsed.source_id, parsed.version)


def _bundle(bundle: ReceiptBundle, readable: Readable) -> ReceiptBundle:
    if _ref_readable(bundle.ref, readable):
        return bundle
    hidden = PolicyDecision(decision=bundle.policy.decision, reason=WITHHELD, obligations_applied=[])
    return bundle.model_copy(update={"ref": WITHHELD, "source_id": WITHHELD, "policy": hidden})


def redact_receipt(receipt: Receipt, *, reads_audit: bool, readable: Readable) -> Receipt:
    """A copy of `receipt` fit for a viewer with these rights; the stored receipt is never changed."""
    bundles = [_bundle(b, readable) for b in receipt.bundles]
    citations = [
        c if _ref_readable(c.ref, readable) else ReceiptCitation(ref=WITHHELD, bundle_id=c.bundle_id)
        for c in receipt.citations
    ]
    flags = [
        f if _ref_readable(f.ref, readable) else ReceiptFlag(ref=WITHHELD, locator=WITHHELD)
        for f in receipt.instructional_flags
    ]
    # Obligations are listed again only from bundles the viewer may see.
    shown_obligations = sorted({o for b in bundles if b.ref != WITHHELD for o in b.policy.obligations_applied})
    policy: ReceiptPolicy = receipt.policy.model_copy(update={"obligations_applied": shown_obligations})
    update: dict[str, object] = {"bundles": bundles, "citations": citations, "instructional_flags": flags}
    if not reads_audit:
        update["query"] = receipt.query.model_copy(update={"text": None, "context": None})
        update["caller"] = receipt.caller.model_copy(update={"labels": [WITHHELD] if receipt.caller.labels else []})
        if policy.precheck is not None and policy.precheck.topic is not None:
            policy = policy.model_copy(update={"precheck": policy.precheck.model_copy(update={"topic": WITHHELD})})
    update["policy"] = policy
    return receipt.model_copy(update=update)
