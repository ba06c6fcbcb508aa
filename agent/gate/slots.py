"""Slots: what a value in a sentence is the value of, read from the words around it (never from a model's `key`).

Two documents disagree when they give different values *for the same slot*: "Monthly regular assessment per Unit:
$325.00." and "the budget sets the monthly regular assessment at $340.00 per Unit" do; "A quorum ... is present
when Owners holding at least 25% ... attend" and "At an adjourned meeting the quorum is ... at least 15%" do not,
nor do "five Units are currently leased" and "No more than six (6) Units may be leased". The conflict rules ask
this module both ways: a draft stating one value while a readable line gives another for the same slot must list
the conflict, and a conflict a draft lists must be such a pair.

A value (a figure, a date, a number word, a capitalized name) is read in its sentence (`occurrences`) with:

- its context: the content words of its clause, weighted by closeness (1 for the nearest word on each side, then
  1/2, 1/3 ...). To the left a figure's clause runs back to the previous figure of its family ("founded in 1856,
  the present building was completed in 1951" gives 1951 only the building's words), unless only connecting
  words stand between them ("at least 10 and not more than 50 days"); a name's clause stops at a comma. To the
  right a clause stops at the first comma, bracket, cell bar or figure. The word an amount is counted in ("15
  days", "five Units") is its unit, not its context;
- its bound ("at least", "not less than", "no more than", "up to", "or more" make it a limit, not an amount), its
  period ("per month", "monthly", "annual" make it a rate), the preposition governing it ("based in", "directed
  by"), and its marks: identifiers ("Unit 3A", "FY19") and, for an amount, the years of its clause;
- the modifiers of its sentence: each content word standing right before another ("adjourned meeting"), a verb
  after its subject ("the manager reported") excepted.

Two values are of one slot (`same_slot`) when all of this holds:

- they are of one family, in two sentences (a sentence never contradicts itself), and from one document they are
  not the rows of one list (the same clause with other figures);
- the question's subject (its capitalized or quoted words) is named in both clauses or in neither, and their
  marks, units, bounds and periods do not differ;
- their contexts share a nearest word and overlap by `SAME_SLOT_OVERLAP` (Dice over the weights, the question's
  words counting `QUESTION_WEIGHT` times), or give the question's words under the same preposition ("is the
  seventh studio album by ... Carpenters", "is an album by The Beatles"); two names share a word of the question;
- no word of the question stands in one sentence only ("Who maintains the roofs?": the line about windows is
  another slot);
- no qualifier separates them: a word modifying a shared word in one sentence and absent from the other makes a
  narrower subject ("adjourned meeting" against "meeting of the Owners", even when the question names the
  Owners). When both name the question's subject, a description *of that name* the question does not use does
  not narrow it ("X is the seventh studio album": still that album); a modifier the question uses always does
  ("general liability insurance" against "directors and officers liability insurance"). A noun governing the
  named subject in one sentence only ("a remastered edition of X", "X's reissue") makes the value that of
  another thing (the edition's release date is not the work's).

The subject check depends on who pairs the values. Unasked (a conflict the gate would demand), both clauses name
the question's subject or neither does. Listed by the draft, a side may leave the subject to its document's
title ("Established: 1850"), and only two sides naming different parts of the question's subjects are two things.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Final, Literal

from quotebound.agent.gate.conflicts import Value, levenshtein, numbers_differ
from quotebound.agent.gate.tokens import Key, Token, TokenKind, extract_tokens
from quotebound.agent.gate.vocabulary import STOPWORDS, fold, stem

Family = Literal["amount", "percent", "date", "time", "name"]
Bound = Literal["", "lower", "upper"]

SAME_SLOT_OVERLAP: Final = 0.55  # Dice overlap of two weighted contexts for one slot
NAME_EDITS: Final = 2  # edits tolerated between two spellings of one name ("Acme Corp" / "Acme Corp.")
QUESTION_WEIGHT: Final = 2.0  # a context word the question uses counts this much
LEFT_WORDS: Final = 12  # content words read to the left of a value
RIGHT_WORDS: Final = 4  # and to the right (English puts a value's subject before it more often than after)
_KEY_LETTERS: Final = 6  # words are compared on the first six letters of their stem ("political" = "politics")

# Number words (a general category): "five Units", "four days". "one" is left out: it is a pronoun as often.
_NUMBER_WORDS: Final = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
    if n >= 2
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}
# Words that join the words of one name ("Bank of America", "Leonardo da Vinci"), and words that never start one.
_NAME_JOINERS: Final = frozenset("of the de da di del della van von der den du la le and &".split())
_NAME_SKIP: Final = frozenset("the a an no in on at by for from to of and or but as if when while this that".split())
# Time units (a general category), and the adjectives that make a value a rate per one of them.
_TIME_UNITS: Final = {
    "hour": "hour", "hours": "hour", "day": "day", "days": "day", "week": "week", "weeks": "week",
    "month": "month", "months": "month", "quarter": "quarter", "quarters": "quarter", "year": "year",
    "years": "year", "annum": "year",
}  # fmt: skip
_RATE_ADJECTIVES: Final = {
    "hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
    "annual": "year", "annually": "year", "yearly": "year",
}  # fmt: skip
_PER: Final = frozenset({"per", "a", "an", "each", "every", "/"})
# Comparison words that make a value a limit (a general category): what sits right before or right after it.
_BOUND_BEFORE: Final = re.compile(
    r"\b(?:(?P<upper>at most|not more than|no more than|not to exceed|not exceeding|up to|maximum(?: of)?|max\.?"
    r"|less than|fewer than|under|below|within)|(?P<lower>at least|not less than|no less than|not fewer than"
    r"|no fewer than|minimum(?: of)?|min\.?|more than|greater than|over|above|in excess of))\s*[$€£¥₹]?$",
    re.IGNORECASE,
)
_BOUND_AFTER: Final = re.compile(
    r"^\s*(?:(?P<lower>or more|or greater|or above|or over|minimum)|(?P<upper>or less|or fewer|or below|maximum))\b",
    re.IGNORECASE,
)
# Prepositions (a closed class): the one governing a value names its relation to the subject ("based in",
# "directed by", "born on").
_PREPOSITIONS: Final = frozenset(
    "about above across after against along among around at before behind below beneath beside between beyond by "
    "during for from in inside into near of off on onto over per since through throughout to toward towards under "
    "until upon via with within without".split()
)
_PAST: Final = re.compile(r"[^e]ed$", re.IGNORECASE)  # a past tense or participle ("reported", "noted")
_LEAD_REACH: Final = 6  # items read to the left of a value for its preposition
_REACH_ITEMS: Final = 40  # items (words, values, punctuation) a clause is read over on each side: bounded work
_WORD_OR_GAP: Final = re.compile(r"[^\W\d_]+(?:['’&][^\W\d_]+)*|[,;:()\[\]|]", re.UNICODE)
_RIGHT_STOP: Final = frozenset(",;()[]|")
_LEFT_STOP: Final = frozenset(";|")
_YEAR: Final = (1000, 2100)


@lru_cache(maxsize=16384)
def word_key(word: str) -> str:
    """How two spellings of one word are matched: the first letters of its stem."""
    return stem(word)[:_KEY_LETTERS]


# Scale words belong to the figure they follow ("$693 million"); they say nothing of what it is the value of.
_SCALE_WORDS: Final = frozenset({"thousand", "thousands", "million", "millions", "billion", "billions", "trillion"})


@lru_cache(maxsize=16384)
def _content(word: str) -> bool:
    folded = fold(word)
    return len(word) >= 3 and folded not in STOPWORDS and folded not in _NUMBER_WORDS and folded not in _SCALE_WORDS


@lru_cache(maxsize=16384)
def _word_keys(word: str) -> frozenset[str]:
    return frozenset({word_key(word)}) if _content(word) else frozenset()


def _keys(text: str) -> frozenset[str]:
    return frozenset(word_key(w) for w in _WORD_OR_GAP.findall(text) if w[0].isalpha() and _content(w))


@lru_cache(maxsize=1024)
def title_keys(title: str) -> frozenset[str]:
    """The keys of the content words of a document's title: what every line of the document is about."""
    return _keys(title)


