"""Meaning: a claim must keep what the quote sentences it rests on say, not only their words.

Claim support (`support.py`) holds each word of a claim to the claim's quotes; this module holds the way the claim
puts them together. It reads a claim sentence and the sentences of its quotes (each quote read in the whole sentence
of the text at its locator, so a quote cut after "No" is read with its "No"; a table row is a sentence, read with
its table's quoted caption and headings), splits both into clauses, and pairs each claim clause with the quote
clause that shares most of its content words. Then:

1. **Polarity and modality.** Negators and the deontic classes (permission, prohibition, obligation, exemption) are
   composed per clause: "may not" and "no ... may" are a prohibition, "not required" an exemption, "not allowed" a
   prohibition like "prohibited". A claim clause may not state the opposite polarity or another class than the
   quote clause it pairs with, unless a negation or a turned direction makes the two say the same ("must be at least
   12" and "fewer than 12 is not allowed"). A negator counts against a claim only when the claim states what it
   denies, so a claim that leaves a negated side-remark out is not blocked for it.
2. **Direction and order.** Bounds (at least / minimum vs at most / maximum / within), time order (before vs
   after), change (rose vs fell), beginning and end (began, born vs ended, died), state (open vs closed) and
   superlatives (largest vs smallest), a negator flipping each ("no more than" is "at most"; a deadline such as "no
   later than" bounds nothing by itself). A claim may not state the opposite pole of its quote clause; a range
   ("from 10 p.m. to 7 a.m.") keeps the order of its ends, a start is not the second end of a quoted range; a rise
   or fall between two periods, and a largest or smallest, must agree with the quoted figures.
3. **Units.** A figure's unit (days, months, hours, inches ...), rate ("per year", "monthly") and scale ("million")
   must be those its quote gives the same figure; a table's declared scale ("in thousands", "€m") counts for its
   cells.
4. **Value binding.** A figure (number, amount, percentage, date, time, code) must sit, in its quote, in a sentence
   about the claim clause's subject: the sentence that gives it must share the clause's words when another quote
   does; no other quote (or, in the same sentence, the words around another figure) may match the clause better
   while giving a different figure of its kind; its subject may not be joined to words, a modality or a bound that
   another quote states of something else; and its period label (a year heading its column, or standing beside it)
   must be the one the claim gives it. A clause that says of one subject what a parallel quote says of another is
   found the same way. Names in a clause that its quotes use must be in the quote sentence it pairs with (or that
   gives its figure), and a name the clause makes its subject must be the subject of its quote clause.

A bare "Yes" or "No" answering a yes/no question states the question's own clause, affirmed or reversed, and is
held to the quotes like any other clause (leniently: it passes when any quote clause it pairs with agrees).

Beyond these checks, and bounded by them: who does what to whom inside one quote clause ("the Owner maintains the
roofs" where one clause names both) is not parsed; double negations reworded ("cannot ... without" for "may ...
only after"), antonyms outside the listed categories and a figure's period when no quote states one are not
recognized. Claim support still holds every such word to the quotes, and span alignment every figure. Every
category below is a closed class of general English, written once; the few thresholds are named constants.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cached_property, lru_cache
from typing import Final, Literal, NamedTuple

from quotebound.agent.gate.claims import QuoteSpan, sentences
from quotebound.agent.gate.tokens import Key, Token, extract_tokens, quote_keys
from quotebound.agent.gate.vocabulary import STOPWORDS, fold
from quotebound.agent.gate.vocabulary import stem as light_stem


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """The light stem of `vocabulary`, kept from eating a word's own "-eed" ("breed", "exceed") and with a doubled
    last consonant made single ("stopped", "planned"), so the forms of one word meet."""
    w = fold(word).removesuffix("'s")
    if w.endswith("eed") or w.endswith("eeds"):
        return w.removesuffix("s")
    s = light_stem(w)
    if len(s) > 3 and s[-1] == s[-2] and s[-1] not in "aeiouls":
        s = s[:-1]
    return s


# --- categories ---------------------------------------------------------------------------------------------------

# Negators: words that deny what their clause (or the phrase after them) says. "n't" and "cannot" are split into
# "not" first.
NEGATORS: Final = _set("not no never none nobody nothing nowhere neither nor without")
# Negators that deny a noun phrase ("no pet", "neither director"): they negate a modal anywhere after them.
_DETERMINER_NEGATORS: Final = _set("no none neither nobody nothing nor")

# Deontic classes. Permission and prohibition are each other's negation; obligation negated is a prohibition when it
# is a modal verb ("must not") and an exemption when it is a word of requirement ("not required", "need not").
PERMISSION: Final = _set(
    "may can could might allowed allow allows permitted permit permits permissible entitled authorized authorised "
    "eligible"
)
PROHIBITION: Final = _set(
    "prohibited prohibit prohibits forbidden forbid forbids banned ban bans barred disallowed precluded ineligible"
)
OBLIGATION_MODALS: Final = _set("must shall should")
OBLIGATION_WORDS: Final = _set(
    "required require requires mandatory obligated obliged obligatory need needs"
)  # and "has to" / "have to" (see `_deontic`)
EXEMPTION: Final = _set("waived waive waives exempt exempted excused optional")
Modality = Literal["permission", "prohibition", "obligation", "exemption"]
_NEGATIVE_CLASSES: Final[frozenset[str]] = frozenset({"prohibition", "exemption"})
_FLIP: Final[dict[str, Modality]] = {
    "permission": "prohibition",
    "prohibition": "permission",
    "obligation_modal": "prohibition",
    "obligation_word": "exemption",
    "exemption": "obligation",
}
# Auxiliaries and the verb "be": the words a negator may stand among and still deny the verb group it is in.
AUXILIARIES: Final = _set(
    "be been being is are was were am do does did has have had will would to also ever yet still then therefore"
)
_MODAL_VERBS: Final = _set("may can could might must shall should will would")
# The words of a verb group before its verb: a clause starts where one follows "and", "or", "that".
_VERB_GROUP: Final = _set("is are was were am be been do does did has have had") | _MODAL_VERBS

# Directions: (axis, pole). A negator before a direction word flips it ("no more than" is "at most").
_POLES: Final[dict[str, tuple[str, str]]] = {
    # bounds and comparison of magnitude
    "more": ("magnitude", "high"), "greater": ("magnitude", "high"), "higher": ("magnitude", "high"),
    "larger": ("magnitude", "high"), "longer": ("magnitude", "high"), "bigger": ("magnitude", "high"),
    "exceed": ("magnitude", "high"), "exceeds": ("magnitude", "high"), "exceeding": ("magnitude", "high"),
    "exceeded": ("magnitude", "high"), "minimum": ("magnitude", "high"), "min": ("magnitude", "high"),
    "floor": ("magnitude", "high"),
    "less": ("magnitude", "low"), "fewer": ("magnitude", "low"), "lower": ("magnitude", "low"),
    "smaller": ("magnitude", "low"), "shorter": ("magnitude", "low"), "maximum": ("magnitude", "low"),
    "max": ("magnitude", "low"), "cap": ("magnitude", "low"), "ceiling": ("magnitude", "low"),
    "within": ("magnitude", "low"),
    # time order
    "before": ("order", "before"), "prior": ("order", "before"), "earlier": ("order", "before"),
    "preceding": ("order", "before"), "after": ("order", "after"), "following": ("order", "after"),
    "later": ("order", "after"), "sooner": ("order", "before"), "subsequent": ("order", "after"),
    "thereafter": ("order", "after"),
    # change
    "increase": ("change", "up"), "increased": ("change", "up"), "increases": ("change", "up"),
    "increasing": ("change", "up"), "rise": ("change", "up"), "rises": ("change", "up"), "rose": ("change", "up"),
    "risen": ("change", "up"), "rising": ("change", "up"), "grow": ("change", "up"), "grows": ("change", "up"),
    "grew": ("change", "up"), "grown": ("change", "up"), "growth": ("change", "up"), "gain": ("change", "up"),
    "gained": ("change", "up"), "climbed": ("change", "up"), "improved": ("change", "up"),
    "decrease": ("change", "down"), "decreased": ("change", "down"), "decreases": ("change", "down"),
    "decreasing": ("change", "down"), "decline": ("change", "down"), "declined": ("change", "down"),
    "declines": ("change", "down"), "fall": ("change", "down"), "falls": ("change", "down"),
    "fell": ("change", "down"), "fallen": ("change", "down"), "drop": ("change", "down"),
    "dropped": ("change", "down"), "drops": ("change", "down"), "reduced": ("change", "down"),
    "shrank": ("change", "down"), "worsened": ("change", "down"),
    # beginning and end (of a period, an activity, an existence)
    "born": ("phase", "start"), "founded": ("phase", "start"), "established": ("phase", "start"),
    "died": ("phase", "end"), "dissolved": ("phase", "end"), "abolished": ("phase", "end"),
    "start": ("phase", "start"), "started": ("phase", "start"), "starts": ("phase", "start"),
    "begin": ("phase", "start"), "began": ("phase", "start"), "begun": ("phase", "start"),
    "begins": ("phase", "start"), "commenced": ("phase", "start"), "launched": ("phase", "start"),
    "resumed": ("phase", "start"), "initiated": ("phase", "start"),
    "end": ("phase", "end"), "ended": ("phase", "end"), "ends": ("phase", "end"), "stop": ("phase", "end"),
    "stopped": ("phase", "end"), "ceased": ("phase", "end"), "discontinued": ("phase", "end"),
    "discontinue": ("phase", "end"), "terminated": ("phase", "end"), "concluded": ("phase", "end"),
    "expired": ("phase", "end"), "suspended": ("phase", "end"),
    # open or closed to something
    "open": ("state", "open"), "opened": ("state", "open"), "closed": ("state", "closed"),
    # superlatives
    "largest": ("extreme", "max"), "highest": ("extreme", "max"), "greatest": ("extreme", "max"),
    "biggest": ("extreme", "max"), "longest": ("extreme", "max"), "smallest": ("extreme", "min"),
    "lowest": ("extreme", "min"), "fewest": ("extreme", "min"), "shortest": ("extreme", "min"),
}  # fmt: skip
# Two-word bounds, read before single words.
_BOUND_PHRASES: Final[dict[tuple[str, str], tuple[str, str]]] = {
    ("at", "least"): ("magnitude", "high"),
    ("at", "most"): ("magnitude", "low"),
    ("up", "to"): ("magnitude", "low"),
    ("or", "more"): ("magnitude", "high"),
    ("or", "less"): ("magnitude", "low"),
    ("or", "fewer"): ("magnitude", "low"),
    ("prior", "to"): ("order", "before"),
}
_OPPOSITE: Final[dict[str, str]] = {
    "high": "low", "low": "high", "before": "after", "after": "before", "up": "down", "down": "up",
    "start": "end", "end": "start", "open": "closed", "closed": "open", "max": "min", "min": "max",
}  # fmt: skip
# Comparatives: with a negator and no "than" ("no longer", "no more") they deny, they do not bound.
_COMPARATIVES: Final = _set("more less fewer greater higher larger longer bigger lower smaller shorter")
# A deadline ("no later than", "no earlier than") bounds a time whose direction depends on what it is counted from
# ("no later than 10 days after signing" is "within 10 days after"): it is read as no direction at all.
_DEADLINE: Final = _set("later earlier sooner")

# Units a figure is counted in (canonical form), scales it is written in, and the time units a rate runs per.
UNITS: Final[dict[str, str]] = {
    **{w: "second" for w in _set("second seconds sec secs")},
    **{w: "minute" for w in _set("minute minutes mins")},
    **{w: "hour" for w in _set("hour hours hr hrs")},
    **{w: "day" for w in _set("day days")},
    **{w: "week" for w in _set("week weeks")},
    **{w: "month" for w in _set("month months")},
    **{w: "year" for w in _set("year years yr yrs")},
    **{w: "decade" for w in _set("decade decades")},
    **{w: "century" for w in _set("century centuries")},
    **{w: "inch" for w in _set("inch inches")},
    **{w: "foot" for w in _set("foot feet ft")},
    **{w: "yard" for w in _set("yard yards")},
    **{w: "mile" for w in _set("mile miles")},
    **{w: "meter" for w in _set("meter meters metre metres")},
    **{w: "centimeter" for w in _set("centimeter centimeters centimetre centimetres cm")},
    **{w: "millimeter" for w in _set("millimeter millimeters millimetre millimetres mm")},
    **{w: "kilometer" for w in _set("kilometer kilometers kilometre kilometres km")},
    **{w: "acre" for w in _set("acre acres")},
    **{w: "hectare" for w in _set("hectare hectares")},
    **{w: "pound" for w in _set("pound pounds lb lbs")},
    **{w: "ounce" for w in _set("ounce ounces oz")},
    **{w: "kilogram" for w in _set("kilogram kilograms kg")},
    **{w: "gram" for w in _set("gram grams")},
    **{w: "ton" for w in _set("ton tons tonne tonnes")},
    **{w: "gallon" for w in _set("gallon gallons")},
    **{w: "liter" for w in _set("liter liters litre litres")},
    **{w: "degree" for w in _set("degree degrees")},
    **{w: "point" for w in _set("point points")},
    # money counted in a currency's own words ("12.5 cents", "454.0p")
    **{w: "dollar" for w in _set("dollar dollars")},
    **{w: "cent" for w in _set("cent cents")},
    **{w: "pence" for w in _set("penny pence p")},
    **{w: "euro" for w in _set("euro euros")},
    **{w: "yen" for w in _set("yen")},
}
_TIME_UNITS: Final = frozenset({"second", "minute", "hour", "day", "week", "month", "year"})
SCALES: Final[dict[str, str]] = {
    **{w: "thousand" for w in _set("thousand thousands k")},
    **{w: "million" for w in _set("million millions m mn")},
    **{w: "billion" for w in _set("billion billions bn b")},
    **{w: "trillion" for w in _set("trillion trillions tn")},
}
_POWERS: Final[dict[int, str]] = {3: "thousand", 6: "million", 9: "billion", 12: "trillion"}
_RATE_ADVERBS: Final[dict[str, str]] = {
    "hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "annually": "year", "yearly": "year",
}  # fmt: skip
_RATE_WORDS: Final = _set("per a an each every")
# A table's declared scale: "(in millions)", "in thousands", "U.S. $ in thousands", "€m", "$'000".
_SCALE_DECLARATION: Final = re.compile(
    r"\bin\s+(thousands|millions|billions)\b|[$€£¥]\s?(m|bn|k)\b|\b(m|bn)\s?[$€£¥]|[$€£¥]\s?'?(000)s?\b", re.I
)
_DECLARED: Final[dict[str, str]] = {
    "thousands": "thousand", "millions": "million", "billions": "billion", "m": "million", "bn": "billion",
    "k": "thousand", "000": "thousand",
}  # fmt: skip

# Cardinal number words; "one" counts as a figure only before a unit ("one meter"), being a pronoun otherwise.
NUMBER_WORDS: Final[dict[str, int]] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}  # fmt: skip
# Words that say where a statement comes from, not what it is about ("according to the table", "the line reads").
ATTRIBUTION: Final = _set(
    "according accordingly state states stated stating say says said saying read reads quote quotes quoted "
    "quoting cite cites cited citation source sources document documents line lines table tables row rows column "
    "columns section sections paragraph paragraphs page pages footnote footnotes excerpt passage passages text "
    "relevant verbatim yes answer answers rationale summary note notes fact facts"
)
# Currency codes written beside a figure ("USD 1.00", "EUR 5"): part of how the figure is written, not a name.
CURRENCY_CODES: Final = _set(
    "usd eur gbp jpy chf cad aud nzd cny rmb inr krw sek nok dkk pln czk huf brl mxn zar sgd hkd"
)
# Quantity words that fill the place of a figure ("a majority of the Percentage Interests").
QUANTITY_WORDS: Final = _set("majority half quarter third all none unanimous plurality most")
# Answer particles: a leading "Yes," or "No." answers the question and is not a negator of what follows.
_PARTICLES: Final = re.compile(r"^\s*(yes|no)\b\s*(?:[,.:;!—–-]+\s*|$)", re.I)
# Clause marks inside a sentence.
_HARD_MARKS: Final = frozenset({";", "—", "–", "|", "?", "!"})  # a colon joins a label to what it labels
# Words that open a subordinate or contrasting clause.
_CLAUSE_OPENERS: Final = _set(
    "but whereas while although though unless except because which who whom whose if when whenever where whether once"
)
_INTRO_OPENERS: Final = _set("if when whenever because although though unless once while since as")
_RELATIVES: Final = _set("that which who")
_SUBJECT_WORDS: Final = _set("i we you he she it they its their our his her there this these those")
_ARTICLES: Final = _set("the a an")
_COORDINATORS: Final = _set("and or but yet so")
# Period labels: a year, or a fiscal period code ("FY19", "Q3", "H1 2020").
_YEAR: Final = re.compile(r"(?:19|20)\d\d")
_PERIOD_CODE: Final = re.compile(r"(?:fy|q[1-4]|h[12])'?\d{0,4}", re.I)
_RANGE_MARKS: Final = _set("to through until till – —")  # "from X to Y", "X – Y"
_WORD: Final = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|[;:,|—–()!?]|(?<!\d)\.(?!\d)")
_VALUE_KINDS: Final = frozenset({"money", "number", "percent", "date", "time", "code"})
_NUMBER_SIGN: Final = re.compile(r"\.?\s*\d")
_CONTRACTIONS: Final[dict[str, str]] = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
# The longest sentence read, in characters: a claim sentence past it is not checked but refused
# (`rules/meaning.py`), a quote sentence past it is read in pieces cut at its commas and semicolons. Every check
# here is linear or quadratic in a sentence's words and figures; this keeps the quadratic ones small.
MAX_SENTENCE_CHARS: Final = 2_000
_MIN_ALIGN: Final = 2  # shared content words that pair two clauses outright (fewer: at least half the claim's)
_BETTER_BY: Final = 0.2  # how much better another quote must match a figure's clause than the figure's own quote

# Function words that still tell one thing from another ("other assets", "only IMFT's assets"): content here.
CONTRASTIVE: Final = _set("other others only another else same different")
# The words that are no content words: function words and every category above.
_NOT_CONTENT: Final = (
    STOPWORDS - CONTRASTIVE
    | ATTRIBUTION
    | CURRENCY_CODES
    | NEGATORS
    | AUXILIARIES
    | frozenset(_POLES)
    | frozenset(UNITS)
    | frozenset(SCALES)
    | frozenset(_RATE_ADVERBS)
    | frozenset(NUMBER_WORDS)
    | PERMISSION
    | PROHIBITION
    | OBLIGATION_MODALS
    | OBLIGATION_WORDS
    | EXEMPTION
)

# --- reading a sentence -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tok:
    """One token: a word (folded), a mark, or a figure (`value` indexes `Sentence.values`)."""

    low: str
    cap: bool = False  # written with a capital or in capitals: part of a name
    value: int = -1
    cell: int = -1  # the table cell it sits in (-1: not a table row)


@dataclass(frozen=True)
class Value:
    key: Key
    kind: str
    text: str
    pos: int  # token index
    unit: str | None = None
    rate: str | None = None
    scale: str | None = None
    label: bool = False  # a period label (a year, "FY19"), not a quantity


@dataclass(frozen=True, eq=False)
class Clause:
    start: int
    end: int
    stems: frozenset[str]  # content words (names excluded), for pairing clauses
    names: frozenset[str]  # words of names
    negative: bool  # an odd number of negators not absorbed by a modality or a direction
    focus: frozenset[str]  # the first content word after each of those negators: what they deny
    modality: frozenset[str]
    directions: frozenset[tuple[str, str]]
    elliptical: bool  # "but not its interior finishes": the verb is the previous clause's
    words: tuple[tuple[str, int], ...]  # (stem, content index) of every content word, names included
    lexicon: frozenset[str]  # the stems of every word but the function words: what a negator may deny


@dataclass(frozen=True, eq=False)
class Sentence:
    text: str
    toks: tuple[Tok, ...]
    values: tuple[Value, ...]
    clauses: tuple[Clause, ...]
    stems: frozenset[str]  # every content stem, names included
    ranges: tuple[tuple[Key, Key], ...]
    row: bool = False  # a table row
    header: bool = False  # a table row of labels only (a column heading)
    particle: str | None = None  # "yes" / "no" leading the sentence

    @cached_property
    def keys(self) -> frozenset[Key]:
        """The figures it can support, read leniently (`tokens.quote_keys`): only a quote's sentence is asked."""
        return frozenset(quote_keys(_digits_spaced(self.text) if self.row else self.text)) | frozenset(
            v.key for v in self.values
        )


