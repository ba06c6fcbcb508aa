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
- codes (letters and digits mixed in one word: "5A", "B-12") compare casefolded, exactly. A fiscal or calendar
  year code ("FY2019", "FY19", "FY 2019", "CY25") is the year itself: any quoted year 2019 supports "FY19" (two
  digits read as 19xx from 50 on, else 20xx).
- a scale after a figure ("€4,411m", "$1.2bn", "5 million", "592 thousand") keeps the figure and notes the scale:
  the figure must be quoted with that scale stated in the quote or its table's headings ("(in millions)", "€m",
  "$'000"), or the scaled value must be quoted ("$5,000,000" supports "$5 million"). The one-letter scales (k, m,
  b) count only on money or on a figure with a separator or decimals, so "5B" stays a code and "10m" a code.

Quotes are read leniently (`quote_keys`): every figure written in a quote counts, including the parts of a date
("2025" and "12" in "March 12, 2025") or of a time ("10" and "30" in "10:30 p.m."), and a figure's magnitude
without its sign; a figure in accounting parentheses ("(9,819)", "(248%)") is also its negative; a table cell of
letter-spaced digits ("| 2 0 1 8 |", a PDF extraction artefact) is also the joined figure; only a percentage never
supports the bare number. Answers are read strictly (`extract_tokens`): "22:00" in an answer is a time, and only a
quoted time (in any spelling) supports it.

