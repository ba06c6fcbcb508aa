"""Whether an answer gives a value of the kind its question asks for: who -> a name, when -> a date, a time or the
event it depends on, how many/much -> a figure (how much + verb: an amount, not a length of time), what percentage
-> a percentage, which year -> a year, which section -> a section, where -> a place, yes/no -> a polarity (yes, no,
a modal or polarity word, or the question's own statement). An `open` question ("what", "how", "why" ...) asks no
form. The kinds are read by `question.py`; the words that fill each kind are general English categories.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from quotebound.agent.gate.answer_agent import quoted_agent
from quotebound.agent.gate.answer_binding import reading
from quotebound.agent.gate.answer_place import origin, places
from quotebound.agent.gate.answer_text import (
    PREFIX,
    VALUE_KINDS,
    Figure,
    Quoted,
    answer_figures,
    cells,
    era,
    figures,
    is_year,
    next_word,
    same_figure,
    sentences_with,
    shares,
)
from quotebound.agent.gate.answer_version import gives_version
from quotebound.agent.gate.question import (
    AUXILIARIES,
    COPULAS,
    FRACTIONS,
    FREQUENCY,
    LOCATIVE,
    MONTHS,
    NIL,
    POLARITY,
    TEMPORAL,
    TIME_UNITS,
    WEEKDAYS,
    Expects,
    Question,
)
from quotebound.agent.gate.vocabulary import STOPWORDS, WORD, fold, stem

# What each expected type is, in the words a repair message uses.
WANTED: Final[dict[Expects, str]] = {
    "entity": "who (a name)",
    "date": "when (a date, a time, or the event or condition it depends on)",
    "duration": "how long (a length of time)",
    "frequency": "how often (a frequency)",
    "count": "how many or how much (a figure)",
    "amount": "how much (an amount; a length of time is not one)",
    "percent": "what percentage (a percentage)",
    "year": "which year (a year)",
    "section": "which section (a section number)",
    "place": "where (a place)",
    "polarity": "yes or no",
    "version": "which version (a version number)",
    "open": "",
}
# Kinds of organization and office that answer "who" in lower case ("the association", "the board").
_ORGANIZATIONS: Final = frozenset(
    """association board committee company corporation council department agency authority government office bank
    firm trust society club city county state court union team group partnership institute university school
    ministry owner owners tenant tenants landlord resident residents member members manager management""".split()
)
_AGENT_SUFFIX: Final = re.compile(r"(?:er|or|ist|ant|ee|ian)s?$")
_STRUCTURE_RE: Final = re.compile(
    r"§|\b(?:section|sec\.|article|art\.|clause|paragraph|para\.|chapter|subsection|part|item|rule)s?\s+\(?"
    r"(?:\d+|[IVXLCDM]+\b)|\b(?:exhibit|appendix|schedule|annex|attachment)\s+(?:[A-Z]\b|\d+)",
    re.I,
)
POINTS_RE: Final = re.compile(r"^\s*(?:percentage\s+points?|points?|basis\s+points?|bps)\b", re.I)
_DURATION_WORDS: Final = frozenset("until till indefinitely indefinite permanently permanent forever lifetime".split())
_NAME_WORD: Final = re.compile(r"[^\W\d_]+(?:[-'’&][^\W\d_]+)*")  # a word of a name: "T-ara", "O'Neil", "AT&T"
COUNTED_RE: Final = re.compile(r"\bhow\s+many\s+([^\W\d_]+)", re.I)  # the noun a "how many" question counts
_BEFORE_NAME: Final = re.compile(r"\b(?:is|are|was|were|be|been|by|as)\s+(?:the\s+|an?\s+)?$", re.I)
_AFTER_NAME: Final = re.compile(r"^[\s,]*(?:is|are|was|were|has\s+been|have\s+been)\b", re.I)


# Words that name a part of a document (a general category): a number after one refers to that part ("Note 38",
# "Section 8.1", "page 4"); it is no quantity.
_STRUCTURE_WORDS: Final = frozenset(
    """note notes section sections article articles page pages table tables exhibit exhibits schedule schedules
    appendix appendices item items paragraph paragraphs clause clauses chapter chapters figure figures line lines
    part parts footnote footnotes rule rules""".split()
)


def reference(text: str, f: Figure) -> bool:
    """The figure follows a word naming a part of a document: "Note 38", "Section 8.1"."""
    before = WORD.findall(text[: f.start])
    return bool(before) and fold(before[-1]) in _STRUCTURE_WORDS and not text[: f.start].rstrip().endswith((",", ";"))


def entity_word(word: str) -> bool:
    """An agent noun ("owner", "manager", "treasurer") or a kind of organization ("association", "board")."""
    w = fold(word)
    return w in _ORGANIZATIONS or (len(w) >= 5 and _AGENT_SUFFIX.search(w) is not None and w not in TIME_UNITS)


def _in_question(q: Question, word: str) -> bool:
    """`word` is a word of the question, up to inflection or, written in lower case, a shared long prefix
    ("approval" ~ "approves"). A capitalized word that only shares a prefix is a name or a title of its own
    ("President" for "Who presides ...?")."""
    s = stem(word)
    if s in q.words:
        return True
    return not word[:1].isupper() and len(s) >= PREFIX and any(w[:PREFIX] == s[:PREFIX] for w in q.words)


def names(q: Question, text: str, quotes: Sequence[Quoted]) -> list[tuple[str, int]]:
    """Names and agents the answer gives that the question does not, with their positions: capitalized words (a
    sentence's first word only when another capitalized word, a copula, an auxiliary or the question's verb follows
    it, the quotes write it capitalized mid-sentence, or it is an agent or organization word), agent nouns and kinds
    of organization."""
    found: list[tuple[str, int]] = []
    words = list(_NAME_WORD.finditer(text))
    for n, m in enumerate(words):
        word, w = m.group(), fold(m.group())
        if w in MONTHS or w in WEEKDAYS or w in STOPWORDS or w in LOCATIVE or len(w) < 2 or _in_question(q, word):
            continue
        if word[:1].isupper():
            initial = n == 0 or bool(re.search(r"[.!?:;]\s*[\"'“(]*$", text[: m.start()]))
            after = words[n + 1].group() if n + 1 < len(words) else ""
            followed = after[:1].isupper() or fold(after) in COPULAS or fold(after) in AUXILIARIES
            named_by_what_follows = followed or stem(after) == q.predicate
            short = len(words) <= 3
            if not initial or named_by_what_follows or short or entity_word(word) or _capitalized_inside(word, quotes):
                found.append((word, m.start()))
        elif entity_word(word):
            found.append((word, m.start()))
    return found


def _capitalized_inside(word: str, quotes: Sequence[Quoted]) -> bool:
    """A quote writes `word` capitalized inside a sentence, so it is a name ("the American duo Carpenters")."""
    pattern = re.compile(rf"[\w,;]\s+{re.escape(word)}\b")
    return any(pattern.search(s) for qd in quotes for s in qd.sentences)


def linked(text: str, name: str, at: int) -> bool:
    """The name is what a copula, "by" or "as" links to: "X is the Treasurer", "the Treasurer is X", "kept by X".
    A name elsewhere in a sentence with a copula ("minutes are made available to Owners") answers no "who"."""
    return bool(_BEFORE_NAME.search(text[:at]) or _AFTER_NAME.match(text[at + len(name) :]))


def _names_whom(q: Question, text: str, quotes: Sequence[Quoted], values: Sequence[str]) -> bool:
    """The answer names who: a new name or agent, placed where it answers (see `type_ok`), or written as the value
    of a fact whose key names what is asked ("... the wife of both kings Shepseskaf and Userkaf", value "Shepseskaf
    and Userkaf" for "husband": the name stands in a relation the question asks from the other side)."""
    given = names(q, text, quotes)
    if not given:
        return False
    if any(value in text and names(q, value, quotes) for value in values):
        return True
    words = [fold(w) for w in WORD.findall(text)]
    if (
        len(words) <= 6  # a bare name: "The Owner.", "Priya Raman, the Treasurer."
        or any(linked(text, name, at) for name, at in given)  # "X is the Treasurer", "directed by X"
        or ":" in text
        or (q.predicate is not None and any(stem(w) == q.predicate for w in words))  # "X maintains the roofs"
    ):
        return True
    first = next(
        (
            m
            for m in WORD.finditer(text)
            if fold(m.group()) not in STOPWORDS and (m.group()[:1].isupper() or entity_word(m.group()))
        ),
        None,
    )
    if first is not None and any(at == first.start() for _, at in given):
        return True  # the answer starts with the new name: "Any Owner in good standing ..."
    return any(re.search(r",\s*(?:the\s+)?$", text[:at]) for _, at in given)  # apposition: "The Treasurer, X,"


def _nil(found: Sequence[Figure], words: Sequence[str]) -> bool:
    """No figure at all, and a word saying there is nothing to count ("None.", "Not material.")."""
    return not found and any(w in NIL for w in words)


def type_ok(q: Question, text: str, quotes: Sequence[Quoted], values: Sequence[str] = ()) -> bool:
    """The answer gives a value of the kind the question asks for (see `question.Expects`). `values` are the values
    of the draft's verified facts whose key names what the question asks."""
    given = {key for key, _ in q.values}
    found = [f for f in figures(text) if f.key not in given or (q.offers_choice and f.kind != "word")]
    words = [fold(w) for w in WORD.findall(text)]
    new_words = [w for w in words if stem(w) not in q.words]
    numbers = [f for f in found if f.kind in ("money", "number", "percent", "word")]
    kind = q.expects
    if kind in ("count", "amount", "percent", "duration"):  # a year or "Note 38" is no quantity
        numbers = [f for f in numbers if not is_year(f) and not reference(text, f)]
    if kind == "open":
        return True
    if kind == "entity":
        return _names_whom(q, text, quotes, values) or quoted_agent(q, text, quotes)
    if kind == "date":
        return (
            any(f.kind in ("date", "time") or f.key[0] == "year" or is_year(f) or era(text, f) for f in found)
            or any(w in TEMPORAL for w in words)  # "once the cap is reached", "within 30 days"
            or any(w in MONTHS or w in WEEKDAYS or w in TIME_UNITS for w in new_words)
            or any(next_word(text, f.end) in TIME_UNITS for f in numbers)
        )
    if kind == "duration":
        return bool(numbers) or any(w in _DURATION_WORDS for w in new_words)
    if kind == "frequency":
        return bool(numbers) or any(w in FREQUENCY or w in TIME_UNITS for w in new_words)
    if kind == "count":  # a figure, a share in words, nothing, or an identifier ("the account number")
        counted = COUNTED_RE.search(q.text)
        if counted is not None and fold(counted.group(1)) not in TIME_UNITS:
            # "How many directors ...?" is not answered by "two (2) years": a span of time counts no directors
            numbers = [f for f in numbers if next_word(text[f.end :].lstrip(") "), 0) not in TIME_UNITS]
        codes = [f for f in found if f.kind == "code"]
        return bool(numbers or codes) or any(w in FRACTIONS for w in new_words) or _nil(numbers, words)
    if kind == "amount":
        return any(next_word(text, f.end) not in TIME_UNITS for f in numbers) or _nil(numbers, words)
    if kind == "percent":
        return (
            any(f.kind == "percent" or POINTS_RE.match(text[f.end :]) for f in numbers)
            or any(w in FRACTIONS for w in new_words)
            or _nil(numbers, words)
        )
    if kind == "year":
        return any(
            f.kind == "date"
            or is_year(f)
            or era(text, f)
            or (f.kind == "code" and (f.key[0] == "year" or re.search(r"(?<!\d)[12]\d{3}(?!\d)", f.text)))
            for f in found
        )
    if kind == "section":  # "§ 8.1", "Article IV", "Exhibit B", or the number alone ("8.1")
        digits = [f for f in numbers if f.kind != "word"]
        return bool(digits) or any(f.kind == "section" for f in found) or _STRUCTURE_RE.search(text) is not None
    if kind == "place":
        return places(text) or bool(names(q, text, quotes)) or origin(q, text)
    if kind == "version":
        return gives_version(q, text)
    # polarity: yes/no, a polarity or modal word, or the question's own statement
    if any(w in POLARITY or w.endswith("n't") for w in words):
        return True
    said = sum(1 for s in q.subject if shares((s,), text))
    return bool(q.subject) and 2 * said >= len(q.subject)


def count_problem(q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """ "How many categories ...?" answered only with figures of table rows that do not count categories: a row's
    cells are amounts of what its label names, so a count of the rows' items is computed, not quoted."""
    counted = COUNTED_RE.search(q.text)
    noun = fold(counted.group(1)) if counted is not None else ""
    if not noun or noun in TIME_UNITS or q.expects != "count":
        return None
    given = [f for f in answer_figures(q, text) if f.kind in VALUE_KINDS and f.number is not None]
    if not given or any(same_figure(f.number, c) for f in given if f.number is not None for c in calc):
        return None
    for f in given:
        for qd, s in sentences_with(f.key, quotes):
            context = " ".join(o for other in quotes if other.fact == qd.fact for o in other.sentences)
            context += f" {qd.headings}"  # the row's table headings at its locator ("Bedrooms")
            if cells(s) is None or shares((stem(noun),), f"{context} {reading(f.key, qd, s, quotes)}"):
                return None
    return (
        f"the question counts {noun}, but {given[0].text!r} is an amount its table row gives, not a count of them; "
        "count them with calc over the quoted rows, or report that the documents do not give it"
    )


__all__ = [
    "COUNTED_RE",
    "POINTS_RE",
    "WANTED",
    "count_problem",
    "entity_word",
    "linked",
    "names",
    "reference",
    "type_ok",
]
