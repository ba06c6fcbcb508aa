"""TAT-QA (Zhu et al. 2021, github.com/NExTplusplus/TAT-QA, CC BY 4.0): questions over a financial report's table
and paragraphs. The dev set has 278 documents and 1,668 questions: span (701), multi-span (217), arithmetic (718,
whose answer appears nowhere in the document) and count (32).

Corpus. Every document becomes `tatqa-<table uid>.md`: its paragraphs in order, one sentence a line, a blank line
between paragraphs, then its table as a Markdown table (the first row as the header row, then the separator row,
then one row a line, each cell's whitespace runs squashed), so a row is one quotable line. A `public` sidecar keeps
the license (CC BY 4.0) and the attribution; provenance `primary` (a company's own report). Each question is asked with
`labels=[<its document's source id>]`, so `ScopedPolicy` lets it read only its own document.

Golden set. One `expect: answer` case per question, tagged with its answer type, `from-<answer_from>` and
`scale-<scale>`: `must_include` each gold span, or the gold number (plain and with thousands separators).

Scoring (`score`):
- numeric gold: arithmetic and count answers, and a span answer that is a single number ("$1,496.5", "2019").
- answer number: the first number of the headline (an envelope's or draft's `level1`, a raw reply) that is not a
  figure of the question (a year the question names is not the answer) nor one side's value of a listed conflict
  (as for RAMDocs: a disputed value is reported with its dispute, not given as the answer).
- same number: equal to the gold, the gold times its `scale` (thousand, million, billion: "12,600,000" for 12.6
  million) or, for `percent`, the gold over one hundred, after rounding both to the coarser of their precisions
  ("-22.2222" is "-22.22"; "22" matches "22.22"). The sign counts: a flipped sign is a wrong number
  (`sign_flipped` counts those).
- correct: a span or multi-span answer whose shipped text contains every gold span (normalized tokens, in order);
  an arithmetic or count answer whose answer number is the same number as the gold.
- span EM: (span answers only) the headline's normalized tokens equal the gold span's: strict, and rare for a
  system that quotes whole lines. Span quoted: every gold span is inside a shipped quote that is verbatim in the
  document (a raw reply carries no quote).
- wrong number shipped (wrong): an answer to a numeric-gold question that is not correct and has an answer number.
  A text span missed is not "wrong" (the answer does not contradict the gold; it fails to show it).
  `wrong_from_source` counts the wrong numbers that are values of the retrieved text (a row quoted in answer to
  "what is the change", say): true figures, given as the answer to a question they do not answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Final

from quotebound.evals.datasets.corpus import Unit
from quotebound.evals.datasets.outcome import Outcome, unsupported, verbatim
from quotebound.evals.datasets.text import (
    canonical,
    contains,
    figures,
    numbers,
    sentence_lines,
    strip_references,
    tokens,
)
from quotebound.evals.datasets.verdict import Verdict, share, tally
from quotebound.evals.golden import GoldenCase, GoldenSet

FILE: Final = "tatqa_dev.json"
ATTRIBUTION: Final = "TAT-QA (github.com/NExTplusplus/TAT-QA), Zhu et al. 2021"
LICENSE: Final = "CC BY 4.0"
SCALES: Final = {"thousand": 3, "million": 6, "billion": 9}
NUMERIC_KINDS: Final = frozenset({"arithmetic", "count"})


@dataclass(frozen=True)
class Question:
    uid: str
    source_id: str
    question: str
    answer: tuple[str, ...]  # the gold spans, or the one gold number as text
    kind: str  # span | multi-span | arithmetic | count
    answer_from: str  # table | text | table-text
    scale: str  # "" | thousand | million | billion | percent

    @property
    def case_id(self) -> str:
        return f"tatqa-{self.uid}"

    @property
    def gold_number(self) -> Decimal | None:
        """The gold as a number, when the question has numeric gold (see the module docstring)."""
        if self.kind in NUMERIC_KINDS:
            try:
                return Decimal(self.answer[0].replace(",", ""))
            except InvalidOperation:
                return None
        if self.kind == "span" and len(self.answer) == 1:
            found = numbers(self.answer[0])
            if len(found) == 1 and tokens(self.answer[0]) == [canonical(abs(found[0]))]:
                return found[0]
        return None


@dataclass(frozen=True)
class Document:
    uid: str
    paragraphs: tuple[str, ...]
    table: tuple[tuple[str, ...], ...]
    questions: tuple[Question, ...]

    @property
    def source_id(self) -> str:
        return f"tatqa-{self.uid}.md"

    @property
    def file_text(self) -> str:
        blocks = ["\n".join(sentence_lines(p)) for p in self.paragraphs if p.strip()]
        return "\n\n".join([*blocks, markdown_table(self.table)]).strip()


def markdown_table(rows: Sequence[Sequence[str]]) -> str:
    """One table row a line; the first row is the header row (Markdown tables have exactly one)."""
    if not rows:
        return ""
    width = max(len(row) for row in rows)
    cells = [[" ".join(str(c).split()) for c in row] + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(row) + " |" for row in cells]
    return "\n".join([lines[0], "|" + " --- |" * width, *lines[1:]])


def _number_text(value: Any) -> str:
    return canonical(Decimal(str(value)))


def _gold(answer: Any) -> tuple[str, ...]:
    """The gold spans (blank ones dropped: a few multi-span answers carry one), or the gold number as text."""
    if isinstance(answer, list):
        return tuple(str(a).strip() for a in answer if str(a).strip())
    return (_number_text(answer) if isinstance(answer, int | float) else str(answer).strip(),)


def parse(row: dict[str, Any]) -> Document:
    uid = str(row["table"]["uid"])
    source_id = f"tatqa-{uid}.md"
    paragraphs = tuple(str(p["text"]) for p in sorted(row["paragraphs"], key=lambda p: int(p["order"])))
    questions = tuple(
        Question(
            uid=str(q["uid"]),
            source_id=source_id,
            question=str(q["question"]),
            answer=_gold(q["answer"]),
            kind=str(q["answer_type"]),
            answer_from=str(q["answer_from"]),
            scale=str(q["scale"] or ""),
        )
        for q in sorted(row["questions"], key=lambda q: int(q["order"]))
    )
    table = tuple(tuple(str(c) for c in r) for r in row["table"]["table"])
    return Document(uid, paragraphs, table, questions)


def load_documents(folder: Path, limit: int | None = None) -> list[Document]:
    """The dev set's documents (the first `limit` of them)."""
    rows = json.loads((folder / FILE).read_text(encoding="utf-8"))
    return [parse(row) for row in (rows[:limit] if limit else rows)]


