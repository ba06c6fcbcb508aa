"""Words of the extractive model: tokens, their normalized forms (stemming-lite) and the stopwords.

Plain English heuristics only, with no knowledge of any document set.
"""

from __future__ import annotations

import re
from typing import Final

STOPWORDS: Final = frozenset(
    """a about after all also am an and any are as at be been before being between both but by can could did do
    does doing during each either for from get got had has have having he her here him his how i if in into is it
    its just me might more most must my no nor not of off on once only or other our out over own per please same
    she should so some such tell than that the their them then there these they this those through to too under
    until up us very was we were what when where which while who whom whose why will with would you your
    much many long go goes amount number value percentage percent proportion difference sum combined altogether together
    """.split()
)

TOKEN = re.compile(r"[^\W_]+(?:[.,'’][^\W_]+)*", re.UNICODE)
_PART = re.compile(r"[^\W\d_]+|\d+(?:[.,]\d+)*", re.UNICODE)


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
    for raw in TOKEN.findall(text):
        parts = _PART.findall(raw)
        forms.append({normalize(raw)} | ({normalize(p) for p in parts} if len(parts) > 1 else set()))
    return forms


def tokens(text: str) -> set[str]:
    """Normalized tokens of a text, as a set."""
    return set().union(*token_forms(text))


def content_tokens(text: str) -> set[str]:
    """A line's own words: no stopwords, nothing with a digit (values differ between agreeing lines)."""
    return {w for w in tokens(text) if len(w) > 1 and w not in STOPWORDS and not any(c.isdigit() for c in w)}
