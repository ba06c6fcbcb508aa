"""The words a value's slot is read from (`slots.py`): how two spellings of one word are matched, the general word
categories a slot reading needs (number words, time units, comparison words, prepositions), and the question read
as context (its content words, and the words of the names it gives).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from quotebound.agent.gate.vocabulary import STOPWORDS, fold
from quotebound.agent.gate.vocabulary import stem as _light_stem

Family = Literal["amount", "percent", "date", "time", "name"]
Bound = Literal["", "lower", "upper"]

_KEY_LETTERS: Final = 6  # words are compared on the first six letters of their stem ("political" = "politics")

# Number words (a general category): "five Units", "four days". "one" is left out: it is a pronoun as often.
NUMBER_WORDS: Final = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
    if n >= 2
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}
# Words that join the words of one name ("Bank of America", "Leonardo da Vinci"), and words that never start one.
NAME_JOINERS: Final = frozenset("of the de da di del della van von der den du la le and &".split())
NAME_SKIP: Final = frozenset("the a an no in on at by for from to of and or but as if when while this that".split())
# Time units (a general category), and the adjectives that make a value a rate per one of them.
TIME_UNITS: Final = {
    "hour": "hour", "hours": "hour", "day": "day", "days": "day", "week": "week", "weeks": "week",
    "month": "month", "months": "month", "quarter": "quarter", "quarters": "quarter", "year": "year",
    "years": "year", "annum": "year",
}  # fmt: skip
RATE_ADJECTIVES: Final = {
    "hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
    "annual": "year", "annually": "year", "yearly": "year",
}  # fmt: skip
PER: Final = frozenset({"per", "a", "an", "each", "every", "/"})
# Comparison words that make a value a limit (a general category): what sits right before or right after it.
BOUND_BEFORE: Final = re.compile(
    r"\b(?:(?P<upper>at most|not more than|no more than|not to exceed|not exceeding|up to|maximum(?: of)?|max\.?"
    r"|less than|fewer than|under|below|within)|(?P<lower>at least|not less than|no less than|not fewer than"
    r"|no fewer than|minimum(?: of)?|min\.?|more than|greater than|over|above|in excess of))\s*[$€£¥₹]?$",
    re.IGNORECASE,
)
BOUND_AFTER: Final = re.compile(
    r"^\s*(?:(?P<lower>or more|or greater|or above|or over|minimum)|(?P<upper>or less|or fewer|or below|maximum))\b",
    re.IGNORECASE,
)
# Prepositions (a closed class): the one governing a value names its relation to the subject ("based in",
# "directed by", "born on").
PREPOSITIONS: Final = frozenset(
    "about above across after against along among around at before behind below beneath beside between beyond by "
    "during for from in inside into near of off on onto over per since through throughout to toward towards under "
    "until upon via with within without".split()
)
# Copular verbs (a closed class): "<name> is the seventh studio album" says what the name is.
COPULAS: Final = frozenset("is are was were be been becomes became remains remained".split())
DETERMINERS: Final = frozenset("a an the its their his her".split())
PAST: Final = re.compile(r"[^e]ed$", re.IGNORECASE)  # a past tense or participle ("reported", "noted")
WORD_OR_GAP: Final = re.compile(r"[^\W\d_]+(?:['’&][^\W\d_]+)*|[,;:()\[\]|]", re.UNICODE)
# Scale words belong to the figure they follow ("$693 million"); they say nothing of what it is the value of.
_SCALE_WORDS: Final = frozenset({"thousand", "thousands", "million", "millions", "billion", "billions", "trillion"})


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """The light stem, and for a short past tense it leaves whole its verb: "died" = "die", "used" = "use", "tied" =
    "tie" (the stem strips "-ed" only where three letters stay, and keeps a final "e" on three-letter words)."""
    found = _light_stem(word)
    folded = fold(word)
    if found == folded and folded.endswith("ed") and not folded.endswith("eed") and len(folded) >= 4:
        return _light_stem(folded[:-1])
    return found


@lru_cache(maxsize=16384)
def word_key(word: str) -> str:
    """How two spellings of one word are matched: the first letters of its stem."""
    return stem(word)[:_KEY_LETTERS]


@lru_cache(maxsize=16384)
def is_content(word: str) -> bool:
    """A word that says what a value is of: no stopword, number word or scale word, three letters at least."""
    folded = fold(word)
    return len(word) >= 3 and folded not in STOPWORDS and folded not in NUMBER_WORDS and folded not in _SCALE_WORDS


@lru_cache(maxsize=16384)
def word_keys(word: str) -> frozenset[str]:
    """A word's key, when it is a content word."""
    return frozenset({word_key(word)}) if is_content(word) else frozenset()


def text_keys(text: str) -> frozenset[str]:
    """The keys of the content words of `text`."""
    return frozenset(word_key(w) for w in WORD_OR_GAP.findall(text) if w[0].isalpha() and is_content(w))


@lru_cache(maxsize=16384)
def text_stems(text: str) -> frozenset[str]:
    """The whole stems of the content words of `text` ("established" -> "establish"; its key is "establ")."""
    return frozenset(stem(w) for w in WORD_OR_GAP.findall(text) if w[0].isalpha() and is_content(w))