@dataclass(frozen=True)
class QuestionTerms:
    """The question as context: its content words, and the words of the names it gives (its subject)."""

    words: frozenset[str]
    names: frozenset[str]
    asks_entity: bool  # who / whom / whose / where / which: the answer is a name


_NO_QUESTION: Final = QuestionTerms(frozenset(), frozenset(), False)
# Questions whose answer is a name: who, whom, whose, where, which, "what is the name of".
_ENTITY_QUESTION: Final = re.compile(r"\b(?:who|whom|whose|where|which)\b|\bwhat (?:\w+ )?name\b", re.I)
_QUOTED: Final = re.compile(r"[\"“”'‘’`]{1,2}([^\"“”`]{2,80}?)[\"“”'‘’`]{1,2}")


@lru_cache(maxsize=256)
def question_terms(question: str | None) -> QuestionTerms:
    """The question's content words and name words: capitalized words after its first, and quoted titles."""
    if not question:
        return _NO_QUESTION
    words = [m.group() for m in _WORD_OR_GAP.finditer(question) if m.group()[0].isalpha()]
    names = {word_key(w) for w in words[1:] if w[0].isupper() and _content(w)}
    for quoted in _QUOTED.findall(question):
        names |= {word_key(w) for w in _WORD_OR_GAP.findall(quoted) if w[0].isalpha() and _content(w)}
    content = frozenset(word_key(w) for w in words if _content(w))
    return QuestionTerms(content, frozenset(names), bool(_ENTITY_QUESTION.search(question)))


