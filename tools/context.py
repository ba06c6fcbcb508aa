"""What every tool call runs with: the corpus, the policy and the caller. Built once per run.

Text leaves the store only through `visible_lines` / `visible_iter_lines`: the caller's policy obligations
(masks, generalization, drops) are applied there, before a tool, the model or the validator sees any of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice

from quotebound.agent.core.contracts import Locator, Source
from quotebound.agent.core.errors import ErrorCode, ModelError
from quotebound.agent.core.settings import ToolLimits
from quotebound.tools.corpus import Corpus
from quotebound.tools.obligations import apply_obligations
from quotebound.tools.policy import Caller, DefaultPolicy, Obligation, Policy

_OBLIGATION_BATCH = 1024  # lines given to `apply_obligations` at once (a whole source, for most sources)


@dataclass
class ToolContext:
    corpus: Corpus
    caller: Caller = field(default_factory=Caller)
    policy: Policy = field(default_factory=DefaultPolicy)
    limits: ToolLimits = field(default_factory=ToolLimits)
    _content_hashes: dict[tuple[str, int], str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _changed_chunks: dict[int, str] | None = field(default=None, init=False, repr=False, compare=False)

    def readable_source(self, source_id: str, version: int | None = None) -> Source:
        """The source if it exists *and* the caller may read it. Both failures raise the same error text, so
        a caller cannot tell a hidden source from a missing one (no ghost metadata)."""
        source = self.corpus.source(source_id, version) if isinstance(source_id, str) else None
        if source is None or self.policy.decide(self.caller, source).decision != "allow":
            raise ModelError(ErrorCode.UNKNOWN_SOURCE, f"unknown source {source_id!r}")
        return source

    def can_read(self, source_id: str) -> bool:
        source = self.corpus.source(source_id)
        return source is not None and self.policy.decide(self.caller, source).decision == "allow"

    def obligations_for(self, source: Source) -> list[Obligation]:
        return self.policy.obligations(self.caller, source)

    def visible_lines(self, source: Source, span: Locator) -> tuple[list[str], list[str]]:
        """The lines of `span` as the caller may see them, and what was applied (`mask:email x1 (rule ...)`).
        `source` must come from `readable_source`."""
        lines = self.corpus.lines(source.source_id, source.version, span)
        return apply_obligations(lines, self.obligations_for(source))

    def _caller_key(self) -> tuple[object, ...]:
        """What obligations depend on: the policy (object and version) and the caller."""
        return (id(self.policy), self.policy.version, self.caller.role, tuple(sorted(self.caller.labels)))

    def changed_chunks(self) -> dict[int, str]:
        """Every current chunk whose text this caller's obligations change (masked, generalized or dropped lines),
        with its visible text. Retrieval ranks these by their visible text alone, and considers all of them, not
        only those the raw indexes return, so neither a hit nor its rank can confirm a guess at a withheld value.
        Kept on the corpus across runs, keyed by the caller and the current source versions (a new ingest makes
        new versions, so it can never serve a stale entry)."""
        if self._changed_chunks is None:
            sources = self.corpus.sources()
            key = ("changed", self._caller_key(), tuple((s.source_id, s.version, s.content_hash) for s in sources))
            cached = self.corpus.memo.get(key)
            if cached is None:
                cached = self._compute_changed(sources)
                self.corpus.remember(key, cached)
            self._changed_chunks = cached
        return self._changed_chunks

    def _compute_changed(self, sources: list[Source]) -> dict[int, str]:
        changed: dict[int, str] = {}
        for source in sources:
            if not self.obligations_for(source) or not self.can_read(source.source_id):
                continue
            for pointer in self.corpus.source_chunks(source.source_id, source.version):
                lines, applied = self.visible_lines(source, Locator.parse(pointer.locator))
                if applied:
                    changed[pointer.chunk_id] = "\n".join(lines)
        return changed

    def visible_iter_lines(self, source: Source) -> Iterator[tuple[int, int, str]]:
        """(page, line_no, visible text) of every line of `source`, in reading order. The obligations are applied to
        `_OBLIGATION_BATCH` lines at a time rather than line by line (the same text: every obligation maps one line
        to one line), which saves compiling and ordering them per line; a caller that stops early (a search that
        has its hits) still reads no further than the batch it is in."""
        obligations = self.obligations_for(source)
        rows = self.corpus.iter_lines(source.source_id, source.version)
        if not obligations:
            yield from rows
            return
        while batch := list(islice(rows, _OBLIGATION_BATCH)):
            visible, _ = apply_obligations([text for _, _, text in batch], obligations)
            for (page, line_no, _), text in zip(batch, visible, strict=True):
                yield page, line_no, text

    def visible_content_hash(self, source: Source) -> str:
        """sha256 of the whole source version as the caller sees it: the stored hash when no obligation applies.
        A hash of the raw text would let a caller confirm a guess at a masked value (hash the guess, compare)."""
        key = (source.source_id, source.version)
        if key not in self._content_hashes:
            shared = ("visible_hash", self._caller_key(), source.source_id, source.version, source.content_hash)
            if not self.obligations_for(source):
                self._content_hashes[key] = source.content_hash
            elif shared in self.corpus.memo:
                self._content_hashes[key] = str(self.corpus.memo[shared])
            else:
                pages: list[list[str]] = [[] for _ in self.corpus.page_lines(source.source_id, source.version)]
                for page, _, text in self.visible_iter_lines(source):
                    pages[page - 1].append(text)
                # the same layout ingest hashes: lines joined by newlines, pages by form feeds
                normalized = "\f".join("\n".join(lines) for lines in pages)
                self._content_hashes[key] = hashlib.sha256(normalized.encode("utf-8")).hexdigest()
                self.corpus.remember(shared, self._content_hashes[key])
        return self._content_hashes[key]
