"""One run's result as the scorers see it, whichever system produced it: the gated graph's final envelope, the
naive baseline's first draft (extractive) or its raw reply (a chat model). Scoring the same view of every
system is what makes "wrong" and "unsupported" mean the same for the gated system and the naive baseline.

Definitions (used by every dataset):
- answered: the run ends in an answer (gated: `status == "answer"`; naive: the model did not itself report
  insufficient evidence). Not answered = abstained (an abstention, or a clarify question left unanswered) or an
  error (the run failed, counted apart).
- headline: the answer proper: `level1` of an envelope or draft, the whole reply of a raw-text system.
- shipped text: every string the user is shown with an answer: the three answer levels, each fact's text, its
  quotes and calc value, and each listed conflict's values and quotes (the whole reply for raw text). Nothing is
  shipped by a run that does not answer.
- retrieved text: what retrieval handed the system (the resolved bundles' text, after policy), plus each quote
  the answer carries that occurs verbatim in the question's own documents (the system read it through a tool).
- unsupported (`unsupported`): a figure of the shipped text that is neither in the retrieved text nor in the
  question (in any form there: "2nd" carries 2), nor the value of a shipped calc derivation whose operands are
  all in the retrieved text (or unit constants; `round`'s precision and an average's count are no operands); a
  calc operand that is none of those; or a quote (a fact's support, or a double-quoted run of four or more words
  in a raw reply) that is not verbatim in the question's documents (whitespace and case aside). A derived number
  stated without a calc derivation is unsupported, even when it happens to be right: nothing shipped shows where
  it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from quotebound.evals.datasets.text import figures
from quotebound.evals.leaks import visible_strings

Status = str  # "answer" | "abstain" | "clarify" | "error"
UNIT_CONSTANTS: Final = frozenset({"1", "7", "12", "24", "52", "60", "100", "365", "1000"})  # calc may use these
_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
_QUOTE_WORDS: Final = 4
_ROUND_PLACES = re.compile(r",\s*\d{1,2}\s*\)")  # `round(x, 2)`: the 2 is a precision, not an operand
# "(a + b + c) / 3": a sum of terms divided by their number, an average; the count is not a figure of the documents.
_AVERAGE = re.compile(r"^\s*\((?P<terms>[^()]*)\)\s*/\s*(?P<count>\d+)\s*$")


@dataclass(frozen=True)
class Outcome:
    case_id: str
    system: str  # e.g. "extractive+gate", "extractive naive"
    status: Status
    headline: str = ""
    shipped: str = ""
    quotes: tuple[str, ...] = ()  # structured quotes the answer ships (fact supports, conflict sides)
    conflicts: tuple[tuple[str, ...], ...] = ()  # per listed conflict: each side's value and quote
    calcs: tuple[tuple[str, str], ...] = ()  # (expr, value) of each shipped calc derivation
    retrieved: str = ""
    raw: bool = False  # a raw-text reply (no structure: quotes are read from its double-quoted runs)
    visible: tuple[str, ...] = ()  # every string the user sees, whatever the status (`evals.leaks`)
    drafted: tuple[str, ...] = ()  # every string of the model's last draft (what it tried to ship)
    reason_code: str | None = None
    seconds: float = 0.0
    tool_calls: int = 0
    error: str | None = None

    @property
    def answered(self) -> bool:
        return self.status == "answer"

    @property
    def abstained(self) -> bool:
        return self.status in ("abstain", "clarify")


def _levels(levels: Mapping[str, Any] | None) -> list[str]:
    levels = levels or {}
    return [str(levels.get(name) or "") for name in ("level1", "level2", "level3")]


def structured_outcome(
    case_id: str,
    system: str,
    status: Status,
    levels: Mapping[str, Any] | None,
    evidence: Mapping[str, Any] | None,
    *,
    retrieved: str = "",
    seconds: float = 0.0,
    tool_calls: int = 0,
    error: str | None = None,
    visible: tuple[str, ...] = (),
    drafted: tuple[str, ...] = (),
    reason_code: str | None = None,
) -> Outcome:
    """An outcome from answer levels and an Answer Object (an answer envelope, or a draft shipped as is)."""
    common: dict[str, Any] = {
        "retrieved": retrieved, "seconds": seconds, "tool_calls": tool_calls, "error": error, "visible": visible,
        "drafted": drafted, "reason_code": reason_code,
    }  # fmt: skip
    if status != "answer":
        return Outcome(case_id, system, status, **common)
    evidence = evidence or {}
    texts = _levels(levels)
    quotes: list[str] = []
    calcs: list[tuple[str, str]] = []
    for fact in evidence.get("facts") or []:
        texts.append(str(fact.get("text") or ""))
        quotes += [str(s.get("quote") or "") for s in fact.get("support") or []]
        if fact.get("calc"):
            calcs.append((str(fact["calc"].get("expr") or ""), str(fact["calc"].get("value") or "")))
    conflicts: list[tuple[str, ...]] = []
    for conflict in evidence.get("conflicts") or []:
        values = conflict.get("values") or []
        conflicts.append(tuple(str(v.get(part) or "") for v in values for part in ("value", "quote")))
        quotes += [str(v.get("quote") or "") for v in values]
    shipped = [*texts, *quotes, *(value for _, value in calcs), *(s for c in conflicts for s in c)]
    return Outcome(
        case_id=case_id,
        system=system,
        status=status,
        headline=texts[0],
        shipped="\n".join(s for s in shipped if s),
        quotes=tuple(dict.fromkeys(q for q in quotes if q.strip())),
        conflicts=tuple(conflicts),
        calcs=tuple(calcs),
        **common,
    )


def envelope_outcome(
    case_id: str,
    system: str,
    envelope: Mapping[str, Any] | None,
    *,
    retrieved: str = "",
    draft: Mapping[str, Any] | None = None,
    seconds: float = 0.0,
    tool_calls: int = 0,
    error: str | None = None,
) -> Outcome:
    """An outcome from a final envelope (as JSON data) and the run's last draft; no envelope is an error."""
    drafted = tuple(visible_strings(draft)) if draft else ()
    if envelope is None:
        missing = error or "no envelope"
        return Outcome(case_id, system, "error", retrieved=retrieved, seconds=seconds, drafted=drafted, error=missing)
    status = str(envelope.get("status") or "error")
    return structured_outcome(
        case_id, system, status, envelope.get("answer"), envelope.get("evidence"), retrieved=retrieved,
        seconds=seconds, tool_calls=tool_calls, error=error, visible=tuple(visible_strings(envelope)),
        drafted=drafted, reason_code=envelope.get("reason_code"),
    )  # fmt: skip


