"""Values and when two of them differ: the comparisons under the conflict rules.

Pure functions over text. Which slot a value fills is read from its sentence (`slots.py`), never from a model's
`key`; the conflict rules (`rules/conflicts_reported.py`, `rules/conflicts_in_bundles.py`,
`rules/listed_conflicts.py`) turn what they find into findings. When are two values different?

- numbers (money and plain numbers together): relative delta above `tolerance_pct` (default 1.0%);
- percentages: the same, among percentages only;
- dates: any difference of the ISO value;
- strings: casefolded, whitespace collapsed, Levenshtein distance above `STRING_EPSILON`;
- values of different kinds cannot be compared numerically (their units cannot be checked), so they are
  distinct unless their texts agree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from quotebound.agent.core.contracts import Locator
from quotebound.agent.gate.tokens import Token, value_token

STRING_EPSILON = 2  # edits tolerated before two names count as different ("Acme Corp" vs "Acme Corp.")
_NUMBER_WORDS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}
_NUMERIC = frozenset({"money", "number"})

FlaggedLines = frozenset[tuple[str, int, int]]  # (source_id, page, line)


@dataclass(frozen=True)
class Value:
    """A fact's or a conflict's value, typed for comparison."""

    text: str
    kind: str  # money / number / percent / date / string
    token: Token | None = None

    @property
    def numeric(self) -> Decimal | None:
        return self.token.number if self.token is not None else None


def parse_value(text: str) -> Value:
    """A value's type: its first figure or date when the value is short ("$325.00 per unit"), else a string
    (a long name that merely contains a year stays a name)."""
    token = value_token(text)
    if token is not None and (len(text.strip()) <= 40 or not re.sub(r"[\s.,;:]", "", text[token.end :])):
        return Value(text, token.kind, token)
    word = text.strip().casefold()
    if word in _NUMBER_WORDS:  # "five" and "5" are one count
        return Value(text, "number", Token(text, "number", ("num", Decimal(_NUMBER_WORDS[word])), 0, len(text)))
    return Value(text, "string")


def levenshtein(a: str, b: str, limit: int | None = None) -> int:
    """Edit distance (insertions, deletions, substitutions), two rows at a time. With `limit`, any distance above it
    is returned as `limit + 1` as soon as it is certain, and only the band of cells within `limit` of the diagonal is
    computed: the callers only ask "more than `limit` edits apart?", so two long values cost O(length x limit), not
    O(length x length)."""
    if len(a) < len(b):
        a, b = b, a
    if limit is None:
        limit = len(a)
    if len(a) - len(b) > limit:
        return limit + 1
    over = limit + 1
    previous = [j if j <= limit else over for j in range(len(b) + 1)]
    current = [over] * (len(b) + 1)
    for i, ca in enumerate(a, 1):
        low, high = max(1, i - limit), min(len(b), i + limit)
        current[0] = i if i <= limit else over
        current[low - 1] = current[0] if low == 1 else over  # the cell left of the band
        best = current[low - 1]
        for j in range(low, high + 1):
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != b[j - 1]), over)
            current[j] = value
            best = min(best, value)
        if high < len(b):
            current[high + 1] = over  # the cell right of the band, read by the next row
        if best > limit:
            return over
        previous, current = current, previous
    return min(previous[-1], over)


def _plain(text: str) -> str:
    return " ".join(text.casefold().split())


def numbers_differ(x: Decimal, y: Decimal, tolerance_pct: float) -> bool:
    scale = max(abs(x), abs(y))
    return scale > 0 and abs(x - y) > scale * Decimal(str(tolerance_pct)) / 100


def differs(a: Value, b: Value, tolerance_pct: float = 1.0) -> bool:
    """True when `a` and `b` are distinct values under the tolerances of the module docstring."""
    comparable = a.kind == b.kind or {a.kind, b.kind} <= _NUMERIC
    if comparable and a.token is not None and b.token is not None:
        x, y = a.token.number, b.token.number
        if x is not None and y is not None:
            return numbers_differ(x, y, tolerance_pct)
        return a.token.key != b.token.key  # dates: any difference
    if a.kind == b.kind == "string":
        return levenshtein(_plain(a.text), _plain(b.text), STRING_EPSILON) > STRING_EPSILON
    return _plain(a.text) != _plain(b.text)


def flagged_lines(flagged: Mapping[str, Sequence[str]] | None) -> FlaggedLines:
    """(source_id, page, line) of every line inside a flagged locator; malformed locators are ignored."""
    lines: set[tuple[str, int, int]] = set()
    for source_id, locators in (flagged or {}).items():
        for locator in locators:
            try:
                span = Locator.parse(locator)
            except ValueError:
                continue
            lines.update((source_id, span.page, n) for n in range(span.line_start, span.line_end + 1))
    return frozenset(lines)
