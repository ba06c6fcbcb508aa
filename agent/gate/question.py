"""What a question asks: the kind of answer it expects, the words that name its subject, the document it names,
whether it asks for a derived figure, and the values it takes for granted.

The answerhood rule (`rules/answerhood.py`) holds a draft's answer to these. Everything here is read from the
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

from quotebound.agent.gate.inputs import SourceInfo
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
    "open",  # what / which / how / why ...: no form is required
]

# --- general categories ------------------------------------------------------------------------------------------

# Auxiliary and modal verbs: a question that starts with one asks yes or no.
AUXILIARIES: Final = frozenset(
    """is are was were am be can could may might must shall should will would do does did has have had isn't aren't
    wasn't weren't can't cannot couldn't mustn't shouldn't won't wouldn't don't doesn't didn't hasn't haven't
    hadn't""".split()
)
COPULAS: Final = frozenset("is are was were be been being am 's".split())
# Units of time, in every spelling a rate or a span uses them.
TIME_UNITS: Final = frozenset(
    """second seconds minute minutes hour hours hourly day days daily week weeks weekly fortnight fortnights month
    months monthly quarter quarters quarterly year years yearly annual annually decade decades century centuries
    semester semesters term terms night nights weekend weekends""".split()
)
MONTHS: Final = frozenset(
    "january february march april may june july august september october november december".split()
)
WEEKDAYS: Final = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
# Words that place an event in time, relative to another or on a condition ("once the cap is reached", "next
# spring").
TEMPORAL: Final = frozenset(
    """after before until till once when whenever while during upon since within prior following preceding
    immediately now today tomorrow yesterday currently soon later earlier recently previously next last if unless
    where provided beginning start starting end ending spring summer autumn fall winter""".split()
)
# Words that answer "how often" without a figure.
FREQUENCY: Final = frozenset(
    """every each once twice thrice per never always whenever regularly periodically occasionally continuously
    annually yearly monthly weekly daily hourly quarterly biannually biennially""".split()
)
# Words that say a quantity is nil or not worth stating: an answer to "how much" that gives no figure.
NIL: Final = frozenset("no none nil zero nothing not immaterial negligible".split())
# Fractions and shares said in words.
FRACTIONS: Final = frozenset(
    """half halves third thirds quarter quarters fifth fifths tenth tenths majority minority all none unanimous
    whole""".split()
)
# Words that answer a yes/no question by themselves: polarity, exception and modality.
POLARITY: Final = frozenset(
    """yes no not n't never none nothing nobody neither nor only except unless cannot without can could may might
    must shall should will would need needs required require requires permitted permit permits allowed allow
    allows prohibited prohibit prohibits forbidden banned mandatory optional entitled eligible true false
    correct incorrect""".split()
)
# Prepositions that locate something.
LOCATIVE: Final = frozenset(
    """in at on inside outside under beneath below above over behind beside near next between within into onto
    across along around opposite adjacent throughout""".split()
)
# Number words (the values a question or an answer may spell out).
_UNITS: Final = {
    w: n
    for n, w in enumerate(
        """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
        seventeen eighteen nineteen""".split()
    )
}
_TENS: Final = {w: 10 * n for n, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split())}
# Nouns that name a kind of document: "the BSD license", "the 2025 minutes", "the Declaration".
DOCUMENT_TYPES: Final = frozenset(
    """document documents file report reports minutes newsletter bulletin memo memorandum letter notice declaration
    bylaws by-laws charter constitution covenants statute act code regulation regulations ordinance policy
    handbook manual guide faq readme license licence agreement contract lease deed schedule budget plan study
    statement statements filing prospectus article paper book appendix exhibit form specification standard
    proposal summary transcript announcement release sheet brochure flyer""".split()
)
# Verbs by which a question asks what a document says ("What does the Declaration say about ...").
_SAY_VERBS: Final = (
    r"(?:say|says|said|state|states|stated|specify|specifies|mention|mentions|list|lists|show|shows|report|reports"
    r"|describe|describes|define|defines)"
)
# Arithmetic relations, by family: a question using one asks for a figure computed from others, and a quote that
# states such a figure itself says so with a word of the same family ("grew by 1.6%", "Total", "averaging").
Family = Literal["change", "difference", "total", "average", "ratio"]
FAMILIES: Final[dict[Family, frozenset[str]]] = {
    "change": frozenset(
        """change changes changed changing increase increases increased increasing decrease decreases decreased
        decreasing rise rises rose risen rising fall falls fell fallen falling drop drops dropped grow grows grew
        grown growing growth decline declines declined declining gain gains gained jump jumped climb climbed reduce
        reduced reduction up down""".split()
    ),
    "difference": frozenset("difference differences differ differs gap spread exceed exceeds exceeded".split()),
    "total": frozenset(
        """total totals totalled totaled totaling totalling sum sums aggregate aggregated combined overall
        altogether together""".split()
    ),
    "average": frozenset("average averages averaged averaging mean median".split()),
    "ratio": frozenset("ratio ratios proportion proportions".split()),
}
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
        _WHAT_IS_THE + r"(?:[\w/()'’-]+\s+)?(?:amount|number|count|quantity|total|sum|average|ratio|population)\b",
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


