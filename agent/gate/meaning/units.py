"""Units, rates and scales. A figure's unit (days, months, hours, inches ...), rate ("per year", "monthly") and
scale ("million") must be those its quote gives the same figure; a table's declared scale ("in thousands", "€m")
counts for its cells. Also what a figure measures (`kind_class`), which the binding checks compare figures by."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.meaning.lexicon import (
    QUANTITY_WORDS,
    RATE_ADVERBS,
    RATE_WORDS,
    SCALES,
    TIME_UNITS,
    UNITS,
    is_content,
)
from quotebound.agent.gate.meaning.model import Problem, QuoteSentence, Sentence, Tok, Value, bare_cell
from quotebound.agent.gate.tokens import Key

POWERS: Final[dict[int, str]] = {3: "thousand", 6: "million", 9: "billion", 12: "trillion"}

# A table's declared scale: "(in millions)", "in thousands", "U.S. $ in thousands", "€m", "$'000".
_SCALE_DECLARATION: Final = re.compile(
    r"\bin\s+(thousands|millions|billions)\b|[$€£¥]\s?(m|bn|k)\b|\b(m|bn)\s?[$€£¥]|[$€£¥]\s?'?(000)s?\b", re.I
)
_DECLARED: Final[dict[str, str]] = {
    "thousands": "thousand", "millions": "million", "billions": "billion", "m": "million", "bn": "billion",
    "k": "thousand", "000": "thousand",
}  # fmt: skip

# Period labels: a year, or a fiscal period code ("FY19", "Q3", "H1 2020").
_YEAR: Final = re.compile(r"(?:19|20)\d\d")
_PERIOD_CODE: Final = re.compile(r"(?:fy|q[1-4]|h[12])'?\d{0,4}", re.I)


def fill_units(toks: Sequence[Tok], values: list[Value]) -> None:
    """Fill each figure's scale ("million"), unit ("days", one adjective allowed between: "72 consecutive hours")
    and rate ("per year", "a month", "annually") from the words right after it."""
    for n, v in enumerate(values):
        i = v.pos + 1
        scale, unit, rate = v.scale, None, None
        if scale is None and i < len(toks) and toks[i].value < 0 and toks[i].low in SCALES:
            scale = SCALES[toks[i].low]
            i += 1
        skipped = 0
        while i < len(toks) and toks[i].value < 0:
            low = toks[i].low
            if low in UNITS:
                unit = UNITS[low]
                i += 1
                break
            if low in RATE_ADVERBS:
                rate = RATE_ADVERBS[low]
                break
            if skipped or not is_content(low):
                break
            skipped += 1
            i += 1
        if rate is None and i + 1 < len(toks) and toks[i].low in RATE_WORDS:
            per = UNITS.get(toks[i + 1].low)
            rate = per if per in TIME_UNITS else None
        elif rate is None and i < len(toks) and toks[i].low in RATE_ADVERBS:
            rate = RATE_ADVERBS[toks[i].low]
        values[n] = v._replace(unit=unit, rate=rate, scale=scale, label=_is_label(v))


def _is_label(v: Value) -> bool:
    if v.kind == "code":
        return bool(_PERIOD_CODE.fullmatch(v.text.replace(" ", "")))
    return v.kind == "number" and bool(_YEAR.fullmatch(v.text.strip()))


def _declared_scales(quotes: Sequence[QuoteSentence], source_id: str) -> set[str]:
    scales: set[str] = set()
    for qs in quotes:
        if qs.source_id != source_id:
            continue
        for m in _SCALE_DECLARATION.finditer(qs.sentence.text):
            word = next(g for g in m.groups() if g)
            scales.add(_DECLARED[word.lower()])
    return scales


def unit_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A figure's unit, rate and scale in the claim against those its quotes give the same figure. An amount
    written with a currency sign is counted in the currency's unit ("$18" in dollars): it may not stand for a
    figure every quote counts in another unit ("18 cents")."""
    problems: list[Problem] = []
    for v in claim.values:
        if v.unit is None and v.rate is None and v.scale is None and v.currency is None:
            continue
        same = [
            (qs, _with_column_unit(qs, q, quotes))
            for qs in quotes
            for q in qs.sentence.values
            if q.key == v.key and not q.label
        ]
        if not same:
            continue
        found = _unit_problem(v, same)
        if found is not None:
            problems.append(found)
            continue
        if v.scale is None:
            continue
        stated = {q.scale for _, q in same if q.scale is not None}
        if not stated:
            stated = set().union(*(_declared_scales(quotes, qs.source_id) for qs, _ in same))
        if stated and v.scale not in stated:
            problems.append(
                Problem(
                    "unbound",
                    f"gives {v.text} in {v.scale}s where the quote gives it in {', '.join(sorted(stated))}s",
                    same[0][0].sentence.text,
                )
            )
    return problems


