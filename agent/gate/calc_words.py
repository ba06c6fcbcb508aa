"""Words a claim may use because a verified calc of it, or its quoted figures, bear them out: which way a figure
moved or compares ("rose", "exceeds"), the period a conversion counts in ("monthly" for an annual figure divided
by 12), a figure spelled out ("twelve"), and the extreme of a row ("largest").

A calc counts when the gate recomputed its result as claimed (`derivation.calc_problem`); whether its operands are
quoted is the calc rule's to block. A claim rests on its own fact's calc, or, for a summary sentence, on any.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from itertools import pairwise
from typing import Final

from quotebound.agent.gate.claims import Claim, QuoteSpan
from quotebound.agent.gate.derivation import calc_operands, calc_problem
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.tokens import extract_tokens, operand_key, quote_keys
from quotebound.agent.gate.vocabulary import WORD, fold
from quotebound.tools.calc import recompute

# Operands that convert a figure between periods (days in a week, months in a year ...).
PERIOD_CONVERSIONS: Final = frozenset(Decimal(n) for n in (4, 7, 12, 24, 52, 60, 365))
# Words saying a figure went up or down ("rose from 519 to 592"), and words comparing two figures ("the domestic
# rate exceeds the international one"): supported by a verified calc that moved, or compares, that way.
UP_WORDS: Final = frozenset(
    "increase increased increases increasing rise rises rose risen rising grow grows grew grown gain gained gains "
    "climb climbed climbs up".split()
)
DOWN_WORDS: Final = frozenset(
    "decrease decreased decreases decreasing decline declined declines declining fall falls fell fallen falling "
    "drop dropped drops reduce reduced reduction shrink shrank down".split()
)
ABOVE_WORDS: Final = frozenset("higher greater larger bigger exceed exceeds exceeded exceeding above".split())
BELOW_WORDS: Final = frozenset("lower smaller below under".split())
DIRECTION_WORDS: Final = UP_WORDS | DOWN_WORDS | ABOVE_WORDS | BELOW_WORDS
_FROM: Final = re.compile(r"\bfrom\s*$", re.I)
_TO: Final = re.compile(r"^.{0,40}\bto\s*$", re.I | re.S)
_TO_BEFORE: Final = re.compile(r"\bto\s*$", re.I)
# Superlatives over quoted figures ("largest in 2019"): supported when the claim's figure is the extreme of a quote's.
MOST_WORDS: Final = frozenset("largest highest greatest biggest maximum peak top".split())
LEAST_WORDS: Final = frozenset("smallest lowest least fewest minimum bottom".split())


def verified_calcs(claim: Claim, inputs: GateInputs) -> list[tuple[Decimal, list[Decimal]]]:
    """(result, operands) of every calc the claim may rest on (its own fact's, or any for a summary) whose result
    the gate recomputed and found as claimed (whether its operands are quoted is the calc rule's to block)."""
    found: list[tuple[Decimal, list[Decimal]]] = []
    for i, fact in enumerate(inputs.draft.evidence.facts):
        if fact.calc is None or (claim.fact_index is not None and claim.fact_index != i):
            continue
        got = recompute(fact.calc.expr) if calc_problem(fact) is None else None
        if got is None:
            continue
        operands = [k[1] for k in (operand_key(o) for o in calc_operands(fact.calc.expr)) if k is not None]
        found.append((Decimal(got), [o for o in operands if isinstance(o, Decimal)]))
    return found


_ROUNDED_TO: Final = re.compile(r"\bround\(.*,\s*(\d+)\s*\)\s*$")  # "round(x, 2)": the places it keeps


def rounds_to(claim: Claim, inputs: GateInputs, places: int) -> bool:
    """A verified calc of the claim rounds its result to `places` decimal places ("round((9.0 + 12.2) / 2, 2)")."""
    for i, fact in enumerate(inputs.draft.evidence.facts):
        if fact.calc is None or (claim.fact_index is not None and claim.fact_index != i):
            continue
        rounded = _ROUNDED_TO.search(fact.calc.expr)
        if rounded and int(rounded.group(1)) == places and calc_problem(fact) is None and recompute(fact.calc.expr):
            return True
    return False


def calc_figure(claim: Claim, inputs: GateInputs, value: int) -> bool:
    """`value` is an operand or the result of a verified calc the claim rests on ("multiplied by twelve")."""
    return any(
        Decimal(value) == result or Decimal(value) in operands for result, operands in verified_calcs(claim, inputs)
    )


def direction_supported(claim: Claim, inputs: GateInputs) -> bool | None:
    """Whether the claim's direction words agree with a verified calc: True when one agrees, False when the claim
    has some and none agrees, None when the claim has none.

    A change ("rose", "fell") moves from the earlier operand to the later one as its quotes date them (a table
    row's columns under their years, or rows led by their periods): the quotes, not the claim, say which figure is
    whose. Without such dates it moves as the claim states it ("from 519 to 592": up), or as another text of the
    draft does ("falls by $4,600" beside "from $184,250.00 to $179,650.00"), else as the calc's result has it (a
    change is new minus old). A comparison ("higher", "exceeds") puts the first operand the claim states above or
    below the second; with fewer than two stated, the figure of the first period it names above or below that of the
    second ("lower in 2019 than in 2018"), as the quoted table dates them; else the result is the first minus the
    second."""
    said = {fold(m.group()) for m in WORD.finditer(claim.text)}
    wants = {
        (kind, up)
        for kind, up, category in (
            ("change", True, UP_WORDS),
            ("change", False, DOWN_WORDS),
            ("compare", True, ABOVE_WORDS),
            ("compare", False, BELOW_WORDS),
        )
        if said & category
    }
    if not wants:
        return None
    calcs = verified_calcs(claim, inputs)
    for kind, up in wants:
        agrees = False
        for result, operands in calcs:
            moved = result
            if kind == "change":
                mentioned = (
                    quoted_order(claim.quotes, operands)
                    or _from_to(claim.text, operands)
                    or next((m for text in _draft_texts(inputs) if (m := _from_to(text, operands))), [])
                )
            else:
                mentioned = _operands_in_order(claim.text, operands)
                named = [] if mentioned else by_periods(claim.text, quoted_dates(claim.quotes, operands))
                if named and abs(named[0] - named[1]) == abs(result):  # a sign the operands lost: not by periods
                    mentioned = named
            if mentioned:
                moved = mentioned[1] - mentioned[0] if kind == "change" else mentioned[0] - mentioned[1]
            agrees = agrees or (moved != 0 and (moved > 0) == up)
        if not agrees:
            return False
    return True


def quoted_order(quotes: Sequence[QuoteSpan], operands: Sequence[Decimal]) -> list[Decimal]:
    """Two operands of a calc, earlier first, as their quoted table rows date them: by the year or date of the
    header column each sits under ("| | 2019 | 2018 |"), or by the period that leads each one's row ("| January 26,
    2019 - February 22, 2019 | ... |"); [] when the quotes do not date two distinct operands."""
    dated = quoted_dates(quotes, operands)
    if len(dated) < 2:
        return []
    ordered = sorted(dated, key=lambda v: dated[v])
    return [ordered[0], ordered[-1]]


def by_periods(text: str, dated: dict[Decimal, str]) -> list[Decimal]:
    """Two operands in the order `text` names their periods ("lower in 2019 than in 2018": the 2019 figure, then the
    2018 one), as the quotes date them (`quoted_dates`); [] when it does not name two periods of distinct operands."""
    named: list[Decimal] = []
    for t in extract_tokens(text):
        if t.number is not None and not (t.text.isdigit() and len(t.text) == 4):
            continue  # a figure ("2,192"), not a year
        when = _when(t.text)
        hits = [v for v, w in dated.items() if when and (w == when or w.startswith(when + "-"))]
        if len(hits) == 1 and hits[0] not in named:
            named.append(hits[0])
    return named[:2] if len(named) >= 2 else []


def quoted_dates(quotes: Sequence[QuoteSpan], operands: Sequence[Decimal]) -> dict[Decimal, str]:
    """The operands of a calc that quoted table rows date (see `quoted_order`), each with its date as a sortable
    ISO string; {} unless at least two distinct operands have distinct dates."""
    dated: dict[Decimal, str] = {}
    for q in quotes:
        if not q.quote.lstrip().startswith("|"):
            continue
        cells = _cells(q.quote)
        headers = [_cells(line) for line in q.header.splitlines() if line.lstrip().startswith("|")]
        lead = _when(cells[0]) if cells else ""
        for col, cell in enumerate(cells[1:], start=1):
            value = _cell_value(cell)
            if value is None or value not in operands or value in dated:
                continue
            when = next((w for row in headers if col < len(row) and (w := _when(row[col]))), "") or lead
            if when:
                dated[value] = when
    if len(dated) < 2 or len(set(dated.values())) < len(dated):
        return {}
    return dated


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _cell_value(cell: str) -> Decimal | None:
    """The figure a table cell holds, if it holds exactly one ("$ 64.77", "1,396", "(248)")."""
    numbers = [t.number for t in extract_tokens(cell) if t.number is not None]
    if len(numbers) != 1:
        return None
    return abs(numbers[0])


def _when(text: str) -> str:
    """The first date or year `text` states, as an ISO string that sorts in time ("2019-12-31", "2019"), or ""."""
    for t in extract_tokens(text):
        if t.kind == "date" and isinstance(t.key[1], str):
            return t.key[1]
        if t.number is not None and t.number == t.number.to_integral_value() and 1000 <= t.number <= 2999:
            return str(int(t.number))
        if t.kind == "code" and isinstance(t.key[1], int):
            return str(t.key[1])  # a fiscal year code ("FY2019")
    return ""


# Words that write a subtraction between its two operands ("136.4 less 131.7 = 4.7"): the calc's operator, not a
# comparison, when a verified calc takes the figure after the word from the figure before it.
SUBTRACTION_WORDS: Final = frozenset({"less", "minus"})


def subtracts(claim: Claim, inputs: GateInputs, at: int) -> bool:
    """The word at offset `at` of the claim stands between the two operands of a verified calc whose result is the
    first less the second ("$14,158 (2019) less $18,211 (2018) = -4053")."""
    tokens = [t for t in extract_tokens(claim.text) if t.number is not None]
    for result, operands in verified_calcs(claim, inputs):
        said = [t for t in tokens if t.number in operands]  # "(2019)" beside a figure is no operand
        before = next((t.number for t in reversed(said) if t.end <= at), None)
        after = next((t.number for t in said if t.start > at), None)
        if before is not None and after is not None and before - after == result:
            return True
    return False


def _operands_in_order(text: str, operands: list[Decimal]) -> list[Decimal]:
    """Two distinct operands of a calc in the order `text` states them, or [] when it does not state two."""
    said = list(dict.fromkeys(t.number for t in extract_tokens(text) if t.number is not None and t.number in operands))
    return said[:2] if len(said) >= 2 else []


def _from_to(text: str, operands: list[Decimal]) -> list[Decimal]:
    """Two operands of a calc as `text` moves between them ("from X to Y", "to Y from X": [X, Y]), or [] when it
    says no such move."""
    said = [t for t in extract_tokens(text) if t.number is not None and t.number in operands]
    for a, b in pairwise(said):
        if a.number is None or b.number is None or a.number == b.number:
            continue
        if _TO.search(text[a.end : b.start]) and _FROM.search(text[: a.start]):
            return [a.number, b.number]  # "from X (...) to Y"
        if _FROM.search(text[a.end : b.start]) and _TO_BEFORE.search(text[: a.start]):
            return [b.number, a.number]  # "to Y from X"
    return []


def _draft_texts(inputs: GateInputs) -> list[str]:
    """The texts of a draft that may state a calc's operands: its levels, answer and fact texts."""
    draft = inputs.draft
    return [draft.levels.level1, draft.levels.level2, draft.evidence.answer, *(f.text for f in draft.evidence.facts)]


def superlative_supported(claim: Claim, most: bool) -> bool:
    """The claim states a figure that is the largest (or smallest) of the figures of one of its quotes."""
    stated = {t.number for t in extract_tokens(claim.text) if t.number is not None}
    for quote in claim.quotes:
        figures = [v for kind, v in quote_keys(quote.quote) if kind == "num" and isinstance(v, Decimal) and v >= 0]
        if len(set(figures)) >= 2 and (max(figures) if most else min(figures)) in stated:
            return True
    return False


def converts_period(claim: Claim, inputs: GateInputs) -> bool:
    """A verified calc the claim rests on converts between periods (by 7, 12, 52, 365 ...)."""
    return any(set(operands) & PERIOD_CONVERSIONS for _, operands in verified_calcs(claim, inputs))