def questions(documents: Iterable[Document]) -> list[Question]:
    return [q for d in documents for q in d.questions]


def units(documents: Iterable[Document]) -> list[Unit]:
    return [Unit(d.source_id, {d.source_id: d.file_text}) for d in documents]


def _spellings(number: str) -> list[str]:
    try:
        value = Decimal(number)
    except InvalidOperation:
        return [number]
    whole, _, fraction = number.lstrip("-").partition(".")
    grouped = f"{'-' if value < 0 else ''}{int(whole):,}{'.' + fraction if fraction else ''}"
    return list(dict.fromkeys([number, grouped]))


def case(question: Question) -> GoldenCase:
    numeric = question.kind in NUMERIC_KINDS
    must: list[str | list[str]] = [_spellings(question.answer[0])] if numeric else list(question.answer)
    return GoldenCase(
        id=question.case_id,
        question=question.question,
        labels=[question.source_id],
        expect="answer",
        must_include=must,
        sources=[question.source_id],
        tags=["tatqa", question.kind, f"from-{question.answer_from}", f"scale-{question.scale or 'none'}"],
    )


def golden_set(qs: Sequence[Question]) -> GoldenSet:
    return GoldenSet(name="tatqa-dev", description=f"{ATTRIBUTION}; {LICENSE}", cases=[case(q) for q in qs])


# --- scoring --------------------------------------------------------------------------------------------------