def _split_contraction(word: str) -> list[str]:
    w = fold(word)
    if w == "cannot":
        return ["can", "not"]
    if w.endswith("n't") and len(w) > 3:
        base = w[:-3]
        return [_CONTRACTIONS.get(base, base), "not"]
    return [w]


@lru_cache(maxsize=16384)
def _is_content(low: str) -> bool:
    """A word that carries what a clause is about: three letters or more, and in none of the categories above (nor
    a function word, nor a word about evidence)."""
    return len(low) >= 3 and low not in _NOT_CONTENT


@lru_cache(maxsize=16384)
def _is_weighed(low: str) -> bool:
    """A word that says what a figure is about: a content word, or a verb or adjective of change, phase or state
    ("founded", "rose", "closed"), which pairing clauses leaves out only so that flipping it cannot hide it."""
    return _is_content(low) or (low in _POLES and _POLES[low][0] in ("change", "phase", "state"))


def _shouted(text: str) -> bool:
    """Most words in capitals ("THE SOFTWARE IS PROVIDED AS IS"): capitals then mark no names."""
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
        if f.text.strip("0") == "" and text[max(0, f.start - 1) : f.start] in ("'", "’"):
            toks.append(Tok("thousands", cell=cell))  # "$'000": a table's scale, not a figure
            return
        scale = _POWERS.get(getattr(f, "scale", 0))  # "$1.2 billion" is read as one figure with its scale
        values.append(Value(f.key, f.kind, f.text, len(toks), scale=scale))
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
        kept.append(Value(v.key, v.kind, v.text, len(out), v.unit, v.rate, v.scale, v.label))
        out.append(Tok("", value=len(kept) - 1, cell=t.cell))
        echo = (
            i + 2 < len(toks)
            and toks[i + 1].low == "("
            and toks[i + 2].value >= 0
            and values[toks[i + 2].value].key == v.key
        )
        i += (4 if i + 3 < len(toks) and toks[i + 3].low == ")" else 3) if echo else 1
    return out, kept


