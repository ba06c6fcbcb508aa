"""Text machinery of the extractive model: question analysis, the cue table, values and line-text helpers.

Plain English heuristics only, with no knowledge of any document set: stopwords, one small cue table, value
patterns (money, percent, dates, durations, counts, codes, names) and markdown clean-up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Final

from quotebound.agent.gate.question_words import AUXILIARIES

# --- Question analysis ------------------------------------------------------------------------------------

STOPWORDS: Final = frozenset(
    """a about after all also am an and any are as at be been before being between both but by can could did do
    does doing during each either for from get got had has have having he her here him his how i if in into is it
    its just me might more most must my no nor not of off on once only or other our out over own per please same
    she should so some such tell than that the their them then there these they this those through to too under
    until up us very was we were what when where which while who whom whose why will with would you your
    much many long go goes amount number value percentage percent proportion difference sum combined altogether together
    """.split()
)

# Verbs of a change over time, by direction: "by how much did X fall between A and B" asks for A minus B, a rise
# for B minus A, a bare change for B minus A (signed).
CHANGE_DOWN: Final = (
    "fall", "falls", "fell", "fallen", "drop", "drops", "dropped", "decrease", "decreases", "decreased", "decline",
    "declines", "declined", "shrink", "shrinks", "shrank", "go down", "goes down", "went down", "reduce", "reduced",
)  # fmt: skip
CHANGE_UP: Final = (
    "rise", "rises", "rose", "risen", "increase", "increases", "increased", "grow", "grows", "grew", "grown",
    "go up", "goes up", "went up",
)  # fmt: skip
CHANGE_EITHER: Final = ("change", "changes", "changed")

# One table of generic English cues. kind:* = the value asked for, period:* = a rate that converts by twelve,
# context:* = markers that set the period of a heading or table header only, op:* = two-operand arithmetic.
CUES: Final[dict[str, tuple[str, ...]]] = {
    "kind:percent": ("what percentage", "what percent", "which percentage", "percentage", "percent"),
    "kind:count": ("how many", "number of"),
    "kind:duration": ("how long", "for how long", "what term", "how many years", "how many months", "how many days"),
    "kind:entity": ("who", "whom", "whose", "which company", "what company", "which firm", "name of"),
    "kind:identifier": ("code", "codes", "phone", "telephone", "email", "e-mail", "password", "pin"),
    "kind:date": ("when", "what date", "which date", "what day", "what time", "deadline", "due date"),
    "kind:money": ("$", "€", "£"),  # "the $ value": an amount of money, not any number
    "kind:amount": ("how much", "cost", "costs", "fee", "fees", "price", "amount", "charge"),
    "period:monthly": ("monthly", "per month", "a month", "each month", "every month", "/month"),
    "period:annual": (
        "annual",
        "annually",
        "yearly",
        "per year",
        "a year",
        "each year",
        "every year",
        "per annum",
        "twelve months",
        "12 months",
        "whole year",
        "full year",
    ),
    "context:annual": ("fy", "fiscal year"),
    "op:sum": ("total", "sum", "combined", "altogether"),
    "op:difference": ("difference", "how much more", "how much less", "how much higher", "how much lower"),
    "op:percentage": ("what percentage", "what percent", "what share", "as a percentage", "as a share"),
    "op:share": ("'s share of", "’s share of", "'s portion of", "’s portion of"),
    "op:change": (*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER),
    "ask:quantity": ("how much", "how many", "by what amount", "what is the change", "what was the change"),
}
# "number" that is not "number of" / "numbers of" (a count) and not "a/the total number": an identifier's name.
_NAMED_NUMBER: Final = re.compile(r"(?<!total )(?<!maximum )(?<!minimum )\bnumbers?\b(?!\s+of\b)")
_KIND_ORDER: Final = ("percent", "duration", "count", "date", "identifier", "entity", "money", "amount")
PERIODS: Final = ("monthly", "annual")

_TOKEN = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*", re.UNICODE)
_PART = re.compile(r"[^\W\d_]+|\d+(?:[.,]\d+)*", re.UNICODE)


def _cue_re(phrases: Iterable[str]) -> re.Pattern[str]:
    # a phrase that starts with a word starts at a word boundary; one that starts with "'s" follows a word
    alternatives = "|".join(
        (r"(?<![\w/])" if re.match(r"\w", p) else "") + re.escape(p) for p in sorted(phrases, key=len, reverse=True)
    )
    return re.compile(rf"(?:{alternatives})(?![\w])")


_CUE_RES: Final = {name: _cue_re(phrases) for name, phrases in CUES.items()}


# Spellings of one measure that stemming cannot join ("square footage" is stated as "Square feet").
_ALIASES = {"footage": "feet", "foot": "feet", "sq": "square", "sqft": "feet"}


# The endings English contracts an auxiliary to: "I've", "you're", "we'll", "I'd", "I'm".
_CONTRACTED: Final = frozenset({"ve", "re", "ll", "d", "m"})


def contracted_stopword(raw: str) -> bool:
    """A stopword with a contracted auxiliary ("I've" is "I have"): it says no more than its two stopwords, and a
    word no line spells would count against the question as unknown."""
    head, apostrophe, tail = raw.lower().replace("’", "'").partition("'")
    return bool(apostrophe) and head in STOPWORDS and tail in _CONTRACTED


def normalize(token: str) -> str:
    """Stemming-lite: lowercase, drop a possessive, strip a plural, join a few aliases."""
    word = token.lower().replace("’", "'")
    if word.endswith("'s"):
        word = word[:-2]
    word = word.rstrip("'")
    if word in _ALIASES:
        return _ALIASES[word]
    if word.isalpha() and len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.isalpha() and len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if word.isalpha() and len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def token_forms(text: str) -> list[set[str]]:
    """Each token of a text, in order, as its normalized forms: itself and, for `FY2024` or `7C`, its parts."""
    forms: list[set[str]] = []
    for raw in _TOKEN.findall(text):
        parts = _PART.findall(raw)
        forms.append({normalize(raw)} | ({normalize(p) for p in parts} if len(parts) > 1 else set()))
    return forms


def tokens(text: str) -> set[str]:
    """Normalized tokens of a text, as a set."""
    return set().union(*token_forms(text))


def is_number_word(word: str) -> bool:
    return word in _NUMBER_WORDS


def content_tokens(text: str) -> set[str]:
    """A line's own words: no stopwords, nothing with a digit (values differ between agreeing lines)."""
    return {w for w in tokens(text) if len(w) > 1 and w not in STOPWORDS and not any(c.isdigit() for c in w)}