Every pattern here runs in time linear in its text (a long hostile text costs milliseconds, not minutes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Literal

from quotebound.agent.gate.source_readings import source_reading

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
# The letters outside ASCII that a case-insensitive pattern matches to an ASCII letter (Python's re folds them so:
# "ſept" matches "sept"): mapped before lower-casing a matched word, so it reads as the word it matched ("sep"), and
# before the hints below read the lower-cased text, so a hint misses no match of its pattern.
_ASCII_CASES = str.maketrans({"ı": "i", "İ": "i", "ſ": "s", "K": "k"})


def _ascii_lower(text: str) -> str:
    return text.lower() if text.isascii() else text.translate(_ASCII_CASES).lower()


_DATE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("ymd", re.compile(r"(?<![\w.])(?P<year>\d{4})-(?P<m>\d{2})-(?P<day>\d{2})(?!\w)")),
    # a comma may stand apart from the day ("September 19 , 1902": text extracted with spaces around its marks)
    ("mdy", re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}}){_ORD}(?:\s*,)?\s+(?P<year>\d{{4}})\b", re.I)),
    ("dmy", re.compile(rf"\b(?P<day>\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MONTH}(?:\s*,)?\s+(?P<year>\d{{4}})\b", re.I)),
    ("slash", re.compile(r"(?<![\w/.])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<year>\d{4})(?![\w/])")),
    ("my", re.compile(rf"\b{_MONTH}(?:,|\s+of)?\s+(?P<year>\d{{4}})\b", re.I)),  # "September of 1850" too
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
# The lookaheads are bounded (a code's letters come within 40 characters of its digits and back): unbounded, each
# start in a run like "-1-1-1..." would read to the run's end, and a long run would cost quadratic time.
_CODE_RE = re.compile(r"(?<![\w.$€£¥₹])(?=[A-Za-z-]{0,40}\d)(?=[\d-]{0,40}[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\b")
_ORDINAL_RE = re.compile(r"\d+(?:st|nd|rd|th)", re.I)
# "FY2019", "FY19", "FY 2019", "FY'19", "CY2025": a fiscal or calendar year
_YEAR_CODE_RE = re.compile(r"(?<![\w.])(?:FY|CY)\s?['’]?(?P<year>\d{4}|\d{2})(?!\w|\.\d)", re.I)
_FIGURE = r"\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?"
# After a currency sign, thousands may be grouped with a (thin, no-break) space: "$2 657.81". Only there: two plain
# numbers side by side in a table ("15 300") are two figures.
_FIGURE_AFTER_CURRENCY = r"(?(cur)\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,])(?:\.\d+)?|(?!))|"
# A figure starts a word, or follows a three-capital currency code written against it (the ISO 4217 form:
# "RMB29,423", "USD1.2m"); such a code is the figure's currency, not part of a code (see `_glued_code`).
_STARTS = r"(?:(?<![\w.])|(?<=(?<!\w)[A-Z]{3}))"
_NUMBER_RE = re.compile(
    rf"{_STARTS}(?P<sign>[-−](?=[$€£¥₹\d]))?(?P<cur>(?:US)?[$€£¥₹])?(?P<num>{_FIGURE_AFTER_CURRENCY}{_FIGURE})"
    r"(?P<pct>\s?%|\s+per\s?cent\b)?",
    re.I,
)
# A figure with its scale: "€4,411m", "$1.2bn", "5 million". One-letter scales only on money or a figure with a
# separator or decimals (else "5B" is a unit code); see the module docstring.
_SCALES = {
    "k": 3,
    "thousand": 3,
    "m": 6,
    "mn": 6,
    "million": 6,
    "b": 9,
    "bn": 9,
    "billion": 9,
    "tn": 12,
    "trillion": 12,
}
_SCALED_RE = re.compile(
    rf"{_STARTS}(?P<sign>[-−](?=[$€£¥₹\d]))?(?P<cur>(?:US)?[$€£¥₹])?(?P<num>{_FIGURE})"
    r"(?:(?P<short>mn|bn|tn|[kmb])|\s?(?P<word>thousand|million|billion|trillion)s?)(?![\w])",
    re.I,
)
# Scales a quote (or its table's headings) states for its figures: "(in millions)", "€m", "$'000", "£bn"
_SCALE_WORD_RE = re.compile(r"\b(?P<word>thousand|million|billion|trillion)s?\b", re.I)
_SCALE_UNIT_RE = re.compile(r"[$€£¥₹]\s?(?:(?P<short>mn|bn|tn|[kmb])\b|['’](?P<zeros>000)(?!\d))", re.I)
# a table cell holding only letter-spaced digits: "| 2 0 1 8 |"
_CURRENCY_SIGNS = "$€£¥₹"
_FIGURE_IN_CODE = re.compile(r"\d+(?:\.\d+)?")
_SPACED_CELL_RE = re.compile(r"(?<=\|)\s*(?P<digits>\d(?: \d){2,})\s*(?=\|)")
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
    scale: int = 0  # the power of ten written after the figure ("4,411m": 6); the key holds the figure as written

    @property
    def number(self) -> Decimal | None:
        return self.key[1] if isinstance(self.key[1], Decimal) else None


_SEPARATORS = re.compile(r"[,\s]")


def parse_decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text if text.isdigit() else _SEPARATORS.sub("", text))
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
    month = _MONTHS[_ascii_lower(m["month"])[:3]]
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


class _Taken:
    """Which characters of a text some token already covers: one byte a character, so asking whether a span is
    free costs the span's length, not the number of tokens found so far (a long text has many)."""

    def __init__(self, size: int) -> None:
        self._mask = bytearray(size)

    def free(self, start: int, end: int) -> bool:
        return self._mask.find(1, start, end) == -1

    def take(self, start: int, end: int) -> None:
        self._mask[start:end] = b"\x01" * (end - start)


def number_token(m: re.Match[str], offset: int = 0) -> Token | None:
    value = parse_decimal(m["num"])
    if value is None:
        return None
    if m["sign"]:
        value = -value
    kind: TokenKind = "percent" if m["pct"] else "money" if m["cur"] else "number"
    key: Key = ("pct", value) if kind == "percent" else ("num", value)
    return Token(m.group(), kind, key, m.start() + offset, m.end() + offset)