def number_words(text: str) -> list[tuple[Decimal, int, int]]:
    """The numbers `text` spells out in words ("twelve", "twenty-five"), with their spans."""
    found: list[tuple[Decimal, int, int]] = []
    for m in re.finditer(r"[A-Za-z]+(?:-[A-Za-z]+)?", text):
        parts = fold(m.group()).split("-")
        if len(parts) == 2 and parts[0] in _TENS and parts[1] in _UNITS:
            found.append((Decimal(_TENS[parts[0]] + _UNITS[parts[1]]), m.start(), m.end()))
        elif len(parts) == 1 and (parts[0] in _UNITS or parts[0] in _TENS):
            found.append((Decimal(_UNITS.get(parts[0], _TENS.get(parts[0], 0))), m.start(), m.end()))
    return found


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


def _derivations(text: str, expects: Expects) -> tuple[Derivation, ...]:
    """The derived figures a question asks for. Only a question that asks for a figure counts: "how much/many",
    "what percentage", or an arithmetic relation used as a noun ("what is the change in ...", "the average of");
    a question about a cause asks for a reason ("What was the reason for the increase ..."). A total is derived
    only over several items ("all", "both", "A and B", "add up"): "the total assets" is a line of its own."""
    lowered = fold(text)
    words = [fold(w) for w in WORD.findall(lowered)]
    if any(w in _CAUSAL for w in words) or _CAUSAL_END.search(lowered):
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
        after = words[i + 1] if i + 1 < len(words) else ""
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


_NAME_CODE: Final = r"(?:[A-Z][A-Z0-9]+|[A-Za-z]*\d\w*)(?:-\w+)?"  # an acronym or a word with a figure: BSD, FY2025
# How a question names the document it asks about. `True`: the phrase names a document by any title word ("According
# to the Board, ..." may mean the minutes); `False`: only when its head noun is a kind of document ("In an
# emergency, ..." or "in my unit?" names nothing; "Under the Declaration, ..." and "in the newsletter?" do). A
# source's id written in the question names it wherever it stands (`named_sources`).
_DOC_CUES: Final[tuple[tuple[re.Pattern[str], bool], ...]] = (
    (re.compile(r"\baccording\s+to\s+(?P<x>[^,;:?]+)", re.I), True),
    (re.compile(r"^\s*(?:in|under|per|from|within)\s+(?P<x>[^,;:?]+),", re.I), False),
    (re.compile(rf"\b(?:does|do|did)\s+(?P<x>[^?]+?)\s+{_SAY_VERBS}\b", re.I), False),
    (re.compile(r"\b(?:in|from|under|per)\s+(?P<x>(?:the\s+)?[\w'’.-]+(?:\s+[\w'’.-]+){0,3}?)\s*[?.]?\s*$", re.I),
     False),
    # "the BSD license", "the 2025 minutes", "the FY2025 Annual Budget": an acronym or a figure, then a kind of
    # document within two words, anywhere in the question
    (re.compile(rf"(?P<x>\b{_NAME_CODE}(?:\s+[A-Za-z]+)?\s+(?P<head>[A-Za-z]+))\b"), False),
    (re.compile(rf"(?P<x>\b{_NAME_CODE}\s+(?P<head>[A-Za-z]+))\b"), False),
)  # fmt: skip