def _units(toks: Sequence[Tok], values: list[Value]) -> None:
    """Fill each figure's scale ("million"), unit ("days", one adjective allowed between: "72 consecutive hours")
    and rate ("per year", "a month", "annually") from the words right after it."""
    for n, v in enumerate(values):
        i = v.pos + 1
        scale, unit, rate = v.scale, None, None
        if scale is None and i < len(toks) and toks[i].value < 0 and toks[i].low in SCALES:
            scale = SCALES[toks[i].low]
            i += 1
        skipped = 0
        while i < len(toks) and toks[i].value < 0:
            low = toks[i].low
            if low in UNITS:
                unit = UNITS[low]
                i += 1
                break
            if low in _RATE_ADVERBS:
                rate = _RATE_ADVERBS[low]
                break
            if skipped or not _is_content(low):
                break
            skipped += 1
            i += 1
        if rate is None and i + 1 < len(toks) and toks[i].low in _RATE_WORDS:
            per = UNITS.get(toks[i + 1].low)
            rate = per if per in _TIME_UNITS else None
        elif rate is None and i < len(toks) and toks[i].low in _RATE_ADVERBS:
            rate = _RATE_ADVERBS[toks[i].low]
        values[n] = Value(v.key, v.kind, v.text, v.pos, unit, rate, scale, _is_label(v))


def _is_label(v: Value) -> bool:
    if v.kind == "code":
        return bool(_PERIOD_CODE.fullmatch(v.text.replace(" ", "")))
    return v.kind == "number" and bool(_YEAR.fullmatch(v.text.strip()))


def _verbal(t: Tok) -> bool:
    return t.low in _VERB_GROUP or t.low in NEGATORS


def _resumes(toks: Sequence[Tok], start: int, i: int) -> bool:
    """ "Vehicles that do not run or lack current registration | may be towed": after a relative clause with its own
    verb, a modal after a content word starts the main clause again."""
    return (
        toks[start].low in _RELATIVES
        and start + 1 < len(toks)
        and _verbal(toks[start + 1])
        and i > start + 2
        and toks[i].low in _MODAL_VERBS
        and _is_content(toks[i - 1].low)
    )


def _clause_bounds(toks: Sequence[Tok]) -> list[tuple[int, int]]:
    """[start, end) of each clause: split at clause marks, before words that open a clause ("but", "unless",
    "which", "if" ...), before "and"/"or"/"that" when a verb or a subject pronoun follows, at the comma that
    closes an opening subordinate clause ("If X and Y conflict, X controls"), and where a relative clause ends."""
    bounds: list[tuple[int, int]] = []
    start = 0
    intro = False
    for i, t in enumerate(toks):
        low = t.low
        nxt = toks[i + 1] if i + 1 < len(toks) else Tok("")
        initial = low == "." and i > 0 and len(toks[i - 1].low) == 1  # "Blackshear M. Bryan", "U.S."
        if (
            low in _HARD_MARKS
            or (low == "." and not initial)
            or (low == "," and (intro or nxt.low in _COORDINATORS or nxt.low in _CLAUSE_OPENERS))
        ):
            if i > start:
                bounds.append((start, i))
            start, intro = i + 1, False
            continue
        opens = i > start and (
            low in _CLAUSE_OPENERS
            or (low in ("and", "or") and (_verbal(nxt) or nxt.low in _SUBJECT_WORDS))
            or (low == "that" and (_verbal(nxt) or nxt.low in _SUBJECT_WORDS or nxt.low in _ARTICLES))
            or _resumes(toks, start, i)
        )
        if opens:
            bounds.append((start, i))
            start = i
        if i == start:
            intro = low in _INTRO_OPENERS
    if start < len(toks):
        bounds.append((start, len(toks)))
    return [(a, b) for a, b in bounds if any(t.low not in (",", "(", ")") for t in toks[a:b])]


def _directions(low: list[str], used: set[int]) -> set[tuple[str, str]]:
    """The clause's (axis, pole) pairs; the words read (and a negator that flips one) are added to `used`."""
    found: set[tuple[str, str]] = set()
    n = len(low)
    for i in range(n - 1):
        if low[i] == "than" and low[i + 1] == "not":  # "more likely than not": neither a bound nor a negation
            used.update(k for k in range(max(0, i - 2), i + 2) if k == i or k == i + 1 or low[k] in _POLES)
    for i in range(n):
        if i in used:
            continue
        pair = (low[i], low[i + 1]) if i + 1 < n else ("", "")
        if pair in _BOUND_PHRASES:
            found.add(_BOUND_PHRASES[pair])
            used.update((i, i + 1))
            continue
        word = low[i]
        if word not in _POLES or (word == "following" and i > 0 and low[i - 1] in _ARTICLES):
            continue  # "the following assumptions" orders nothing
        if word == "within" and not any(low[k] == "" for k in range(i + 1, min(n, i + 3))):
            continue  # "within the United States": a place, not a bound (a bound has its figure next)
        axis, pole = _POLES[word]
        than = i + 1 < n and low[i + 1] == "than"
        # a negator just before it (auxiliaries between) flips it: "no more than", "did not increase", "not before"
        j = i - 1
        while j >= 0 and low[j] in AUXILIARIES and j not in used:
            j -= 1
        negated = j >= 0 and j not in used and low[j] in NEGATORS and low[j] != "without"
        if negated and than and word in _DEADLINE:
            used.update((j, i, i + 1))
            continue
        if negated and axis == "magnitude" and not than and word in _COMPARATIVES:
            used.add(i)  # "no longer develop", "no more": a negator of time, not a bound; the negator stays
            continue
        if negated:
            pole = _OPPOSITE[pole]
            used.add(j)
        found.add((axis, pole))
        used.add(i)
        if than:
            used.add(i + 1)
    return found


def _deontic_base(low: list[str], i: int) -> str | None:
    w = low[i]
    if w in PERMISSION:
        return "permission"
    if w in PROHIBITION:
        return "prohibition"
    if w in OBLIGATION_MODALS:
        return "obligation_modal"
    if w in OBLIGATION_WORDS:
        return "obligation_word"
    if w in EXEMPTION:
        return "exemption"
    if w in ("has", "have", "had") and i + 1 < len(low) and low[i + 1] == "to":
        return "obligation_word"
    return None


def _deontic(low: list[str], used: set[int]) -> set[str]:
    """The clause's deontic classes, each composed with the negators that deny it (which are then used up)."""
    classes: set[str] = set()
    for i in range(len(low)):
        base = _deontic_base(low, i)
        if base is None or i in used:
            continue
        flips = 0
        j = i - 1
        while j >= 0 and (low[j] in AUXILIARIES or low[j] in _MODAL_VERBS) and j not in used:
            j -= 1
        if j >= 0 and j not in used and low[j] in NEGATORS and low[j] != "without":
            flips += 1
            used.add(j)
        else:
            for k in range(i - 1, -1, -1):  # "No pet may ...": a denied subject denies its modal
                if k not in used and low[k] in _DETERMINER_NEGATORS:
                    flips += 1
                    used.add(k)
                    break
        k = i + 1
        if k < len(low) and low[k] in ("not", "never") and k not in used:
            flips += 1
            used.add(k)
        used.add(i)
        cls = base
        if flips % 2:
            cls = _FLIP[base]
        classes.add("obligation" if cls in ("obligation_modal", "obligation_word") else cls)
    return classes