def cue(text: str, name: str) -> bool:
    return _CUE_RES[name].search(text.lower()) is not None


@dataclass(frozen=True)
class Question:
    text: str
    words: tuple[str, ...]  # normalized content words, first occurrence order
    kind: str | None  # percent | duration | count | date | identifier | entity | money | amount
    period: str | None  # monthly | annual: the rate asked for
    period_words: frozenset[str]  # the words of the period cue, matched through period logic
    op: str | None  # share | percentage | difference | sum
    change: bool = False  # names a change ("increase", "fell"): a figure answers only if stated for its subject
    acronyms: frozenset[str] = frozenset()  # words written as acronyms (NASA, LLC): documents often spell them out
    spelled: tuple[str, ...] = ()  # each of `words` as the question wrote it ("roofs" for roof, "footage" for feet)

    def as_written(self, word: str) -> str:
        """`word` (one of `words`) as the question spelled it. Text the model shows must use the question's own
        spelling: a normalized form ("feet" for "footage") is a word neither the question nor a document holds."""
        written = dict(zip(self.words, self.spelled, strict=False))
        return written.get(word, word)

    @property
    def key(self) -> str:
        """The question's subject•predicate: its content words, sorted (a rate spelled one way: monthly, annual)."""
        return self.subject_key(self.period) if self.period else " ".join(sorted(self.words))

    def subject_key(self, period: str | None) -> str:
        """The key of a fact stated for `period`: the question's words with the period made explicit."""
        words = {w for w in self.words if w not in self.period_words}
        if period:
            words.add(period)
        return " ".join(sorted(words))


