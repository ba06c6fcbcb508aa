"""Words a claim uses to talk about its evidence, or that its quotes bear out by their form rather than their words.

- Talking about the sources is no claim about the world: a document noun, or a word of a cited source's id ("another
  copy of the article says", "a data record gives", "an infobox lists", "the two biographies agree", "the adopted
  budget states") where the claim reports what a document
  says (a reporting verb in the sentence, or "according to" / "in" / "from" before it), with what describes that
  document before it: a count or an ordinal no larger than the number of documents the draft read ("a second
  version"), a word comparing documents ("a near-identical document"), the organization that wrote it ("the
  Company's disclosure"), or a plain word the documents the model read write ("the pensions note"). Names,
  polarity, modality, direction and numbers stay checked everywhere.
- The kind of a value the claim states: "date" beside a date ("the release date as November 1, 2007"), "amount"
  or "value" beside a figure.
- Birth and death for a biography's span: "Roland Ritchie (June 19, 1910 – June 5, 1988)" gives his birth and his
  death, and a claim that dates them must give the span's first date for the birth and its last for the death.
- An ordinal ranking the periods its quotes give ("from the first to the second period" over two quoted date
  ranges), unless the quotes rank with ordinals of their own; and a count of the values a quote lists ("in any of
  the three years" for "2019, 2018 and 2017").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.allowance import plain_vocabulary
from quotebound.agent.gate.claims import Claim, QuoteSpan
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.naming import source_words
from quotebound.agent.gate.quoted import Evidence, Word, meaning_word, strict
from quotebound.agent.gate.tokens import Token, extract_tokens
from quotebound.agent.gate.vocabulary import (
    BIRTH_WORDS,
    COUNT_NOUNS,
    DATE_NOUNS,
    DEATH_WORDS,
    DOCUMENT_NOUNS,
    NUMBER_WORDS,
    ORDINALS,
    ORGANIZATION_WORDS,
    PERIOD_NOUNS,
    REPORTING_VERBS,
    WORD,
    Vocabulary,
    fold,
    in_category,
    is_content,
)

# Words that compare documents with one another ("a near-identical copy", "the original version", "a later
# edition"): they describe a document, never the subject, when they describe a document noun.
SOURCE_COMPARISON: Final = frozenset(
    """alternate alternative conflicting corresponding different duplicate earlier identical later near newer older
    original other relevant respective revised same second separate similar updated""".split()
)
# Words that open a noun phrase: a document's description starts after them.
_DETERMINERS: Final = frozenset(
    "the a an one another each both its his her their this that these those our every any either neither".split()
)
_SOURCE_PREPOSITIONS: Final = frozenset("in from per under".split())
_CONJUNCTIONS: Final = frozenset("and but while whereas though although".split())
_COORDINATORS: Final = frozenset("and or".split())
_FOCUS: Final = frozenset("also just further still".split())  # adverbs between a document and its verb ("only": -ly)
_MODIFIER_GAP: Final = re.compile(r"\s+|\s*[-–]\s*|,\s+")
_MAX_MODIFIERS: Final = 3
_DEFINITE: Final = frozenset("the all these those each both its their".split())
_ELIDED_VALUE: Final = re.compile(r"\s+[$€£]?\d")  # a value right after a word: "and a third 22 October"
_ANAPHORIC: Final = frozenset("that same".split())  # "that year", "the same day": the period already named
_RANGE: Final = re.compile(r"\s*(?:[-–—]|to|through|until)\s*", re.I)
_SPAN: Final = re.compile(r"\(([^()]{4,80}?)\s*[–—-]{1,2}\s*([^()]{4,80}?)\)")


def _known_sources(claim: Claim, inputs: GateInputs) -> int:
    """How many documents the claim may count: the sources of its quotes and of every bundle the model read."""
    return len({q.source_id for q in claim.quotes} | {b.source_id for b in inputs.bundles})


def _describes_source(token: str, inputs: GateInputs, question: Vocabulary, count: int) -> bool:
    """`token` (a word before a document noun) describes the document: a count or ordinal no larger than `count`,
    a word comparing documents, its author, or a plain word of the documents the model read or of the question."""
    folded = fold(token).removesuffix("'s").removesuffix("’s")
    if folded in NUMBER_WORDS:
        return 0 < NUMBER_WORDS[folded] <= count
    if folded in ORDINALS:
        return ORDINALS[folded] <= count
    if folded in SOURCE_COMPARISON or in_category(folded, ORGANIZATION_WORDS) or in_category(folded, DOCUMENT_NOUNS):
        return True
    if token[0].isupper() or meaning_word(folded) or strict(folded):
        return False  # a name, or a word that asserts: held like any other
    return plain_vocabulary(inputs).covers(folded) or question.covers(folded)


def about_sources(claim: Claim, inputs: GateInputs, question: Vocabulary) -> set[int]:
    """The offsets (in `claim.text`) of the words that talk about documents (see the module docstring)."""
    text = claim.text
    tokens = list(WORD.finditer(text))
    low = [fold(m.group()) for m in tokens]
    reporting = [k for k, w in enumerate(low) if in_category(w, REPORTING_VERBS)]
    count = _known_sources(claim, inputs)
    # a cited document's own name is a document noun too ("the adopted budget states" for budget-2025.md)
    ids = source_words(inputs, {q.source_id for q in claim.quotes})[0]
    free: set[int] = set()
    for k, w in enumerate(low):
        author = in_category(w, ORGANIZATION_WORDS) and k + 1 in reporting
        if not (in_category(w, DOCUMENT_NOUNS) or author or (is_content(w) and ids.covers(w))):
            continue
        modifiers, start = _described(text, tokens, low, k)
        if len(modifiers) > _MAX_MODIFIERS or not _reports(text, tokens, low, k, start, reporting):
            continue
        free.add(tokens[k].start())
        verb = _verb_after(text, tokens, low, k)
        if verb in reporting:
            free.add(tokens[verb].start())  # "two documents attribute it to": the verb says what the documents do
        free.update(
            tokens[m].start() for m in modifiers if _describes_source(tokens[m].group(), inputs, question, count)
        )
    return free


def _verb_after(text: str, tokens: Sequence[re.Match[str]], low: Sequence[str], k: int) -> int:
    """The index of the word after the noun `low[k]`, past adverbs that only qualify a verb there ("the minutes only
    record", "the note also lists"): where a reporting verb of that noun stands. The words between stay checked."""
    j = k + 1
    while (
        j < len(low) - 1
        and (low[j] in _FOCUS or low[j].endswith("ly"))
        and not text[tokens[j - 1].end() : tokens[j].start()].strip()
    ):
        j += 1
    return j


def _described(text: str, tokens: Sequence[re.Match[str]], low: Sequence[str], k: int) -> tuple[list[int], int]:
    """The words before the noun `low[k]` that describe it, and where its noun phrase starts (its determiner). An
    "and" / "or" joins modifiers ("the property, plant and equipment note") only where a determiner opens the whole
    phrase; otherwise it opens a clause, as any conjunction does."""
    modifiers: list[int] = []
    clause: tuple[list[int], int] | None = None  # what the phrase is if the last "and" / "or" opened a clause
    j = k - 1
    while j >= 0 and _MODIFIER_GAP.fullmatch(text[tokens[j].end() : tokens[j + 1].start()]):
        if low[j] in _DETERMINERS:
            return modifiers, j
        if low[j] in _COORDINATORS and modifiers and clause is None:
            clause = (list(modifiers), j + 1)
            j -= 1
            continue
        if low[j] in _CONJUNCTIONS:
            return clause or (modifiers, j + 1)  # "..., although two documents": a clause opens, no determiner
        if low[j] != "otherwise" and not low[j].endswith("ly"):  # "a second, otherwise near-identical document"
            modifiers.append(j)
            if len(modifiers) > _MAX_MODIFIERS:
                break
        j -= 1
    return clause or (modifiers, j + 1)


def _reports(
    text: str, tokens: Sequence[re.Match[str]], low: Sequence[str], k: int, start: int, reporting: Sequence[int]
) -> bool:
    """The document phrase `low[start..k]` is the source of what the claim reports: the subject of a reporting verb
    after it ("a data record gives"), the object of "according to", "in", "from" ("in the minutes"), or the subject
    of a clause that leaves out the reporting verb stated before it ("One article gives X, and a second version
    Y")."""
    if any(r > k for r in reporting):
        return True
    if start == 0:
        return False
    opener = low[start - 1]
    if opener in _SOURCE_PREPOSITIONS or (opener == "to" and start >= 2 and low[start - 2] == "according"):
        return True
    gap = text[tokens[start - 1].end() : tokens[start].start()]
    return any(r < start for r in reporting) and (opener in _CONJUNCTIONS or bool(re.search(r"[,;]", gap)))


def counts_documents(found: Sequence[Word], i: int, claim: Claim, inputs: GateInputs) -> bool:
    """`found[i]` (a number or an ordinal) counts documents, no more than the draft read: the next content word
    names one ("two sources"), or reports ("a second says")."""
    after = found[i + 1].text if i + 1 < len(found) else ""
    named = bool(after) and (in_category(after, DOCUMENT_NOUNS) or in_category(after, REPORTING_VERBS))
    if not (named or _elided(found, i, claim.text)):
        return False
    folded = fold(found[i].text)
    n = NUMBER_WORDS.get(folded, ORDINALS.get(folded, 0))
    return 0 < n <= _known_sources(claim, inputs)


def _elided(found: Sequence[Word], i: int, text: str) -> bool:
    """`found[i]` is an ordinal standing for a document whose noun and verb are left out, a value right after it,
    after a document noun ("another page gives 22 October 1900 and a third 22 October 1885")."""
    w = found[i]
    if fold(w.text) not in ORDINALS or not _ELIDED_VALUE.match(text, w.start + len(w.text)):
        return False
    return any(in_category(f.text, DOCUMENT_NOUNS) for f in found[:i])


# --- what the quotes bear out by their form ---------------------------------------------------------------------


def _year(value: Decimal) -> bool:
    return value == value.to_integral_value() and 1000 <= value <= 2999


def states_kind(word: str, text: str) -> bool:
    """`word` names the kind of a value `text` states: a date noun beside a date or a year, a count noun beside a
    figure."""
    if in_category(word, DATE_NOUNS):
        return _kinds(text)[0]
    if in_category(word, COUNT_NOUNS):
        return _kinds(text)[1]
    return False


@lru_cache(maxsize=1024)
def _kinds(text: str) -> tuple[bool, bool]:
    """Whether `text` states a date or a year, and whether it states a figure (read once per claim, not per word)."""
    tokens = extract_tokens(text)
    dated = any(t.kind == "date" or (t.number is not None and _year(t.number)) for t in tokens)
    return dated, any(t.kind in ("number", "money", "percent") for t in tokens)


def _dated(t: Token) -> set[str]:
    if t.kind == "date" and isinstance(t.key[1], str):
        return {t.key[1], t.key[1][:4]}
    return {str(int(t.number))} if t.number is not None and _year(t.number) else set()


@lru_cache(maxsize=1024)
def _when(text: str) -> frozenset[str]:
    """The dates and years `text` states, as ISO strings and years ("1910-06-19", "1910")."""
    return frozenset(d for t in extract_tokens(text) for d in _dated(t))


@lru_cache(maxsize=256)
def _first_dated(text: str) -> int | None:
    """Where the first date or year `text` states ends (read once per claim: a period noun asks what comes before
    it)."""
    return next((t.end for t in extract_tokens(text) if _dated(t)), None)


def _word_before(text: str, end: int) -> str:
    """The last word of `text[:end]`, folded, or "". Read in a window that widens until it holds a whole word, so a
    long claim is not re-read from its start for each of its words."""
    size = 64
    while True:
        start = max(0, end - size)
        found = list(WORD.finditer(text, start, end))
        if start == 0 or len(found) >= 2:  # a first match in the window may be a word cut by the window
            return fold(found[-1].group()) if found else ""
        size *= 4


def life_event(word: str, claim: Claim) -> bool:
    """`word` is a birth or death word and a quote gives a biography's span whose first (birth) or last (death) date
    is one the claim states, or the claim states no date at all."""
    birth = in_category(word, BIRTH_WORDS)
    if not birth and not in_category(word, DEATH_WORDS):
        return False
    stated = _when(claim.text)
    for q in claim.quotes:
        for m in _SPAN.finditer(q.quote):
            end = _when(m.group(1) if birth else m.group(2))
            if end and (not stated or stated & end):
                return True
    return False


@lru_cache(maxsize=256)
def _periods(quotes: tuple[QuoteSpan, ...]) -> int:
    """How many distinct periods the quotes date: each date or year once, a range ("January 26, 2019 - February 22,
    2019") as one period."""
    periods: set[tuple[str, ...]] = set()
    for q in quotes:
        dated = [t for t in extract_tokens(q.quote) if _when(t.text)]
        k = 0
        while k < len(dated):
            if k + 1 < len(dated) and _RANGE.fullmatch(q.quote[dated[k].end : dated[k + 1].start]):
                periods.add((_key(dated[k]), _key(dated[k + 1])))
                k += 2
            else:
                periods.add((_key(dated[k]),))
                k += 1
    return len(periods)


def _key(token: Token) -> str:
    return str(token.key[1])


def ranks_periods(found: Sequence[Word], i: int, claim: Claim, evidence: Evidence) -> bool:
    """`found[i]` is an ordinal before a period noun ("the second period", "the first and second quarters") and the
    quotes, which use no ordinal of their own, give at least that many dated periods."""
    folded = fold(found[i].text)
    if folded not in ORDINALS or evidence.ordinal or i + 1 >= len(found):
        return False
    j = i + 1
    if fold(found[j].text) in ORDINALS and j + 1 < len(found):
        j += 1  # "from the first to the second period": two ordinals share the noun
    return in_category(found[j].text, PERIOD_NOUNS) and _periods(claim.quotes) >= ORDINALS[folded]


def refers_back(text: str, found: Sequence[Word], i: int) -> bool:
    """`found[i]` is a period noun that refers back to a year or date the claim states before it ("in fiscal 2019
    ... that year", "on March 1 and the same day"), not a new period."""
    if not in_category(found[i].text, PERIOD_NOUNS) or found[i].text.lower().endswith("s"):
        return False
    if _word_before(text, found[i].start) not in _ANAPHORIC:
        return False
    first = _first_dated(text)
    return first is not None and first <= found[i].start


def counted_values(text: str, found: Sequence[Word], i: int, claim: Claim) -> bool:
    """`found[i]` and the period or date noun after it count the years or dates one quote lists ("the three years"
    for "2019, 2018 and 2017"), after a word that refers back to them ("the", "all", "each", "both")."""
    folded = fold(found[i].text)
    if folded not in NUMBER_WORDS or i + 1 >= len(found):
        return False
    noun = found[i + 1].text
    if not (in_category(noun, PERIOD_NOUNS) or in_category(noun, DATE_NOUNS)):
        return False
    if _word_before(text, found[i].start) not in _DEFINITE:
        return False
    return any(len({d[:4] for d in _when(q.quote)}) == NUMBER_WORDS[folded] for q in claim.quotes)


__all__ = [
    "SOURCE_COMPARISON",
    "about_sources",
    "counted_values",
    "counts_documents",
    "life_event",
    "ranks_periods",
    "refers_back",
    "states_kind",
]
