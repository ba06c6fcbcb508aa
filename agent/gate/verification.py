"""What the gate found when it looked a cited quote up: a `Verification` per (source_id, locator, quote).

Plain data: `gather.py` produces them from the store, the rules only read them, and a test can write them by
hand. `citation_finding` words the finding for a quote that failed, the same way wherever it was cited.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from quotebound.agent.core.contracts import ProvenanceKind
from quotebound.agent.gate.findings import Finding, FindingCode

LineSpan = tuple[int, int, int]  # page, first line, last line


class Status(StrEnum):
    OK = "ok"
    UNKNOWN_SOURCE = "unknown_source"  # missing, or hidden from the caller: the two read alike
    FAKE_LOCATOR = "fake_locator"
    NOT_VERBATIM = "not_verbatim"
    NOT_RESOLVED = "not_resolved"


@dataclass(frozen=True)
class Verification:
    """One quote as the gate found it: its status, scores, the provenance of its source and where it occurs."""

    status: Status
    locator_confidence: float = 0.0
    quote_confidence: float = 0.0
    provenance: ProvenanceKind | None = None
    spans: tuple[LineSpan, ...] = ()  # the lines each occurrence of the quote covers
    detail: str = ""  # for NOT_VERBATIM: the text that is at the locator
    context: str = ""  # for OK: the text at the locator the quote was found in (its clauses, for the span rules)
    # for OK, what frames the quote around its locator (`layout.py`): the hard-wrapped lines of its paragraph
    # before and after the locator, and for a table row its table's headings composed per column
    before: str = ""
    after: str = ""
    headings: str = ""

    @property
    def ok(self) -> bool:
        return self.status is Status.OK

    @property
    def confidence(self) -> float:
        return min(self.locator_confidence, self.quote_confidence)


def citation_finding(where: str, source_id: str, locator: str, check: Verification, fact: int | None) -> Finding:
    """The finding for a quote that failed `check`, worded so the model can repair it."""
    if check.status is Status.UNKNOWN_SOURCE:
        # Same words whether the source is missing or hidden: nothing here may reveal which.
        code = FindingCode.UNKNOWN_SOURCE
        message = f"{where}: unknown source {source_id!r}; cite only sources returned by the tools"
    elif check.status is Status.FAKE_LOCATOR:
        code = FindingCode.FAKE_LOCATOR
        message = (
            f"{where}: locator {locator!r} is not in the locator index of {source_id!r}; use a locator returned "
            "by search_source or quote_fetch"
        )
    elif check.status is Status.NOT_VERBATIM:
        shown = check.detail if len(check.detail) <= 300 else check.detail[:297] + "..."
        code = FindingCode.QUOTE_NOT_VERBATIM
        message = (
            f"{where}: the quote is not verbatim at {source_id} {locator}, which reads: {shown!r}; copy the exact "
            "words (quote_fetch returns them), with a locator that spans every line the quote runs over"
        )
    else:
        code = FindingCode.REF_NOT_RESOLVED
        message = f"{where}: {source_id} {locator} could not be resolved (too many lines?); cite a shorter span"
    return Finding(code=code, message=message, fact_index=fact)