_WH_WORDS: Final = frozenset("what which who whom whose when where why how".split())


def is_acronym(raw: str) -> bool:
    """NASA, LLC, and their plurals (RVs, IDs): capitals a document often spells out in words."""
    stem = raw[:-1] if len(raw) > 2 and raw.endswith("s") else raw
    return raw.isalpha() and stem.isupper() and 2 <= len(stem) <= 6


def asks_polarity(text: str) -> bool:
    """A question opening with an auxiliary ("Is ...", "Does ...", "May ...") asks yes or no: a "when" or "who"
    further on ("Is X allowed when electing directors?") opens a clause, not the value asked for. A phrase set
    before it by a comma ("Under the Artistic License, am I allowed ...?") frames the question; the clause after
    it asks, when no wh-word or auxiliary opens the phrase itself."""
    first = _TOKEN.search(text)
    if first is None:
        return False
    if first.group().lower().replace("’", "'") in AUXILIARIES:
        return True
    head, comma, rest = text.partition(",")
    after = _TOKEN.search(rest)
    framed = comma and after is not None and after.group().lower().replace("’", "'") in AUXILIARIES
    return bool(framed) and not any(t.lower() in _WH_WORDS for t in _TOKEN.findall(head))


def analyze(text: str) -> Question:
    lowered = text.lower()
    kind = None if asks_polarity(text) else next((k for k in _KIND_ORDER if cue(lowered, f"kind:{k}")), None)
    if kind in (None, "amount") and _NAMED_NUMBER.search(lowered):
        kind = "identifier"  # "the account number", "which number to call": a number that names, not a count
    period = next((p for p in PERIODS if cue(lowered, f"period:{p}")), None)
    op = next((o for o in ("share", "percentage", "difference", "sum") if cue(lowered, f"op:{o}")), None)
    if op is None and cue(lowered, "op:change") and cue(lowered, "ask:quantity"):
        op = "difference"  # "by how much did X fall between A and B": a difference of two quoted values
    period_words: set[str] = set()
    if period:
        for match in _CUE_RES[f"period:{period}"].finditer(lowered):
            period_words.update(normalize(t) for t in _TOKEN.findall(match.group()) if t not in STOPWORDS)
    words: list[str] = []
    spelled: list[str] = []
    acronyms: set[str] = set()
    for raw in _TOKEN.findall(text):
        word = normalize(raw)
        named_number = kind == "identifier" and word == "number"  # "account number": the name of what is asked
        stop = (raw.lower() in STOPWORDS or word in STOPWORDS or contracted_stopword(raw)) and not named_number
        if stop or (len(word) < 2 and not word.isdigit()) or word in words:
            continue
        words.append(word)
        spelled.append(raw)
        if is_acronym(raw):
            acronyms.add(word)
    return Question(
        text,
        tuple(words),
        kind,
        period,
        frozenset(period_words),
        op,
        cue(lowered, "op:change"),
        frozenset(acronyms),
        tuple(spelled),
    )


# --- Values -------------------------------------------------------------------------------------------------

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


# --- Line text ----------------------------------------------------------------------------------------------


def is_table_row(text: str) -> bool:
    return text.lstrip().startswith("|") and text.rstrip().endswith("|")


def is_heading(text: str) -> bool:
    stripped = text.strip()
    if stripped.startswith("#"):
        return True
    return bool(re.match(r"^(?:§|Section|Article)\s*[\dIVX]+(?:\.\d+)*\.?\s+[^.\d]{1,60}\.?$", stripped))