@dataclass(frozen=True)
class Occurrence:
    """One value in one sentence, with what its slot is read from."""

    value: Value
    family: Family
    sentence: str
    start: int
    end: int
    context: Mapping[str, float]  # word key -> closeness to the value (1, 1/2, 1/3 ...)
    nearest: frozenset[str]  # the keys of the nearest content word on each side
    words: frozenset[str]  # the keys of every word of the sentence
    modifiers: frozenset[tuple[str, str]]  # (modifier, modified) keys of adjacent content words
    bound: Bound
    period: str
    unit: str  # the key of the word an amount is counted in ("day", "unit"), or ""
    capitalized: frozenset[str]  # the keys of the context words written with a capital (parts of names)
    clause: frozenset[str]  # the keys of every word of the value's clause, names included
    lead: str  # the preposition governing the value ("in", "by"), or ""
    name_words: frozenset[str]  # the keys of the value's own words, for a name
    marks: frozenset[str]  # identifiers ("#3a") and, for an amount, the years and dates of its clause ("@2019")
    frame: str  # its clause with every figure masked ("vote : # in favor"): the row of a list it may belong to
    described: frozenset[str] = frozenset()  # keys of the words its sentence says a name is ("X is the seventh album")
    heads: frozenset[tuple[str, str]] = frozenset()  # (name word, the noun governing it): "edition of X", "X's reissue"

    @property
    def text(self) -> str:
        return self.sentence[self.start : self.end]


@dataclass(slots=True)
class _Item:
    """A word, a value or a punctuation gap of a sentence, in reading order."""

    kind: Literal["word", "value", "gap", "code"]
    text: str
    start: int
    end: int
    family: Family | None = None
    token: Token | None = None
    keys: frozenset[str] = frozenset()  # the keys of its content words (a word's own, a name's words)


def family_of(value: Value) -> Family:
    token = value.token
    if value.kind == "percent":
        return "percent"
    if value.kind == "date" or (token is not None and _year_like(token)):
        return "date"
    if value.kind == "time":
        return "time"
    if value.kind in ("money", "number"):
        return "amount"
    return "name"


def _year_like(token: Token) -> bool:
    number = token.number
    return (
        token.kind == "number"
        and number is not None
        and number == int(number)
        and _YEAR[0] <= number <= _YEAR[1]
        and "," not in token.text
    )


_NUMBER_WORD_RE: Final = re.compile(rf"\b(?:{'|'.join(_NUMBER_WORDS)})\b", re.IGNORECASE)


