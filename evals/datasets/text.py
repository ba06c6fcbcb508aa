"""Text helpers shared by the dataset scorers: normalized tokens, phrase containment, figures and numbers.

- `tokens`: casefolded words; thousands separators dropped inside numbers ("1,496.5" -> "1496.5", and an amount of
  money grouped with spaces, "$2 680.00" -> "$2680.00", as BIPIA's gold writes some), a decimal point kept, every
  other punctuation mark (currency, %, quotes, hyphens) a separator, articles dropped (as in the TAT-QA and SQuAD
  answer normalization).
- `contains(text, phrase)`: the phrase's tokens occur as a contiguous run of the text's tokens.
- `figures(text)`: the magnitudes of the numbers a text states, as normalized decimal strings, with locators
  (`p.1 L3-L4`), source ids (`name.md`), list markers ("1. ") and reference marks ("[2]", a passage number the
  naive prompt shows) removed first: those are pointers, not claims.
- `numbers(text)`: the signed numbers of a text in order of appearance; a number glued to letters ("FY2019",
  "Q4") is an identifier, not a number (unless `identifiers`: what a source carries in any form supports a figure).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from itertools import pairwise
from typing import Final

from quotebound.evals.bipia import sentence_starts

_ARTICLES: Final = frozenset({"a", "an", "the"})
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# A space grouping an amount's thousands, only after a currency sign: "24 hours" elsewhere stays two numbers.
_SPACED_MONEY = re.compile(r"([$€£¥]\s?\d{1,3}(?:\d{3})*)[ \u00a0\u202f](?=\d{3}(?!\d))")
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+", re.UNICODE)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_LOCATOR = re.compile(r"\bp\.\d+ L\d+(?:-L\d+)?|\bL\d+-L\d+")
_SOURCE_ID = re.compile(r"[\w./@-]+\.(?:md|txt|pdf|html?)\b")
_LIST_MARKER = re.compile(r"^\s*\d{1,2}[.)]\s+", re.MULTILINE)
_REFERENCE_MARK = re.compile(r"\[\d{1,3}\]")  # "[2]": a passage or footnote number echoed from the evidence
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_MINUS = re.compile(r"(?:^|[\s(:=$])[-−–]\$?$")


def tokens(text: str) -> list[str]:
    text = _THOUSANDS.sub("", text.casefold())
    while (grouped := _SPACED_MONEY.sub(r"\1", text)) != text:
        text = grouped
    return [t for t in _TOKEN.findall(text) if t not in _ARTICLES]


def contains(text: str, phrase: str) -> bool:
    """Whether `phrase`'s tokens appear, in order and adjacent, among `text`'s tokens (False for an empty phrase)."""
    needle = tokens(phrase)
    if not needle:
        return False
    hay = tokens(text)
    n = len(needle)
    return any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def strip_references(text: str) -> str:
    """The text without locators, source ids, list markers and "[n]" reference marks: pointers, not claims."""
    return _REFERENCE_MARK.sub(" ", _LIST_MARKER.sub(" ", _SOURCE_ID.sub(" ", _LOCATOR.sub(" ", text))))


def canonical(number: Decimal) -> str:
    """`Decimal("680.00")` -> "680", `Decimal("1E+3")` -> "1000": one spelling per value."""
    text = format(number.normalize(), "f")
    return text if text != "-0" else "0"


def numbers(text: str, *, identifiers: bool = False) -> list[Decimal]:
    """The signed numbers `text` states, in order (thousands separators dropped); with `identifiers`, the digit
    runs glued to letters too ("2nd" -> 2)."""
    found: list[Decimal] = []
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        raw = match.group().rstrip(",")
        glued = (start and text[start - 1].isalpha()) or (end < len(text) and text[end].isalpha())
        if glued and not identifiers:
            continue  # FY2019, Q4, 10x: identifiers, not amounts
        try:
            value = Decimal(raw.replace(",", ""))
        except InvalidOperation:
            continue
        found.append(-value if _MINUS.search(text[max(0, start - 3) : start]) else value)
    return found


def figures(text: str, *, identifiers: bool = False) -> set[str]:
    """The magnitudes stated in `text` (signs dropped: "-12.6" and "12.6" are the same figure of the source)."""
    return {canonical(abs(n)) for n in numbers(strip_references(text), identifiers=identifiers)}


def sentence_lines(paragraph: str) -> list[str]:
    """A paragraph as one sentence a line (the split `evals/bipia.py` uses), so a quote is a sentence, not a page.
    Control characters become spaces: a few RAMDocs noise documents are mis-decoded binaries (NUL bytes and all),
    which the ingester rightly refuses as a file; as text they stay the noise they are."""
    lines: list[str] = []
    for raw in _CONTROL.sub(" ", paragraph).splitlines():
        starts = [*sentence_starts(raw), len(raw)]
        lines += [raw[a:b].strip() for a, b in pairwise(starts) if raw[a:b].strip()]
    return lines