def _clause(toks: Sequence[Tok], start: int, end: int) -> Clause:
    low = [t.low for t in toks[start:end]]
    used: set[int] = set()
    directions = _directions(low, used)
    modality = _deontic(low, used)
    negative = False
    focus: set[str] = set()
    stems: set[str] = set()
    names: set[str] = set()
    words: list[tuple[str, int]] = []
    ci = 0
    for i, t in enumerate(toks[start:end]):
        if t.value >= 0:
            continue
        if i not in used and t.low in NEGATORS:
            negative = not negative
            for k in range(i + 1, end - start):  # the first word it denies ("no longer jointly": "jointly")
                later = toks[start + k]
                if later.value < 0 and k not in used and _is_lexical(later.low):
                    focus.add(stem(later.low))
                    break
            continue
        if not _is_weighed(t.low):
            continue
        s = stem(t.low)
        if _is_content(t.low):
            (names if t.cap else stems).add(s)
        words.append((s, ci))
        ci += 1
    elliptical = (
        bool(low)
        and (low[0] in NEGATORS or (len(low) > 1 and low[0] in _COORDINATORS and low[1] in NEGATORS))
        and not any(w in AUXILIARIES or w in _MODAL_VERBS for w in low)
    )
    return Clause(
        start,
        end,
        frozenset(stems),
        frozenset(names),
        negative,
        frozenset(focus),
        frozenset(modality),
        frozenset(directions),
        elliptical,
        tuple(words),
        frozenset(stem(t.low) for t in toks[start:end] if t.value < 0 and _is_lexical(t.low)),
    )


@lru_cache(maxsize=16384)
def _is_lexical(low: str) -> bool:
    """Any word but a function word or a negator: what a negator may deny."""
    return len(low) >= 3 and low not in STOPWORDS and low not in AUXILIARIES and low not in NEGATORS


def _ranges(toks: Sequence[Tok], values: Sequence[Value]) -> tuple[tuple[Key, Key], ...]:
    """(first, second) of every "from X to Y" / "X to Y" / "X - Y" with two figures of one kind."""
    found: list[tuple[Key, Key]] = []
    for i, t in enumerate(toks):
        if t.value < 0:
            continue
        a = values[t.value]
        j = i + 1
        while j < len(toks) and toks[j].value < 0 and (toks[j].low in UNITS or toks[j].low in SCALES):
            j += 1
        if j + 1 < len(toks) and toks[j].low in _RANGE_MARKS and toks[j + 1].value >= 0:
            b = values[toks[j + 1].value]
            if a.kind == b.kind and a.key != b.key:
                found.append((a.key, b.key))
    return tuple(found)


def _digits_spaced(cell: str) -> str:
    """ "2 0 1 8" (a heading spaced out by the extraction) is "2018"."""
    return re.sub(r"\b(\d(?: \d){3})\b", lambda m: m.group().replace(" ", ""), cell)


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
        body = _digits_spaced(text)
    toks, values = _tokenize(body, row)
    toks, values = _drop_echoes(toks, values)
    _units(toks, values)
    clauses: list[Clause] = []
    for a, b in [(0, len(toks))] if row else _clause_bounds(toks):
        c = _clause(toks, a, b)
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
        _ranges(toks, values),
        row,
        header,
        particle,
    )


# --- the quotes' sentences ----------------------------------------------------------------------------------------


class QuoteSentence(NamedTuple):
    sentence: Sentence
    source_id: str
    line: int  # the first line of the quote's locator (orders a table's rows)


_TABLE_LINE: Final = re.compile(r"^\s*\|")


def _joined(context: str) -> str:
    """The text at a locator with hard-wrapped lines joined; a table row stays a line of its own."""
    lines: list[str] = []
    for raw in context.split("\n"):
        line = " ".join(raw.split())
        if not line:
            lines.append("")
        elif _TABLE_LINE.match(raw) or not lines or not lines[-1] or _TABLE_LINE.match(lines[-1]):
            lines.append(line)
        else:
            lines[-1] += " " + line
    return "\n".join(lines)


def _pieces(sentence: str) -> list[str]:
    """`sentence`, when longer than `MAX_SENTENCE_CHARS`, cut at its commas and semicolons (at spaces, past that)
    into pieces that are not."""
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return [sentence]
    out: list[str] = []
    current = ""
    for part in re.split(r"(?<=[;,])\s+", sentence):
        while len(part) > MAX_SENTENCE_CHARS:
            cut = part.rfind(" ", 0, MAX_SENTENCE_CHARS)
            cut = cut if cut > 0 else MAX_SENTENCE_CHARS
            out.append(part[:cut])
            part = part[cut:].lstrip()
        if current and len(current) + 1 + len(part) > MAX_SENTENCE_CHARS:
            out.append(current)
            current = part
        else:
            current = f"{current} {part}" if current else part
    if current:
        out.append(current)
    return out


@lru_cache(maxsize=2048)
def quote_sentences(quote: str, context: str) -> tuple[str, ...]:
    """The whole sentences (or table rows) of `context` that the quote overlaps: what the quote says is read in
    them (a sentence past `MAX_SENTENCE_CHARS` in its pieces that the quote overlaps). The quote alone when it
    cannot be found in its context."""
    text = _joined(context or quote)
    needle = " ".join(quote.split())
    flat = text.replace("\n", " ")
    at = flat.find(needle)
    if not needle or at < 0:
        return tuple(p for s in sentences(needle) for p in _pieces(s)) or (needle,)
    end = at + len(needle)
    out: list[str] = []
    line_start = 0
    for line in text.split("\n"):
        local = 0
        for sentence in [line] if _TABLE_LINE.match(line) else sentences(line):
            for piece in _pieces(sentence):
                found = line.find(piece, local)
                if found < 0:
                    continue
                local = found + len(piece)
                begin = line_start + found
                if begin < end and at < begin + len(piece):
                    out.append(piece)
        line_start += len(line) + 1
    return tuple(out) or (needle,)


def _line(locator: str) -> int:
    m = re.search(r"L(\d+)", locator)
    return int(m.group(1)) if m else 0


@lru_cache(maxsize=2048)
def _read_span(span: QuoteSpan) -> tuple[QuoteSentence, ...]:
    line = _line(span.locator)
    return tuple(QuoteSentence(parse(s), span.source_id, line) for s in quote_sentences(span.quote, span.context))


def read_quotes(spans: Iterable[QuoteSpan]) -> tuple[QuoteSentence, ...]:
    """Every sentence the spans rest on, each once."""
    return _read_quotes(tuple(spans))


@lru_cache(maxsize=512)
def _read_quotes(spans: tuple[QuoteSpan, ...]) -> tuple[QuoteSentence, ...]:
    seen: dict[tuple[str, str], QuoteSentence] = {}
    for span in spans:
        for qs in _read_span(span):
            seen.setdefault((qs.source_id, qs.sentence.text), qs)
    return tuple(seen.values())


# --- checks -------------------------------------------------------------------------------------------------------


class Problem(NamedTuple):
    code: Literal["meaning", "unbound"]
    detail: str  # what differs, worded for the drafting model
    quote: str  # the quote sentence it differs from


# Permission and prohibition speak of what may be done, obligation and exemption of what must be: a claim may turn
# one into the other of its pair by negation ("cannot ... without" for "may ... only after"), never across pairs.
_FAMILY: Final[dict[str, str]] = {
    "permission": "may", "prohibition": "may", "obligation": "must", "exemption": "must",
}  # fmt: skip


def _class_negative(c: Clause) -> bool:
    return bool(c.modality) and all(m in _NEGATIVE_CLASSES for m in c.modality)


def _words_of(c: Clause) -> frozenset[str]:
    return c.stems | c.names


def _clause_problem(claim: Clause, quote: Clause) -> str | None:
    """What `claim` says otherwise than `quote`, the clause it pairs with, or None.

    Polarity is composed: a clause's negators, its modality's own polarity (a prohibition or an exemption is
    negative) and a direction turned the other way ("fewer than 12" against "at least 12") together. A claim may
    turn a permission into a prohibition, or an obligation into an exemption, only with a negation to match ("not
    open" is "closed"); it may cross between the two ("must be at least 12" and "fewer than 12 is not allowed")
    only with an inner negation or a turned direction that makes the two say the same."""
    said = {_FAMILY[m] for m in claim.modality}
    quoted = {_FAMILY[m] for m in quote.modality}
    mine = "/".join(sorted(claim.modality)) or "plain statement"
    theirs = "/".join(sorted(quote.modality)) or "plain statement"
    flipped = sorted(
        (axis, pole)
        for axis, pole in claim.directions
        if (axis, _OPPOSITE[pole]) in quote.directions and (axis, pole) not in quote.directions
    )
    claim_class, quote_class = _class_negative(claim), _class_negative(quote)
    turned = (claim.negative != claim_class) != (quote.negative != quote_class)
    if said and quoted and not (said & quoted):
        inner = claim.negative != quote.negative or bool(flipped)
        if not inner or turned == (not flipped):
            return f"states a {mine} where the quote states a {theirs}"
        return None
    if turned:
        if flipped:
            return None  # "not open" is "closed": the negation and the direction turned together
        if claim_class != quote_class:
            return f"states a {mine} where the quote states a {theirs}"
        side, other = (claim, quote) if claim.negative else (quote, claim)
        # a negator counts only against a clause that states what it denies ("brings no clients" against a claim
        # that says nothing of clients)
        if not side.focus or side.focus & other.lexicon:
            return "adds a negation the quote does not state" if side is claim else "drops the quote's negation"
        return None
    if flipped:
        axis, pole = flipped[0]
        return f"says {pole!r} ({axis}) where the quote says {_OPPOSITE[pole]!r}"
    return None


