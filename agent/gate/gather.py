"""Gathering: the one part of the gate that reads the store. It looks up every quote a draft cites and the lines
of its cited sources, as the caller may see them, and hands the rules a `GateInputs`.

A quote is checked against the matching bundle's text (bundles carry policy obligations) when a bundle of the
source's current version covers the locator, else against what `resolve_evidence` returns under the caller's
policy. Readability is checked first and fails alike for missing and hidden sources. A verified quote also carries
what frames it (`layout.py`): its paragraph's hard-wrapped lines around the locator, and its table's headings.

Each cited source version is read once per run (its lines as the caller sees them, and its locator index), whatever
the number of quotes that cite it: a source version never changes, and a run's `ToolContext` keeps one caller and
policy, so a repair re-validating the same draft reads only which versions are current (`_RunReads`).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from quotebound.agent.core.contracts import Draft, EvidenceBundle, EvidenceRef, GateStatus, Locator, Source
from quotebound.agent.core.errors import ErrorCode, ModelError
from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.confidence import WHITESPACE_MATCH
from quotebound.agent.gate.conflicts import FlaggedLines, flagged_lines
from quotebound.agent.gate.inputs import GateInputs, Paraphrase, SourceInfo, SourceLine, quoted_sources
from quotebound.agent.gate.layout import table_headings, wrapped_neighbours
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
class _RunReads:
    """What the validations of one run read of source versions that cannot change under them (see the module
    docstring), for the caller and policy (and its version) they were read under."""

    reader: tuple[object, ...]
    pages: dict[tuple[str, int], list[int]] = field(default_factory=dict)  # the locator index: lines per page
    lines: dict[tuple[str, int], dict[int, list[str]]] = field(default_factory=dict)  # page -> visible lines
    cited: dict[tuple[str, int], tuple[SourceLine, ...]] = field(default_factory=dict)  # the same, as SourceLines
    readable: dict[tuple[tuple[str, int], ...], tuple[SourceInfo, ...]] = field(default_factory=dict)
    frames: dict[tuple[str, int, int, int, int], dict[str, str]] = field(default_factory=dict)  # by locator


# how much a run keeps; past either it starts over (a run cites a handful of sources and a few dozen locators)
_MAX_RUN_SOURCES = 64
_MAX_RUN_FRAMES = 4096
_RUNS: dict[int, _RunReads] = {}  # id(ctx) -> its reads; an entry leaves with its ctx (weakref.finalize)


def run_reads(ctx: ToolContext) -> _RunReads:
    """The reads kept for `ctx`'s run, empty when its caller or policy changed since, or when it grew past
    `_MAX_RUN_SOURCES`."""
    reader = (ctx.caller, id(ctx.policy), ctx.policy.version)
    reads = _RUNS.get(id(ctx))
    if (
        reads is not None
        and reads.reader == reader
        and len(reads.pages) <= _MAX_RUN_SOURCES
        and len(reads.frames) <= _MAX_RUN_FRAMES
    ):
        return reads
    fresh = _RunReads(reader)
    if reads is None:
        try:
            weakref.finalize(ctx, _RUNS.pop, id(ctx), None).atexit = False
        except TypeError:  # a context that cannot be watched (no weak references): nothing kept for it
            return fresh
    _RUNS[id(ctx)] = fresh
    return fresh


@lru_cache(maxsize=4096)
def _parse_locator(text: str) -> tuple[int, int, int] | None:
    """(page, first line, last line) of a locator string, None when malformed (parsed once per string)."""
    try:
        span = Locator.parse(text)
    except ValueError:
        return None
    return span.page, span.line_start, span.line_end


@dataclass
class QuoteVerifier:
    """Verifies (source_id, locator, quote) triples, caching sources and texts for one draft."""

    ctx: ToolContext
    bundles: Sequence[EvidenceBundle]
    _sources: dict[str, Source | None] = field(default_factory=dict)
    _texts: dict[tuple[str, str], str | Status] = field(default_factory=dict)
    _by_source: dict[tuple[str, int, int], list[tuple[EvidenceBundle, LineSpan]]] | None = None  # by page
    _reads: _RunReads = field(init=False)

    def __post_init__(self) -> None:
        self._reads = run_reads(self.ctx)

    def readable(self, source_id: str) -> Source | None:
        """The source if the caller may read it, else None (missing and hidden alike); looked up once."""
        if source_id not in self._sources:
            try:
                self._sources[source_id] = self.ctx.readable_source(source_id)
            except ModelError:
                self._sources[source_id] = None
        return self._sources[source_id]

    def _locator_exists(self, source: Source, span: Locator) -> bool:
        """Membership in the source's locator index (as `Corpus.locator_exists`), the index read once a source."""
        key = (source.source_id, source.version)
        pages = self._reads.pages.get(key)
        if pages is None:
            pages = self._reads.pages[key] = self.ctx.corpus.page_lines(source.source_id, source.version)
        return span.page <= len(pages) and span.line_end <= pages[span.page - 1]

    def source_lines(self, source: Source) -> dict[int, list[str]]:
        """Every line of `source` as the caller may see it, page by page (read once a run; not to be changed)."""
        key = (source.source_id, source.version)
        found = self._reads.lines.get(key)
        if found is None:
            found = {}
            for page, _, text in self.ctx.visible_iter_lines(source):
                found.setdefault(page, []).append(text)
            self._reads.lines[key] = found
        return found

    def cited_lines(self, source: Source) -> tuple[SourceLine, ...]:
        """`source_lines` as `SourceLine`s, in reading order (built once a run)."""
        key = (source.source_id, source.version)
        found = self._reads.cited.get(key)
        if found is None:
            found = self._reads.cited[key] = tuple(
                SourceLine(source.source_id, page, i, text)
                for page, texts in sorted(self.source_lines(source).items())
                for i, text in enumerate(texts, 1)
            )
        return found

    def _bundle_text(self, source: Source, span: Locator) -> str | None:
        if self._by_source is None:
            self._by_source = {}
            for bundle in self.bundles:
                where = _parse_locator(bundle.locator)
                if where is None:
                    continue
                self._by_source.setdefault((bundle.source_id, bundle.version, where[0]), []).append((bundle, where))
        for bundle, (_, first, last) in self._by_source.get((source.source_id, source.version, span.page), []):
            if not first <= span.line_start <= span.line_end <= last:
                continue
            if (first, last) == (span.line_start, span.line_end):
                return bundle.text
            lines = bundle.text.split("\n")
            if len(lines) == last - first + 1:  # else lines cannot be sliced
                return "\n".join(lines[span.line_start - first : span.line_end - first + 1])
        return None

    def _frame(self, source: Source, span: Locator) -> dict[str, str]:
        """The hard-wrapped lines of the locator's paragraph around it, and its table's headings (`layout.py`)."""
        key = (source.source_id, source.version, span.page, span.line_start, span.line_end)
        found = self._reads.frames.get(key)
        if found is None:
            page = self.source_lines(source).get(span.page, [])
            first, last = span.line_start - 1, span.line_end - 1
            if last >= len(page):
                return {}
            before, after = wrapped_neighbours(page, first, last)
            found = self._reads.frames[key] = {
                "before": before,
                "after": after,
                "headings": table_headings(page, first),
            }
        return found

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
        check_deadline()
        source = self.readable(source_id)
        if source is None:
            return Verification(Status.UNKNOWN_SOURCE)
        parsed = _parse_locator(locator)
        if parsed is None:
            return Verification(Status.FAKE_LOCATOR, provenance=source.provenance_kind)
        span = Locator(page=parsed[0], line_start=parsed[1], line_end=parsed[2])
        if not self._locator_exists(source, span):
            return Verification(Status.FAKE_LOCATOR, provenance=source.provenance_kind)
        text = self._text(source, span)
        if isinstance(text, Status):
            return Verification(text, provenance=source.provenance_kind)
        if quote and quote in text:
            spans = _occurrences(text, quote, span)
            return Verification(
                Status.OK, 1.0, 1.0, source.provenance_kind, spans, context=text, **self._frame(source, span)
            )
        if quote.strip() and _collapse(quote) in _collapse(text):
            # Verbatim but for whitespace (line breaks, doubled spaces): accepted with lower confidence, and
            # the whole locator counts as covered since offsets no longer line up.
            whole = ((span.page, span.line_start, span.line_end),)
            return Verification(
                Status.OK, 1.0, WHITESPACE_MATCH, source.provenance_kind, whole, context=text,
                **self._frame(source, span),
            )  # fmt: skip
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


