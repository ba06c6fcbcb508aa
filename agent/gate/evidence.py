"""Quote verification: is this quote verbatim at this locator, in the text the caller may see?

The text is the matching bundle's (bundles carry policy obligations) when a bundle of the source's current
version covers the locator, else what `resolve_evidence` returns under the caller's policy. Readability is
checked first and fails with one message for missing and hidden sources alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from quotebound.agent.core.contracts import EvidenceBundle, EvidenceRef, Locator, ProvenanceKind, Source
from quotebound.agent.core.errors import ErrorCode, ModelError
from quotebound.agent.gate.confidence import WHITESPACE_MATCH
from quotebound.tools.context import ToolContext
from quotebound.tools.resolve_evidence import resolve_evidence

LineSpan = tuple[int, int, int]  # page, first line, last line


class Status(StrEnum):
    OK = "ok"
    UNKNOWN_SOURCE = "unknown_source"
    FAKE_LOCATOR = "fake_locator"
    NOT_VERBATIM = "not_verbatim"
    NOT_RESOLVED = "not_resolved"


@dataclass(frozen=True)
class Verification:
    status: Status
    locator_confidence: float = 0.0
    quote_confidence: float = 0.0
    provenance: ProvenanceKind | None = None
    spans: tuple[LineSpan, ...] = ()  # the lines each occurrence of the quote covers
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status is Status.OK

    @property
    def confidence(self) -> float:
        return min(self.locator_confidence, self.quote_confidence)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _occurrences(text: str, quote: str, span: Locator) -> tuple[LineSpan, ...]:
    """The line span of every exact occurrence of `quote` in `text` (which starts at `span`'s first line)."""
    found: list[LineSpan] = []
    at = text.find(quote)
    while at != -1 and len(found) < 50:
        first = span.line_start + text.count("\n", 0, at)
        found.append((span.page, first, first + quote.count("\n")))
        at = text.find(quote, at + 1)
    return tuple(found)


@dataclass
class QuoteVerifier:
    """Verifies (source_id, locator, quote) triples, caching sources and texts for one draft."""

    ctx: ToolContext
    bundles: Sequence[EvidenceBundle]
    _sources: dict[str, Source | None] = field(default_factory=dict)
    _texts: dict[tuple[str, str], str | Status] = field(default_factory=dict)

    def _source(self, source_id: str) -> Source | None:
        if source_id not in self._sources:
            try:
                self._sources[source_id] = self.ctx.readable_source(source_id)
            except ModelError:
                self._sources[source_id] = None
        return self._sources[source_id]

    def _bundle_text(self, source: Source, span: Locator) -> str | None:
        for bundle in self.bundles:
            if bundle.source_id != source.source_id or bundle.version != source.version:
                continue
            try:
                covered = Locator.parse(bundle.locator)
            except ValueError:
                continue
            if covered == span:
                return bundle.text
            lines = bundle.text.split("\n")
            if (
                covered.page == span.page
                and covered.line_start <= span.line_start
                and span.line_end <= covered.line_end
                and len(lines) == covered.line_end - covered.line_start + 1  # else lines cannot be sliced
            ):
                return "\n".join(lines[span.line_start - covered.line_start : span.line_end - covered.line_start + 1])
        return None

    def _text(self, source: Source, span: Locator) -> str | Status:
        cache_key = (source.source_id, str(span))
        if cache_key not in self._texts:
            text: str | Status | None = self._bundle_text(source, span)
            if text is None:
                ref = EvidenceRef(source_id=source.source_id, locator=str(span))
                try:
                    text = resolve_evidence(self.ctx, str(ref)).text
                except ModelError as exc:
                    text = Status.FAKE_LOCATOR if exc.code is ErrorCode.UNKNOWN_LOCATOR else Status.NOT_RESOLVED
            self._texts[cache_key] = text
        return self._texts[cache_key]

    def verify(self, source_id: str, locator: str, quote: str) -> Verification:
        source = self._source(source_id)
        if source is None:
            return Verification(Status.UNKNOWN_SOURCE)
        try:
            span = Locator.parse(locator)
        except ValueError:
            return Verification(Status.FAKE_LOCATOR, provenance=source.provenance_kind)
        if not self.ctx.corpus.locator_exists(source.source_id, str(span), source.version):
            return Verification(Status.FAKE_LOCATOR, provenance=source.provenance_kind)
        text = self._text(source, span)
        if isinstance(text, Status):
            return Verification(text, provenance=source.provenance_kind)
        if quote and quote in text:
            return Verification(Status.OK, 1.0, 1.0, source.provenance_kind, _occurrences(text, quote, span))
        if quote.strip() and _collapse(quote) in _collapse(text):
            # Verbatim but for whitespace (line breaks, doubled spaces): accepted with lower confidence, and
            # the whole locator counts as covered since offsets no longer line up.
            whole = ((span.page, span.line_start, span.line_end),)
            return Verification(Status.OK, 1.0, WHITESPACE_MATCH, source.provenance_kind, whole)
        return Verification(Status.NOT_VERBATIM, 1.0, 0.0, source.provenance_kind, detail=text)