def _in_order(a: Clause, b: Clause) -> int:
    """The longest run of the words two clauses share that both say in the same order ("The Board has discretion
    over dividends" and "The Board does not have discretion over dividends", not "Dividends are declared at the
    discretion of the Board")."""
    shared = _words_of(a) & _words_of(b)
    x = [w for w, _ in a.words if w in shared]
    y = [w for w, _ in b.words if w in shared]
    row = [0] * (len(y) + 1)
    for wx in x:
        previous = 0
        for j, wy in enumerate(y, start=1):
            previous, row[j] = row[j], previous + 1 if wx == wy else max(row[j], row[j - 1])
    return row[-1]


@lru_cache(maxsize=512)
def _prose(quotes: tuple[QuoteSentence, ...]) -> tuple[QuoteSentence, ...]:
    """The quotes' sentences that are not table rows."""
    return tuple(qs for qs in quotes if not qs.sentence.row)


@lru_cache(maxsize=512)
def _clause_index(quotes: tuple[QuoteSentence, ...]) -> dict[str, tuple[tuple[QuoteSentence, Clause], ...]]:
    """Each content word of the quotes' clauses, with the clauses that have it (once per set of quotes: a draft's
    level sentences all rest on the same quotes)."""
    index: dict[str, list[tuple[QuoteSentence, Clause]]] = {}
    for qs in quotes:
        for qc in qs.sentence.clauses:
            for word in qc.stems:
                index.setdefault(word, []).append((qs, qc))
    return {word: tuple(pairs) for word, pairs in index.items()}


def _candidates(
    claim: Clause, quotes: Sequence[QuoteSentence], best_only: bool = True
) -> list[tuple[QuoteSentence, Clause]]:
    return list(_paired(claim, tuple(quotes), best_only))


@lru_cache(maxsize=4096)  # several checks pair the same clause with the same quotes
def _paired(
    claim: Clause, quotes: tuple[QuoteSentence, ...], best_only: bool
) -> tuple[tuple[QuoteSentence, Clause], ...]:
    """The quote clauses `claim` pairs with: those sharing most of its content words (ties all kept; with
    `best_only` False, every clause sharing enough), or none when too few are shared to say the two clauses speak
    of the same thing."""
    index = _clause_index(quotes)
    shared: dict[int, tuple[QuoteSentence, Clause]] = {}
    for word in claim.stems:
        for qs, qc in index.get(word, ()):
            shared.setdefault(id(qc), (qs, qc))
    scored: list[tuple[tuple[int, int, int], QuoteSentence, Clause]] = []
    for qs, qc in shared.values():
        # words shared, then names, then how many of them come in the same order
        score = (len(claim.stems & qc.stems), len(claim.names & qc.names), _in_order(claim, qc))
        if score[0] >= _MIN_ALIGN or 2 * score[0] >= len(claim.stems):
            scored.append((score, qs, qc))
    if not scored:
        return ()
    if not best_only:
        return tuple((qs, qc) for _, qs, qc in scored)
    best = max(score for score, _, _ in scored)
    return tuple((qs, qc) for score, qs, qc in scored if score == best)


def _polarity(claim: Sentence, quotes: Sequence[QuoteSentence], lenient: bool = False) -> list[Problem]:
    """Each clause of `claim` against the quote clause(s) it pairs with: a problem when none agrees."""
    problems: list[Problem] = []
    for c in claim.clauses:
        found = [(qs, _clause_problem(c, qc)) for qs, qc in _candidates(c, quotes, best_only=not lenient)]
        if found and all(p is not None for _, p in found):
            qs, detail = found[0]
            problems.append(Problem("meaning", str(detail), qs.sentence.text))
    return problems


def _ranges_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    problems: list[Problem] = []
    for a, b in claim.ranges:
        reversed_in = [qs for qs in quotes if (b, a) in qs.sentence.ranges]
        if reversed_in and not any((a, b) in qs.sentence.ranges for qs in quotes):
            problems.append(
                Problem("meaning", "gives the two ends of a range in the reverse order", reversed_in[0].sentence.text)
            )
    return problems


def _range_ends(claim: Sentence, quotes: Sequence[QuoteSentence], asked: Sentence | None) -> list[Problem]:
    """A figure said to start something ("born", "began", "opens") must not be the second end of the range its quote
    gives it ("(February 8, 1900 – March 2, 1977)"), nor one said to end something the first. A bare figure
    answers the question, whose words then say what it starts or ends."""
    problems: list[Problem] = []
    for c in claim.clauses:
        inside = [v for v in claim.values if c.start <= v.pos < c.end]
        phases = {pole for axis, pole in c.directions if axis == "phase"}
        if not c.words and asked is not None:
            phases = {pole for qc in asked.clauses for axis, pole in qc.directions if axis == "phase"}
        if len(phases) != 1 or not inside:
            continue
        pole = phases.pop()
        for v in inside:
            for qs in quotes:
                for first, last in qs.sentence.ranges:
                    if (pole == "start" and v.key == last) or (pole == "end" and v.key == first):
                        which = "start" if pole == "start" else "end"
                        other = "end" if pole == "start" else "start"
                        detail = f"gives {v.text} as the {which}, which its quote gives as the {other}"
                        problems.append(Problem("unbound", detail, qs.sentence.text))
    return list(dict.fromkeys(problems))


def _declared_scales(quotes: Sequence[QuoteSentence], source_id: str) -> set[str]:
    scales: set[str] = set()
    for qs in quotes:
        if qs.source_id != source_id:
            continue
        for m in _SCALE_DECLARATION.finditer(qs.sentence.text):
            word = next(g for g in m.groups() if g)
            scales.add(_DECLARED[word.lower()])
    return scales


def _units_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A figure's unit, rate and scale in the claim against those its quotes give the same figure."""
    problems: list[Problem] = []
    for v in claim.values:
        if v.unit is None and v.rate is None and v.scale is None:
            continue
        same = [(qs, q) for qs in quotes for q in qs.sentence.values if q.key == v.key and not q.label]
        if not same:
            continue
        for attr in ("unit", "rate"):
            mine = getattr(v, attr)
            theirs = {getattr(q, attr) for _, q in same} - {None}
            if mine is not None and theirs and mine not in theirs:
                shown = ("per " if attr == "rate" else "") + mine
                quoted = ", ".join(sorted(("per " if attr == "rate" else "") + t for t in theirs))
                qs = next(qs for qs, q in same if getattr(q, attr) is not None)
                detail = f"gives {v.text} in {shown} where the quote gives it in {quoted}"
                problems.append(Problem("unbound", detail, qs.sentence.text))
                break
        else:
            if v.scale is None:
                continue
            stated = {q.scale for _, q in same if q.scale is not None}
            if not stated:
                stated = set().union(*(_declared_scales(quotes, qs.source_id) for qs, _ in same))
            if stated and v.scale not in stated:
                problems.append(
                    Problem(
                        "unbound",
                        f"gives {v.text} in {v.scale}s where the quote gives it in {', '.join(sorted(stated))}s",
                        same[0][0].sentence.text,
                    )
                )
    return problems


# --- which subject a figure belongs to -----------------------------------------------------------------------------

_TABLE_REACH: Final = 15  # lines above a table row where its caption and headings may stand


def _context_stems(qs: QuoteSentence, quotes: Sequence[QuoteSentence]) -> frozenset[str]:
    """What a quote sentence speaks of: its words, and the names of the quoted sentences of its source on the two
    lines before it (the topic it goes on about: "Fort Kent is a town in Maine." before "The population was 4,067").
    A table row speaks through its table: its own cells, and the quoted headings and caption (the sentence ending
    in a colon that introduces it) of the same source above it."""
    if not qs.sentence.row:
        topic = {
            name
            for other in quotes
            if other.source_id == qs.source_id and 0 <= qs.line - other.line <= 2 and other is not qs
            for qc in other.sentence.clauses
            for name in qc.names
        }
        return qs.sentence.stems | topic
    stems_ = set(qs.sentence.stems)
    for other in quotes:
        near = other.source_id == qs.source_id and qs.line - _TABLE_REACH <= other.line < qs.line
        caption = not other.sentence.row and other.sentence.text.rstrip().endswith(":")
        if near and (other.sentence.header or caption):
            stems_ |= other.sentence.stems
    return frozenset(stems_)


@lru_cache(maxsize=512)
def _contexts(quotes: tuple[QuoteSentence, ...]) -> dict[QuoteSentence, frozenset[str]]:
    """`_context_stems` of every sentence of `quotes` that is not a heading (once per set of quotes)."""
    return {qs: _context_stems(qs, quotes) for qs in quotes if not qs.sentence.header}


def _weights(c: Clause, pos: int, toks: Sequence[Tok], exempt: frozenset[str]) -> dict[str, float]:
    """Each content word of clause `c` (a document's or the question's names aside) weighted by its nearness to
    the figure at token `pos`: 1 for the next word on either side, 1/2 for the one after, and so on."""
    before = sum(1 for t in toks[c.start : pos] if t.value < 0 and _is_weighed(t.low))
    out: dict[str, float] = {}
    for s, ci in c.words:
        if s in exempt:
            continue
        distance = before - ci if ci < before else ci - before + 1
        out[s] = max(out.get(s, 0.0), 1.0 / distance)
    return out


def _overlap(weights: dict[str, float], stems_: frozenset[str]) -> float:
    return sum(w for s, w in weights.items() if s in stems_)


def _kind_class(v: Value) -> str:
    """What a figure measures: an amount (money or a count: a table's cells carry no currency), a share, a
    duration, another measure; or a date, a time, a code."""
    if v.kind in ("money", "number"):
        return "duration" if v.unit in _TIME_UNITS else "measure" if v.unit else "amount"
    return v.kind


def _gives_other(s: Sentence, v: Value, said: frozenset[Key]) -> bool:
    """`s` gives a figure of `v`'s kind that the claim does not (or a quantity word in a figure's place)."""
    kind = _kind_class(v)
    if any(_kind_class(q) == kind and q.key not in said and (v.label or not q.label) for q in s.values):
        return True
    return kind in ("amount", "percent") and any(t.low in QUANTITY_WORDS for t in s.toks)