def _scaled_token(m: re.Match[str]) -> Token | None:
    """A figure with its scale ("€4,411m"), or None when a one-letter scale does not apply (see `_SCALED_RE`)."""
    value = parse_decimal(m["num"])
    short = (m["short"] or "").lower()
    if value is None or (len(short) == 1 and not m["cur"] and not any(c in m["num"] for c in ",.")):
        return None
    scale = _SCALES[short or _ascii_lower(m["word"] or "")]
    kind: TokenKind = "money" if m["cur"] else "number"
    return Token(m.group(), kind, ("num", -value if m["sign"] else value), m.start(), m.end(), scale)


def _year_token(m: re.Match[str]) -> Token:
    year = int(m["year"])
    if len(m["year"]) == 2:
        year += 1900 if year >= 50 else 2000
    return Token(m.group(), "code", ("year", year), m.start(), m.end())


def extract_tokens(text: str) -> list[Token]:
    """Every token of `text` that must be quoted, in reading order (strict: what an answer claims)."""
    return list(_extract(text))


_CACHED_CHARS = 4_000  # texts longer than this are read afresh each time rather than held in the cache


def _extract(text: str) -> tuple[Token, ...]:
    return _extract_cached(text) if len(text) <= _CACHED_CHARS else _extract_long(text)


@lru_cache(maxsize=8)  # a long answer is read by several rules (a few texts: a draft's bounds cap their size)
def _extract_long(text: str) -> tuple[Token, ...]:
    return _read_tokens(text)


@lru_cache(maxsize=4096)  # one draft reads the same quotes several times; repairs re-read most of them
def _extract_cached(text: str) -> tuple[Token, ...]:
    return _read_tokens(text)


_DIGIT_RUN = re.compile(r"\d+")
_SPACE = re.compile(r"\s")
_REACH = 40  # characters a token reaches either side of its digits ("12th of September, 2025", "15 per cent")
_WINDOWED = 200  # texts longer than this are read only around their digits


def _windows(text: str) -> list[tuple[int, int]]:
    """The stretches of `text` a token with a digit can lie in: `_REACH` characters around each run of digits,
    widened to whitespace so no token is cut, merged. Prose between figures is never scanned.

    Linear in the text: a run of digits whose reach falls inside the current stretch only extends it, so each
    character is searched for whitespace at most once (a long text of digits and no spaces costs no more)."""
    spans: list[tuple[int, int]] = []
    for m in _DIGIT_RUN.finditer(text):
        lo, hi = m.start() - _REACH, m.end() + _REACH
        if spans and lo <= spans[-1][1]:
            start = spans[-1][0]  # inside the current stretch: it only grows
        else:
            floor = spans[-1][1] if spans else 0
            start = max(text.rfind(c, floor, max(lo, 0)) for c in " \n\t") + 1 if lo > 0 else 0
            if spans and start <= floor:  # no whitespace between the stretch and this reach: one stretch
                start = spans[-1][0]
        if spans and start == spans[-1][0]:
            end = spans[-1][1]
            if hi > end:
                space = _SPACE.search(text, hi)
                end = space.start() if space is not None else len(text)
            spans[-1] = (start, end)
        else:
            space = _SPACE.search(text, hi)
            spans.append((start, space.start() if space is not None else len(text)))
    return spans


def _matches(pattern: re.Pattern[str], text: str, windows: list[tuple[int, int]] | None) -> Iterable[re.Match[str]]:
    if windows is None:
        return pattern.finditer(text)
    return (m for start, end in windows for m in pattern.finditer(text, start, end))


