"""An answer that gives, as the answer, a value only a listed conflict side gives.

A draft that lists a disagreement ("Lahu Ke Do Rang•director": Mahesh Bhatt in one document, Raj Kapoor in two
others) and whose facts give one side ("value: Mahesh Bhatt") answers with that side. It may report the other side
as a disagreement ("..., although two documents attribute it to Raj Kapoor"; "one source gives 10,000"), but an
answer clause asserting the other side as the answer ("Raj Kapoor directed Lahu Ke Do Rang") answers with a value
its facts do not support: the conflict's quote is evidence that a document says so, not that it is so.

A side's value is asserted when it stands in a clause of the answer that neither talks about the documents (a
document noun, a reporting or attribution verb, "according to") nor gives a fact's value beside it ("X or Y").
Used by the answerhood rule (`rules/answerhood.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from quotebound.agent.gate.answer_binding import CLAUSE_BREAKS
from quotebound.agent.gate.claims import sentences
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.vocabulary import DOCUMENT_NOUNS, REPORTING_VERBS, WORD, fold, stem

# Words by which a clause reports what a document says rather than asserting it: document nouns ("one source",
# "two documents", "the sources"), reporting verbs ("says", "gives", "lists") and the verbs and phrase of
# attribution ("attribute it to", "credit", "ascribe", "according to").
_TALK: Final = frozenset(
    (*(stem(w) for w in (*DOCUMENT_NOUNS, *REPORTING_VERBS, "source", "attribute", "ascribe", "credit")),
     "according", "given", "says", "states", "lists")
)  # fmt: skip
_TOKEN: Final = re.compile(r"\w+(?:[.,'’&-]\w+)*")  # a word or a figure: "Raj", "10,000", "O'Neil"
_MARKS: Final = re.compile(r"[,;:()\[\]—–]")


def _norm(value: str) -> str:
    """A value's words, folded and single-spaced ("Raj  Kapoor" -> "raj kapoor")."""
    return " ".join(fold(w) for w in _TOKEN.findall(value))


def _norm_text(text: str) -> str:
    """`text` folded with its words single-spaced, its punctuation kept (clauses are cut at it)."""
    return re.sub(r"\s+", " ", fold(text))


def _clause(sentence: str, start: int, end: int) -> str:
    """The clause of `sentence` around `start`:`end`: cut at punctuation and at words opening another clause."""
    left = max((m.end() for m in _MARKS.finditer(sentence, 0, start)), default=0)
    right = next((m.start() for m in _MARKS.finditer(sentence, end)), len(sentence))
    words = sentence[left:right].split()
    at = len(sentence[left:start].split())
    first = max((n + 1 for n, w in enumerate(words[:at]) if fold(w.strip(".!?\"'")) in CLAUSE_BREAKS), default=0)
    last = next((n for n, w in enumerate(words) if n > at and fold(w.strip(".!?\"'")) in CLAUSE_BREAKS), len(words))
    return " ".join(words[first:last])


def _written(value: str, text: str) -> bool:
    """`text` writes `value` as whole words."""
    return bool(value) and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text) is not None


def _talks(text: str) -> bool:
    return any(stem(w) in _TALK or fold(w) in _TALK for w in WORD.findall(text))


def side_values(inputs: GateInputs) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the values the draft's facts give, the listed conflicts' values no fact value gives), normalized."""
    evidence = inputs.draft.evidence
    given = tuple(v for v in (_norm(f.value) for f in evidence.facts if f.value) if v)
    sides = {
        n
        for conflict in evidence.conflicts
        for value in conflict.values
        if (n := _norm(value.value)) and not any(_written(n, g) or _written(g, n) for g in given)
    }
    return given, tuple(sorted(sides))


def side_problem(text: str, given: Sequence[str], sides: Sequence[str]) -> str | None:
    """A clause of `text` asserts, as the answer, a value only a listed conflict side gives (module docstring): no
    word talking about the documents stands before it in its sentence or in its own clause ("Raj Kapoor, according
    to two documents"), and its clause gives no fact's value beside it."""
    if not sides:
        return None
    for sentence in sentences(text) or [text]:
        folded = _norm_text(sentence)
        for side in sides:
            for m in re.finditer(rf"(?<!\w){re.escape(side)}(?!\w)", folded):
                clause = _clause(folded, m.start(), m.end())
                if _talks(folded[: m.start()]) or _talks(clause) or any(_written(g, clause) for g in given):
                    continue
                return (
                    f"the answer states {side!r} as the answer, but only a listed conflict side gives it and the "
                    "draft's facts give another value; answer with what the facts give and report the other side as "
                    "a disagreement ('one document says ...'), or report that the documents disagree"
                )
    return None


__all__ = ["side_problem", "side_values"]