def _number_word_tokens(sentence: str) -> list[Token]:
    """Number words, with the figure that repeats them when there is one: "six (6)" is one value."""
    found: list[Token] = []
    for m in _NUMBER_WORD_RE.finditer(sentence):
        n = _NUMBER_WORDS[m.group().casefold()]
        repeat = re.match(rf"\s*\(\s*{n}\s*\)", sentence[m.end() : m.end() + 12])
        end = m.end() + (repeat.end() if repeat else 0)
        found.append(Token(sentence[m.start() : end], "number", ("num", Decimal(n)), m.start(), end))
    return found


_CODE_BEFORE: Final = re.compile(r"\b[A-Z]{3}\s?$")
_CODE_AFTER: Final = re.compile(r"\s?[A-Z]{3}\b")
_LABELLED: Final = re.compile(r"\s+[A-Za-z]?\d")
_NAME_WORD: Final = re.compile(r"[^\W\d_]+(?:['’.&-][^\W\d_]+)*\.?")


def _name_spans(sentence: str, taken: bytearray) -> list[tuple[int, int]]:
    """Capitalized runs ("Ellen Marsh", "A Kind of Hush", "Miami, Florida"), leading articles dropped; `taken`
    marks the characters already read as figures."""
    words = [(m.start(), m.end(), m.group()) for m in _NAME_WORD.finditer(sentence) if not taken[m.start()]]
    lower = {w for _, _, w in words if w[0].islower()}
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        start, _, word = words[i]
        if not word[0].isupper() or word.casefold() in _NAME_SKIP or word.casefold() in STOPWORDS:
            i += 1
            continue
        j = i
        while j + 1 < len(words) and not sentence[words[j][1] : words[j + 1][0]].strip():
            nxt = words[j + 1][2]
            if nxt[0].isupper():
                j += 1
            elif (
                nxt.casefold() in _NAME_JOINERS
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
                and nxt.casefold() not in _NAME_SKIP
                and _LABELLED.match(sentence, nxt_end) is None  # "Marisol Ortega, Unit 3A": a label follows
            ):
                span_end = nxt_end - (1 if nxt.endswith(".") else 0)
                j += 1
        if not (j == i and word.casefold().rstrip(".") in lower):
            spans.append((start, span_end))  # a lone capital on a word also written in lower case is no name
        i = j + 1
    return spans


def _items(sentence: str, with_names: bool, forced: tuple[int, int] | None) -> list[_Item]:
    items: list[_Item] = []
    taken = bytearray(len(sentence) + 1)

    def take(start: int, end: int) -> None:
        taken[start:end] = b"\x01" * (end - start)

    if forced is not None:  # a value given as plain words ("novel"): read as a name where it stands
        text = sentence[forced[0] : forced[1]]
        items.append(_Item("value", text, forced[0], forced[1], "name", keys=_keys(text)))
        take(*forced)
    words = [t for t in _number_word_tokens(sentence) if not taken[t.start]]
    for t in words:
        take(t.start, t.end)
    clear = [t for t in extract_tokens(sentence) if not any(taken[t.start : t.end])]
    tokens = [t for t in clear if t.kind in ("money", "number", "percent", "date", "time")] + words
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
        items.append(_Item("value", sentence[start:end], start, end, family, t))
    for t in clear:
        if t.kind == "code":  # "Unit 3A", "FY2025": an identifier, marking which thing or period is meant
            items.append(_Item("code", t.text, t.start, t.end, keys=frozenset({f"#{t.key[1]}"})))
    if with_names:
        for start, end in _name_spans(sentence, taken):
            items.append(_Item("value", sentence[start:end], start, end, "name", keys=_keys(sentence[start:end])))
            take(start, end)
    for m in _WORD_OR_GAP.finditer(sentence):
        if not taken[m.start()]:
            word = m.group()
            if word[0].isalpha():
                items.append(_Item("word", word, m.start(), m.end(), keys=_word_keys(word)))
            else:
                items.append(_Item("gap", word, m.start(), m.end()))
    items.sort(key=lambda item: item.start)
    return items


