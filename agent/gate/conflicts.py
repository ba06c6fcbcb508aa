"""Conflict detection: values of one key that differ beyond tolerance, in facts and in the bundles.

Pure functions over text; the two conflict rules (`rules/conflicts_reported.py`, `rules/conflicts_in_bundles.py`)
turn what they find into findings. When are two values different?

- numbers (money and plain numbers together): relative delta above `tolerance_pct` (default 1.0%);
- percentages: the same, among percentages only;
- dates: any difference of the ISO value;
- strings: casefolded, whitespace collapsed, Levenshtein distance above `STRING_EPSILON`;
- values of different kinds cannot be compared numerically (their units cannot be checked), so they are
  distinct unless their texts agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from quotebound.agent.core.contracts import ConflictValue, Draft, EvidenceBundle, Fact, Locator
from quotebound.agent.gate.tokens import Token, extract_tokens, value_token

STRING_EPSILON = 2  # edits tolerated before two names count as different ("Acme Corp" vs "Acme Corp.")
KEY_WINDOW = 5  # words allowed between a key word and a value for the value to count as stated for the key
_WORD_RE = re.compile(r"[^\W_]+")
_NUMBER_WORDS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}
_KEY_STOPWORDS = frozenset("a an and of the for to in on per by at is are what which how much many".split())
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


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions), two rows at a time."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


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
        return levenshtein(_plain(a.text), _plain(b.text)) > STRING_EPSILON
    return _plain(a.text) != _plain(b.text)


def key_words(key: str) -> list[str]:
    """The content words of a key: "monthly assessment" -> ["monthly", "assessment"]."""
    words = re.findall(r"[^\W\d_]+", key.casefold())
    return [w for w in dict.fromkeys(words) if w not in _KEY_STOPWORDS and len(w) > 1]


def key_identifiers(key: str) -> list[str]:
    """Words of a key mixing letters and digits ("4b", "c-12"): they name one thing (a unit, a lot), so a line
    about another thing, or about all of them, never competes with a fact about it."""
    words = re.findall(r"[\w-]+", key.casefold())
    return [w for w in dict.fromkeys(words) if re.search(r"\d", w) and re.search(r"[^\W\d_]", w)]


def names_all(folded: str, identifiers: Sequence[str]) -> bool:
    return all(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", folded) for i in identifiers)


def mentions(line: str, words: Sequence[str]) -> bool:
    """Every word of the key starts a word of the line ("assessment" also finds "assessments")."""
    folded = line.casefold()
    if not words or not all(w in folded for w in words):  # cheap substring test first: most lines fail it
        return False
    return all(re.search(rf"(?<![^\W\d_]){re.escape(w)}", folded) for w in words)


def near(folded: str, token: Token, words: Sequence[str], window: int) -> bool:
    """At most `window` words stand between `token` and a word starting with one of the key's `words`.

    Why: a one-word key ("budget") is mentioned by lines about other things ("the budget sets the monthly
    assessment at $340.00"); a value counts as stated *for* the key only when it sits next to it.
    """
    spans = [(m.start(), m.end(), m.group()) for m in _WORD_RE.finditer(folded)]
    before = [i for i, (_, end, _) in enumerate(spans) if end <= token.start]
    after = [i for i, (start, _, _) in enumerate(spans) if start >= token.end]
    first_after = after[0] if after else len(spans)
    last_before = before[-1] if before else -1
    for i, (_, _, word) in enumerate(spans):
        if not word.startswith(tuple(words)):
            continue
        gap = last_before - i if i <= last_before else i - first_after if i >= first_after else -1
        if 0 <= gap <= window:
            return True
    return False


def _year_like(token: Token) -> bool:
    number = token.number
    return token.kind == "number" and number is not None and number == int(number) and 1900 <= number <= 2100


@dataclass(frozen=True)
class BundleLine:
    source_id: str
    page: int
    line: int
    text: str

    @property
    def locator(self) -> str:
        return f"p.{self.page} L{self.line}-L{self.line}"

    @cached_property
    def tokens(self) -> list[Token]:  # read once per draft, however many facts ask
        return extract_tokens(self.text)

    @cached_property
    def folded(self) -> str:
        return self.text.casefold()


def bundle_lines(bundles: Iterable[EvidenceBundle]) -> Iterator[BundleLine]:
    """Every line of every bundle with its own one-line locator (each distinct line once)."""
    seen: set[tuple[str, int, int]] = set()
    for bundle in bundles:
        span = Locator.parse(bundle.locator)
        for offset, text in enumerate(bundle.text.split("\n")):
            where = (bundle.source_id, span.page, span.line_start + offset)
            if where not in seen:
                seen.add(where)
                yield BundleLine(bundle.source_id, span.page, span.line_start + offset, text)


def competing_values(
    value: Value,
    key: str,
    lines: Iterable[BundleLine],
    flagged: FlaggedLines,
    tolerance_pct: float,
    window: int = KEY_WINDOW,
) -> list[tuple[BundleLine, Token]]:
    """Values of `value`'s kind that differ from it, on lines mentioning all of `key`'s words, within
    `window` words of one of them. Flagged instructional lines are never read, and a line that also states
    `value` itself agrees with the fact."""
    words = key_words(key)
    identifiers = key_identifiers(key)
    if value.token is None or value.kind not in ("money", "number", "percent", "date") or not words:
        return []
    found: list[tuple[BundleLine, Token]] = []
    for line in lines:
        if (line.source_id, line.page, line.line) in flagged or not mentions(line.folded, words):
            continue
        if identifiers and not names_all(line.folded, identifiers):
            continue
        candidates = [
            Value(t.text, t.kind, t)
            for t in line.tokens
            if t.kind == value.token.kind and (not _year_like(t) or _year_like(value.token))
        ]
        if any(not differs(c, value, tolerance_pct) for c in candidates):
            # The line states the fact's own value, so it agrees; its other figures are about something else
            # ("three (3) of the five (5) directors").
            continue
        for candidate in candidates:
            assert candidate.token is not None
            if near(line.folded, candidate.token, words, window):
                found.append((line, candidate.token))
    return found


def covers(listed: ConflictValue, source_id: str, page: int, line: int) -> bool:
    try:
        span = Locator.parse(listed.locator)
    except ValueError:
        return False
    return listed.source_id == source_id and span.page == page and span.line_start <= line <= span.line_end


def lists_value(values: Sequence[ConflictValue], wanted: Value, tolerance_pct: float) -> bool:
    return any(not differs(parse_value(v.value), wanted, tolerance_pct) for v in values)


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


def fact_value(fact: Fact) -> Value | None:
    """The value a fact states for its key: `value` when given, else the first figure or date of its text.
    Calc facts are derived, not stated, so they state none."""
    if fact.calc is not None or not fact.key:
        return None
    if fact.value is not None and fact.value.strip():
        return parse_value(fact.value)
    token = value_token(fact.text)
    return Value(token.text, token.kind, token) if token is not None else None


def group_key(key: str) -> str:
    """Keys naming the same words in another order ("assessment monthly") are one key."""
    return " ".join(sorted(key_words(key))) or " ".join(key.casefold().split())


def keyed_values(draft: Draft) -> dict[str, list[tuple[int, Value]]]:
    """(fact index, value) of every fact that states a value for its key, grouped by `group_key`."""
    groups: dict[str, list[tuple[int, Value]]] = {}
    for i, fact in enumerate(draft.evidence.facts):
        value = fact_value(fact)
        if value is not None and fact.key:
            groups.setdefault(group_key(fact.key), []).append((i, value))
    return groups