def _overlapping(cue: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """Every match of `cue` starting at each word (matches may overlap: "BSD license require" and "BSD license")."""
    starts = [m.start() for m in re.finditer(r"\b\w", text)]
    return [m for m in (cue.match(text, at) for at in starts) if m is not None]


def _document_phrases(text: str) -> tuple[str, ...]:
    """Phrases by which the question names a document (see `_DOC_CUES`)."""
    phrases: list[str] = []
    for cue, any_head in _DOC_CUES:
        for m in cue.finditer(text) if "head" not in cue.groupindex else _overlapping(cue, text):
            phrase = m["x"].strip()
            words = WORD.findall(phrase)  # letters only: the head is the last word, a trailing year aside
            if not words or not (any_head or fold(words[-1]) in DOCUMENT_TYPES):
                continue
            phrases.append(phrase)
    return tuple(dict.fromkeys(phrases))


@lru_cache(maxsize=512)
def read_question(text: str) -> Question:
    """What `text` asks (cached: a draft and its repairs are judged against one question)."""
    clause = _ask_clause(text)
    expects = _expects(clause)
    derived = _derivations(text, expects)
    documents = _document_phrases(text)
    asked = text  # the question without the phrases naming a document: what remains names the subject
    for phrase in sorted(documents, key=len, reverse=True):
        asked = asked.replace(phrase, " " * len(phrase))
    skip = (  # the question's form and figures; the attribute it asks for stays ("the population of")
        {fold(d.word) for d in derived} | set(_FORM_WORDS) | AUXILIARIES | MONTHS | WEEKDAYS | set(_UNITS) | set(_TENS)
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
        document_phrases=documents,
    )


# --- documents -----------------------------------------------------------------------------------------------------


def _split_words(text: str) -> list[str]:
    """Words of a title or an id, split at punctuation and at letter/digit boundaries ("FY2025" -> fy, 2025)."""
    return [w.casefold() for w in re.findall(r"[A-Za-z]+|\d+", text)]


@lru_cache(maxsize=8192)
def _source_names(source: SourceInfo) -> tuple[tuple[str, ...], frozenset[str], frozenset[str]]:
    """How a question may name `source`: its id as written (whole, and without its extension when that is not a
    plain word: "budget-2025", "tatqa-53474060-..."; not "bylaws"), and the stems of its id's and title's words."""
    full = fold(source.source_id)
    bare = full.rsplit(".", 1)[0]
    ids = (full, bare) if re.search(r"[^a-z]", bare) else (full,)
    id_words = frozenset(stem(w) for w in _split_words(source.source_id))
    return ids, id_words, frozenset(stem(w) for w in _split_words(source.title))


def _written(lowered: str, name: str) -> bool:
    """`lowered` writes `name` as a whole token (not inside a longer id or word)."""
    at = lowered.find(name)
    while at >= 0:
        before = lowered[at - 1] if at else " "
        after = lowered[at + len(name)] if at + len(name) < len(lowered) else " "
        if not (before.isalnum() or before in "-_") and not (after.isalnum() or after in "-_"):
            return True
        at = lowered.find(name, at + 1)
    return False


@lru_cache(maxsize=512)
def named_sources(question: str, sources: tuple[SourceInfo, ...]) -> frozenset[str]:
    """The readable sources the question names, by id or by title words (empty: it names none).

    A phrase names the sources whose title or id has the phrase's head word; among them, those matching most of
    the phrase's words win, a word of the id counting twice a word of the title only ("the Declaration" is the
    declaration itself, not the exhibit titled "... to the Declaration")."""
    lowered = fold(question)
    by_id = frozenset(s.source_id for s in sources if any(_written(lowered, name) for name in _source_names(s)[0]))
    if by_id:
        return by_id
    named: set[str] = set()
    for phrase in read_question(question).document_phrases:
        words = [stem(w) for w in _split_words(phrase) if w not in STOPWORDS and w != "the"]
        head = next((w for w in reversed(words) if w.isalpha()), None)  # "the Annual Report 2019": report
        if head is None:
            continue
        best, chosen = 0, set()
        for source in sources:
            _, id_words, title_words = _source_names(source)
            if head not in id_words and head not in title_words:
                continue  # the phrase's head word names a kind of document this one is not
            score = sum(2 if w in id_words else 1 if w in title_words else 0 for w in words)
            if score > best:
                best, chosen = score, {source.source_id}
            elif score == best:
                chosen.add(source.source_id)
        named |= chosen
    return frozenset(named)


def rate_of(text: str) -> str | None:
    """The period a text states a rate per ("monthly", "per year"), if any."""
    m = _RATE_RE.search(text)
    return _PERIODS[fold(m.group(1) or m.group(2))] if m else None


def document_titles(ids: Sequence[str], sources: Sequence[SourceInfo]) -> list[str]:
    """The titles of `ids` (the id itself when a source has no title)."""
    titles = {s.source_id: (s.title or s.source_id) for s in sources}
    return [titles.get(i, i) for i in ids]


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
