"""`GateInputs`: everything the gate's rules read, gathered once, immutable, and free of any store.

`gather.gather_inputs` builds it from a store; a test builds it by hand. Every rule is a function of it alone,
so what a rule decides depends on nothing it cannot see here.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from quotebound.agent.core.contracts import Draft, EvidenceBundle, GateStatus
from quotebound.agent.gate.conflicts import FlaggedLines
from quotebound.agent.gate.verification import Verification


class SourceInfo(NamedTuple):
    """A source the caller may read: its id and its title (a question may name a document by either)."""

    source_id: str
    title: str


class Paraphrase(Protocol):
    """How close two short texts are in meaning, 0..1 (the shipped embedder's cosine)."""

    def __call__(self, a: str, b: str) -> float: ...


class SourceLine(NamedTuple):
    """One line of a cited source, as the caller may see it."""

    source_id: str
    page: int
    line: int
    text: str


@dataclass(frozen=True)
class GateInputs:
    """A draft, and what the gate found about everything it cites.

    `support_checks[i][j]` verifies fact i's support j; `conflict_checks[k][m]` verifies value m of listed
    conflict k. `flagged` holds the (source_id, page, line) of every line flagged as instructional text.
    `question` (with the details the user supplied) and `cited_lines` (every line of every readable cited
    source) feed the claim-support, answerhood and conflict rules, which need the question. `sources` lists every source
    the caller may read (a question may name one); `paraphrase` scores closeness of wording (None: exact only).
    """

    draft: Draft
    support_checks: tuple[tuple[Verification, ...], ...] = ()
    conflict_checks: tuple[tuple[Verification, ...], ...] = ()
    bundles: tuple[EvidenceBundle, ...] = ()
    flagged: FlaggedLines = frozenset()
    gate: GateStatus = "proceed"
    tolerance_pct: float = 1.0
    question: str | None = None
    cited_lines: tuple[SourceLine, ...] = ()
    sources: tuple[SourceInfo, ...] = ()
    paraphrase: Paraphrase | None = None
    # work done once per draft for several rules (`memo.per_draft`): not an input, so not compared, not shown, and
    # not carried over by `dataclasses.replace` (a replaced GateInputs is another draft and starts empty)
    memo: dict[Hashable, object] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        evidence = self.draft.evidence
        shape = [len(f.support) for f in evidence.facts], [len(c.values) for c in evidence.conflicts]
        checked = [len(s) for s in self.support_checks], [len(c) for c in self.conflict_checks]
        if shape != checked:
            raise ValueError(
                f"one verification per cited quote: the draft cites {shape} (supports per fact, values per "
                f"conflict), the checks cover {checked}"
            )


def cited_ids(inputs: GateInputs) -> set[str]:
    """The source ids of the quotes the gate verified (supports and listed conflict values): the only text a rule
    may mask as a citation. The draft's own `citations_index` is never read: it is the model's claim about what it
    cited, so text listed there ("The late charge is waived.") is checked like any other text, and the index the
    caller sees is rebuilt by the system from the checked supports (`graphs/terminals.py`)."""
    evidence = inputs.draft.evidence
    ids = {
        s.source_id
        for f, checks in zip(evidence.facts, inputs.support_checks, strict=True)
        for s, check in zip(f.support, checks, strict=True)
        if check.ok
    }
    ids |= {
        v.source_id
        for c, checks in zip(evidence.conflicts, inputs.conflict_checks, strict=True)
        for v, check in zip(c.values, checks, strict=True)
        if check.ok
    }
    return ids


def quoted_sources(draft: Draft) -> list[str]:
    """The sources the draft quotes (supports and conflict values), each once, in order of first citation."""
    evidence = draft.evidence
    ids = [s.source_id for f in evidence.facts for s in f.support]
    ids += [v.source_id for c in evidence.conflicts for v in c.values]
    return list(dict.fromkeys(ids))
