"""The tokens an answer must copy from its quotes: numbers, money, percentages, dates, clock times, section
tokens (§ 4.2), codes. These are what a reader acts on and what a model most easily gets wrong, so each one
shown must be found in a verified quote.

Normalization (what counts as "the same token"):

- money and plain numbers compare by Decimal value, currency sign and thousands separators ignored:
  "$1,200.00" == "1,200" == "1200". A sign counts only when it touches the figure ("-$15", " -3.5");
  a hyphen between figures ("10-12", "2024-2025") is a range, not a sign.
- a percentage keeps its sign: "15%" (also "15 %", "15 percent") equals "15.0%" but never the number 15.
- dates compare by ISO value: "2025-03-12" == "March 12, 2025" == "12 March 2025" == "03/12/2025" (slash dates
  read month first, US style, unless the first part exceeds 12). "March 2025" is the month "2025-03". A year
  standing alone ("2025") is a number.
- clock times compare by 24-hour value: "22:00" == "10:00 pm" == "10 p.m." == "10:00 PM" == "22:00:00", and
  "7 pm" == "19:00"; "12 am" is "00:00", "12 pm" is "12:00". A time needs minutes or an am/pm ("10" alone is a
  number), and "10:30" without am/pm is 10:30 in the morning, so it never equals "10:30 p.m.".
- section tokens by normalized text: "§ 4.2" == "§4.2" == "Section 4.2" == "Sec. 4.2"; "Article IV" == "Article 4".
- codes (letters and digits mixed in one word: "5A", "B-12") compare casefolded, exactly.

Quotes are read leniently (`quote_keys`): every figure written in a quote counts, including the parts of a date
("2025" and "12" in "March 12, 2025") or of a time ("10" and "30" in "10:30 p.m."), and a figure's magnitude
without its sign; only a percentage never supports the bare number. Answers are read strictly (`extract_tokens`):
"22:00" in an answer is a time, and only a quoted time (in any spelling) supports it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Literal

TokenKind = Literal["money", "number", "percent", "date", "time", "section", "code"]
Key = tuple[str, object]
VALUE_KINDS: frozenset[str] = frozenset({"money", "number", "percent", "date", "time"})

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_ORD = r"(?:st|nd|rd|th)?"
_DATE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("ymd", re.compile(r"(?<![\w.])(?P<year>\d{4})-(?P<m>\d{2})-(?P<day>\d{2})(?!\w)")),
    ("mdy", re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}}){_ORD},?\s+(?P<year>\d{{4}})\b", re.I)),
    ("dmy", re.compile(rf"\b(?P<day>\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MONTH},?\s+(?P<year>\d{{4}})\b", re.I)),
    ("slash", re.compile(r"(?<![\w/.])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<year>\d{4})(?![\w/])")),
    ("my", re.compile(rf"\b{_MONTH},?\s+(?P<year>\d{{4}})\b", re.I)),
)
# "22:00", "9:00 AM", "10:30 p.m.", "7 pm", "7pm", "22:00:00"; a bare hour needs its am/pm (checked in `_time_key`).
_TIME_RE = re.compile(
    r"(?<![\w.:,/])(?P<h>\d{1,2})(?::(?P<m>\d{2})(?::(?P<s>\d{2}))?)?"
    r"(?:\s?(?P<ampm>[ap])(?:\.m\.|\.?m\b))?(?![\w:])",
    re.I,
)
_SUB = r"\d+(?:\.\d+)*(?:\([a-z0-9]{1,4}\))*"
_SECTION_RE = re.compile(rf"(?:§§?\s*|\bsec(?:tion|\.)?\s+)(?P<sec>{_SUB})", re.I)
# Roman numerals upper case only, so "article did" is not Article 999.
_ARTICLE_RE = re.compile(r"\b(?i:art(?:icle|\.))\s+(?P<art>[IVXLCDM]+|\d+)\b")
_CODE_RE = re.compile(r"(?<![\w.$€£¥₹])(?=[A-Za-z-]*\d)(?=[\d-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\b")
_ORDINAL_RE = re.compile(r"\d+(?:st|nd|rd|th)", re.I)
_FIGURE = r"\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?"
_NUMBER_RE = re.compile(
    rf"(?<![\w.])(?P<sign>[-−](?=[$€£¥₹\d]))?(?P<cur>(?:US)?[$€£¥₹])?(?P<num>{_FIGURE})"
    r"(?P<pct>\s?%|\s+per\s?cent\b)?",
    re.I,
)
# Citations inside the levels ("budget.md p.1 L3-L3", "doc://budget.md@v1#p.1 L3") are not claims.
_LOCATOR_RE = re.compile(r"\bp\.\d+ L\d+(?:-L\d+)?\b|doc://[^\s#]*(?:#p\.\d+ L\d+(?:-L\d+)?)?")
_HAS_DIGIT = re.compile(r"\d")
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


@dataclass(frozen=True)
class Token:
    text: str  # as written
    kind: TokenKind
    key: Key  # equal keys mean the same token
    start: int = 0
    end: int = 0

    @property
    def number(self) -> Decimal | None:
        return self.key[1] if isinstance(self.key[1], Decimal) else None


def parse_decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def _roman(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    values = [_ROMAN[c] for c in text.lower()]
    total = sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return total if total > 0 else None


def _iso(year: int, month: int, day: int | None) -> str | None:
    if day is None:
        return f"{year:04d}-{month:02d}" if 1 <= month <= 12 else None
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _date_iso(kind: str, m: re.Match[str]) -> str | None:
    year = int(m["year"])
    if kind == "ymd":
        return _iso(year, int(m["m"]), int(m["day"]))
    if kind == "slash":
        first, second = int(m["a"]), int(m["b"])
        month, day = (second, first) if first > 12 else (first, second)  # US month-first unless impossible
        return _iso(year, month, day)
    month = _MONTHS[m["month"].lower()[:3]]
    return _iso(year, month, int(m["day"]) if kind in ("mdy", "dmy") else None)


def _time_key(m: re.Match[str]) -> str | None:
    """ "HH:MM" (or "HH:MM:SS" when the seconds are not zero), or None when `m` is no valid clock time."""
    if m["m"] is None and m["ampm"] is None:
        return None  # "10" alone is a number
    hour, minute, second = int(m["h"]), int(m["m"] or 0), int(m["s"] or 0)
    if minute > 59 or second > 59:
        return None
    if m["ampm"] is not None:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m["ampm"].lower() == "p" else 0)
    elif hour > 23:
        return None
    return f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if second else "")


def _free(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return all(end <= a or b <= start for a, b in taken)


def number_token(m: re.Match[str], offset: int = 0) -> Token | None:
    value = parse_decimal(m["num"])
    if value is None:
        return None
    if m["sign"]:
        value = -value
    kind: TokenKind = "percent" if m["pct"] else "money" if m["cur"] else "number"
    key: Key = ("pct", value) if kind == "percent" else ("num", value)
    return Token(m.group(), kind, key, m.start() + offset, m.end() + offset)


def extract_tokens(text: str) -> list[Token]:
    """Every token of `text` that must be quoted, in reading order (strict: what an answer claims)."""
    return list(_extract(text))


@lru_cache(maxsize=4096)  # one draft reads the same quotes several times; repairs re-read most of them
def _extract(text: str) -> tuple[Token, ...]:
    if not _HAS_DIGIT.search(text) and not _ARTICLE_RE.search(text):
        return ()  # every other kind of token needs a digit
    taken: list[tuple[int, int]] = []
    found: list[Token] = []

    def add(token: Token) -> None:
        taken.append((token.start, token.end))
        found.append(token)

    for m in _SECTION_RE.finditer(text):
        add(Token(m.group(), "section", ("sec", m["sec"].lower()), m.start(), m.end()))
    for m in _ARTICLE_RE.finditer(text):
        number = _roman(m["art"])
        if number is not None and _free(taken, *m.span()):
            add(Token(m.group(), "section", ("art", number), m.start(), m.end()))
    for kind, pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            iso = _date_iso(kind, m)
            if iso is not None and _free(taken, *m.span()):
                add(Token(m.group(), "date", ("date", iso), m.start(), m.end()))
    for m in _TIME_RE.finditer(text):
        clock = _time_key(m)
        if clock is not None and _free(taken, *m.span()):
            add(Token(m.group(), "time", ("time", clock), m.start(), m.end()))
    for m in _CODE_RE.finditer(text):
        if not _ORDINAL_RE.fullmatch(m.group()) and _free(taken, *m.span()):
            add(Token(m.group(), "code", ("code", m.group().casefold().replace("-", "")), m.start(), m.end()))
    for m in _NUMBER_RE.finditer(text):
        token = number_token(m)
        if token is not None and _free(taken, token.start, token.end):
            add(token)
    found.sort(key=lambda t: t.start)
    return tuple(found)


def clear_token_cache() -> None:
    """Forget remembered extractions (benchmarks measure the gate cold with this)."""
    _extract.cache_clear()


def quote_keys(text: str) -> set[Key]:
    """The keys a quote can support (lenient: see the module docstring)."""
    tokens = extract_tokens(text)
    keys: set[Key] = {t.key for t in tokens}
    for t in tokens:
        if t.kind == "date" and isinstance(t.key[1], str) and len(t.key[1]) == 10:
            keys.add(("date", t.key[1][:7]))  # "March 12, 2025" also says "March 2025"
        if t.kind == "code":  # "FY2025" also says "2025"
            keys.update(("num", Decimal(d)) for d in re.findall(r"\d+(?:\.\d+)?", t.text))
    percents = [(t.start, t.end) for t in tokens if t.kind == "percent"]
    for m in _NUMBER_RE.finditer(text):
        value = parse_decimal(m["num"])
        if value is None or m["pct"] or not _free(percents, m.start(), m.end()):
            continue
        keys.add(("num", value))
        keys.add(("num", -value if m["sign"] else value))
    return keys


def value_token(text: str) -> Token | None:
    """The first money / number / percent / date token of `text` (a fact's or a conflict's value), if any."""
    return next((t for t in extract_tokens(text) if t.kind in VALUE_KINDS), None)


def operand_key(text: str) -> Key | None:
    """The key of one calc operand as `numbers_in` returns it ("1,200.50", "15%")."""
    m = _NUMBER_RE.fullmatch(text.strip())
    token = number_token(m) if m is not None else None
    return token.key if token is not None else None


def mask(text: str, literals: Iterable[str] = ()) -> str:
    """`text` with citations (locators, doc:// refs and the given source ids) blanked out, lengths kept."""
    text = _LOCATOR_RE.sub(lambda m: " " * len(m.group()), text)  # first: a doc:// ref holds a source id
    for literal in sorted({s for s in literals if s}, key=len, reverse=True):
        text = text.replace(literal, " " * len(literal))
    return text


@dataclass
class TokenPool:
    """What may be said: keys read from verified quotes plus values the gate recomputed itself."""

    keys: set[Key]
    calc_values: set[Decimal]

    @classmethod
    def empty(cls) -> TokenPool:
        return cls(set(), set())

    def add_quote(self, quote: str) -> None:
        self.keys |= quote_keys(quote)

    def add_calc(self, value: Decimal) -> None:
        self.calc_values.add(value)

    def supports(self, token: Token) -> bool:
        if token.key in self.keys:
            return True
        number = token.number
        if number is None:
            return False
        if token.kind == "percent":
            # `a / b * 100` gives percentage points; calc's own `15%` is 0.15: accept either reading.
            return number in self.calc_values or number / 100 in self.calc_values
        return number in self.calc_values or -number in self.calc_values