def _with_column_unit(qs: QuoteSentence, q: Value, quotes: Sequence[QuoteSentence]) -> Value:
    """A bare table cell `q` with the unit its column states: the nearest quoted heading row of its table above it
    that names a unit in the cell's column, or in its one heading spanning every column ("| | | Emissions reported
    in tonnes CO2e | |" makes "| Total | 87,128 |" tonnes)."""
    s = qs.sentence
    if not s.row or q.unit is not None or q.currency is not None:
        return q
    cell = s.toks[q.pos].cell
    heads = [h for h in quotes if h.sentence.header and h.same_block(qs) and h.line < qs.line]
    for h in sorted(heads, key=lambda h: -h.line):
        toks = h.sentence.toks
        filled = {t.cell for t in toks if t.cell > 1 and t.low[:1].isalnum()}
        spans = len(filled) == 1  # one heading over every column
        unit = next((UNITS[t.low] for t in toks if t.low in UNITS and (spans or t.cell == cell)), None)
        if unit is not None:
            return q._replace(unit=unit)
    return q


def _unit_problem(v: Value, same: Sequence[tuple[QuoteSentence, Value]]) -> Problem | None:
    """`v`'s unit or rate against those of the quoted figures `same`: a stated unit must be one of theirs, an
    amount's currency one of theirs when each of them is counted in a unit."""
    for attr in ("unit", "rate"):
        mine = getattr(v, attr)
        quoted: list[str | None] = [getattr(q, attr) or (q.currency if attr == "unit" else None) for _, q in same]
        theirs = {t for t in quoted if t is not None}
        implied = mine is None and attr == "unit" and v.currency is not None and None not in quoted
        if implied:
            mine = v.currency
        if mine is not None and theirs and mine not in theirs and (implied or getattr(v, attr) is not None):
            shown = ("per " if attr == "rate" else "") + mine
            given = ", ".join(sorted(("per " if attr == "rate" else "") + t for t in theirs))
            qs = next(qs for (qs, _), unit in zip(same, quoted, strict=True) if unit is not None)
            return Problem(
                "unbound", f"gives {v.text} in {shown} where the quote gives it in {given}", qs.sentence.text
            )
    return None


def kind_class(v: Value) -> str:
    """What a figure measures: an amount (money or a count: a table's cells carry no currency), a share, a
    duration, another measure; or a date, a time, a code."""
    if v.kind in ("money", "number"):
        return "duration" if v.unit in TIME_UNITS else "measure" if v.unit else "amount"
    return v.kind


def gives_other(s: Sentence, v: Value, said: frozenset[Key]) -> bool:
    """`s` gives a figure of `v`'s kind that the claim does not (or a quantity word in a figure's place)."""
    kind = kind_class(v)
    if any(_of_kind(q, kind, s.row) and q.key not in said and (v.label or not q.label) for q in s.values):
        return True
    return kind in ("amount", "percent") and _quantity_word(s)


@lru_cache(maxsize=4096)  # asked of every quote sentence for every figure of a draft's claims
def _quantity_word(s: Sentence) -> bool:
    """`s` has a quantity word ("majority", "half") where a figure could stand."""
    return any(t.low in QUANTITY_WORDS for t in s.toks)


def _of_kind(q: Value, kind: str, row: bool) -> bool:
    """`q` is a figure of `kind`; a table's bare cell is of any counted kind, its unit being its column's
    ("| Total gross emissions | 87,128 |" under "Emissions reported in tonnes CO2e", "| Discount rate | 2.9 |"
    under "| | % |")."""
    return kind_class(q) == kind or (row and bare_cell(q) and kind in ("measure", "duration", "percent"))
