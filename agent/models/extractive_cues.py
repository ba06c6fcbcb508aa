"""The cue table of the extractive model: the generic English phrases that say which value a question asks for, at
which rate, and with which arithmetic, and the rate a line states.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

# Verbs of a change over time, by direction: "by how much did X fall between A and B" asks for A minus B, a rise
# for B minus A, a bare change for B minus A (signed).
CHANGE_DOWN: Final = (
    "fall", "falls", "fell", "fallen", "drop", "drops", "dropped", "decrease", "decreases", "decreased", "decline",
    "declines", "declined", "shrink", "shrinks", "shrank", "go down", "goes down", "went down", "reduce", "reduced",
)  # fmt: skip
CHANGE_UP: Final = (
    "rise", "rises", "rose", "risen", "increase", "increases", "increased", "grow", "grows", "grew", "grown",
    "go up", "goes up", "went up",
)  # fmt: skip
CHANGE_EITHER: Final = ("change", "changes", "changed")

# One table of generic English cues. kind:* = the value asked for, period:* = a rate that converts by twelve,
# context:* = markers that set the period of a heading or table header only, op:* = two-operand arithmetic.
CUES: Final[dict[str, tuple[str, ...]]] = {
    "kind:percent": ("what percentage", "what percent", "which percentage", "percentage", "percent"),
    "kind:count": ("how many", "number of"),
    "kind:duration": ("how long", "for how long", "what term", "how many years", "how many months", "how many days"),
    "kind:entity": ("who", "whom", "whose", "which company", "what company", "which firm", "name of"),
    "kind:identifier": ("code", "codes", "phone", "telephone", "email", "e-mail", "password", "pin"),
    "kind:date": ("when", "what date", "which date", "what day", "what time", "deadline", "due date"),
    "kind:money": ("$", "€", "£"),  # "the $ value": an amount of money, not any number
    "kind:amount": ("how much", "cost", "costs", "fee", "fees", "price", "amount", "charge"),
    "period:monthly": ("monthly", "per month", "a month", "each month", "every month", "/month"),
    "period:annual": (
        "annual",
        "annually",
        "yearly",
        "per year",
        "a year",
        "each year",
        "every year",
        "per annum",
        "twelve months",
        "12 months",
        "whole year",
        "full year",
    ),
    "context:annual": ("fy", "fiscal year"),
    "op:sum": ("total", "sum", "combined", "altogether"),
    "op:difference": ("difference", "how much more", "how much less", "how much higher", "how much lower"),
    "op:percentage": ("what percentage", "what percent", "what share", "as a percentage", "as a share"),
    "op:share": ("'s share of", "’s share of", "'s portion of", "’s portion of"),
    "op:change": (*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER),
    "ask:quantity": ("how much", "how many", "by what amount", "what is the change", "what was the change"),
}
PERIODS: Final = ("monthly", "annual")


def _cue_re(phrases: Iterable[str]) -> re.Pattern[str]:
    # a phrase that starts with a word starts at a word boundary; one that starts with "'s" follows a word
    alternatives = "|".join(
        (r"(?<![\w/])" if re.match(r"\w", p) else "") + re.escape(p) for p in sorted(phrases, key=len, reverse=True)
    )
    return re.compile(rf"(?:{alternatives})(?![\w])")


CUE_RES: Final = {name: _cue_re(phrases) for name, phrases in CUES.items()}


def cue(text: str, name: str) -> bool:
    return CUE_RES[name].search(text.lower()) is not None


def period_of(text: str, token_set: set[str] | None = None, *, context: bool = False) -> str | None:
    lowered = text.lower()
    found = {p for p in PERIODS if CUE_RES[f"period:{p}"].search(lowered)}
    if context and (CUE_RES["context:annual"].search(lowered) or (token_set and "fy" in token_set)):
        found.add("annual")
    return found.pop() if len(found) == 1 else None