def _bound(sentence: str, start: int, end: int) -> Bound:
    before = _BOUND_BEFORE.search(sentence[max(0, start - 30) : start])
    if before is not None:
        return "upper" if before.group("upper") else "lower"
    after = _BOUND_AFTER.search(sentence[end : end + 20])
    if after is not None:
        return "upper" if after.group("upper") else "lower"
    return ""


def _period(items: list[_Item], at: int, left: Iterable[_Item]) -> str:
    """The time unit the value at `items[at]` is a rate per: "per month" / "a year" after it, "monthly" near it."""
    ahead = [i for i in items[at + 1 : at + 5] if i.kind != "gap"]
    for first, second in itertools.pairwise(ahead):
        if first.text.casefold() in _PER and second.text.casefold() in _TIME_UNITS:
            return _TIME_UNITS[second.text.casefold()]
    for item in [*left, *ahead[:2]]:
        unit = _RATE_ADJECTIVES.get(item.text.casefold())
        if unit is not None:
            return unit
    return ""


def _range_joint(items: list[_Item], near: int, far: int) -> bool:
    """Only connecting words (no content word, no punctuation) stand between two values: "at least 10 and not
    more than 50 days", "from 10 to 50". The later value shares the earlier one's subject."""
    between = items[min(near, far) + 1 : max(near, far)]
    return all(i.kind == "word" and not _content(i.text) for i in between)


def _side(items: list[_Item], at: int, step: int, family: Family, skip: int | None) -> tuple[list[_Item], int]:
    """The content words on one side of `items[at]` that belong to its clause, nearest first (`skip`: its unit),
    and the index of the last item of the clause read on that side."""
    out: list[_Item] = []
    stops = _RIGHT_STOP if step > 0 else (_LEFT_STOP | {","} if family == "name" else _LEFT_STOP)
    limit = RIGHT_WORDS if step > 0 else LEFT_WORDS
    i, last = at + step, at
    while 0 <= i < len(items) and abs(i - at) <= _REACH_ITEMS:
        item = items[i]
        if item.kind == "gap" and item.text in stops:
            break
        figure = item.kind == "value" and item.family != "name"
        crossing = figure and family != "name" and (step > 0 or item.family == family)
        if crossing and not (step < 0 and item.family == family and _range_joint(items, i, at)):
            break
        last = i
        if item.kind in ("word", "value") and not figure and item.keys and i != skip:  # words and names
            out.append(item)
            if len(out) >= limit:
                break
        i += step
    return out, last


def _lead(items: list[_Item], at: int) -> str:
    """The preposition governing the value at `items[at]`: the nearest one before it, within a few items."""
    for item in reversed(items[max(0, at - _LEAD_REACH) : at]):
        if item.kind == "gap" and item.text in _RIGHT_STOP:
            return ""
        if item.kind == "word" and item.text.casefold() in _PREPOSITIONS:
            return item.text.casefold()
    return ""


def _period_mark(item: _Item) -> tuple[str, ...]:
    """A year or date standing in an amount's clause: the period the amount is for ("$316 million ... in 2019")."""
    if item.kind == "value" and item.family == "date" and item.token is not None:
        return (f"@{str(item.token.key[1])[:4]}",)
    return ()


def _unit(items: list[_Item], at: int, sentence: str) -> int | None:
    """The index of the word an amount is counted in, right after it ("15 days", "five Units", "$693 million")."""
    if at + 1 >= len(items) or items[at].family not in ("amount", "percent"):
        return None
    nxt = items[at + 1]
    counted = nxt.kind == "word" or (nxt.kind == "value" and nxt.family == "name" and len(nxt.keys) == 1)
    counted = counted and not _PAST.search(nxt.text)  # "0 opposed" is a count and what it did, not a unit
    if counted and nxt.keys and not sentence[items[at].end : nxt.start].strip():
        return at + 1
    return None


def _label(items: list[_Item], at: int, sentence: str) -> bool:
    """A name right before a figure or code labels it ("Unit 3A", "Route 31"): an identifier, not a value."""
    following = _LABELLED.match(sentence, items[at].end)
    return items[at].family == "name" and following is not None


