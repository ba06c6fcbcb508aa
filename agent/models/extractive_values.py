"""Values of the extractive model: the patterns that find money, percents, dates, durations, counts, codes and names
in a line, how two values compare, and which value of a line answers a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Final

from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_words import normalize

_MONTHS: Final = "january february march april may june july august september october november december".split()
MONTHS: Final = frozenset(_MONTHS)
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_NUMBER_WORDS: Final = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_NUMWORD = r"(?:" + "|".join(_NUMBER_WORDS) + r")"
_UNIT = r"(?:consecutive\s+|full\s+|calendar\s+|business\s+)?(?:years?|months?|weeks?|days?|hours?|minutes?)"
# (kind, pattern) in priority order; a later pattern never takes characters an earlier one took.
_VALUE_PATTERNS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("date", re.compile(rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b")),
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")),
    # day first, as most of the world writes it: "29 June 2007", "11 March 1996"
    ("date", re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}\b")),
    ("date", re.compile(rf"\b{_MONTH}\s+(?:\d{{4}}|\d{{1,2}}(?:st|nd|rd|th)?)\b")),
    ("money", re.compile(rf"[$€£¥₹]\s?(?:{_NUM})")),
    ("percent", re.compile(rf"(?<![\w.,])(?:{_NUM})\s?%")),
    ("duration", re.compile(rf"\b(?:\d+(?:\.\d+)?|{_NUMWORD})(?:\s*\(\d+\))?\s+{_UNIT}\b", re.IGNORECASE)),
    ("time", re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?(?:a\.m\.|p\.m\.|am|pm)(?!\w))?", re.IGNORECASE)),
    ("identifier", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\(?\b\d{3}\)?[\s.-]?\d{3}-\d{4}\b")),  # e-mail, phone
    # codes and ids: 1-10, B-07, FY2024, 7C, 1234#
    ("identifier", re.compile(r"\w*\d+(?:-\w*\d+\w*)+|[^\W\d_]+\d[\w]*|\d+[^\W\d_]+\w*|\b\d{3,}[#*]")),
    # a number written in digit groups (an account or card number: "6038 1157 2294"), never a run of years
    (
        "identifier",
        re.compile(r"(?<![\w.,])(?!(?:(?:19|20)\d\d )+(?:19|20)\d\d\b)\d{3,6}(?: \d{3,6}){2,}(?![\w%]|[.,]\d)"),
    ),
    ("skip", re.compile(r"(?:§|\bSection|\bArticle|\bLine|\blines?)\s*\d+(?:\.\d+)*", re.IGNORECASE)),
    ("year", re.compile(r"(?<![\w.,])(?:19|20)\d\d(?![\w.,]\d)")),
    ("number", re.compile(rf"(?<![\w.,-])(?:{_NUM})(?![\w%-]|[.,]\d)")),
    ("numword", re.compile(r"\b(?:" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)),
    ("month", re.compile(rf"\b{_MONTH}\b")),
    # capitalized words (a name), never a determiner that merely starts a sentence ("The Company")
    (
        "entity",
        re.compile(
            r"(?<![\w'’])(?!(?:The|A|An|This|That|Each|Every|No|All|If|When|Where)\b)[A-Z][\w'’&-]*"
            r"(?:(?:,\s+(?=(?:Inc|LLC|Ltd|Corp|Co)\b)|\s+(?:of\s+|and\s+|&\s+)?)[A-Z][\w'’&.-]*)*"
        ),
    ),
)
_PREFERENCE: Final[dict[str | None, tuple[str, ...]]] = {
    "amount": ("money", "number"),
    "money": ("money",),
    "count": ("number", "numword", "duration"),
    "duration": ("duration",),
    "entity": ("entity",),
    "identifier": ("identifier",),
    "date": ("date", "time", "year", "month"),
    "percent": ("percent",),
    None: ("money", "percent", "date", "duration", "number", "numword", "time", "year"),
}
NUMERIC_KINDS: Final = frozenset({"money", "percent", "number", "numword"})


def is_number_word(word: str) -> bool:
    return word in _NUMBER_WORDS


def kind_class(kind: str) -> str:
    """Values compare only within one class: a count may be written in digits or words."""
    return "number" if kind in ("number", "numword") else kind


@dataclass(frozen=True)
class Value:
    text: str  # exactly as in the line
    kind: str
    start: int

    def number(self) -> Decimal | None:
        if self.kind == "duration":
            digits = re.findall(r"\d+(?:\.\d+)?", self.text)
            word = re.match(_NUMWORD, self.text.lower())
            return Decimal(digits[-1]) if digits else Decimal(_NUMBER_WORDS[word.group()]) if word else None
        if self.kind == "numword":
            return Decimal(_NUMBER_WORDS[self.text.lower()])
        if self.kind not in NUMERIC_KINDS and self.kind != "year":
            return None
        try:
            return Decimal(re.sub(r"[^\d.]", "", self.text))
        except InvalidOperation:
            return None

    def normalized(self) -> str:
        """A comparable form: a plain decimal for numbers, ISO for full dates, casefolded text otherwise."""
        number = self.number()
        if number is not None and self.kind == "duration":
            unit = re.findall(r"(year|month|week|day|hour|minute)", self.text.lower())
            return f"{format(number.normalize(), 'f')} {unit[-1] if unit else ''}".strip()
        if number is not None:
            return format(number.normalize(), "f")
        match = re.match(rf"({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})$", self.text)
        if match:
            month = _MONTHS.index(match[1].lower()) + 1
            return f"{match[3]}-{month:02d}-{int(match[2]):02d}"
        match = re.match(rf"(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH}),?\s+(\d{{4}})$", self.text)
        if match:
            month = _MONTHS.index(match[2].lower()) + 1
            return f"{match[3]}-{month:02d}-{int(match[1]):02d}"
        return " ".join(self.text.casefold().split())


def extract_values(text: str) -> list[Value]:
    taken: list[tuple[int, int]] = []
    found: list[Value] = []
    for kind, pattern in _VALUE_PATTERNS:
        for match in pattern.finditer(text):
            span = match.span()
            if any(span[0] < end and start < span[1] for start, end in taken):
                continue
            taken.append(span)
            if kind != "skip":
                found.append(Value(match.group().strip(), kind, span[0]))
    found.sort(key=lambda v: v.start)
    if any(v.kind == "number" for v in found):  # "ten (10)": the digits are the value
        found = [v for v in found if v.kind != "numword"]
    return found


def pick_value(values: list[Value], kind: str | None) -> Value | None:
    for wanted in _PREFERENCE[kind]:
        for value in values:
            if value.kind == wanted:
                return value
    return None


def value_differs(a: Value, b: Value, tolerance_pct: float) -> bool:
    x, y = a.number(), b.number()
    if "year" in (a.kind, b.kind):
        tolerance_pct = 0.0  # a year is a point in time, not an amount: 1% would make 1885 and 1902 one year
    if x is not None and y is not None:
        scale = max(abs(x), abs(y))
        return scale > 0 and abs(x - y) > scale * Decimal(str(tolerance_pct)) / 100
    if a.kind == b.kind == "entity":  # "Jane Doe" and "Treasurer Jane Doe" name the same person
        x_words, y_words = set(re.findall(r"\w+", a.text.casefold())), set(re.findall(r"\w+", b.text.casefold()))
        return not (x_words <= y_words or y_words <= x_words)
    return a.normalized() != b.normalized()


def entity_value(values: list[Value], question: Question, line_text: str) -> Value | None:
    """The first name in the line that says more than the question: leading question words are trimmed."""
    for value in values:
        if value.kind != "entity":
            continue
        words = value.text.split()
        while words and normalize(words[0].strip(",")) in question.words:
            words.pop(0)
        sentence_start = not line_text[: value.start].strip() or line_text[: value.start].rstrip()[-1] in ".:;!?|"
        if words and (len(words) >= 2 or words[0] != value.text.split()[0] or not sentence_start):
            offset = value.text.index(words[0])
            text = value.text[offset:]
            if text.endswith(".") and not re.search(r"\b(?:Inc|Ltd|Corp|Co|Jr|Sr)\.$", text):
                text = text[:-1]  # a sentence's full stop, not an abbreviation's
            return Value(text, "entity", value.start + offset)
    return None


def line_value(question: Question, line_text: str) -> Value | None:
    """The value a line gives for the question: for a who-question the first name that says more than the
    question's own words ("Social Committee chair: Jane Doe" gives Jane Doe), else the first value of the kind
    asked for."""
    values = extract_values(line_text)
    if question.kind == "entity":
        return entity_value(values, question, line_text)
    return pick_value(values, question.kind)
