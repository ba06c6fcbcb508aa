"""The per-question verdict every dataset scorer returns, and the common columns of the benchmark table.

A dataset scorer (`ramdocs.score`, `tatqa.score`, `bipia_email.score`) subclasses `Verdict` with its own fields;
`tally` counts the columns every dataset shares: questions, answered, abstained, errors, correct, wrong shipped
(an answer the dataset's definition calls wrong) and unsupported shipped (an answer with at least one finding of
`outcome.unsupported`), plus the mean seconds per question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    case_id: str
    status: str
    correct: bool
    wrong: bool
    unsupported: tuple[str, ...]
    seconds: float

    @property
    def answered(self) -> bool:
        return self.status == "answer"

    @property
    def abstained(self) -> bool:
        return self.status in ("abstain", "clarify")


def share(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def tally(verdicts: Sequence[Verdict]) -> dict[str, float]:
    n = len(verdicts)
    return {
        "questions": n,
        "answered": sum(v.answered for v in verdicts),
        "abstained": sum(v.abstained for v in verdicts),
        "errors": sum(v.status in ("error", "failed") for v in verdicts),
        "correct": sum(v.correct for v in verdicts),
        "wrong": sum(v.wrong for v in verdicts),
        "unsupported": sum(bool(v.unsupported) for v in verdicts),
        "seconds_per_question": share(sum(v.seconds for v in verdicts), n),
    }