# Copular verbs (a closed class): "<name> is the seventh studio album" says what the name is.
_COPULAS: Final = frozenset("is are was were be been becomes became remains remained".split())
_DETERMINERS: Final = frozenset("a an the its their his her".split())


def _named(item: _Item) -> bool:
    """A name, or (when names are not read as values) a capitalized word, which may be part of one."""
    return (item.kind == "value" and item.family == "name") or (item.kind == "word" and item.text[:1].isupper())


def _descriptions(items: list[_Item]) -> frozenset[str]:
    """The keys of the words of every noun phrase a sentence predicates of a name or sets beside it: after "<name>
    is/was (a/the)" or "<name>, (a/the)", up to the first word that is no part of a noun phrase (a preposition, a
    verb, punctuation). They describe the named thing; they do not make it another thing."""
    out: set[str] = set()
    for at, item in enumerate(items):
        if not _named(item):
            continue
        i = at + 1
        if i < len(items) and (items[i].text.casefold() in _COPULAS or items[i].text == ","):
            i += 1
            while i < len(items) and items[i].text.casefold() in _DETERMINERS:
                i += 1
            while i < len(items) and items[i].keys and (items[i].kind == "word" or items[i].family == "name"):
                if items[i].text.casefold() in _PREPOSITIONS or _PAST.search(items[i].text):
                    break
                out |= items[i].keys
                i += 1
    return frozenset(out)


def _heads(items: list[_Item]) -> frozenset[tuple[str, str]]:
    """(name word key, head key) for every name a noun governs in the sentence: "a remastered edition of X", "the
    remake of X", "X's reissue". A value of that clause belongs to the edition or the remake, not to X itself."""
    out: set[tuple[str, str]] = set()
    for at, item in enumerate(items):
        if not _named(item):
            continue
        head: _Item | None = None
        before = [i for i in items[max(0, at - 3) : at] if i.text.casefold() not in _DETERMINERS]
        if len(before) >= 2 and before[-1].text.casefold() == "of" and before[-2].kind == "word":
            head = before[-2]
        elif item.text.endswith(("'s", "’s")) and at + 1 < len(items) and items[at + 1].kind == "word":
            head = items[at + 1]
        if head is not None and head.keys and not _PAST.search(head.text):
            out |= {(n, h) for n in item.keys for h in head.keys}
    return frozenset(out)


@lru_cache(maxsize=4096)
def occurrences(
    sentence: str, with_names: bool = True, forced: tuple[int, int] | None = None
) -> tuple[Occurrence, ...]:
    """Every value of `sentence` (figures, dates, times, number words, and with `with_names` capitalized names),
    each with the context its slot is read from; `forced` is a span to read as a value whatever it is."""
    items = _items(sentence, with_names, forced)
    words = frozenset(k for i in items if i.kind != "code" for k in i.keys)
    modifiers = frozenset(
        (next(iter(a.keys)), next(iter(b.keys)))
        for a, b in itertools.pairwise(items)
        if a.kind == b.kind == "word"
        and a.keys
        and b.keys
        and (
            sentence[a.end : b.start] == "-"  # "odd-numbered": one compound modifier
            # "the manager reported" is a subject and its verb, not a modifier and a noun
            or (not sentence[a.end : b.start].strip() and not _PAST.search(b.text))
        )
    )
    described, heads = _descriptions(items), _heads(items)
    found: list[Occurrence] = []
    for at, item in enumerate(items):
        if item.kind != "value" or item.family is None or _label(items, at, sentence):
            continue
        unit = _unit(items, at, sentence)
        left, first = _side(items, at, -1, item.family, unit)
        right, last = _side(items, at, 1, item.family, unit)
        clause = frozenset(k for i in (*items[first:at], *items[at + 1 : last + 1]) for k in i.keys)
        frame = " ".join(
            "#" if i.kind == "value" and i.family != "name" else i.text.casefold() for i in items[first : last + 1]
        )
        around = (*items[first:at], *items[at + 1 : last + 2])  # and the value the clause stops at, if one
        marks = frozenset(
            k
            for i in around
            for k in (i.keys if i.kind == "code" else _period_mark(i) if item.family != "date" else ())
        )
        context: dict[str, float] = {}
        capitalized: set[str] = set()
        for side in (left, right):
            for distance, word in enumerate(side):
                for key in word.keys:
                    context[key] = max(context.get(key, 0.0), 1 / (1 + distance))
                    if word.text[0].isupper():
                        capitalized.add(key)
        nearest = frozenset(k for side in (left, right) if side for k in side[0].keys)
        value = Value(item.text, item.token.kind, item.token) if item.token is not None else Value(item.text, "string")
        found.append(
            Occurrence(
                value=value,
                family=item.family,
                sentence=sentence,
                start=item.start,
                end=item.end,
                context=context,
                nearest=nearest,
                words=words,
                modifiers=modifiers,
                bound=_bound(sentence, item.start, item.end),
                period=_period(items, at, left[:4]),
                unit=min(items[unit].keys) if unit is not None else "",
                capitalized=frozenset(capitalized),
                clause=clause,
                lead=_lead(items, at),
                name_words=item.keys,
                marks=marks,
                frame=frame,
                described=described,
                heads=heads,
            )
        )
    return tuple(found)