# What each kind of token cannot do without, looked for before its pattern scans the text (most prose holds no clock
# time, no date, no section sign, no fiscal year): a shortcut, never a change of what is found. Each hint is a
# necessary part of its pattern, read on the lower-cased text, and starts with a literal or with the digit: such a
# pattern is scanned for in C, many times faster than the token patterns, which start with a look-behind.
_MONTH_NAMES = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
_SCALE_WORDS = ("thousand", "million", "billion", "trillion")
_HINTS: dict[str, re.Pattern[str]] = {
    "section": re.compile(r"sec(?:tion|\.)?\s+\d"),
    "article": re.compile(r"art(?:icle|\.)\s"),
    "ymd": re.compile(r"\d-\d"),
    "slash": re.compile(r"\d/\d"),
    # "March 12", "Mar. 2025", "March of 2025", "12 March", "12th of March"
    "month": re.compile(rf"{_MONTH_NAMES}[a-z]*\.?(?:,|\s+of)?\s+\d|\d(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_NAMES}"),
    "time": re.compile(r"\d(?::\d|\s?[ap]\.?m)"),  # "10:30", "7 pm", "10 p.m."
    "year": re.compile(r"[fc]y\s?['’]?\d"),
    "scale": re.compile(rf"\d(?:[kmb]|tn)|{'|'.join(_SCALE_WORDS)}"),  # "5k", "4m", "1.2bn", "3tn", "5 million"
    "code": re.compile(r"\d(?:(?<=[a-z]\d)|(?<=[a-z]-\d)|-?[a-z])"),  # a letter and a digit side by side
}


def _kinds_present(text: str) -> dict[str, bool]:
    lower = _ascii_lower(text)
    present = {kind: hint.search(lower) is not None for kind, hint in _HINTS.items()}
    present["section"] = present["section"] or "§" in text
    return present


_DATE_NEEDS = {"ymd": "ymd", "slash": "slash", "mdy": "month", "dmy": "month", "my": "month"}


def _read_tokens(text: str) -> tuple[Token, ...]:
    if not _HAS_DIGIT.search(text) and not _ARTICLE_RE.search(text):
        return ()  # every other kind of token needs a digit
    taken = _Taken(len(text))
    found: list[Token] = []
    windows = _windows(text) if len(text) > _WINDOWED else None  # every kind but an article needs a digit
    present = _kinds_present(text)

    def add(token: Token) -> None:
        taken.take(token.start, token.end)
        found.append(token)

    for m in _matches(_SECTION_RE, text, windows) if present["section"] else ():
        add(Token(m.group(), "section", ("sec", m["sec"].lower()), m.start(), m.end()))
    for m in _ARTICLE_RE.finditer(text) if present["article"] else ():
        number = _roman(m["art"])
        if number is not None and taken.free(*m.span()):
            add(Token(m.group(), "section", ("art", number), m.start(), m.end()))
    for kind, pattern in _DATE_PATTERNS:
        for m in _matches(pattern, text, windows) if present[_DATE_NEEDS[kind]] else ():
            iso = _date_iso(kind, m)
            if iso is not None and taken.free(*m.span()):
                add(Token(m.group(), "date", ("date", iso), m.start(), m.end()))
    for m in _matches(_TIME_RE, text, windows) if present["time"] else ():
        clock = _time_key(m)
        if clock is not None and taken.free(*m.span()):
            add(Token(m.group(), "time", ("time", clock), m.start(), m.end()))
    for m in _matches(_YEAR_CODE_RE, text, windows) if present["year"] else ():
        if taken.free(*m.span()):
            add(_year_token(m))
    for m in _matches(_SCALED_RE, text, windows) if present["scale"] else ():
        scaled = _scaled_token(m)
        if scaled is not None and taken.free(*m.span()):
            add(scaled)
    for m in _matches(_CODE_RE, text, windows) if present["code"] else ():
        if not _ORDINAL_RE.fullmatch(m.group()) and not _glued_code(text, m) and taken.free(*m.span()):
            add(Token(m.group(), "code", ("code", m.group().casefold().replace("-", "")), m.start(), m.end()))
    for m in _matches(_NUMBER_RE, text, windows):
        token = number_token(m)
        if token is not None and taken.free(token.start, token.end):
            add(token)
    found.sort(key=lambda t: t.start)
    return tuple(found)