def _binding(claim: Sentence, quotes: Sequence[QuoteSentence], exempt: frozenset[str]) -> list[Problem]:
    problems: list[Problem] = []
    bodies = [qs for qs in quotes if not qs.sentence.header]
    context = _contexts(tuple(quotes))
    said = frozenset(v.key for v in claim.values)
    for c in claim.clauses:
        inside = [v for v in claim.values if c.start <= v.pos < c.end]
        quantities = any(not v.label for v in inside)
        for v in inside:
            if v.label and quantities:
                continue  # a period label of the clause's figures, held by `_labels`
            holders = [qs for qs in bodies if v.key in qs.sentence.keys]
            weights = _weights(c, v.pos, claim.toks, exempt)
            if not holders or not weights:
                continue
            own = {qs: _overlap(weights, context[qs]) for qs in holders}
            best_own = max(own.values())
            holder = next(qs for qs in holders if own[qs] == best_own)
            rivals = [
                qs
                for qs in bodies
                if v.key not in qs.sentence.keys
                and _overlap(weights, context[qs]) > best_own + _BETTER_BY
                # another figure for what the clause says, or, when its own quote shares none of its words,
                # another quote that shares two: not merely another wording of it
                and (_gives_other(qs.sentence, v, said) or (best_own == 0 and len(weights.keys() & context[qs]) >= 2))
            ]
            rivals += [qs for qs in bodies if qs.sentence.row and _better_row(qs, holder, weights, context, v, said)]
            if rivals:
                detail = (
                    f"gives {v.text} to what its quote does not say it is for"
                    if best_own == 0
                    else f"gives {v.text}, but the quote about what it says gives another figure"
                )
                problems.append(Problem("unbound", detail, rivals[0].sentence.text))
                continue
            inner = _inner_rival(holder.sentence, v, weights, said)
            if inner:
                problems.append(Problem("unbound", f"gives {v.text} to another part of its quote sentence", inner))
                continue
            borrowed = _joined_modality(c, holder, bodies, v, said, weights)
            if borrowed:
                problems.append(
                    Problem(
                        "unbound",
                        f"gives {v.text} with a modality or bound that its quote does not give it, but another does",
                        borrowed,
                    )
                )
                continue
            joined = _joined_subject(c, v, weights, holder, context[holder], bodies, claim)
            if joined:
                problems.append(
                    Problem(
                        "unbound",
                        f"joins {v.text}, from one quote, to what another quote says about something else",
                        joined,
                    )
                )
    return problems


def _better_row(
    qs: QuoteSentence,
    holder: QuoteSentence,
    weights: dict[str, float],
    context: dict[QuoteSentence, frozenset[str]],
    v: Value,
    said: frozenset[Key],
) -> bool:
    """Another row of the same table whose label the claim names as fully, with fewer words left over ("Free cash
    flow" against "Free cash flow (pre-spectrum)" for a claim about free cash flow), giving another figure."""
    if not holder.sentence.row or qs is holder or v.key in qs.sentence.keys or qs.source_id != holder.source_id:
        return False
    mine, theirs = _overlap(weights, holder.sentence.stems), _overlap(weights, qs.sentence.stems)
    left_mine = len(holder.sentence.stems - weights.keys())
    left_theirs = len(qs.sentence.stems - weights.keys())
    return theirs > 0 and theirs >= mine and left_theirs < left_mine and _gives_other(qs.sentence, v, said)


@lru_cache(maxsize=2048)
def _segments(s: Sentence) -> tuple[tuple[Value, frozenset[str]], ...]:
    """Each figure of a sentence with the content words from the figure before it to the figure after it. A period
    label right after a figure ("$62.6 million in FY18") belongs to it; any other year stands as a figure ("founded
    in 1856, ... completed in 1951")."""
    figures: list[Value] = []
    for v in s.values:
        attached = v.label and any(not q.label and 0 < v.pos - q.pos <= 2 for q in s.values)
        if not attached:
            figures.append(v)
    out: list[tuple[Value, frozenset[str]]] = []
    for n, v in enumerate(figures):
        start = figures[n - 1].pos + 1 if n else 0
        end = figures[n + 1].pos if n + 1 < len(figures) else len(s.toks)
        words = {stem(t.low) for t in s.toks[start:end] if t.value < 0 and _is_weighed(t.low)}
        out.append((v, frozenset(words)))
    return tuple(out)


def _inner_rival(s: Sentence, v: Value, weights: dict[str, float], said: frozenset[Key]) -> str | None:
    """Within the prose sentence that gives `v`, the words just before `v` say something the claim does not, and
    the words around another figure of its kind (one the claim does not give) match the claim better: "Intel
    provided debt financing of $1.01 billion to IMFT in 2018 and IMFT repaid $316 million to Intel in 2019" gives
    $316 million as repaid, not provided."""
    if s.row:
        return None  # a row's figures are told apart by their columns (`_labels`)
    segments = _segments(s)
    own = [(words, _overlap(weights, words)) for q, words in segments if q.key == v.key]
    if not own or len(segments) < 2:
        return None
    mine = next(q for q, _ in segments if q.key == v.key)
    if not _left_words(s, mine) - weights.keys():
        return None  # nothing of its own between it and the figure before it ("from $62.6 million to $85.1 million")
    best_own = max(score for _, score in own)
    for q, words in segments:
        rival = q.key != v.key and q.key not in said and _kind_class(q) == _kind_class(v)
        if rival and _overlap(weights, words) > best_own + _BETTER_BY:
            return s.text
    return None


def _left_words(s: Sentence, v: Value) -> frozenset[str]:
    """The content words (names aside) between figure `v` and the figure before it."""
    previous = max((q.pos for q, _ in _segments(s) if q.pos < v.pos), default=-1)
    return frozenset(
        stem(t.low) for t in s.toks[previous + 1 : v.pos] if t.value < 0 and not t.cap and _is_weighed(t.low)
    )


def _joined_modality(
    c: Clause,
    holder: QuoteSentence,
    bodies: Sequence[QuoteSentence],
    v: Value,
    said: frozenset[Key],
    weights: dict[str, float],
) -> str | None:
    """The clause states a modality or a bound ("must be not less than") that the sentence giving `v` does not,
    while another quote sentence, giving another figure of `v`'s kind, does: the figure of one statement is put
    under the rule of another ("must be not less than 18.6%" from "shall be not less than 15%" and "is 18.6%")."""
    modality = {m for qc in holder.sentence.clauses for m in qc.modality}
    directions = {d for qc in holder.sentence.clauses for d in qc.directions}
    missing_modality, missing_directions = c.modality - modality, c.directions - directions
    if not missing_modality and not missing_directions:
        return None
    own = len(weights.keys() & holder.sentence.stems)
    for qs in bodies:
        if qs is holder or v.key in qs.sentence.keys or not _gives_other(qs.sentence, v, said):
            continue
        shared = len(weights.keys() & qs.sentence.stems)
        if shared < _MIN_ALIGN or shared < own:
            continue  # another statement, not another figure for this one
        their_modality = {m for qc in qs.sentence.clauses for m in qc.modality}
        their_directions = {d for qc in qs.sentence.clauses for d in qc.directions}
        if missing_modality <= their_modality and missing_directions <= their_directions:
            return qs.sentence.text
    return None


_CONTINUING: Final = _set("we it they this these he she its their our there such")  # a sentence that goes on


def _joined_subject(
    c: Clause,
    v: Value,
    weights: dict[str, float],
    holder: QuoteSentence,
    holder_stems: frozenset[str],
    bodies: Sequence[QuoteSentence],
    claim: Sentence,
) -> str | None:
    """The clause's words that the figure's own sentence lacks come from another quote sentence that does not
    speak of the figure's subject (the clause's words before the figure that its sentence has). Not when the two
    quotes share a figure, or the other one goes straight on from the first ("We start at 9:00 a.m. ..."), or both
    sentences come from one quoted passage."""
    before = sum(1 for t in claim.toks[c.start : v.pos] if t.value < 0 and _is_weighed(t.low))
    subject = {s for s, ci in c.words if ci < before and s in holder_stems and s in weights}
    rest = {s for s in weights if s not in holder_stems}
    if not subject or not rest:
        return None
    best: tuple[int, QuoteSentence | None] = (0, None)
    for qs in bodies:
        if qs is holder or qs.sentence.row:
            continue
        n = len(rest & qs.sentence.stems)
        if n > best[0]:
            best = (n, qs)
    other = best[1]
    named = c.names | {n for qc in holder.sentence.clauses for n in qc.names}
    if other is None or subject <= other.sentence.stems or subject & named & other.sentence.stems:
        return None  # the other sentence speaks of the same subject, or names the same one ("Deloitte")
    drawn = rest & other.sentence.stems
    if len(drawn) < _MIN_ALIGN and not drawn & c.names:
        return None  # one common word ("run") is no sign of another statement; one name is
    shared_figure = {q.key for q in other.sentence.values} & {q.key for q in holder.sentence.values}
    earlier, later = (holder, other) if holder.line <= other.line else (other, holder)
    first = next((t.low for t in later.sentence.toks if t.low[:1].isalpha()), "")
    goes_on = other.source_id == holder.source_id and 0 < later.line - earlier.line <= 2 and first in _CONTINUING
    one_passage = other.source_id == holder.source_id and other.line == holder.line  # quoted together, one passage
    if shared_figure or goes_on or one_passage:
        return None
    return other.sentence.text


def _attached(s: Sentence) -> dict[Key, Key]:
    """The figures of a prose sentence that carry their own period label: "(2018: $1.8 million)" (a label, a colon,
    the figure) or "$62.6 million in FY18" (a label right after the figure)."""
    out: dict[Key, Key] = {}
    forward: set[int] = set()
    for lab in s.values:
        if lab.label and lab.pos + 2 < len(s.toks) and s.toks[lab.pos + 1].low == ":":
            after = s.toks[lab.pos + 2]
            if after.value >= 0 and not s.values[after.value].label:
                out[s.values[after.value].key] = lab.key
                forward.add(lab.pos)
    for lab in s.values:
        if lab.label and lab.pos not in forward:
            for x in s.values:
                if not x.label and 0 < lab.pos - x.pos <= 2 and x.key not in out:
                    out[x.key] = lab.key
    return out