def cited_lines(draft: Draft, ctx: ToolContext, verifier: QuoteVerifier | None = None) -> tuple[SourceLine, ...]:
    """Every line of every cited source the caller may read, as the caller sees it (obligations applied); the
    `verifier`'s reads are reused when given."""
    verifier = verifier or QuoteVerifier(ctx, ())
    lines: list[SourceLine] = []
    for source_id in quoted_sources(draft):
        check_deadline()
        source = verifier.readable(source_id)
        if source is None:
            continue  # an unknown or hidden source grounds nothing (the citations rule reports it)
        lines.extend(verifier.cited_lines(source))
    return tuple(lines)


def readable_sources(ctx: ToolContext) -> tuple[SourceInfo, ...]:
    """Every current source the caller may read, with its title: what a question may name. Which versions are
    current is read each time; whether the caller may read them, once a run per set of current versions."""
    current = ctx.corpus.sources()
    versions = tuple((s.source_id, s.version) for s in current)
    known = run_reads(ctx).readable
    if versions not in known:
        known[versions] = tuple(SourceInfo(s.source_id, s.title) for s in current if ctx.can_read(s.source_id))
    return known[versions]


def gather_inputs(
    draft: Draft,
    *,
    bundles: Sequence[EvidenceBundle],
    ctx: ToolContext,
    gate: GateStatus = "proceed",
    flagged: Mapping[str, Sequence[str]] | None = None,
    conflict_tolerance_pct: float = 1.0,
    question: str | None = None,
    paraphrase: Paraphrase | None = None,
) -> GateInputs:
    """What the rules need to judge `draft` for `ctx`'s caller (the arguments are `validate_draft`'s).

    A source with a verified quote is read whole once, for its quotes' frames; its lines are handed to the rules
    (`cited_lines`) only with a `question`, since only the claim rules read them.
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
        cited_lines=cited_lines(draft, ctx, verifier) if question is not None else (),
        sources=readable_sources(ctx) if question is not None else (),
        paraphrase=paraphrase,
    )
