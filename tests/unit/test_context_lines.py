"""`ToolContext.visible_iter_lines` applies the caller's obligations to a batch of lines at once: the text it gives is
the text the obligations give line by line (drops, masks and generalizations never join or split lines), across
batch boundaries and pages, and a caller that stops early reads no further than its batch."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import cast

import pytest

from quotebound.agent.core.contracts import Source
from quotebound.tools import context as context_module
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.obligations import apply_obligations
from quotebound.tools.policy import Caller, DefaultPolicy, Obligation

OBLIGATIONS = [
    Obligation("mask", "email", rule="contacts"),
    Obligation("mask", "phone", rule="contacts"),
    Obligation("generalize", "coordinates", rule="coarse", precision=2),
    Obligation("drop", r"(?i)^\s*private note:", rule="notes"),
    Obligation("mask", r"pattern:\bgate code \d+", rule="codes"),
]
LINES = [
    "Contact the manager at manager@example.org or (541) 555-0187.",
    "Private note: the treasurer's home address is 12 Elm St.",
    "The pool sits at 38.897700, -77.036500.",
    "",
    "The gate code 4411 opens the side door.",
    "Owners may keep two household pets.",
]


@dataclass
class _Corpus:
    """A source's lines, as the store gives them; counts how many it handed out."""

    rows: list[tuple[int, int, str]]
    read: int = 0

    def iter_lines(self, source_id: str, version: int) -> Iterator[tuple[int, int, str]]:
        for row in self.rows:
            self.read += 1
            yield row


@dataclass
class _Policy(DefaultPolicy):
    given: list[Obligation] = field(default_factory=list)

    def obligations(self, caller: Caller, source: Source) -> list[Obligation]:
        return list(self.given)


def _source() -> Source:
    return Source(
        source_id="notes.md",
        version=1,
        content_hash="0" * 64,
        media_type="text/markdown",
        title="Notes",
        n_pages=2,
        n_lines=len(LINES),
        ingested_at=datetime(2026, 1, 1, tzinfo=UTC),
    )


def _context(rows: list[tuple[int, int, str]], obligations: list[Obligation]) -> tuple[ToolContext, _Corpus]:
    corpus = _Corpus(rows)
    return ToolContext(cast(Corpus, corpus), policy=_Policy(given=obligations)), corpus


def _rows(n: int) -> list[tuple[int, int, str]]:
    return [(1 + k // 7, 1 + k % 7, LINES[k % len(LINES)]) for k in range(n)]


@pytest.mark.parametrize("batch", [1, 2, 5, 1024])
def test_batched_lines_are_the_lines_obligations_give_one_at_a_time(
    batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(context_module, "_OBLIGATION_BATCH", batch)
    rows = _rows(23)
    ctx, _ = _context(rows, OBLIGATIONS)
    expected = [(page, n, apply_obligations([text], OBLIGATIONS)[0][0]) for page, n, text in rows]
    got = list(ctx.visible_iter_lines(_source()))
    assert got == expected
    assert "manager@example.org" not in str(got) and "treasurer" not in str(got) and "4411" not in str(got)
    assert any("38.9" in text for _, _, text in got)


def test_without_obligations_lines_pass_unchanged() -> None:
    rows = _rows(9)
    ctx, _ = _context(rows, [])
    assert list(ctx.visible_iter_lines(_source())) == rows


def test_a_caller_that_stops_early_reads_no_further_than_its_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(context_module, "_OBLIGATION_BATCH", 4)
    ctx, corpus = _context(_rows(40), OBLIGATIONS)
    first = next(iter(ctx.visible_iter_lines(_source())))
    assert first[2].startswith("Contact the manager at [email withheld]")
    assert corpus.read <= 4