def _quote_labels(qs: QuoteSentence, v: Value, quotes: Sequence[QuoteSentence]) -> frozenset[Key]:
    """The period labels the quote gives figure `v` (empty: none known): in a table, the period its row is labelled
    with ("| 2021 | 4,870 |") or the headings of the columns it stands in; in a sentence, the label it carries
    (`_attached`), or, with as many labels as figures and none attached, the label in the same place of the order."""
    s = qs.sentence
    if s.row:
        row_label = next((x.key for x in s.values if x.label and s.toks[x.pos].cell == 1), None)
        if row_label is not None and any(q.key == v.key and not q.label for q in s.values):
            return frozenset({row_label})
        cells = {s.toks[q.pos].cell for q in s.values if q.key == v.key and not q.label}
        headers = sorted(
            (h for h in quotes if h.source_id == qs.source_id and h.sentence.header and h.line < qs.line),
            key=lambda h: -h.line,
        )
        found: set[Key] = set()
        for cell in cells:
            for h in headers:
                heading = [hv.key for hv in h.sentence.values if hv.label and h.sentence.toks[hv.pos].cell == cell]
                if heading:
                    found.add(heading[0])
                    break
        return frozenset(found)
    attached = _attached(s)
    if v.key in attached:
        return frozenset({attached[v.key]})
    labels = [x for x in s.values if x.label]
    figures = [x for x in s.values if not x.label and _kind_class(x) == _kind_class(v)]
    if attached or len(labels) < 2 or len(labels) != len(figures):
        return frozenset()
    return frozenset(labels[n].key for n, x in enumerate(figures) if x.key == v.key)