_GLUED_CODE = re.compile(r"[A-Z]{3}\d+")
_FIGURE_GOES_ON = re.compile(r"[,.]\d")


def _glued_code(text: str, m: re.Match[str]) -> bool:
    """A three-capital code whose digits go on past it as a figure's thousands group or decimals ("RMB29,423",
    "EUR4.5bn") is a currency written against its figure: the figure is read, with its scale, as a number."""
    return bool(_GLUED_CODE.fullmatch(m.group()) and _FIGURE_GOES_ON.match(text, m.end()))


def clear_token_cache() -> None:
    """Forget remembered extractions (benchmarks measure the gate cold with this)."""
    _extract_cached.cache_clear()
    _extract_long.cache_clear()
    _quote_keys_cached.cache_clear()
    _mask_cached.cache_clear()


def quote_keys(text: str) -> set[Key]:
    """The keys a quote can support (lenient: see the module docstring). A fresh set: the caller may add to it."""
    return set(_quote_keys_cached(text) if len(text) <= _CACHED_CHARS else _read_quote_keys(text))


@lru_cache(maxsize=4096)  # the same quotes, headings and titles are read by several rules, and again on repair
def _quote_keys_cached(text: str) -> frozenset[Key]:
    return frozenset(_read_quote_keys(text))


@source_reading
def _source_quote_keys(text: str) -> frozenset[Key]:
    """`quote_keys` of source text, kept across drafts (`source_readings.py`)."""
    return frozenset(_read_quote_keys(text))


def _read_quote_keys(text: str) -> set[Key]:
    tokens = extract_tokens(text)
    keys: set[Key] = {t.key for t in tokens}
    lower = _ascii_lower(text)
    # a scale stated without a figure: "(in millions)", "€m", "$'000" (each pattern run only when its mark is there)
    if any(word in lower for word in _SCALE_WORDS):
        keys |= {("scale", _SCALES[_ascii_lower(m["word"])]) for m in _SCALE_WORD_RE.finditer(text)}
    if any(sign in text for sign in _CURRENCY_SIGNS):
        keys |= {
            ("scale", 3 if m["zeros"] else _SCALES[_ascii_lower(m["short"])]) for m in _SCALE_UNIT_RE.finditer(text)
        }
    if not _HAS_DIGIT.search(text):
        return keys  # every other key holds a figure
    for t in tokens:
        if t.kind == "date" and isinstance(t.key[1], str) and len(t.key[1]) == 10:
            keys.add(("date", t.key[1][:7]))  # "March 12, 2025" also says "March 2025"
        if t.kind == "code":  # "FY2025" also says "2025"
            keys.update(("num", Decimal(d)) for d in _FIGURE_IN_CODE.findall(t.text))
    percents = _Taken(len(text))
    for t in tokens:
        if t.kind == "percent":
            percents.take(t.start, t.end)
            if _in_parentheses(text, t.start, t.end) and isinstance(t.key[1], Decimal):
                keys.add(("pct", -t.key[1]))
        if t.scale:
            keys.add(("scale", t.scale))
    for m in _NUMBER_RE.finditer(text):
        value = parse_decimal(m["num"])
        if value is None or m["pct"] or not percents.free(m.start(), m.end()):
            continue
        keys.add(("num", value))
        keys.add(("num", -value if m["sign"] or _in_parentheses(text, m.start(), m.end()) else value))
    if "|" in text:
        for m in _SPACED_CELL_RE.finditer(text):
            keys.add(("num", Decimal(m["digits"].replace(" ", ""))))
    if "fy" in lower or "cy" in lower:
        for m in _YEAR_CODE_RE.finditer(text):
            keys.add(_year_token(m).key)
    keys |= {("year", int(v)) for kind, v in list(keys) if kind == "num" and isinstance(v, Decimal) and _is_year(v)}
    # a year code names its year in full ("FY18" heads the column of 2018): a claim may write it "2018"
    keys |= {("num", Decimal(v)) for kind, v in list(keys) if kind == "year" and isinstance(v, int)}
    return keys


