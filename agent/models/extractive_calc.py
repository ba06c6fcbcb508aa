"""Arithmetic planning for the extractive model: rate conversions and two-operand cues, always through `calc`.

Operands are written exactly as the quotes spell them (currency sign dropped), so the gate can find each one
in a support quote and recompute the result.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from quotebound.agent.models.extractive_cues import CHANGE_DOWN, CHANGE_EITHER, CHANGE_UP
from quotebound.agent.models.extractive_line_text import is_table_row, table_cells
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import Question, analyze
from quotebound.agent.models.extractive_rank import rank
from quotebound.agent.models.extractive_score import Scored, build_index
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_values import MONTHS, NUMERIC_KINDS, Value
from quotebound.agent.models.extractive_words import normalize, tokens
from quotebound.tools.registry import ToolRegistry


@dataclass
class ToolBudget:
    """The model's own cap on tool calls (the registry enforces its cap too)."""

    tools: ToolRegistry
    limit: int
    used: int = 0

    @property
    def left(self) -> int:
        registry_left = None if self.tools.max_calls is None else self.tools.max_calls - len(self.tools.calls)
        own_left = self.limit - self.used
        return own_left if registry_left is None else min(own_left, registry_left)

    def call(self, name: str, args: dict[str, Any]) -> Any | None:
        """The tool's result, or None when it refused or the budget is spent."""
        if self.left <= 0:
            return None
        self.used += 1
        outcome = self.tools.invoke(name, args)
        return outcome.get("result") if outcome.get("ok") else None


def operand(value: Value) -> str:
    """A value as calc should read it: as quoted, minus the currency sign and inner spaces."""
    return re.sub(r"^[$€£¥₹]\s?", "", value.text).replace(" ", "")


def currency(value: Value) -> str:
    match = re.match(r"^[$€£¥₹]", value.text)
    return match.group() if match else ""


def calc(budget: ToolBudget, expr: str) -> str | None:
    result = budget.call("calc", {"expr": expr})
    return str(result["value"]) if isinstance(result, dict) and "value" in result else None


@dataclass(frozen=True)
class CalcPlan:
    op: str  # "annual" / "monthly" (a conversion to that rate) or sum / difference / percentage / share
    expr: str
    value: str
    operands: tuple[Scored, ...]
    unit: str  # the currency sign of the operands, or "" (percentages carry their own "%")


def convert(budget: ToolBudget, scored: Scored, to_period: str) -> CalcPlan | None:
    """A rate conversion by twelve: monthly to annual multiplies, annual to monthly divides."""
    if scored.value is None or scored.value_period is None or scored.value.kind not in ("money", "number"):
        return None
    expr = f"{operand(scored.value)} {'*' if to_period == 'annual' else '/'} 12"
    value = calc(budget, expr)
    return CalcPlan(to_period, expr, value, (scored,), currency(scored.value)) if value is not None else None


# --- Two-operand cues -----------------------------------------------------------------------------------

_END = r"\s*(?:\?|\.|$)"
# (op, pattern): group `a` is the first operand in the expression (a + b, a - b, a / b, b * a%)
_SPLITS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("difference", re.compile(rf"difference (?:between|of) (?P<a>.+?) and (?P<b>.+?){_END}", re.I)),
    (
        "difference",
        re.compile(
            rf"how much (?:more|higher|greater|larger|less|lower|smaller) (?:is|are|was|were|does|do) (?P<a>.+?)"
            rf"(?: cost| costs)? than (?P<b>.+?){_END}",
            re.I,
        ),
    ),
    (
        "percentage",
        re.compile(rf"what (?:percentage|percent|share) of (?P<b>.+?) (?:is|are|was|goes to) (?P<a>.+?){_END}", re.I),
    ),
    ("percentage", re.compile(rf"(?P<a>.+?) as a (?:percentage|percent|share) of (?P<b>.+?){_END}", re.I)),
    ("share", re.compile(rf"(?P<a>.+?)['’]s (?:share|portion) of (?P<b>.+?){_END}", re.I)),
    # "the sum of A and B", "the total cost of A and B", "the combined FY2025 budget for A and for B"
    (
        "sum",
        re.compile(rf"(?:total|sum|combined)(?: \w+){{0,2}} (?:of|for) (?P<a>.+?) and (?:for )?(?P<b>.+?){_END}", re.I),
    ),
    (
        "sum",
        re.compile(
            r"(?:what|how much) (?:is|are|do|does) (?P<a>.+?) and (?P<b>.+?) (?:combined|together|in total)", re.I
        ),
    ),
)