def table_cells(text: str) -> list[str]:
    return [cell.strip() for cell in text.strip().strip("|").split("|")]


# Words by which a line points ahead to what follows it (a list, a table): "the following", "as follows", "below".
_FORWARD: Final = frozenset(
    "following follows below include includes including consist consists comprise comprises comprised listed".split()
)


def is_lead_in(text: str) -> bool:
    """A line that only introduces what follows: it ends with a colon, and points ahead ("The following table
    presents revenues by location:") or states no value of its own ("| Amounts falling due within one year: | |").
    "Income rose to $299.3 million, primarily as a result of:" states its figure before the colon."""
    body = clean(text).rstrip(" .\"'”’)")
    if not body.endswith(":"):
        return False
    if {w.lower() for w in _TOKEN.findall(body)} & _FORWARD:
        return True
    return not any(v.kind in NUMERIC_KINDS or v.kind in ("date", "time") for v in extract_values(body))


# Phrases of a web page's navigation (a document-structure category): a line holding several is page chrome, the
# menu and header a saved page carries ("Jump to content Main menu move to sidebar hide Navigation"), not a claim.
_CHROME: Final = re.compile(
    r"jump to content|skip to (?:main )?content|main menu|move to sidebar|toggle (?:the )?(?:table of contents|menu)"
    r"|navigation|main page|current events|random article|contact us|log ?in|sign ?in|create account|donate"
    r"|edit links|view history|what links here|privacy policy|cookie",
    re.I,
)


def is_page_chrome(text: str) -> bool:
    """A line holding three or more navigation phrases of a web page (`_CHROME`), or a run of list items."""
    return len({m.group().lower() for m in _CHROME.finditer(text)}) >= 3 or is_list_run(text)


# A list's item separators outside a table (a semicolon or a bullet between items): a line holding many of them and
# no sentence end is an index, a page's list of aliases or links, not a claim.
_LIST_SEPARATOR: Final = re.compile(r"\s[;•·]\s|;\s")
_SENTENCE_END: Final = re.compile(r"[a-z)\]][.!?]\s+[A-Z]")
_LIST_ITEMS: Final = 5


def is_list_run(text: str) -> bool:
    """Five or more list separators and no sentence end: "Морис Рош ; Edmund Burke-Roche ; Maurice Roche ; ..."."""
    if is_table_row(text):
        return False
    return len(_LIST_SEPARATOR.findall(text)) >= _LIST_ITEMS and _SENTENCE_END.search(text) is None


def is_label(cell: str) -> bool:
    """A table cell that names rather than states: words, and no amount, percent, date or count."""
    named = ("entity", "identifier")
    return bool(re.search(r"[^\W\d_]", cell)) and all(v.kind in named for v in extract_values(cell))


def clean(text: str) -> str:
    """The line without markdown markup, for a fact's text: only the line's own tokens, never new ones."""
    if is_table_row(text):
        cells = [c.replace("**", "").replace("__", "").replace("`", "").strip() for c in table_cells(text)]
        cells = [c for c in cells if c]
        if len(cells) > 2 and re.fullmatch(r"\d{1,3}", cells[0]):  # a row number
            cells = cells[1:]
        labels = [c for c in cells if is_label(c)]
        values = [c for c in cells if c not in labels]
        if labels and values:
            return f"{' / '.join(labels)}: {', '.join(values)}"
        return ", ".join(cells)
    stripped = re.sub(r"^\s*(?:#+\s*|>\s*|[-*+]\s+)", "", text)
    return re.sub(r"\*\*|__|`", "", stripped).strip()


def period_of(text: str, token_set: set[str] | None = None, *, context: bool = False) -> str | None:
    lowered = text.lower()
    found = {p for p in PERIODS if _CUE_RES[f"period:{p}"].search(lowered)}
    if context and (_CUE_RES["context:annual"].search(lowered) or (token_set and "fy" in token_set)):
        found.add("annual")
    return found.pop() if len(found) == 1 else None