@lru_cache(maxsize=1024)
def title_keys(title: str) -> frozenset[str]:
    """The keys of the content words of a document's title: what every line of the document is about."""
    return text_keys(title)


@dataclass(frozen=True)
class QuestionTerms:
    """The question as context: its content words, and the words of the names it gives (its subject)."""

    words: frozenset[str]
    names: frozenset[str]
    asks_entity: bool  # who / whom / whose / where / which: the answer is a name
    asked: frozenset[str] = frozenset()  # the whole stems of `attribute`'s words
    verbs: frozenset[str] = frozenset()  # the keys of its verb after the subject ("built" in "When was X built?")
    apposed: frozenset[str] = frozenset()  # the keys of an apposition to the subject's name ("X, the judge,")

    @property
    def attribute(self) -> frozenset[str]:
        """What the question asks of its subject: its content words that name nothing and do not say which thing
        the subject is ("born", "population"; not "judge" in "When was X, the judge, born?")."""
        return self.words - self.names - self.apposed


NO_QUESTION: Final = QuestionTerms(frozenset(), frozenset(), False)
# Questions whose answer is a name: who, whom, whose, where, which, "what is the name of".
_ENTITY_QUESTION: Final = re.compile(r"\b(?:who|whom|whose|where|which)\b|\bwhat (?:\w+ )?name\b", re.I)
_QUOTED: Final = re.compile(r"[\"“”'‘’`]{1,2}([^\"“”`]{2,80}?)[\"“”'‘’`]{1,2}")


@lru_cache(maxsize=256)
def question_terms(question: str | None) -> QuestionTerms:
    """The question's content words and name words: capitalized words after its first, and quoted titles."""
    if not question:
        return NO_QUESTION
    words = [m.group() for m in WORD_OR_GAP.finditer(question) if m.group()[0].isalpha()]
    tellers = _tellers(words)
    names = {word_key(w) for w in words[1:] if w[0].isupper() and is_content(w)} - tellers
    for quoted in _QUOTED.findall(question):
        names |= {word_key(w) for w in WORD_OR_GAP.findall(quoted) if w[0].isalpha() and is_content(w)}
    content = frozenset(word_key(w) for w in words if is_content(w)) - tellers
    apposed = _apposed(question) - names
    asked = frozenset(stem(w) for w in words if is_content(w) and word_key(w) not in names | tellers | apposed)
    entity = bool(_ENTITY_QUESTION.search(question))
    return QuestionTerms(content, frozenset(names), entity, asked, _verb_keys(words) - apposed, apposed)


# An apposition right after a name, set off by a comma and opened by an article: "When was Sir Andrew McFarlane,
# the judge, born?". It says which thing of that name is meant, not what is asked of it.
_APPOSITION: Final = re.compile(r"[A-Z][^\s,]*[\"”’']?,\s+(?:the|a|an)\s+([^,?;:()]{1,60}?)\s*(?:,|\?|$)")


def _apposed(question: str) -> frozenset[str]:
    """The keys of the content words of each apposition to a name in the question (`_APPOSITION`)."""
    return frozenset(
        word_key(w)
        for m in _APPOSITION.finditer(question)
        for w in WORD_OR_GAP.findall(m.group(1))
        if w[0].isalpha() and is_content(w)
    )


# Verbs of telling (a semantic class: saying, reporting): "What ... did the Treasurer report?" asks what someone
# told. "record" and "write" are left out: they also make things ("did The Beatles record ...").
_TELLING: Final = frozenset(
    """say says said tell tells told state states stated report reports reported note notes noted announce
    announces announced mention mentions mentioned""".split()
)
_DO: Final = frozenset({"do", "does", "did"})
_ARTICLES: Final = frozenset({"the", "a", "an"})


def _tellers(words: list[str]) -> frozenset[str]:
    """The keys of the name a question makes the subject of a verb of telling after "do" ("What monthly regular
    assessment did the Treasurer report for FY2025?"): who tells the value, a source, not what the value is of."""
    for i, w in enumerate(words):
        if w.casefold() not in _TELLING:
            continue
        j = i - 1
        while j >= 0 and words[j].casefold() not in _DO and (words[j][0].isupper() or words[j].casefold() in _ARTICLES):
            j -= 1
        between = words[j + 1 : i]
        if j >= 0 and words[j].casefold() in _DO and any(x[0].isupper() for x in between):
            return frozenset(word_key(x) for x in between if x[0].isupper() and is_content(x))
    return frozenset()


# The auxiliaries a question inverts before its subject ("When was X built?", "Where is X located?"): a closed class.
_AUXILIARIES: Final = frozenset("am is are was were be been do does did has have had".split())


def _verb_keys(words: list[str]) -> frozenset[str]:
    """In a question whose auxiliary stands before its subject ("When was the Dallas County Courthouse built?"),
    the lowercase content words after the subject's last capitalized word are its main verb ("built",
    "associated"): what happened to the subject, not a noun a word before it could narrow."""
    if len(words) < 3 or not any(w.casefold() in _AUXILIARIES for w in words[1:3]):
        return frozenset()
    capitals = [n for n, w in enumerate(words) if n > 0 and w[0].isupper()]
    if not capitals:
        return frozenset()
    return frozenset(word_key(w) for w in words[capitals[-1] + 1 :] if w[0].islower() and is_content(w))