_CHANGE_VERB = "|".join(re.escape(v) for v in sorted((*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER), key=len, reverse=True))
# "fall between January 1 and December 31", "rise from 2023 to 2024": the two points the change runs between.
_CHANGE = re.compile(rf"\b(?P<verb>{_CHANGE_VERB})\b.*?\b(?:between|from) (?P<a>.+?) (?:and|to) (?P<b>.+?){_END}", re.I)


def change_points(question: Question) -> tuple[str, str] | None:
    """The two points a change runs between, as (a, b) for a - b: a fall is the earlier value minus the later one,
    a rise or a change the later minus the earlier."""
    change = _CHANGE.search(question.text) if question.op == "difference" else None
    if change is None:
        return None
    a_text, b_text = change["a"].strip(), change["b"].strip()
    return (a_text, b_text) if change["verb"].lower() in CHANGE_DOWN else (b_text, a_text)


def _point_marks(phrase: str) -> frozenset[str]:
    """What names a point in time in a phrase: its figures and month names ("January 1", "2019")."""
    return frozenset(w for w in tokens(phrase) if any(c.isdigit() for c in w) or w in MONTHS)


def split_operands(question: Question) -> list[tuple[str, str]]:
    """Every reading of the question as (a, b): a phrase joined by several "and"s may split at any of them."""
    points = change_points(question)
    readings: list[tuple[str, str]] = [points] if points is not None else []
    for op, pattern in _SPLITS:
        if op != question.op:
            continue
        match = pattern.search(question.text)
        if not match:
            continue
        a_text = re.sub(r"^(?:what is|what are|is|are)\s+", "", match["a"].strip(), flags=re.I)
        b_text = match["b"].strip()
        joined_by_and = re.search(r" and (?:\(\?:for \)\?)?\(\?P<b>", pattern.pattern) is not None
        if joined_by_and and " and " in b_text and a_text:
            parts = f"{a_text} and {b_text}".split(" and ")
            readings += [(" and ".join(parts[:k]), " and ".join(parts[k:])) for k in range(1, len(parts))]
        else:
            readings.append((a_text, b_text))
    return list(dict.fromkeys(readings))


def _operand_question(question: Question, phrase: str, shared: set[str]) -> Question:
    sub = analyze(phrase)
    extra = tuple(sorted(shared - set(sub.words)))
    kind = "percent" if sub.kind == "percent" else "amount"
    return dataclasses.replace(sub, words=sub.words + extra, kind=kind)


def _states_own_point(a: Scored, b: Scored, a_marks: frozenset[str], b_marks: frozenset[str]) -> bool:
    """Each line states its own point and not the other's (a line naming both holds both values, and which is
    which is not read here), and the two values differ."""
    a_toks, b_toks = tokens(a.line.text), tokens(b.line.text)
    own = a_marks <= a_toks and b_marks <= b_toks
    crossed = (b_marks and b_marks <= a_toks) or (a_marks and a_marks <= b_toks)
    return own and not crossed and a.value is not None and b.value is not None and a.value.text != b.value.text


_YEAR = re.compile(r"(?:19|20)\d\d")


def _other_year(line: Scored, marks: frozenset[str]) -> bool:
    """The operand names a year and its line names another one too ("$1,290.0 million in 2019 compared to $1,235.2
    million in 2018"): which figure belongs to the asked year is not read here."""
    asked = {w for w in marks if _YEAR.fullmatch(w)}
    return bool(asked) and any(_YEAR.fullmatch(w) and w not in asked for w in tokens(line.line.text))


_FIGURE_CELL = re.compile(r"^\(?-?[$€£¥₹]?\s?\(?\d[\d,]*(?:\.\d+)?\)?%?\)?$")