def _in_parentheses(text: str, start: int, end: int) -> bool:
    """Accounting notation for a negative figure: "(9,819)", "(248%)"."""
    return start > 0 and text[start - 1] == "(" and text[end : end + 1] == ")"


def _is_year(value: Decimal) -> bool:
    return value == value.to_integral_value() and 1900 <= value <= 2099


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
    wanted = frozenset(s for s in literals if s)
    return _mask_cached(text, wanted) if len(text) <= _CACHED_CHARS else _mask(text, wanted)


@lru_cache(maxsize=4096)  # the claims and the span rule mask the same texts with the same ids
def _mask_cached(text: str, literals: frozenset[str]) -> str:
    return _mask(text, literals)


def _mask(text: str, literals: frozenset[str]) -> str:
    if "p." in text or "doc://" in text:  # what every citation holds
        text = _LOCATOR_RE.sub(lambda m: " " * len(m.group()), text)  # first: a doc:// ref holds a source id
    for literal in sorted(literals, key=len, reverse=True):
        if literal in text:
            text = text.replace(literal, " " * len(literal))
    return text


# A rounded figure must keep this many significant digits to stand for the exact one: "11.45" or "11" for
# 11.4525..., never "0" for 0.4 or "1" for 1.4 (a rounding that small no longer says the figure).
MIN_ROUNDED_DIGITS = 2


def rounds_to(said: Decimal, exact: Decimal) -> bool:
    """`said` is `exact` rounded to `said`'s own decimal places ("11.45" for 11.4525..., "207.0" for 207), keeping at
    least `MIN_ROUNDED_DIGITS` significant digits; an exact figure always is itself. A calc returns every digit,
    and a writer states the result as an answer shows it."""
    if said == exact:
        return True
    exponent = said.as_tuple().exponent
    if not isinstance(exponent, int) or said.is_zero() or said.adjusted() - exponent + 1 < MIN_ROUNDED_DIGITS:
        return False
    try:
        return exact.quantize(Decimal(1).scaleb(exponent)) == said
    except InvalidOperation:
        return False


@dataclass
class TokenPool:
    """What may be said: keys read from verified quotes plus values the gate recomputed itself."""

    keys: set[Key]
    calc_values: set[Decimal]

    @classmethod
    def empty(cls) -> TokenPool:
        return cls(set(), set())

    def add_quote(self, quote: str) -> None:
        """Add the keys of `quote`: source text only (a verified quote, its table's headings, its source's title),
        whose keys are read once per source version."""
        self.keys |= _source_quote_keys(quote) if len(quote) <= _CACHED_CHARS else _read_quote_keys(quote)

    def add_calc(self, value: Decimal) -> None:
        self.calc_values.add(value)

    def copy(self) -> TokenPool:
        return TokenPool(set(self.keys), set(self.calc_values))

    def supports(self, token: Token) -> bool:
        number = token.number
        if token.scale and number is not None:
            # "€4,411m": 4,411 quoted under a stated scale (or recomputed from such figures), or 4,411,000,000 quoted
            if ("num", number.scaleb(token.scale)) in self.keys:
                return True
            if ("scale", token.scale) not in self.keys:
                return False
        if token.key in self.keys:
            return True
        if number is None:
            return False
        # a change may be stated by its size ("fell by 22.22%" for a calc of -22.22); for a percentage, `a / b * 100`
        # gives percentage points and calc's own `15%` is 0.15: accept either reading
        said: tuple[Decimal, ...] = (number, -number)
        if token.kind == "percent":
            said += (number / 100, -number / 100)
        if any(v in self.calc_values for v in said):
            return True
        # a recomputed value as a writer rounds it ("about 11.45%" for 11.4525...)
        return any(rounds_to(s, v) for s in said for v in self.calc_values)
