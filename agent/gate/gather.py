"""Gathering: the one part of the gate that reads the store. It looks up every quote a draft cites and the lines
of its cited sources, as the caller may see them, and hands the rules a `GateInputs`.

A quote is checked against the matching bundle's text (bundles carry policy obligations) when a bundle of the
source's current version covers the locator, else against what `resolve_evidence` returns under the caller's
policy. Readability is checked first and fails alike for missing and hidden sources.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from quotebound.agent.core.contracts import Draft, EvidenceBundle, EvidenceRef, GateStatus, Locator, Source
from quotebound.agent.core.errors import ErrorCode, ModelError
from quotebound.agent.gate.confidence import WHITESPACE_MATCH
from quotebound.agent.gate.conflicts import FlaggedLines, flagged_lines
from quotebound.agent.gate.inputs import GateInputs, SourceInfo, SourceLine, quoted_sources
from quotebound.agent.gate.verification import LineSpan, Status, Verification
from quotebound.tools.context import ToolContext
from quotebound.tools.injection import FLAG_PREFIX
from quotebound.tools.resolve_evidence import resolve_evidence


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
            return Verification(
                Status.OK, 1.0, 1.0, source.provenance_kind, _occurrences(text, quote, span), context=text
            )
        if quote.strip() and _collapse(quote) in _collapse(text):
            # Verbatim but for whitespace (line breaks, doubled spaces): accepted with lower confidence, and
            # the whole locator counts as covered since offsets no longer line up.
            whole = ((span.page, span.line_start, span.line_end),)
            return Verification(Status.OK, 1.0, WHITESPACE_MATCH, source.provenance_kind, whole, context=text)
        return Verification(Status.NOT_VERBATIM, 1.0, 0.0, source.provenance_kind, detail=text)


def with_bundle_flags(flagged: Mapping[str, Sequence[str]] | None, bundles: Sequence[EvidenceBundle]) -> FlaggedLines:
    """`flagged` plus the instructional lines `resolve_evidence` flagged in the bundles, line by line: flags only
    ever add blocks, so taking the union is safe whoever computed them."""
    merged = {source_id: list(locators) for source_id, locators in (flagged or {}).items()}
    for bundle in bundles:
        for flag in bundle.flags:
            if flag.startswith(FLAG_PREFIX):
                merged.setdefault(bundle.source_id, []).append(flag[len(FLAG_PREFIX) :])
    return flagged_lines(merged)


def cited_lines(draft: Draft, ctx: ToolContext) -> tuple[SourceLine, ...]:
    """Every line of every cited source the caller may read, as the caller sees it (obligations applied)."""
    lines: list[SourceLine] = []
    for source_id in quoted_sources(draft):
        try:
            source = ctx.readable_source(source_id)
        except ModelError:
            continue  # an unknown or hidden source grounds nothing (the citations rule reports it)
        lines.extend(SourceLine(source_id, page, line, text) for page, line, text in ctx.visible_iter_lines(source))
    return tuple(lines)


def readable_sources(ctx: ToolContext) -> tuple[SourceInfo, ...]:
    """Every current source the caller may read, with its title: what a question may name."""
    return tuple(SourceInfo(s.source_id, s.title) for s in ctx.corpus.sources() if ctx.can_read(s.source_id))


def gather_inputs(
    draft: Draft,
    *,
    bundles: Sequence[EvidenceBundle],
    ctx: ToolContext,
    gate: GateStatus = "proceed",
    flagged: Mapping[str, Sequence[str]] | None = None,
    conflict_tolerance_pct: float = 1.0,
    question: str | None = None,
) -> GateInputs:
    """What the rules need to judge `draft` for `ctx`'s caller (the arguments are `validate_draft`'s).

    The cited sources' lines are read only with a `question`, since only the grounding rule reads them.
    """
    verifier = QuoteVerifier(ctx, bundles)
    evidence = draft.evidence
    return GateInputs(
        draft=draft,
        support_checks=tuple(
            tuple(verifier.verify(s.source_id, s.locator, s.quote) for s in f.support) for f in evidence.facts
        ),
        conflict_checks=tuple(
            tuple(verifier.verify(v.source_id, v.locator, v.quote) for v in c.values) for c in evidence.conflicts
        ),
        bundles=tuple(bundles),
        flagged=with_bundle_flags(flagged, bundles),
        gate=gate,
        tolerance_pct=conflict_tolerance_pct,
        question=question,
        cited_lines=cited_lines(draft, ctx) if question is not None else (),
        sources=readable_sources(ctx) if question is not None else (),
    )