def _places(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def same_number(value: Decimal, gold: Decimal, scale: str) -> bool:
    """`value` is `gold` (or gold in units of its scale, or a percent as a fraction) up to rounding."""
    targets = [gold]
    if scale in SCALES:
        targets.append(gold * Decimal(10) ** SCALES[scale])
    if scale == "percent":
        targets.append(gold / 100)
    for target in targets:
        places = min(_places(value), _places(target))
        if abs(value - target) <= Decimal(5) * Decimal(10) ** -(places + 1):
            return True
    return False


def answer_number(outcome: Outcome, question: str) -> Decimal | None:
    """The number the answer gives: the headline's first number that the question does not name and that is not
    one side of a listed conflict (a disputed value is reported with its dispute, not given as the answer)."""
    disputed = " ".join(value for conflict in outcome.conflicts for value in conflict[0::2])  # (value, quote) pairs
    skip = figures(question) | figures(disputed)
    for value in numbers(strip_references(outcome.headline)):
        if canonical(abs(value)) not in skip:
            return value
    return None


@dataclass(frozen=True)
class TatVerdict(Verdict):
    kind: str
    numeric: bool
    number: str | None  # the answer number, as shipped
    span_exact: bool
    span_quoted: bool
    sign_flipped: bool
    from_source: bool  # a wrong answer number that is a value of the source (a row shown, not the result asked)


def score(outcome: Outcome, question: Question, document_text: str) -> TatVerdict:
    answered = outcome.answered
    gold = question.gold_number
    number = answer_number(outcome, question.question) if answered else None
    spans = question.kind in ("span", "multi-span")
    if spans:
        correct = answered and all(contains(outcome.shipped, span) for span in question.answer)
    else:
        correct = number is not None and gold is not None and same_number(number, gold, question.scale)
    quoted = [q for q in outcome.quotes if verbatim(q, [document_text])]
    span_quoted = answered and spans and all(any(contains(q, s) for q in quoted) for s in question.answer)
    exact = answered and question.kind == "span" and tokens(outcome.headline) == tokens(question.answer[0])
    wrong = answered and not correct and gold is not None and number is not None
    flipped = wrong and gold is not None and number is not None and same_number(-number, gold, question.scale)
    read = "\n".join([outcome.retrieved, *quoted])
    from_source = wrong and number is not None and canonical(abs(number)) in figures(read, identifiers=True)
    return TatVerdict(
        case_id=question.case_id,
        status=outcome.status,
        correct=correct,
        wrong=wrong,
        unsupported=tuple(unsupported(outcome, [document_text], question.question)),
        seconds=outcome.seconds,
        kind=question.kind,
        numeric=gold is not None,
        number=canonical(number) if number is not None else None,
        span_exact=exact,
        span_quoted=span_quoted,
        sign_flipped=flipped,
        from_source=from_source,
    )


def summarize(verdicts: Sequence[TatVerdict]) -> dict[str, float]:
    arithmetic = [v for v in verdicts if v.kind == "arithmetic"]
    spans = [v for v in verdicts if v.kind in ("span", "multi-span")]
    single = [v for v in spans if v.kind == "span"]
    return {
        **tally(verdicts),
        "arithmetic": len(arithmetic),
        "arithmetic_answered_share": share(sum(v.answered for v in arithmetic), len(arithmetic)),
        "arithmetic_abstained_share": share(sum(v.abstained for v in arithmetic), len(arithmetic)),
        "arithmetic_correct": sum(v.correct for v in arithmetic),
        "arithmetic_wrong_numbers": sum(v.wrong for v in arithmetic),
        "wrong_numbers": sum(v.wrong for v in verdicts),
        "sign_flipped": sum(v.sign_flipped for v in verdicts),
        "wrong_from_source": sum(v.from_source for v in verdicts),
        "spans": len(spans),
        "span_answered": sum(v.answered for v in spans),
        "span_correct": sum(v.correct for v in spans),
        "span_quoted": sum(v.span_quoted for v in spans),
        "span_exact": sum(v.span_exact for v in single),
        "span_single": len(single),
    }