def values_differ(a: Occurrence, b: Occurrence, tolerance_pct: float) -> bool:
    """Distinct values of one family: numbers beyond the tolerance, dates by day (a year alone agrees with any date
    of that year), names when neither names the other ("Marsh" is "Ellen Marsh"; "Louisiana" is no other place)."""
    if a.family == "name" or a.value.token is None or b.value.token is None:
        x, y = a.name_words, b.name_words
        if x and y and (x <= y or y <= x):
            return False
        p, q = " ".join(a.text.casefold().split()), " ".join(b.text.casefold().split())
        return levenshtein(p, q, NAME_EDITS) > NAME_EDITS
    ta, tb = a.value.token, b.value.token
    return _figures_differ(a.family, ta.kind, ta.key, tb.kind, tb.key, tolerance_pct)


@lru_cache(maxsize=16384)
def _figures_differ(
    family: Family, kind_a: TokenKind, key_a: Key, kind_b: TokenKind, key_b: Key, tolerance_pct: float
) -> bool:
    """`values_differ` for two figures, read from their tokens' kinds and keys alone (a rule compares the same
    pairs many times over: each stated value against every sentence of every quote and bundle)."""
    ta, tb = Token("", kind_a, key_a), Token("", kind_b, key_b)
    if family == "date":
        ya, yb = _year_of(ta), _year_of(tb)
        if (ta.kind == "number") != (tb.kind == "number"):  # a year against a full date: compare the years
            return ya != yb
        if ta.kind == tb.kind == "number":
            return ya != yb
        return ta.key != tb.key
    x_num, y_num = ta.number, tb.number
    if x_num is not None and y_num is not None:
        return numbers_differ(x_num, y_num, tolerance_pct)
    return ta.key != tb.key


def _year_of(token: Token) -> str:
    if token.kind == "number" and token.number is not None:
        return str(int(token.number))
    return str(token.key[1])[:4]


