"""Reading one sentence (or table row): its words (folded, "n't" and "cannot" split), marks and figures in order,
each figure with its unit, rate and scale, then its clauses (`clauses.py`) and its ranges. `parse` is cached: a
draft's sentences and its quotes' sentences are read once."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.meaning.clauses import clause_bounds, read_clause
from quotebound.agent.gate.meaning.direction import read_ranges
from quotebound.agent.gate.meaning.lexicon import CURRENCY_SIGNS, CURRENCY_UNITS, NUMBER_WORDS, UNITS
from quotebound.agent.gate.meaning.model import Clause, Sentence, Tok, Value, digits_spaced
from quotebound.agent.gate.meaning.units import POWERS, fill_units
from quotebound.agent.gate.tokens import Token, extract_tokens
from quotebound.agent.gate.vocabulary import fold

# Answer particles: a leading "Yes," or "No." answers the question and is not a negator of what follows.
_PARTICLES: Final = re.compile(r"^\s*(yes|no)\b\s*(?:[,.:;!—–-]+\s*|$)", re.I)
# A hyphen between two digits is kept as a mark: "1981-1995" may be a range (`direction.read_ranges`).
_WORD: Final = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|[;:,|—–()!?]|(?<!\d)\.(?!\d)|(?<=\d)-(?=\d)")
_VALUE_KINDS: Final = frozenset({"money", "number", "percent", "date", "time", "code"})
# "000" written as a unit ("£000", "$'000", "US$’000"): thousands of the currency, a scale and no figure.
_THOUSANDS: Final = re.compile(r"[^\d\s]{0,4}000")
_TWO_CAPITALS: Final = re.compile(r"\b[A-Z][A-Z]")
_NUMBER_SIGN: Final = re.compile(r"\.?\s*\d")
_CONTRACTIONS: Final[dict[str, str]] = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}


def _split_contraction(word: str) -> list[str]:
    w = fold(word)
    if w == "cannot":
        return ["can", "not"]
    if w.endswith("n't") and len(w) > 3:
        base = w[:-3]
        return [_CONTRACTIONS.get(base, base), "not"]
    return [w]


def _shouted(text: str) -> bool:
    """Most words in capitals ("THE SOFTWARE IS PROVIDED AS IS"): capitals then mark no names."""
    if text.isascii() and len(_TWO_CAPITALS.findall(text)) < 3:
        return False  # fewer than three words in capitals: not shouted (read without splitting into words)
    words = re.findall(r"[^\W\d_]{2,}", text)
    return len(words) >= 3 and sum(w.isupper() for w in words) * 5 >= len(words) * 3


def _tokenize(text: str, row: bool) -> tuple[list[Tok], list[Value]]:
    """Words (folded; "n't" and "cannot" split), marks and figures (`tokens.extract_tokens`, and number words), in
    order. A capitalized word is a name unless it opens the sentence (then only when written in capitals), or the
    sentence is shouted, or it sits in a table row."""
    figures = [t for t in extract_tokens(text) if t.kind in _VALUE_KINDS]
    shouted = not row and _shouted(text)
    toks: list[Tok] = []
    values: list[Value] = []
    cell = 0 if row else -1
    fi = 0
    covered = 0  # the end of the last figure: words inside it ("March" in "March 12, 2025") are the figure's
    first = True  # no word or figure yet

    def figure(f: Token) -> None:
        if _THOUSANDS.fullmatch(f.text) and (f.kind == "money" or text[max(0, f.start - 1) : f.start] in ("'", "’")):
            toks.append(Tok("thousands", cell=cell))  # "$'000", "£000": a table's scale, not a figure
            return
        scale = POWERS.get(getattr(f, "scale", 0))  # "$1.2 billion" is read as one figure with its scale
        values.append(Value(f.key, f.kind, f.text, len(toks), scale=scale, currency=_currency(text, f)))
        toks.append(Tok("", value=len(values) - 1, cell=cell))

    for m in _WORD.finditer(text):
        while fi < len(figures) and figures[fi].start <= m.start():
            if figures[fi].start >= covered:
                figure(figures[fi])
                covered = figures[fi].end
                first = False
            fi += 1
        if m.start() < covered:
            continue
        word = m.group()
        if word == "|":
            cell += 1 if row else 0
            continue
        if not word[0].isalpha():
            toks.append(Tok(word, cell=cell))
            continue
        low = fold(word)
        number = NUMBER_WORDS.get(low)
        if number is not None:
            values.append(Value(("num", Decimal(number)), "number", word, len(toks)))
            toks.append(Tok("", value=len(values) - 1, cell=cell))
            first = False
            continue
        if low in ("no", "nos") and _NUMBER_SIGN.match(text, m.end()):
            toks.append(Tok("number", cell=cell))  # "Instrument No. 2003-118842": the number sign, not a negator
            first = False
            continue
        cap = (
            not row
            and not shouted
            and word[0].isupper()
            and (not first or any(ch.isupper() for ch in word[1:]))  # "IMFT" opening a sentence is a name
        )
        first = False
        if "'" in low or "’" in low or low == "cannot":
            for part in _split_contraction(low):
                toks.append(Tok(part, cap=cap, cell=cell))
        else:
            toks.append(Tok(low, cap=cap, cell=cell))
    for f in figures[fi:]:
        if f.start >= covered:
            figure(f)
            covered = f.end
    return toks, values


def _currency(text: str, f: Token) -> str | None:
    """The unit a figure's currency sign or code counts it in: a sign in it or right before it ("$18", "AU$18"), or
    a currency code before it ("USD 1.00")."""
    for ch in f.text:
        if ch in CURRENCY_SIGNS:
            return CURRENCY_SIGNS[ch]
    before = text[max(0, f.start - 5) : f.start].rstrip()
    if before[-1:] in CURRENCY_SIGNS:
        return CURRENCY_SIGNS[before[-1]]
    code = before[-3:].lower()
    return CURRENCY_UNITS.get(code) if len(before) == 3 or not before[-4:-3].isalpha() else None


def _drop_echoes(toks: list[Tok], values: list[Value]) -> tuple[list[Tok], list[Value]]:
    """ "twelve (12) months": the figure in brackets repeats the word before it; keep one. "one" is a figure only
    before a unit ("one meter"), a pronoun or determiner otherwise."""
    out: list[Tok] = []
    kept: list[Value] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.value < 0:
            out.append(t)
            i += 1
            continue
        v = values[t.value]
        if fold(v.text) == "one" and not (i + 1 < len(toks) and toks[i + 1].low in UNITS):
            out.append(Tok("one", cell=t.cell))
            i += 1
            continue
        kept.append(v._replace(pos=len(out)))
        out.append(Tok("", value=len(kept) - 1, cell=t.cell))
        echo = (
            i + 2 < len(toks)
            and toks[i + 1].low == "("
            and toks[i + 2].value >= 0
            and values[toks[i + 2].value].key == v.key
        )
        i += (4 if i + 3 < len(toks) and toks[i + 3].low == ")" else 3) if echo else 1
    return out, kept


@lru_cache(maxsize=4096)
def parse(text: str) -> Sentence:
    """One sentence (or table row), read: tokens, figures with their units, clauses and their features."""
    row = text.lstrip().startswith("|") and text.count("|") >= 2
    particle = None
    body = text
    if not row:
        m = _PARTICLES.match(text)
        if m is not None:
            particle = m.group(1).lower()
            body = " " * m.end() + text[m.end() :]
    else:
        body = digits_spaced(text)
    toks, values = _tokenize(body, row)
    toks, values = _drop_echoes(toks, values)
    fill_units(toks, values)
    clauses: list[Clause] = []
    for a, b in [(0, len(toks))] if row else clause_bounds(toks):
        c = read_clause(toks, a, b)
        if c.elliptical and clauses:
            prev = clauses[-1]
            c = replace(
                c,
                stems=c.stems | prev.stems,
                names=c.names | prev.names,
                modality=c.modality or prev.modality,
                lexicon=c.lexicon | prev.lexicon,
            )
        clauses.append(c)
    stems_all = frozenset(s for c in clauses for s, _ in c.words)
    header = row and not any(v.kind in ("money", "number", "percent") and not v.label for v in values)
    return Sentence(
        text,
        tuple(toks),
        tuple(values),
        tuple(clauses),
        stems_all,
        read_ranges(toks, values),
        row,
        header,
        particle,
    )