def _labels(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A figure's period label in the claim must be one its quote gives it: paired in order when the clause gives
    as many labels as placed figures, or, for a clause's one label, the figure nearest to it."""
    problems: list[Problem] = []
    for c in claim.clauses:
        inside = [v for v in claim.values if c.start <= v.pos < c.end]
        labels = [v for v in inside if v.label]
        figures = [v for v in inside if not v.label and v.kind in ("money", "number", "percent")]
        if not labels:
            continue
        known: list[tuple[Value, frozenset[Key], QuoteSentence]] = []
        for v in figures:
            for qs in quotes:
                quoted = frozenset() if qs.sentence.header else _quote_labels(qs, v, quotes)
                if quoted:
                    known.append((v, quoted, qs))
                    break
        if len(known) == len(labels) > 1 or (len(known) == len(labels) == 1):
            pairs = [(k, label) for k, label in zip(known, labels, strict=True)]
        elif len(labels) == 1 and known:
            # one label among several figures labels the figure nearest to it ("the 2019 revenue of $264.0 million,
            # up from $250.5 million")
            nearest = min(known, key=lambda k: abs(k[0].pos - labels[0].pos))
            pairs = [(nearest, labels[0])]
        else:
            continue
        for (v, quoted, qs), label in pairs:
            if label.key not in quoted:
                given = ", ".join(sorted(str(k[1]) for k in quoted))
                detail = f"gives {v.text} for {label.text}, where the quote gives it for {given}"
                problems.append(Problem("unbound", detail, qs.sentence.text))
    return problems


def _label_figure(qs: QuoteSentence, label: Key, quotes: Sequence[QuoteSentence]) -> Value | None:
    """The figure the quote gives for period `label`: in its column (a table row), or in the same place of the
    order (a sentence with as many labels as figures)."""
    s = qs.sentence
    figures = [x for x in s.values if not x.label and x.kind in ("money", "number", "percent")]
    if s.row:
        for h in sorted(
            (h for h in quotes if h.source_id == qs.source_id and h.sentence.header and h.line < qs.line),
            key=lambda h: -h.line,
        ):
            cells = [h.sentence.toks[hv.pos].cell for hv in h.sentence.values if hv.label and hv.key == label]
            if cells:
                return next((x for x in figures if s.toks[x.pos].cell == cells[0]), None)
        return None
    labels = [x.key for x in s.values if x.label]
    if len(labels) < 2 or len(labels) != len(figures) or labels.count(label) != 1:
        return None
    return figures[labels.index(label)]


def _negative_figure(s: Sentence, v: Value) -> bool:
    """A figure written negative: with a minus sign, or in brackets as accounts write losses ("(19,911)")."""
    number = v.key[1]
    bracketed = v.pos > 0 and s.toks[v.pos - 1].low == "("
    return bracketed or (isinstance(number, Decimal) and number < 0)


def _trends(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A clause saying a figure rose or fell "from" one period "to" another must agree with the quoted figures of
    those periods for its subject (the quote row or sentence sharing most of its words). Figures written negative
    are left alone: whether a loss "grew" speaks of its size or its sign is not written down."""
    problems: list[Problem] = []
    for c in claim.clauses:
        poles = {pole for axis, pole in c.directions if axis == "change"}
        if len(poles) != 1:
            continue
        pole = poles.pop()
        inside = {v.key: v for v in claim.values if c.start <= v.pos < c.end}
        for a, b in claim.ranges:  # "fell from 56.7 to 44.1": the figures themselves say which way
            x, y = inside.get(a), inside.get(b)
            if x is None or y is None or x.label or y.label or _kind_class(x) != _kind_class(y):
                continue
            if isinstance(a[1], Decimal) and isinstance(b[1], Decimal) and a[1] != b[1]:
                moved = "up" if b[1] > a[1] else "down"
                if moved != pole:
                    problems.append(Problem("meaning", f"says it went {pole} from {x.text} to {y.text}", claim.text))
        labels = {key for key, v in inside.items() if v.label}
        spans = [(a, b) for a, b in claim.ranges if a in labels and b in labels]
        if not spans:
            continue
        first, last = spans[0]
        words = _words_of(c)
        ranked = sorted(
            (qs for qs in quotes if not qs.sentence.header),
            key=lambda qs: -len(words & qs.sentence.stems),
        )
        for qs in ranked[:1]:
            if not words & qs.sentence.stems:
                continue
            early, late = _label_figure(qs, first, quotes), _label_figure(qs, last, quotes)
            if early is None or late is None:
                continue
            if _negative_figure(qs.sentence, early) or _negative_figure(qs.sentence, late):
                continue
            was, became = early.key[1], late.key[1]
            if not isinstance(was, Decimal) or not isinstance(became, Decimal) or was == became:
                continue
            moved = "up" if became > was else "down"
            if moved != pole:
                problems.append(
                    Problem("meaning", f"says it went {pole} where the quoted figures went {moved}", qs.sentence.text)
                )
    return problems


def _series(qs: QuoteSentence, quotes: Sequence[QuoteSentence], kind: str) -> list[Value]:
    """The figures of a table row that stand under a period heading (all of its figures of `kind` when no
    heading is quoted)."""
    s = qs.sentence
    figures = [v for v in s.values if not v.label and _kind_class(v) == kind]
    headed: set[int] = set()
    for h in quotes:
        if h.source_id == qs.source_id and h.sentence.header and h.line < qs.line:
            headed |= {h.sentence.toks[hv.pos].cell for hv in h.sentence.values if hv.label}
    return [v for v in figures if s.toks[v.pos].cell in headed] if headed else figures


def _extremes(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A clause calling a figure (or a period's figure) the largest or the smallest must be right about the quoted
    row it comes from."""
    problems: list[Problem] = []
    rows = [qs for qs in quotes if qs.sentence.row and not qs.sentence.header]
    for c in claim.clauses:
        poles = {pole for axis, pole in c.directions if axis == "extreme"}
        if len(poles) != 1 or not rows:
            continue
        pole = poles.pop()
        inside = [v for v in claim.values if c.start <= v.pos < c.end]
        words = _words_of(c)
        contexts = _contexts(tuple(quotes))
        row = max(rows, key=lambda qs: len(words & contexts[qs]))
        if not words & row.sentence.stems:
            continue
        stated = next((q for v in inside if not v.label for q in row.sentence.values if q.key == v.key), None)
        if stated is None:
            label = next((v.key for v in inside if v.label), None)
            stated = _label_figure(row, label, quotes) if label is not None else None
        if stated is None:
            continue
        series = _series(row, quotes, _kind_class(stated))
        if len(series) < 2 or stated not in series or any(_negative_figure(row.sentence, v) for v in series):
            continue
        numbers = [v.key[1] for v in series if isinstance(v.key[1], Decimal)]
        mine = stated.key[1]
        if not isinstance(mine, Decimal) or len(numbers) != len(series):
            continue
        if (pole == "max" and mine < max(numbers)) or (pole == "min" and mine > min(numbers)):
            which = "largest" if pole == "max" else "smallest"
            detail = f"calls {stated.text} the {which}, which its row does not"
            problems.append(Problem("meaning", detail, row.sentence.text))
    return problems


def _joined_frames(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A clause that says of one thing what a parallel quote says of another: it pairs best with sentence T, takes
    its other words from sentence S, uses words S and T share (their common frame), and leaves out a word only T
    has, the one that told T's subject apart ("For domestic plans, the discount rate is determined by comparison
    against country specific AA corporate indices" from the domestic sentence and the international one)."""
    problems: list[Problem] = []
    prose = _prose(tuple(quotes))
    if len(prose) < 2:
        return problems
    for c in claim.clauses:
        words = _words_of(c)
        pairs = _candidates(c, prose)
        if len({qs for qs, _ in pairs}) != 1:
            continue
        t = pairs[0][0]
        borrowed = words - t.sentence.stems
        if not borrowed:
            continue
        for s in prose:
            source = max(s.sentence.clauses, key=lambda qc: len(borrowed & _words_of(qc)), default=None)
            if s is t or source is None or not borrowed & _words_of(source):
                continue
            names = {n for qc in t.sentence.clauses for n in qc.names}
            frame = (s.sentence.stems & t.sentence.stems & words) - names  # their frame: more than a name
            own = (words & t.sentence.stems) - s.sentence.stems
            dropped = t.sentence.stems - words - _words_of(source) - names  # names elaborate, they do not qualify
            # T is said nearly whole: all but the few words that told its subject apart (not a list drawn from
            # several sentences, which leaves most of each out)
            if frame and own and dropped and 2 * len(dropped) <= len(words & t.sentence.stems):
                problems.append(
                    Problem(
                        "unbound",
                        f"says of {' '.join(sorted(borrowed & s.sentence.stems))!r} what its quote says of "
                        f"{' '.join(sorted(dropped))!r}",
                        t.sentence.text,
                    )
                )
                break
    return problems


# --- names --------------------------------------------------------------------------------------------------------

_CALENDAR: Final = _set(
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday"
)  # capitalized, but parts of dates, not names


def _name_runs(s: Sentence, c: Clause) -> list[tuple[frozenset[str], bool]]:
    """(the words of each name of clause `c`, whether it is the clause's subject: the names before its first other
    content word, the first one and those joined to it by "and" / "or"). A name is a run of capitalized words; a
    single letter ("M.") does not break it."""
    runs: list[tuple[frozenset[str], bool]] = []
    run: set[str] = set()
    leading = True
    joined = True  # the next name is joined to the subject (at the start, or after "and" / "or")
    for t in s.toks[c.start : c.end]:
        name = t.cap and t.value < 0 and _is_content(t.low) and t.low not in _CALENDAR
        if name:
            run.add(stem(t.low))
            continue
        if run and (len(t.low) == 1 or t.low == "."):
            continue
        if run:
            runs.append((frozenset(run), leading and joined))
            run = set()
            joined = False
        if t.low in ("and", "or"):
            joined = joined or bool(runs)
        elif t.low not in _ARTICLES:
            joined = joined and not runs
        if t.value < 0 and _is_content(t.low):
            leading = False
    if run:
        runs.append((frozenset(run), leading and joined))
    return runs


def _antecedents(qs: QuoteSentence, quotes: Sequence[QuoteSentence]) -> list[QuoteSentence]:
    """The sentences a pronoun-led quote sentence goes on from ("It was built in 1921" after "The Grand Theatre is
    a historic theatre in Lorain, Ohio."): those of the same source on its line or the two lines before it, quoted
    before it."""
    first = next((t.low for t in qs.sentence.toks if t.low[:1].isalpha()), "")
    if first not in _CONTINUING:
        return []
    out: list[QuoteSentence] = []
    for other in quotes:
        if other is qs:
            break
        if other.source_id == qs.source_id and 0 <= qs.line - other.line <= 2:
            out.append(other)
    return out


def _names(claim: Sentence, quotes: Sequence[QuoteSentence], exempt: frozenset[str]) -> list[Problem]:
    """A name in a claim clause that its quotes use must be in the quote sentence the clause pairs with (or that
    gives one of its figures, or that such a sentence goes on from: "It was built in 1921"). A name the clause puts
    first (its subject) must be in the quote clause it pairs with when that clause puts a name first too ("The
    Bylaws control" against "If this Declaration and the Bylaws conflict, this Declaration controls"; "Each Owner
    maintains the roofs" against "The Association maintains ... the roofs")."""
    problems: list[Problem] = []
    prose = _prose(tuple(quotes))
    if not prose:
        return problems
    for c in claim.clauses:
        runs = _name_runs(claim, c)
        pairs = [(qs, qc) for qs, qc in _candidates(c, quotes) if not qs.sentence.row]
        held = [qs for qs, _ in pairs]
        held += [qs for v in claim.values if c.start <= v.pos < c.end for qs in prose if v.key in qs.sentence.keys]
        homes = {qs.sentence.text for home in held for qs in (home, *_antecedents(home, quotes))}
        if not runs or not homes:
            continue
        for phrase, lead in runs:
            # a document's or the question's name ("The Declaration states: ...") is a subject only where the quote
            # sentence names it too
            if (
                lead
                and pairs
                and all(
                    _role_taken(phrase, qs.sentence, qc) and (not phrase <= exempt or phrase & qs.sentence.stems)
                    for qs, qc in pairs
                )
            ):
                problems.append(
                    Problem(
                        "meaning",
                        f"makes {' '.join(sorted(phrase))!r} the subject where its quote makes another",
                        pairs[0][0].sentence.text,
                    )
                )
                break
            used = [qs for qs in prose if phrase & qs.sentence.stems]
            if used and not phrase <= exempt and not any(qs.sentence.text in homes for qs in used):
                problems.append(
                    Problem(
                        "unbound",
                        f"names {' '.join(sorted(phrase))!r}, which the quote it rests on does not",
                        used[0].sentence.text,
                    )
                )
                break
    return problems


def _role_taken(phrase: frozenset[str], s: Sentence, qc: Clause) -> bool:
    """The quote clause puts a name first too, and it is not the claim's."""
    if phrase & _words_of(qc):
        return False
    subjects = [p for p, lead in _name_runs(s, qc) if lead]
    return any(not (p & phrase) for p in subjects)


# --- yes / no ---------------------------------------------------------------------------------------------------

_YES_NO_QUESTION: Final = re.compile(
    r"^\s*(?:is|are|was|were|am|can|could|may|might|must|shall|should|will|would|do|does|did|has|have|had)\b", re.I
)


def _answered(question: str, particle: str) -> Sentence | None:
    """The clauses a bare "Yes" / "No" states: the question's own, affirmed, or with their modality, direction or
    polarity reversed ("Are pets allowed?" "No." states a prohibition). A subordinate clause ("... if it brings
    clients?") is a condition of the question and is not reversed."""
    if not _YES_NO_QUESTION.match(question):
        return None
    asked = parse(question.strip().rstrip("?"))
    if particle == "yes":
        return asked
    clauses = []
    for c in asked.clauses:
        first = asked.toks[c.start].low
        if first in _CLAUSE_OPENERS or first in _INTRO_OPENERS:
            clauses.append(c)
        elif c.modality:
            clauses.append(replace(c, modality=frozenset(_NEGATED_CLASS[m] for m in c.modality)))
        elif c.directions:
            clauses.append(replace(c, directions=frozenset((a, _OPPOSITE[p]) for a, p in c.directions)))
        else:
            clauses.append(replace(c, negative=not c.negative))
    return replace(asked, clauses=tuple(clauses))


_NEGATED_CLASS: Final[dict[str, str]] = {
    "permission": "prohibition",
    "prohibition": "permission",
    "obligation": "exemption",
    "exemption": "obligation",
}


# --- the entry point ----------------------------------------------------------------------------------------------


def problems(
    claim: str,
    quotes: Sequence[QuoteSpan],
    question: str | None = None,
    names: Iterable[str] = (),
    documents: Iterable[str] = (),
) -> list[Problem]:
    """What `claim` (one sentence) says otherwise than the quote sentences it rests on; empty when it keeps their
    meaning. `question` gives a bare "Yes" / "No" (or a bare figure) its clause. `names` may stand anywhere (they
    name a document or the question's subject: a cited source's title and id words, the question's capitalized
    words); `documents` are the words of the cited sources' ids, which refer to a document ("$325.00 (budget)"),
    not to a subject."""
    return list(_problems(claim, tuple(quotes), question, _stems(frozenset(names)), _stems(frozenset(documents))))


@lru_cache(maxsize=64)
def _stems(words: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w) for w in words)


_QUOTED: Final = re.compile(r"[\"“”]([^\"“”]{12,})[\"“”]")
_SPACES: Final = re.compile(r"\s+")


def _verbatim(claim: str, read: tuple[QuoteSentence, ...], exempt: frozenset[str]) -> bool:
    """The claim says nothing of its own: it is one of its quote sentences word for word, or it quotes whole quote
    sentences and says only where they come from around them ('According to the Declaration, "..."'). Such a claim
    keeps its quote's meaning by construction and is not read further. (A part of a sentence is read: "pet may be
    kept for breeding" is word for word in "No pet may be kept for breeding".)"""
    whole = _whole_sentences(read)

    def found(part: str) -> bool:
        return _SPACES.sub(" ", part).strip(" .,;:") in whole

    if found(claim):
        return True
    quoted = _QUOTED.findall(claim)
    if not quoted or not all(found(q) for q in quoted):
        return False
    rest = _QUOTED.sub(" ", claim)
    return all(
        fold(w) in STOPWORDS or fold(w) in ATTRIBUTION or stem(w) in exempt for w in re.findall(r"[^\W\d_]+", rest)
    )


@lru_cache(maxsize=512)
def _whole_sentences(read: tuple[QuoteSentence, ...]) -> frozenset[str]:
    return frozenset(qs.sentence.text.strip(" .,;:") for qs in read)


@lru_cache(maxsize=1024)  # a draft repeats its sentences (level1, the answer, a fact's text), and repairs re-send them
def _problems(
    claim: str, quotes: tuple[QuoteSpan, ...], question: str | None, exempt: frozenset[str], refs: frozenset[str]
) -> tuple[Problem, ...]:
    read = read_quotes(quotes)
    if not read or _verbatim(claim, read, exempt):
        return ()
    s = parse(claim)
    asked = parse(question) if question else None
    found = _polarity(s, read) + _ranges_problems(s, read) + _range_ends(s, read, asked) + _units_problems(s, read)
    found += _binding(s, read, refs) + _labels(s, read) + _trends(s, read) + _extremes(s, read)
    found += _joined_frames(s, read)
    found += _names(s, read, exempt)
    if s.particle is not None and question:
        answered = _answered(question, s.particle)
        if answered is not None:
            found += _polarity(answered, read, lenient=True)
    return tuple(dict.fromkeys(found))


__all__ = ["Problem", "parse", "problems", "quote_sentences", "read_quotes"]