def one_figure(scored: Scored) -> bool:
    """The line gives one figure of the operand's kind for its subject: prose, or a table row with one such cell
    after its label (a leading line number aside; a percentage and an amount are told apart). A row with several
    ("| Nonvested | 6,148 | $6.59 | 1.81 |") gives one per column, and which column the operand is in is the table
    reader's to say, not this one's."""
    if not is_table_row(scored.line.text) or scored.value is None:
        return True
    cells = [c.replace("**", "").replace(" ", "").strip() for c in table_cells(scored.line.text)]
    labels = [i for i, c in enumerate(cells) if re.search(r"[^\W\d_]", c)]
    figures = [c for c in (cells[labels[0] + 1 :] if labels else cells) if _FIGURE_CELL.match(c)]
    percent = scored.value.kind == "percent"
    return sum(1 for c in figures if c.endswith("%") == percent) <= 1


def _best_pair(
    question: Question, pool: LinePool, t: Thresholds, a_phrase: str, b_phrase: str
) -> tuple[float, Scored, Scored, Question, Question] | None:
    a_words, b_words = set(analyze(a_phrase).words), set(analyze(b_phrase).words)
    a_marks, b_marks = _point_marks(a_phrase), _point_marks(b_phrase)
    # "X in 2018 and 2019": an operand that names only a point in time is the other operand's subject at that point.
    a_extra = b_words - b_marks if a_words and a_words <= a_marks else set()
    b_extra = a_words - a_marks if b_words and b_words <= b_marks else set()
    # Two values of one subject at two points need a line that states each point ("balance on January 1: $X"): one
    # table row with a column per year gives both values on one line, and this model does not read by column.
    by_point = (a_phrase, b_phrase) == change_points(question) or bool(a_extra) or bool(b_extra)
    cue_words = {normalize(w) for w in ("total", "sum", "combined", "difference", "share", "portion", "percentage")}
    cue_words |= tokens(" ".join((*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER)))
    shared = set(question.words) - a_words - b_words - cue_words
    sub_a = _operand_question(question, a_phrase, shared | a_extra)
    sub_b = _operand_question(question, b_phrase, shared | b_extra)
    if question.op == "share":  # "A's share of B": A's percentage of B's amount
        sub_a = dataclasses.replace(sub_a, kind="percent")
    ranked_a = [s for s in rank(sub_a, build_index(sub_a, pool), pool, t) if not s.converts]
    ranked_b = [s for s in rank(sub_b, build_index(sub_b, pool), pool, t) if not s.converts]
    best: tuple[float, Scored, Scored, Question, Question] | None = None
    for a in ranked_a[:3]:
        for b in ranked_b[:3]:
            if a.line.key == b.line.key or a.value is None or b.value is None:
                continue
            if not (one_figure(a) and one_figure(b)):
                continue
            if by_point and not _states_own_point(a, b, a_marks, b_marks):
                continue
            if _other_year(a, a_marks) or _other_year(b, b_marks):
                continue
            if question.op == "share":
                if a.value.kind != "percent" or b.value.kind not in ("money", "number"):
                    continue
            elif a.value.kind not in NUMERIC_KINDS or a.value.kind != b.value.kind:
                continue
            if a.stated_period and b.stated_period and a.stated_period != b.stated_period:
                continue  # never add a monthly figure to an annual one
            fit = a.coverage + b.coverage
            if best is None or fit > best[0]:
                best = (fit, a, b, sub_a, sub_b)
    return best


def plan_two_operands(
    question: Question, pool: LinePool, budget: ToolBudget, t: Thresholds
) -> tuple[CalcPlan, tuple[Question, Question]] | None:
    """Sum, difference, percentage or share of two quoted values, each found by its own phrase of the question."""
    if question.op is None:
        return None
    pairs = [pair for a, b in split_operands(question) if (pair := _best_pair(question, pool, t, a, b))]
    if not pairs:
        return None
    _, a, b, sub_a, sub_b = max(pairs, key=lambda p: p[0])  # max keeps the first reading on ties
    assert a.value is not None and b.value is not None
    x, y = operand(a.value), operand(b.value)
    expr = {
        "sum": f"{x} + {y}",
        "difference": f"{x} - {y}",
        "percentage": f"round({x} / {y} * 100, 2)",
        "share": f"{y} * {x}",  # calc reads "4.25%" as 0.0425
    }[question.op]
    value = calc(budget, expr)
    if value is None:
        return None
    unit = "" if question.op == "percentage" else currency(b.value if question.op == "share" else a.value)
    return CalcPlan(question.op, expr, value, (a, b), unit), (sub_a, sub_b)
