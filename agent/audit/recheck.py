"""`recheck`: does a past answer still hold against the current corpus?

The receipt (agent/receipt.py) keeps every citation's pinned ref (`doc://bylaws.md@v1#p.1 L3-L4`) and the digest
of the evidence bundle it was checked against. Each cited ref is resolved again, unpinned, under the receipt's
caller (role and labels) and the current policy, exactly as `resolve_evidence` would for the model:

- `ok`: the current version of the source is the one cited and its text at the locator has the same digest;
- `changed`: the source has a new version, or the text at the locator (after the policy's masking) differs;
- `vanished`: the source is gone (removed, or no longer readable by the caller: the two read the same, as
  everywhere), or the locator no longer exists in its current version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from quotebound.agent.core.contracts import EvidenceRef
from quotebound.agent.core.errors import ModelError
from quotebound.agent.core.receipt import Receipt
from quotebound.tools.context import ToolContext
from quotebound.tools.resolve_evidence import bundle_id, resolve_evidence

CitationStatus = Literal["ok", "changed", "vanished"]


@dataclass(frozen=True)
class CitationCheck:
    ref: str
    status: CitationStatus
    detail: str
    cited_version: int | None = None
    current_version: int | None = None
    quote_changed: bool | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "status": self.status,
            "detail": self.detail,
            "cited_version": self.cited_version,
            "current_version": self.current_version,
            "quote_changed": self.quote_changed,
        }


@dataclass
class RecheckReport:
    audit_ref: str
    run_id: str
    status: str  # the receipt's status
    role: str
    citations: list[CitationCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.status == "ok" for check in self.citations)

    def as_json(self) -> dict[str, Any]:
        return {
            "audit_ref": self.audit_ref,
            "run_id": self.run_id,
            "status": self.status,
            "role": self.role,
            "ok": self.ok,
            "citations": [check.as_json() for check in self.citations],
        }


def recheck_receipt(receipt: Receipt, tools: ToolContext) -> RecheckReport:
    """Re-resolve every citation of `receipt` with `tools` (a ToolContext for the receipt's caller)."""
    digests = {bundle.ref: bundle.digest for bundle in receipt.bundles}
    report = RecheckReport(receipt.audit_ref, receipt.run_id, receipt.status, receipt.caller.role)
    for citation in receipt.citations:
        try:
            pinned = EvidenceRef.parse(citation.ref)
        except ValueError:
            report.citations.append(CitationCheck(citation.ref, "vanished", "not a ref this version can read"))
            continue
        current_ref = str(EvidenceRef(source_id=pinned.source_id, locator=pinned.locator))
        try:
            bundle = resolve_evidence(tools, current_ref)
        except ModelError as exc:
            why = "the locator is no longer in the source" if exc.code.value == "unknown_locator" else None
            source = tools.corpus.source(pinned.source_id) if why else None
            report.citations.append(
                CitationCheck(
                    citation.ref,
                    "vanished",
                    f"{why} (now v{source.version})" if why and source else "the source is no longer in the corpus",
                    cited_version=pinned.version,
                    current_version=source.version if source else None,
                )
            )
            continue
        cited_digest = digests.get(citation.ref)
        if cited_digest is not None:
            quote_changed = bundle.digest != cited_digest
        else:
            # A citation narrower than the bundle it came from: its bundle id hashes the pinned ref with the digest
            # of the text cited, so the current text, hashed the same way, gives the same id only if it is the same.
            quote_changed = bundle_id(str(pinned), bundle.digest) != citation.bundle_id
        new_version = pinned.version is not None and bundle.version != pinned.version
        if quote_changed:
            detail = f"the quoted text differs in v{bundle.version}"
        elif new_version:
            detail = f"the source has a new version (v{bundle.version}); the quoted text is unchanged"
        else:
            detail = "the quoted text is unchanged"
        report.citations.append(
            CitationCheck(
                citation.ref,
                "changed" if (quote_changed or new_version) else "ok",
                detail,
                cited_version=pinned.version,
                current_version=bundle.version,
                quote_changed=quote_changed,
            )
        )
    return report
