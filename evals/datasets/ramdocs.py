"""RAMDocs (Wang et al. 2025, github.com/HanNight/RAMDocs, MIT): conflicting, misinformed and noisy documents.

Each of the 500 questions comes with 1-12 documents: `correct` ones (stating a gold answer, possibly for one of
several entities the question is ambiguous between), `misinfo` ones (stating a `wrong_answers` value) and `noise`.

Corpus. Every document becomes `ramdocs-q<NNN>-d<MM>.txt`, one sentence a line (a quote is a sentence, not a
1,200-character paragraph), with a `public` sidecar (license MIT, provenance `unknown`: the system is not told
which documents are misinformation). A question is asked with `labels` = its own source ids, so `ScopedPolicy`
lets it read only its own documents.

Golden set. One `expect: answer` case per question: `must_include` every gold answer, `must_not_include` every
wrong answer that is not part of a gold answer. A generic leak check would fail a run that lists a wrong value as
one side of a conflict, which is the right behaviour here, so the scoring below is the measure:

- mentions(text, value): `value`'s normalized tokens occur contiguously in `text` (`text.contains`), or `value`
  states numbers and every one of them is a figure of one sentence of `text` ("3,559 people" is mentioned by
  "3,559"; "18 December 1888" is not, by "18 December 1868" and "1888" in two sentences).
- gold reported: an answer whose shipped text mentions the gold answer; "all gold" is the share of *all*
  questions whose answer reports every gold answer (an abstention reports none).
- misinformation stated as fact (wrong shipped): an answer whose shipped text mentions a wrong answer (one not
  mentioned by a gold answer) that no listed conflict mentions (in a side's value or quote). A wrong value shown as
  one side of a listed conflict is reported with its disagreement, not stated; a raw-text reply lists no conflict.
- correct: answered, every gold answer reported, no misinformation stated.
- docs disagree: the record names at least two different answers, gold or wrong (misinformation or ambiguity);
  conflict share: among answers to such questions, the share that list at least one conflict (also given for
  the questions with misinformation documents alone, `conflict_share_misinfo`).
- abstention share: abstentions (and unanswered clarify questions) over all questions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from quotebound.evals.datasets.corpus import Unit
from quotebound.evals.datasets.outcome import Outcome, unsupported
from quotebound.evals.datasets.text import contains, figures, numbers, sentence_lines, tokens
from quotebound.evals.datasets.verdict import Verdict, share, tally
from quotebound.evals.golden import GoldenCase, GoldenSet

FILE: Final = "ramdocs_test.jsonl"
ATTRIBUTION: Final = "RAMDocs (github.com/HanNight/RAMDocs), Wang et al. 2025"
LICENSE: Final = "MIT"


@dataclass(frozen=True)
class Document:
    source_id: str
    text: str
    kind: str  # correct | misinfo | noise
    answer: str

    @property
    def file_text(self) -> str:
        return "\n".join(sentence_lines(self.text))


@dataclass(frozen=True)
class Record:
    index: int
    question: str
    documents: tuple[Document, ...]
    entities: tuple[str, ...]
    gold: tuple[str, ...]
    wrong: tuple[str, ...]  # deduplicated, and without values a gold answer mentions

    @property
    def case_id(self) -> str:
        return f"ramdocs-{self.index:03d}"

    @property
    def source_ids(self) -> list[str]:
        return [d.source_id for d in self.documents]

    @property
    def file_texts(self) -> dict[str, str]:
        return {d.source_id: d.file_text for d in self.documents}

    @property
    def disagree(self) -> bool:
        return len({" ".join(tokens(v)) for v in (*self.gold, *self.wrong)}) >= 2


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v.strip() for v in values if v.strip()))


def parse(index: int, row: dict[str, Any]) -> Record:
    documents = tuple(
        Document(f"ramdocs-q{index:03d}-d{j:02d}.txt", str(d["text"]), str(d["type"]), str(d["answer"]))
        for j, d in enumerate(row["documents"])
    )
    gold = _unique(str(g) for g in row["gold_answers"])
    wrong = tuple(w for w in _unique(str(w) for w in row["wrong_answers"]) if not any(mentions(g, w) for g in gold))
    entities = _unique(str(e) for e in row.get("disambig_entity") or [])
    return Record(index, str(row["question"]), documents, entities, gold, wrong)


def load_records(folder: Path, limit: int | None = None) -> list[Record]:
    lines = (folder / FILE).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return [parse(i, row) for i, row in enumerate(rows[:limit] if limit else rows)]


def units(records: Iterable[Record]) -> list[Unit]:
    return [Unit(r.case_id, r.file_texts) for r in records]


def case(record: Record) -> GoldenCase:
    tags = ["ramdocs"]
    tags += ["misinfo"] if any(d.kind == "misinfo" for d in record.documents) else []
    tags += ["noise"] if any(d.kind == "noise" for d in record.documents) else []
    tags += ["ambiguous"] if len(record.gold) > 1 else []
    return GoldenCase(
        id=record.case_id,
        question=record.question,
        labels=record.source_ids,
        expect="answer",
        must_include=list(record.gold),
        must_not_include=list(record.wrong),
        tags=tags,
    )


def golden_set(records: Sequence[Record]) -> GoldenSet:
    return GoldenSet(name="ramdocs", description=f"{ATTRIBUTION}; {LICENSE}", cases=[case(r) for r in records])


# --- scoring --------------------------------------------------------------------------------------------------


def mentions(text: str, value: str) -> bool:
    """`value` is in `text`, or its figures are all in one sentence of it: "18" of one date and "1888" of another
    sentence do not state "18 December 1888"."""
    stated = numbers(value)
    wanted = figures(value)
    return contains(text, value) or (bool(stated) and any(wanted <= figures(s) for s in sentence_lines(text)))


@dataclass(frozen=True)
class RamdocsVerdict(Verdict):
    gold_reported: tuple[str, ...]
    all_gold: bool
    misinfo_stated: tuple[str, ...]
    conflict_listed: bool
    disagree: bool
    misinfo: bool


def score(outcome: Outcome, record: Record) -> RamdocsVerdict:
    answered = outcome.answered
    reported = tuple(g for g in record.gold if answered and mentions(outcome.shipped, g))
    in_conflict = [side for conflict in outcome.conflicts for side in conflict]
    stated = tuple(
        w
        for w in record.wrong
        if answered and mentions(outcome.shipped, w) and not any(mentions(side, w) for side in in_conflict)
    )
    all_gold = answered and len(reported) == len(record.gold)
    return RamdocsVerdict(
        case_id=record.case_id,
        status=outcome.status,
        correct=all_gold and not stated,
        wrong=bool(stated),
        unsupported=tuple(unsupported(outcome, record.file_texts.values(), record.question)),
        seconds=outcome.seconds,
        gold_reported=reported,
        all_gold=all_gold,
        misinfo_stated=stated,
        conflict_listed=answered and bool(outcome.conflicts),
        disagree=record.disagree,
        misinfo=bool(record.wrong),
    )


def summarize(verdicts: Sequence[RamdocsVerdict]) -> dict[str, float]:
    n = len(verdicts)
    disputed = [v for v in verdicts if v.answered and v.disagree]
    listed = sum(v.conflict_listed for v in disputed)
    misinformed = [v for v in verdicts if v.answered and v.misinfo]
    return {
        **tally(verdicts),
        "all_gold_share": share(sum(v.all_gold for v in verdicts), n),
        "misinfo_stated": sum(v.wrong for v in verdicts),
        "conflict_listed": listed,
        "answered_disagreeing": len(disputed),
        "conflict_share": share(listed, len(disputed)),
        "answered_misinfo": len(misinformed),
        "conflict_share_misinfo": share(sum(v.conflict_listed for v in misinformed), len(misinformed)),
        "abstention_share": share(sum(v.abstained for v in verdicts), n),
    }
