"""A sentence read as items, in reading order: its values (figures, dates, times, number words and, when asked,
capitalized names), its identifiers ("Unit 3A"), its words and its punctuation gaps. `slot_clause.py` reads a
value's clause from them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Final, Literal

from quotebound.agent.gate.conflicts import Value
from quotebound.agent.gate.slot_words import (
    NAME_JOINERS,
    NAME_SKIP,
    NUMBER_WORDS,
    WORD_OR_GAP,
    Family,
    text_keys,
    text_stems,
    word_keys,
)
from quotebound.agent.gate.tokens import Token, extract_tokens
from quotebound.agent.gate.vocabulary import STOPWORDS

_YEAR: Final = (1000, 2100)
# A figure alone in square brackets is a reference mark ("census [ 5 ] of 2000", "[12]"), not a value.
_BRACKET_OPEN: Final = re.compile(r"\[\s*$")
_BRACKET_CLOSE: Final = re.compile(r"\s*\]")


def _reference(sentence: str, token: Token) -> bool:
    """`token` is a footnote or citation number: a plain number standing alone in square brackets."""
    return (
        token.kind == "number"
        and _BRACKET_OPEN.search(sentence, max(0, token.start - 3), token.start) is not None
        and _BRACKET_CLOSE.match(sentence, token.end) is not None
    )


@dataclass(slots=True)
class Item:
    """A word, a value or a punctuation gap of a sentence, in reading order."""

    kind: Literal["word", "value", "gap", "code"]
    text: str
    start: int
    end: int
    family: Family | None = None
    token: Token | None = None
    keys: frozenset[str] = frozenset()  # the keys of its content words (a word's own, a name's words)

    @property
    def stems(self) -> frozenset[str]:
        """The whole stems of its content words (keys are their first letters only)."""
        return text_stems(self.text) if self.keys else frozenset()


def family_of(value: Value) -> Family:
    """The family a value is compared within: a percentage, a date (a bare year too), a time, an amount, a name."""
    token = value.token
    if value.kind == "percent":
        return "percent"
    if value.kind == "date" or (token is not None and year_like(token)):
        return "date"
    if value.kind == "time":
        return "time"
    if value.kind in ("money", "number"):
        return "amount"
    return "name"


def year_like(token: Token) -> bool:
    """A whole number written without a thousands separator between 1000 and 2100: a year."""
    number = token.number
    return (
        token.kind == "number"
        and number is not None
        and number == int(number)
        and _YEAR[0] <= number <= _YEAR[1]
        and "," not in token.text
    )


_NUMBER_WORD_RE: Final = re.compile(rf"\b(?:{'|'.join(NUMBER_WORDS)})\b", re.IGNORECASE)


def number_word_tokens(sentence: str) -> list[Token]:
    """Number words, with the figure that repeats them when there is one: "six (6)" is one value."""
    found: list[Token] = []
    for m in _NUMBER_WORD_RE.finditer(sentence):
        n = NUMBER_WORDS[m.group().casefold()]
        repeat = re.match(rf"\s*\(\s*{n}\s*\)", sentence[m.end() : m.end() + 12])
        end = m.end() + (repeat.end() if repeat else 0)
        found.append(Token(sentence[m.start() : end], "number", ("num", Decimal(n)), m.start(), end))
    return found


_CODE_BEFORE: Final = re.compile(r"\b[A-Z]{3}\s?$")
_CODE_AFTER: Final = re.compile(r"\s?[A-Z]{3}\b")
LABELLED: Final = re.compile(r"\s+[A-Za-z]?\d")
_NAME_WORD: Final = re.compile(r"[^\W\d_]+(?:['’.&-][^\W\d_]+)*\.?")


def name_spans(sentence: str, taken: bytearray) -> list[tuple[int, int]]:
    """Capitalized runs ("Ellen Marsh", "A Kind of Hush", "Miami, Florida"), leading articles dropped; `taken`
    marks the characters already read as figures."""
    words = [(m.start(), m.end(), m.group()) for m in _NAME_WORD.finditer(sentence) if not taken[m.start()]]
    lower = {w for _, _, w in words if w[0].islower()}
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        start, _, word = words[i]
        if not word[0].isupper() or word.casefold() in NAME_SKIP or word.casefold() in STOPWORDS:
            i += 1
            continue
        j = i
        while j + 1 < len(words) and not sentence[words[j][1] : words[j + 1][0]].strip():
            nxt = words[j + 1][2]
            if nxt[0].isupper():
                j += 1
            elif (
                nxt.casefold() in NAME_JOINERS
                and j + 2 < len(words)
                and words[j + 2][2][0].isupper()
                and not sentence[words[j + 1][1] : words[j + 2][0]].strip()
            ):
                j += 2
            else:
                break
        span_end = words[j][1] - (1 if words[j][2].endswith(".") and len(words[j][2]) > 2 else 0)
        # "City, State": a one-word capitalized name right after a comma belongs to the place before it
        if j + 1 < len(words):
            _, nxt_end, nxt = words[j + 1]
            after = words[j + 2][2] if j + 2 < len(words) else ""
            if (
                sentence[words[j][1] : words[j + 1][0]].strip() == ","
                and nxt[0].isupper()
                and not after[:1].isupper()
                and nxt.casefold() not in NAME_SKIP
                and LABELLED.match(sentence, nxt_end) is None  # "Marisol Ortega, Unit 3A": a label follows
            ):
                span_end = nxt_end - (1 if nxt.endswith(".") else 0)
                j += 1
        if not (j == i and word.casefold().rstrip(".") in lower):
            spans.append((start, span_end))  # a lone capital on a word also written in lower case is no name
        i = j + 1
    return spans


def read_items(sentence: str, with_names: bool, forced: tuple[int, int] | None) -> list[Item]:
    """The items of `sentence` in reading order (`forced`: a span read as a name whatever it is)."""
    items, taken = _values_and_codes(sentence, with_names, forced)
    for m in WORD_OR_GAP.finditer(sentence):
        if not taken[m.start()]:
            word = m.group()
            if word[0].isalpha():
                items.append(Item("word", word, m.start(), m.end(), keys=word_keys(word)))
            else:
                items.append(Item("gap", word, m.start(), m.end()))
    items.sort(key=lambda item: item.start)
    return items


def value_items(sentence: str, with_names: bool) -> list[Item]:
    """The values and codes of `sentence` in reading order: `read_items` without its words and gaps, which are
    read after every value and never change one (a caller that lists values reads only these)."""
    items, _ = _values_and_codes(sentence, with_names, None)
    items.sort(key=lambda item: item.start)
    return items


def _values_and_codes(sentence: str, with_names: bool, forced: tuple[int, int] | None) -> tuple[list[Item], bytearray]:
    """The value and code items of `sentence` in the order they are read, and the characters they take."""
    items: list[Item] = []
    taken = bytearray(len(sentence) + 1)

    def take(start: int, end: int) -> None:
        taken[start:end] = b"\x01" * (end - start)

    if forced is not None:  # a value given as plain words ("novel"): read as a name where it stands
        text = sentence[forced[0] : forced[1]]
        items.append(Item("value", text, forced[0], forced[1], "name", keys=text_keys(text)))
        take(*forced)
    words = [t for t in number_word_tokens(sentence) if not taken[t.start]]
    for t in words:
        take(t.start, t.end)
    clear = [t for t in extract_tokens(sentence) if not any(taken[t.start : t.end])]
    figures = ("money", "number", "percent", "date", "time")
    tokens = [t for t in clear if t.kind in figures and not _reference(sentence, t)] + words
    for t in clear:
        take(t.start, t.end)
    for t in tokens:
        family = family_of(Value(t.text, t.kind, t))
        start, end = t.start, t.end
        if family == "amount":  # a currency code written beside a figure is part of it ("USD 1.03", "1,200 EUR")
            before = _CODE_BEFORE.search(sentence, max(0, start - 6), start)
            after = _CODE_AFTER.match(sentence, end)
            start, end = before.start() if before else start, after.end() if after else end
            take(start, end)
        items.append(Item("value", sentence[start:end], start, end, family, t))
    for t in clear:
        if t.kind == "code":  # "Unit 3A", "FY2025": an identifier, marking which thing or period is meant
            items.append(Item("code", t.text, t.start, t.end, keys=frozenset({f"#{t.key[1]}"})))
    if with_names:
        for start, end in name_spans(sentence, taken):
            items.append(Item("value", sentence[start:end], start, end, "name", keys=text_keys(sentence[start:end])))
            take(start, end)
    return items, taken
