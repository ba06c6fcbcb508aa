"""What a question asks: the kind of answer it expects, the words that name its subject, the document it names,
whether it asks for a derived figure, and the values it takes for granted.

The answerhood rule (`rules/answerhood.py`) holds a draft's answer to these; the categories are in
`question_words.py` and the documents a question names in `question_documents.py`. Everything here is read from the
question's own words with general English categories (question words, auxiliaries, time units, document types,
arithmetic relations), never from a list of known questions, so it reads a question nobody here has seen the same
way as the ones it was measured on. When the question's form is not recognized the expectation is `open`, and the
rule checks only what does not depend on the form (subject, document, derived figure, presupposed values).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Final, Literal

from quotebound.agent.gate.question_documents import document_phrases, document_titles, named_sources
from quotebound.agent.gate.question_words import (
    AUXILIARIES,
    COPULAS,
    DOCUMENT_TYPES,
    FAMILIES,
    FRACTIONS,
    FREQUENCY,
    LOCATIVE,
    MONTHS,
    NIL,
    NUMBER_TENS,
    NUMBER_UNITS,
    POLARITY,
    TEMPORAL,
    TIME_UNITS,
    WEEKDAYS,
    Family,
    number_words,
)
from quotebound.agent.gate.tokens import Key, extract_tokens
from quotebound.agent.gate.vocabulary import EVIDENCE_WORDS, STOPWORDS, WORD, fold, stem

Expects = Literal[
    "entity",  # who: a name or an agent ("Priya Raman", "the Owner")
    "date",  # when: a date, time, year, duration, weekday or month, or the condition/event it happens on
    "duration",  # how long / over what period: a number or number word ("seven years", "one meeting")
    "frequency",  # how often: a number, "every", "once", "annually" ...
    "count",  # how many, how much + noun, the number/amount/total of: a figure (or "none", "not material")
    "amount",  # how much + verb ("How much is the late charge?"): a figure that is not a stretch of time
    "percent",  # what percentage: a percentage, percentage points, or a fraction word
    "year",  # which year: a year
    "section",  # which section/article/clause: a section token or a structure word with its number
    "place",  # where: a place name or a locative phrase
    "polarity",  # yes/no: yes, no, a polarity or modal word, or the question's own statement
    "version",  # which/what version: a version number, code or relative version bound to the asked thing
    "open",  # what / which / how / why ...: no form is required
]

# The family words a question asks with (the rest, "up", "overall", "exceed", are only read in quotes).
_ASKED: Final = frozenset(
    """change changes changed increase increases increased decrease decreases decreased rise rose fall fell drop
    dropped grow grew growth decline declined difference differ total sum combined together altogether aggregate
    average median ratio proportion""".split()
)
# Words that signal several items, so a total of them is computed, not read ("all Douglas units", "both years").
_SEVERAL: Final = frozenset("all each every both combined together altogether".split())
# A question about a cause asks for a reason even when it names a change ("What was the reason for the increase").
_CAUSAL: Final = frozenset(
    "why reason reasons cause causes caused explain explains explanation driven drove factor factors".split()
)
_CAUSAL_END: Final = re.compile(r"\b(?:due|attributable|attributed|owing)\s+to\s*\??\s*$")
_SHARE_OF: Final = re.compile(
    r"\b(?:percentage|percent)\s+(?:of|constitution)\b|\bas\s+a\s+(?:percentage|percent|share)\b"
)
_YEARS_JOINED: Final = re.compile(r"\b(?:19|20)\d\d\s*,?\s+and\s+(?:fiscal\s+|fy\s*)?(?:19|20)\d\d\b")
_COMPARATIVES: Final = (
    "more less fewer higher lower larger smaller greater bigger longer shorter older younger earlier later"
)
_PERIODS: Final = {
    "year": "year", "years": "year", "annum": "year", "annual": "year", "annually": "year", "yearly": "year",
    "month": "month", "months": "month", "monthly": "month",
    "week": "week", "weeks": "week", "weekly": "week",
    "day": "day", "days": "day", "daily": "day",
    "hour": "hour", "hours": "hour", "hourly": "hour",
    "quarter": "quarter", "quarterly": "quarter",
}  # fmt: skip
_RATE_RE: Final = re.compile(
    r"\b(?:per|a|an|each|every)\s+(year|annum|month|week|day|hour|quarter)\b"
    r"|\b(annual|annually|yearly|monthly|weekly|daily|hourly|quarterly)\b",
    re.I,
)

# --- the question's form -------------------------------------------------------------------------------------------

_WH: Final = r"(?:who|whom|whose|what|which|when|where|why|how)"
_PREP: Final = r"(?:in|on|at|by|for|from|over|during|within|under|to|of|after|before|since|until|with|as\s+of)"
_ASK_RE: Final = re.compile(rf"^(?:(?:and|but|so|then|also)\s+)?(?:{_PREP}\s+)?{_WH}\b|^(?:{'|'.join(AUXILIARIES)})\b")
_CLAUSE_SPLIT: Final = re.compile(r"[,;:]\s+|\s+[-–—]\s+")
_AUX_ALT: Final = "|".join(sorted(AUXILIARIES, key=len, reverse=True))
_WHAT_IS_THE: Final = r"^what\s+(?:is|was|are|were)\s+(?:the|an?)\s+"
_KIND_PATTERNS: Final[tuple[tuple[Expects, str], ...]] = (
    ("version", rf"^(?:{_PREP}\s+)?(?:which|what)\s+(?:[\w.+-]+\s+)?versions?\b"),  # "which bc version"
    ("year", rf"^(?:{_PREP}\s+)?(?:which|what)\s+(?:(?:fiscal\s+|calendar\s+|financial\s+)?years?|fys?)\b"),
    ("date", rf"^(?:{_PREP}\s+)?(?:which|what)\s+(?:date|day|month|time)s?\b"),
    (
        "section",
        r"^(?:in\s+|under\s+)?(?:which|what)\s+"
        r"(?:section|article|clause|paragraph|chapter|subsection|exhibit|appendix|schedule)s?\b",
    ),
    ("duration", r"^(?:for\s+)?how\s+long\b|^(?:over|for|during|within)\s+what\s+(?:period|length|duration|time)\b"),
    ("frequency", r"^how\s+(?:often|frequently)\b"),
    ("count", r"^(?:by\s+)?how\s+many\b"),
    ("amount", rf"^(?:by\s+)?how\s+much\s+(?:(?:{_COMPARATIVES.replace(' ', '|')})\s+)?(?:{_AUX_ALT})\b"),
    ("count", r"^(?:by\s+)?how\s+much\b"),
    ("percent", r"^(?:what|which)\s+(?:percentage|percent)\b"),
    (
        "percent",
        r"^what\s+(?:is|was|are|were)\s+the\b[^?]*?\b(?:percentage|percent)\s+"
        r"(?:change|increase|decrease|growth|decline|difference|of)\b",
    ),
    ("count", r"^(?:what|which)\s+(?:share|proportion|fraction|portion)\b"),
    (
        "count",
        _WHAT_IS_THE
        + r"(?:(?!(?:of|in|for|from|on|at|to|and|or|by|with)\b)[\w/()'’-]+\s+){0,3}"  # modifiers: "the 2019 notional"
        + r"(?:amount|number|count|quantity|total|sum|average|ratio|population)\b",
    ),
    ("date", r"^(?:by\s+|until\s+|since\s+)?when\b|^(?:on|by)\s+what\s+(?:date|day)\b"),
    ("entity", r"^(?:(?:by|to|from|with|for)\s+)?(?:who|whom|whose)\b"),
    (
        "place",
        r"^where\b|^(?:in|at)\s+what\s+(?:place|location|city|country|state|town|region|building|room|address)\b",
    ),
    ("polarity", rf"^(?:{_AUX_ALT})\b"),
)
_KINDS: Final[tuple[tuple[Expects, re.Pattern[str]], ...]] = tuple(
    (kind, re.compile(pattern)) for kind, pattern in _KIND_PATTERNS
)
# Leading words of a question that are part of its form, not of its subject.
_FORM_WORDS: Final = frozenset(
    """what which who whom whose when where why how much many long often frequently please tell know happen
    happens happened kind type sort amount number count quantity percentage percent share proportion fraction
    portion year years date day time period length duration section article clause paragraph chapter""".split()
)


@dataclass(frozen=True)
class Derivation:
    """An arithmetic relation the question asks for: its word, its family, and for a total of named items ("the
    operating budget and the reserve contribution add up to") the stems of each item, all of which a quote stating
    that total must name."""

    word: str
    family: Family
    parts: tuple[frozenset[str], ...] = ()


@dataclass(frozen=True)
class Question:
    """What a question asks (see the module docstring)."""

    text: str
    expects: Expects
    subject: frozenset[str]  # stems of the words naming what is asked about
    words: frozenset[str]  # stems of every word of the question
    predicate: str | None  # the stem of the verb of a "who <verb> ..." question
    derived: tuple[Derivation, ...]  # the derived figures asked for
    rate: str | None  # the period the question asks per ("year" for "per year", "annual")
    values: tuple[tuple[Key, str], ...]  # every value the question writes (key, as written): none answers it
    presupposed: tuple[tuple[Key, str], ...]  # the values it asserts (see `_presupposed`)
    offers_choice: bool  # "2018 or 2019": the answer may be one of the question's own values
    document_phrases: tuple[str, ...]  # how the question names a document ("the Declaration")
    causal: bool = False  # asks why or for a reason: it takes what it asks about for granted (`_causal`)


def _ask_clause(text: str) -> str:
    """The clause that asks ("According to the Bylaws, when does ..." asks "when does ...")."""
    lowered = " ".join(fold(text).split())
    for clause in _CLAUSE_SPLIT.split(lowered):
        clause = clause.strip(" ?.!\"'“”")
        if _ASK_RE.match(clause):
            return clause
    m = re.search(rf"\b{_WH}\b", lowered)
    return lowered[m.start() :].strip(" ?.!") if m else lowered.strip(" ?.!")


def _expects(clause: str) -> Expects:
    return next((kind for kind, pattern in _KINDS if pattern.match(clause)), "open")


def _family(word: str) -> Family | None:
    return next((f for f, words in FAMILIES.items() if word in words), None)


def _item(words: Sequence[str]) -> frozenset[str]:
    """The stems of a coordinated item: its words up to the first function word or punctuation."""
    item: list[str] = []
    for w in words:
        if not re.fullmatch(r"[a-z'’-]+", w) or (w in STOPWORDS and item) or w in ("and", "or"):
            break
        if w not in STOPWORDS and len(w) >= 3 and _family(w) is None and w not in ("add", "up"):
            item.append(stem(w))
    return frozenset(item)


def _coordinated(lowered: str) -> tuple[frozenset[str], ...]:
    """The items a question joins with "and" ("the operating budget and the reserve contribution"): the stems of
    the words either side, up to a function word. Figures joined ("2019 and 2018", "Scope 1 and 2") are not items."""
    for m in re.finditer(r"(?<![\d,%])\s+and\s+(?!\d)", lowered):
        before = re.findall(r"[a-z'’-]+|[^\sa-z'’-]+", lowered[: m.start()])[::-1]
        after = re.findall(r"[a-z'’-]+|[^\sa-z'’-]+", lowered[m.end() :])
        while after and after[0] in ("the", "a", "an", "its", "their"):
            after = after[1:]
        items = (_item(before), _item(after))
        if all(items):
            return items
    return ()


def _causal(text: str) -> bool:
    """The question asks for a cause ("Why did ...", "What was the reason for ...", "... due to?")."""
    lowered = fold(text)
    return any(fold(w) in _CAUSAL for w in WORD.findall(lowered)) or _CAUSAL_END.search(lowered) is not None


def _head_words(lowered: str, found: Sequence[re.Match[str]]) -> list[str]:
    """For each word, the next word that is not part of a figure or a period label ("the combined FY2025 budget",
    "the total 2019 revenue"): such a label stands between an adjective and the noun it qualifies. A word glued to
    digits ("FY2025", "Q3") is part of one."""

    def glued(m: re.Match[str]) -> bool:
        a, b = m.start(), m.end()
        return (a > 0 and lowered[a - 1].isdigit()) or (b < len(lowered) and lowered[b].isdigit())

    out: list[str] = []
    for i in range(len(found)):
        after = next((m for m in found[i + 1 :] if not glued(m)), None)
        out.append(fold(after.group()) if after else "")
    return out


def _derivations(text: str, expects: Expects) -> tuple[Derivation, ...]:
    """The derived figures a question asks for. Only a question that asks for a figure counts: "how much/many",
    "what percentage", or an arithmetic relation used as a noun ("what is the change in ...", "the average of");
    a question about a cause asks for a reason ("What was the reason for the increase ..."). A total is derived
    only over several items ("all", "both", "A and B", "add up"): "the total assets" is a line of its own."""
    lowered = fold(text)
    found_words = list(WORD.finditer(lowered))
    words = [fold(m.group()) for m in found_words]
    heads = _head_words(lowered, found_words)
    if _causal(text):
        return ()
    wants_figure = expects in ("count", "amount", "percent")
    found: list[Derivation] = []
    for i, w in enumerate(words):
        comparative = w in _COMPARATIVES.split() and i >= 2 and words[i - 2 : i] == ["how", words[i - 1]]
        if comparative and words[i - 1] in ("much", "many"):
            found.append(Derivation(w, "difference"))
            continue
        family = _family(w) if w in _ASKED else None
        if family is None:
            continue
        after = heads[i]
        as_noun = any(x in ("the", "a", "an", "its", "their") for x in words[max(0, i - 3) : i]) and (
            after in ("of", "in", "between", "from", "for", "over", "during")
            or (family in ("total", "average") and len(after) >= 3 and after not in STOPWORDS)
        )
        if not (wants_figure or as_noun):
            continue
        if family == "total":
            items = _coordinated(lowered)
            several = (
                any(x in _SEVERAL for x in words)
                or re.search(r"\bsum\s+of\b|\bbetween\s+\S+\s+(?:to|and)\b", lowered)
                or (_YEARS_JOINED.search(lowered) and "respectively" not in words)  # "in 2018 and 2019"
            )
            if items or several:  # "What is the total annual budget?" asks for one line
                found.append(Derivation(w, family, items))
        else:
            found.append(Derivation(w, family))
    if _SHARE_OF.search(lowered):
        found.append(Derivation("percentage of", "ratio"))  # a share of a whole: stated only as a percentage
    if re.search(r"\badd(?:s|ed)?\s+up\b", lowered):
        found.append(Derivation("add up", "total", _coordinated(lowered)))
    return tuple(dict.fromkeys(found))


def _values(text: str) -> tuple[tuple[Key, str], ...]:
    """Values a question writes down: figures, dates, times, spelled-out numbers (two and up: "one" is also a
    pronoun) and month or weekday names. Codes and section numbers name a subject and are not values."""
    tokens = [t for t in extract_tokens(text) if t.kind in ("money", "number", "percent", "date", "time")]
    found: list[tuple[Key, str]] = [(t.key, t.text) for t in tokens]
    found += [(("num", value), text[a:b]) for value, a, b in number_words(text) if value >= 2]
    dates = [(t.start, t.end) for t in tokens if t.kind == "date"]
    for m in WORD.finditer(text):
        w = fold(m.group())
        inside = any(a <= m.start() < b for a, b in dates)
        if not inside and ((w in MONTHS and w != "may") or w in WEEKDAYS):
            found.append((("name", w), m.group()))
    return tuple(dict.fromkeys(found))


def _presupposed(values: Sequence[tuple[Key, str]]) -> tuple[tuple[Key, str], ...]:
    """The values a question asserts rather than uses to say when: amounts, percentages, counts ("Why is the late
    charge $50?", "... raise the cap to ten units?"). Dates, times, years and month names frame the question ("from
    2018 to 2019", "as at September 30, 2019"); the span and claim rules hold those to the quotes."""
    return tuple(
        (key, written)
        for key, written in values
        if key[0] == "pct" or (key[0] == "num" and isinstance(key[1], Decimal) and not _year_like(key[1]))
    )


def _year_like(value: Decimal) -> bool:
    return value == value.to_integral() and 1000 <= value <= 2999


@lru_cache(maxsize=512)
def read_question(text: str) -> Question:
    """What `text` asks (cached: a draft and its repairs are judged against one question)."""
    clause = _ask_clause(text)
    expects = _expects(clause)
    derived = _derivations(text, expects)
    documents = document_phrases(text)
    asked = text  # the question without the phrases naming a document: what remains names the subject
    for phrase in sorted(documents, key=len, reverse=True):
        asked = asked.replace(phrase, " " * len(phrase))
    skip = (  # the question's form and figures; the attribute it asks for stays ("the population of")
        {fold(d.word) for d in derived}
        | set(_FORM_WORDS)
        | AUXILIARIES
        | MONTHS
        | WEEKDAYS
        | set(NUMBER_UNITS)
        | set(NUMBER_TENS)
    )
    subject: set[str] = set()
    for m in WORD.finditer(asked):
        word = m.group()
        w = fold(word)
        capitalized_name = word[:1].isupper() and m.start() > 0  # "Other", "All" as row names keep their place
        if w in skip or w in EVIDENCE_WORDS or len(w) < 3 or (w in STOPWORDS and not capitalized_name):
            continue
        subject.add(stem(word))
    subject |= {fold(t.text) for t in extract_tokens(asked) if t.kind == "code"}  # "unit 4B", "HO-6"
    predicate = None
    who = re.match(r"^(?:who|whom)\s+([a-z'’]+)", clause)
    if who and who.group(1) not in AUXILIARIES:
        predicate = stem(who.group(1))
    values = _values(text)
    period = rate_of(text)
    return Question(
        text=text,
        expects=expects,
        subject=frozenset(subject),
        words=frozenset(stem(w) for w in WORD.findall(text)),
        predicate=predicate,
        derived=derived,
        rate=period if expects in ("count", "amount", "percent") or derived else None,
        values=values,
        presupposed=_presupposed(values),
        offers_choice=re.search(r"\bor\b|\bbetween\b", fold(text)) is not None,
        causal=_causal(text),
        document_phrases=documents,
    )


def rate_of(text: str) -> str | None:
    """The period a text states a rate per ("monthly", "per year"), if any."""
    m = _RATE_RE.search(text)
    return _PERIODS[fold(m.group(1) or m.group(2))] if m else None


__all__ = [
    "AUXILIARIES",
    "COPULAS",
    "DOCUMENT_TYPES",
    "FAMILIES",
    "FRACTIONS",
    "FREQUENCY",
    "LOCATIVE",
    "MONTHS",
    "NIL",
    "POLARITY",
    "TEMPORAL",
    "TIME_UNITS",
    "WEEKDAYS",
    "Derivation",
    "Expects",
    "Family",
    "Question",
    "document_titles",
    "named_sources",
    "number_words",
    "rate_of",
    "read_question",
]