def same_slot(
    a: Occurrence,
    b: Occurrence,
    question: QuestionTerms = _NO_QUESTION,
    one_source: bool = False,
    listed: bool = False,
    documents: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
) -> str | None:
    """None when `a` and `b` are values of one slot, else why not (a short phrase for a finding's message).
    `one_source`: both come from one document, where one clause repeated with other figures is a list's rows
    ("Vote: 5 in favor" and "Vote: 4 in favor" under two motions), not a document contradicting itself.
    `listed`: the draft itself pairs the two values as one disagreement. A document often names its subject once (in
    its title, or a sentence earlier) and then says "The population was 4,233": the subject check is then lenient,
    and only two clauses each naming a part of the question's subjects the other does not are different subjects.
    Unasked, the check is strict both ways: a value is held against another only where both name the question's
    subject, in their clauses or in the titles of their documents (`documents`, `title_keys`: a page titled
    "Hillcrest School" that says "Established: 1850" names the school)."""
    if a.family != b.family:
        return "values of different kinds"
    if one_source and a.frame == b.frame:
        return "rows of one list"
    subject_a, subject_b = question.names & (a.clause | documents[0]), question.names & (b.clause | documents[1])
    if listed:
        if subject_a and subject_b and not (subject_a <= subject_b or subject_b <= subject_a):
            return "different subjects"  # "Hillcrest School" and "Maple School": each names another part
    elif (subject_a or subject_b) and not subject_a & subject_b:
        return "different subjects"  # or only one names what the question is about
    if a.sentence == b.sentence:
        return "one sentence giving two values"
    if a.marks and b.marks and not a.marks & b.marks:
        return "different things or periods named beside the values"  # "Unit 3A" / "Unit 2C", "FY18" / "FY19"
    if a.unit and b.unit and a.unit != b.unit:
        return "amounts counted in different units"
    if not a.context or not b.context:
        return "no words saying what the value is"
    if not (a.nearest & b.context.keys() or b.nearest & a.context.keys()):
        return "different words around the values"  # (cheap first: the weighted contexts are parts of these)
    ctx_a = _weighted(a, b, question)
    ctx_b = _weighted(b, a, question)
    if not ctx_a or not ctx_b:
        return "no words saying what the value is"
    if not (a.nearest & ctx_b.keys() or b.nearest & ctx_a.keys()):
        return "different words around the values"
    shared = sum(min(w, ctx_b[k]) for k, w in ctx_a.items() if k in ctx_b)
    overlap = 2 * shared / (sum(ctx_a.values()) + sum(ctx_b.values()))
    asked_a = {k for k in ctx_a if k in question.words}
    asked = bool(asked_a) and asked_a == {k for k in ctx_b if k in question.words} and a.lead == b.lead != ""
    if overlap < SAME_SLOT_OVERLAP and not asked:
        return "different words around the values"  # unless the question's words and relation are the same
    if a.family == "name" and question.words and not ctx_a.keys() & ctx_b.keys() & question.words:
        return "no word of the question around both names"  # a name says nothing of its role by itself
    for x, y in ((a, b), (b, a)):
        missing = [k for k in x.words if k in question.words and k not in question.names and k not in y.words]
        if missing:
            return "only one speaks of what the question asks"
    if a.bound != b.bound:
        return "a limit against an amount" if "" in (a.bound, b.bound) else "a minimum against a maximum"
    if a.period and b.period and a.period != b.period:
        return "rates over different periods"
    named = bool(subject_a and subject_b)
    for x, y in ((a, b), (b, a)):
        if _qualified(x, y, question, named) or (named and _governed(x, y, question)):
            return "a qualifier that narrows one subject"
    return None


def _governed(x: Occurrence, y: Occurrence, question: QuestionTerms) -> bool:
    """In `x`'s sentence a noun the question does not use, and `y`'s sentence lacks, governs the question's name: "a
    remastered edition of X was released on ..." gives the edition's date, not X's."""
    return any(n in question.names and h not in question.words and h not in y.words for n, h in x.heads)


def _weighted(x: Occurrence, other: Occurrence, question: QuestionTerms) -> dict[str, float]:
    """`x`'s context without the other value's own words and the question's names (the subject, compared on its
    own), the question's other words counting double: they say which slot the question is about."""
    return {
        k: w * (QUESTION_WEIGHT if k in question.words else 1.0)
        for k, w in x.context.items()
        if k not in other.name_words and not (k in question.names and k in x.capitalized)
    }


def _qualified(x: Occurrence, y: Occurrence, question: QuestionTerms, named: bool) -> bool:
    """A word modifying a word both contexts share, in `x`'s sentence only, narrows `x`'s subject."""
    shared = x.context.keys() & y.context.keys()
    for modifier, head in x.modifiers:
        if head not in shared or modifier in y.words or modifier in x.name_words or modifier in y.name_words:
            continue
        if named and modifier not in question.words and (modifier in x.described or head in question.names):
            continue  # a named subject is not narrowed by a description of it the question does not use
        return True
    return False
