"""Question analysis of the extractive model: a question's content words, the kind of value it asks for, the rate,
the arithmetic and whether it asks yes or no.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from quotebound.agent.gate.question_words import AUXILIARIES
from quotebound.agent.models.extractive_cues import CUE_RES, PERIODS, cue
from quotebound.agent.models.extractive_words import STOPWORDS, TOKEN, contracted_stopword, normalize

# "number" that is not "number of" / "numbers of" (a count) and not "a/the total number": an identifier's name.
_NAMED_NUMBER: Final = re.compile(r"(?<!total )(?<!maximum )(?<!minimum )\bnumbers?\b(?!\s+of\b)")
_KIND_ORDER: Final = ("percent", "duration", "count", "date", "identifier", "entity", "money", "amount")


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
    first = TOKEN.search(text)
    if first is None:
        return False
    if first.group().lower().replace("’", "'") in AUXILIARIES:
        return True
    head, comma, rest = text.partition(",")
    after = TOKEN.search(rest)
    framed = comma and after is not None and after.group().lower().replace("’", "'") in AUXILIARIES
    return bool(framed) and not any(t.lower() in _WH_WORDS for t in TOKEN.findall(head))


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
        for match in CUE_RES[f"period:{period}"].finditer(lowered):
            period_words.update(normalize(t) for t in TOKEN.findall(match.group()) if t not in STOPWORDS)
    words: list[str] = []
    spelled: list[str] = []
    acronyms: set[str] = set()
    for raw in TOKEN.findall(text):
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
