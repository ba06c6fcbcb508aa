"""Words a claim may use because a verified calc of it, or its quoted figures, bear them out: which way a figure
moved or compares ("rose", "exceeds"), the period a conversion counts in ("monthly" for an annual figure divided
by 12), a figure spelled out ("twelve"), and the extreme of a row ("largest").

A calc counts when the gate recomputed its result as claimed (`derivation.calc_problem`); whether its operands are
quoted is the calc rule's to block. A claim rests on its own fact's calc, or, for a summary sentence, on any.
"""

from __future__ import annotations

import re
from decimal import Decimal
from itertools import pairwise
from typing import Final

from quotebound.agent.gate.claims import Claim
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


def calc_figure(claim: Claim, inputs: GateInputs, value: int) -> bool:
    """`value` is an operand or the result of a verified calc the claim rests on ("multiplied by twelve")."""
    return any(
        Decimal(value) == result or Decimal(value) in operands for result, operands in verified_calcs(claim, inputs)
    )


def direction_supported(claim: Claim, inputs: GateInputs) -> bool | None:
    """Whether the claim's direction words agree with a verified calc: True when one agrees, False when the claim
    has some and none agrees, None when the claim has none.

    A change ("rose", "fell") moves from the first operand the claim states to the second ("from 519 to 592": up);
    a comparison ("higher", "exceeds") puts the first operand the claim states above or below the second. A change
    that states fewer than two operands moves as another text of the draft says it does ("falls by $4,600" beside
    "from $184,250.00 to $179,650.00"); with neither, the calc's result gives the direction (a change is new minus
    old, a comparison the first minus the second)."""
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
            mentioned = _operands_in_order(claim.text, operands)
            if kind == "change":
                mentioned = _from_to(claim.text, operands) or mentioned
            if not mentioned and kind == "change":
                mentioned = next((m for text in _draft_texts(inputs) if (m := _from_to(text, operands))), [])
            if mentioned:
                moved = mentioned[1] - mentioned[0] if kind == "change" else mentioned[0] - mentioned[1]
            agrees = agrees or (moved != 0 and (moved > 0) == up)
        if not agrees:
            return False
    return True


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