def reply_outcome(
    case_id: str, system: str, reply: str, *, abstained: bool, retrieved: str = "", seconds: float = 0.0
) -> Outcome:
    """An outcome from a raw-text reply: everything it says is shown, and nothing in it is structured."""
    status = "abstain" if abstained else "answer"
    shipped = "" if abstained else reply
    return Outcome(
        case_id, system, status, headline=shipped, shipped=shipped, retrieved=retrieved, raw=True, seconds=seconds,
        visible=(reply,), drafted=(reply,),
    )  # fmt: skip


def _squash(text: str) -> str:
    return " ".join(text.split()).casefold()


def quoted_runs(text: str) -> list[str]:
    """Double-quoted runs of at least four words in a raw reply: what a reader takes for quotations."""
    return [m.group(1) for m in _QUOTED.finditer(text) if len(m.group(1).split()) >= _QUOTE_WORDS]


def verbatim(quote: str, documents: Iterable[str]) -> bool:
    needle = _squash(quote)
    return bool(needle) and any(needle in _squash(doc) for doc in documents)


def calc_figures(expr: str) -> set[str]:
    """The figures a calc expression takes from somewhere: all its numbers, less `round`'s precision and the count
    of an average (the divisor of a sum of that many terms)."""
    expr = _ROUND_PLACES.sub(")", expr)
    average = _AVERAGE.match(expr)
    if average is not None and len(average["terms"].split("+")) == int(average["count"]) >= 2:
        return figures(average["terms"])
    return figures(expr)


def unsupported(outcome: Outcome, documents: Iterable[str], question: str = "") -> list[str]:
    """What the answer ships that its retrieved text does not carry: figures, and quotes not in the documents."""
    if not outcome.answered:
        return []
    documents = list(documents)
    quotes = list(outcome.quotes) + (quoted_runs(outcome.shipped) if outcome.raw else [])
    read = [q for q in quotes if verbatim(q, documents)]
    problems = [f"quote: {q[:80]}" for q in quotes if q not in read]
    known = figures("\n".join([outcome.retrieved, *read, question]), identifiers=True)
    derived: set[str] = set()
    for expr, value in outcome.calcs:
        operands = calc_figures(expr) - known - UNIT_CONSTANTS
        problems += [f"calc operand: {f}" for f in sorted(operands)]
        derived |= set() if operands else figures(value)
    problems += [f"figure: {f}" for f in sorted(figures(outcome.shipped) - known - derived)]
    return problems
