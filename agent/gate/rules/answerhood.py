"""Answerhood: the answer answers the question asked, not a question beside it.

A draft can quote real passages and still not answer: "Who is the Treasurer?" answered with what the Treasurer
does, a quoted table value where a change was asked, a BSD question answered from the GPL, or the question's own
false premise ("Why is the late charge $50?") repeated as fact. For the answer the user sees (level1 and the
answer field) this rule checks, against what the question asks (`question.py`):

- type: who -> a name, when -> a date/time/condition, how many/much -> a figure (how much + verb: an amount, not
  a length of time), what percentage -> a percentage, which year -> a year, which section -> a section, where -> a
  place, yes/no -> a polarity (yes, no, a modal or polarity word, or the question's own statement);
- subject: a figure that answers comes from a quoted sentence about the question's subject (it shares one of the
  subject's words; a header row of figures counts with the rest of its fact's quotes from that source);
- document: a question that names a document ("According to the Bylaws, ...", "In <source id>, ...") is answered
  from quotes of that document;
- derived: a question asking for a change, difference, average, total, ratio ... is answered by a figure a
  verified calc produced, unless a quote states that very figure with the same words ("Total annual budget:
  $93,600.00" answers "What is the total annual budget?"); a rate asked per year is not a quoted monthly figure;
- premise: a value the question takes for granted ("$50", "ten units", "July") shown in the answer must be stated
  by a quote; a value in the question supports nothing.

A `report_insufficient_evidence` draft is not an answer and is not checked here. Findings go to repair, then to
abstention: a draft that cannot answer the question should say so instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.claims import claims, sentences
from quotebound.agent.gate.derivation import calc_problem
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.question import (
    COPULAS,
    FAMILIES,
    FRACTIONS,
    FREQUENCY,
    LOCATIVE,
    MONTHS,
    NIL,
    POLARITY,
    TEMPORAL,
    TIME_UNITS,
    WEEKDAYS,
    Derivation,
    Expects,
    Family,
    Question,
    document_titles,
    named_sources,
    number_words,
    rate_of,
    read_question,
)
from quotebound.agent.gate.tokens import Key, extract_tokens, quote_keys
from quotebound.agent.gate.vocabulary import STOPWORDS, WORD, fold, is_content, stem
from quotebound.tools.calc import recompute

_PREFIX: Final = 6  # two words whose stems share their first six letters match ("preauthorized"/"preauthorization")

# What each expected type is, in the words a repair message uses.
_WANTED: Final[dict[Expects, str]] = {
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
_POINTS_RE: Final = re.compile(r"^\s*(?:percentage\s+points?|points?|basis\s+points?|bps)\b", re.I)
_DURATION_WORDS: Final = frozenset("until till indefinitely indefinite permanently permanent forever lifetime".split())
_NAME_WORD: Final = re.compile(r"[^\W\d_]+(?:[-'’&][^\W\d_]+)*")  # a word of a name: "T-ara", "O'Neil", "AT&T"
_FAMILY_ROOTS: Final[dict[Family, frozenset[str]]] = {
    f: frozenset(stem(stem(w)) for w in ws) for f, ws in FAMILIES.items()
}


# --- what the draft quotes -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quoted:
    """One verified quote of the draft: whose fact it supports, its source, and the sentences it covers."""

    fact: int | None
    source_id: str
    quote: str
    sentences: tuple[str, ...]


@lru_cache(maxsize=4096)
def _covered_sentences(context: str, quote: str) -> tuple[str, ...]:
    """The sentences of `context` (the text at the quote's locator) that the quote overlaps."""
    ctx, q = " ".join(context.split()), " ".join(quote.split())
    at = ctx.find(q)
    if at < 0 or not q:
        return tuple(sentences(quote)) or (quote,)
    covered: list[str] = []
    pos = 0
    for s in sentences(ctx):
        start = ctx.find(s, pos)
        if start < 0:
            continue
        pos = start + len(s)
        if start < at + len(q) and at < pos:
            covered.append(s)
    return tuple(covered) or (q,)


def _quoted(inputs: GateInputs) -> list[Quoted]:
    """Every verified quote of the draft (supports and listed conflict values); an unverified one answers nothing."""
    evidence = inputs.draft.evidence
    out: list[Quoted] = []
    for i, (fact, checks) in enumerate(zip(evidence.facts, inputs.support_checks, strict=True)):
        for support, check in zip(fact.support, checks, strict=True):
            if check.ok:
                out.append(
                    Quoted(
                        i,
                        support.source_id,
                        support.quote,
                        _covered_sentences(check.context or support.quote, support.quote),
                    )
                )
    for conflict, checks in zip(evidence.conflicts, inputs.conflict_checks, strict=True):
        for value, check in zip(conflict.values, checks, strict=True):
            if check.ok:
                out.append(
                    Quoted(
                        None,
                        value.source_id,
                        value.quote,
                        _covered_sentences(check.context or value.quote, value.quote),
                    )
                )
    return out


def _calc_values(inputs: GateInputs) -> list[Decimal]:
    """The values of the draft's calcs that the gate's recomputation agrees with. Whether each operand is quoted
    is the calc rule's to report (it blocks an unquoted one); here a computed figure is what matters."""
    values: list[Decimal] = []
    for fact in inputs.draft.evidence.facts:
        if fact.calc is not None and calc_problem(fact) is None:
            got = recompute(fact.calc.expr)
            if got is not None:
                values.append(Decimal(got))
    return values


# --- figures and words of a text -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A value written in a text: its token key, its kind, how it is written and where it ends."""

    key: Key
    kind: str  # a token kind, or "word" for a number in words
    text: str
    end: int  # where it ends in its text

    @property
    def number(self) -> Decimal | None:
        return self.key[1] if self.key[0] in ("num", "pct") and isinstance(self.key[1], Decimal) else None


_DIGITS_RE: Final = re.compile(
    r"(?<![\w.])[$€£¥₹]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.,])[$€£¥₹]?\d+(?:\.\d+)?(?!\w)"
    r"|(?<=\b[A-Z]{3})\d[\d,]*(?:\.\d+)?(?!\w)"  # after a currency code: "USD500"
)
_NUMERIC: Final = frozenset({"money", "number", "percent", "date", "time"})
_VALUE_KINDS: Final = _NUMERIC | {"word"}  # what answers "how much", "when" ...: not a section or a code


@lru_cache(maxsize=4096)
def _figures(text: str) -> tuple[Figure, ...]:
    """The figures of `text`: its tokens, numbers in words, and any written figure the tokens read as part of a
    code ("€4,411m" is 4,411 with a magnitude, not the code "411m")."""
    tokens = extract_tokens(text)
    found = [Figure(t.key, t.kind, t.text, t.end) for t in tokens]
    numeric = [(t.start, t.end) for t in tokens if t.kind != "code"]
    for m in _DIGITS_RE.finditer(text):
        if all(m.end() <= a or b <= m.start() for a, b in numeric):
            value = Decimal(m.group().lstrip("$€£¥₹").replace(",", ""))
            found.append(Figure(("num", value), "money" if m.group()[0] in "$€£¥₹" else "number", m.group(), m.end()))
    found += [Figure(("num", value), "word", text[a:b], b) for value, a, b in number_words(text)]
    return tuple(found)


@lru_cache(maxsize=4096)
def _keys(text: str) -> frozenset[Key]:
    """Every value a quoted sentence states: its figures (read leniently), numbers in words, month/weekday names."""
    keys = set(quote_keys(text))
    keys |= {("num", value) for value, _, _ in number_words(text)}
    keys |= {("name", fold(w)) for w in WORD.findall(text) if fold(w) in MONTHS | WEEKDAYS}
    return frozenset(keys)


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    """The roots of `text`'s words (`_root`)."""
    return frozenset(_root(w) for w in WORD.findall(text))


def _root(word: str) -> str:
    """A word's stem, stemmed again, so one suffix at a time still meets: "meetings" -> "meeting" -> "meet", as
    "meeting" -> "meet"."""
    return stem(stem(word))


def _shares(subject: Iterable[str], text: str) -> bool:
    """`text` has one of the `subject` stems, up to inflection or a shared long prefix."""
    stems = _stems(text)
    prefixes = {s[:_PREFIX] for s in stems if len(s) >= _PREFIX}
    lowered = fold(text)
    roots = [(_root(s), s) for s in subject]
    return any(
        r in stems or (len(r) >= _PREFIX and r[:_PREFIX] in prefixes) or (not s.isalpha() and s in lowered)
        for r, s in roots  # a code ("4b", "ho-6") is matched as written
    )


_COUNTED_RE: Final = re.compile(r"\bhow\s+many\s+([^\W\d_]+)", re.I)  # the noun a "how many" question counts


def _next_word(text: str, end: int) -> str:
    """The word after position `end`, skipping one parenthesis ("twelve (12) months" -> "months")."""
    rest = re.sub(r"^\s*\([^)]{0,20}\)", "", text[end:])
    m = WORD.search(rest)
    return fold(m.group()) if m and not rest[: m.start()].strip(" \t'’") else ""


def _answer_figures(q: Question, text: str) -> list[Figure]:
    """The figures of an answer that may answer the question: not the question's own (a value the question gives
    answers nothing), and a year only where a date or a year is asked ("In 2019, sales were $5 million": 2019
    says when, $5 million answers)."""
    given = {key for key, _ in q.values}
    found = [f for f in _figures(text) if f.key not in given or (q.offers_choice and f.kind != "word")]
    if q.expects in ("date", "year", "open"):
        return found
    return [f for f in found if not _year(f)]


def _year(f: Figure) -> bool:
    """A year as written: four plain digits from 1000 to 2999 ("2019", not "2,019" or "2019.5"), or a decade
    ("1960s")."""
    return (f.kind == "number" and re.fullmatch(r"[12]\d{3}", f.text) is not None) or (
        f.kind == "code" and re.fullmatch(r"[12]\d{2}0s", f.text) is not None
    )


def _era(text: str, f: Figure) -> bool:
    """A year with its era: "112 BC", "AD 79"."""
    return f.kind == "number" and (
        _next_word(text, f.end) in ("bc", "bce", "ad", "ce")
        or re.search(r"\b(?:AD|CE)\s*$", text[: f.end - len(f.text)]) is not None
    )


def _entity_word(word: str) -> bool:
    """An agent noun ("owner", "manager", "treasurer") or a kind of organization ("association", "board")."""
    w = fold(word)
    return w in _ORGANIZATIONS or (len(w) >= 5 and _AGENT_SUFFIX.search(w) is not None and w not in TIME_UNITS)


def _in_question(q: Question, word: str) -> bool:
    """`word` is a word of the question, up to inflection or a shared long prefix ("approval" ~ "approves")."""
    s = stem(word)
    return s in q.words or (len(s) >= _PREFIX and any(w[:_PREFIX] == s[:_PREFIX] for w in q.words))


def _names(q: Question, text: str, quoted: Sequence[Quoted]) -> list[tuple[str, int]]:
    """Names and agents the answer gives that the question does not, with their positions: capitalized words (a
    sentence's first word only when another capitalized word, a copula or the question's verb follows it, the
    quotes write it capitalized mid-sentence, or it is an agent or organization word), agent nouns and kinds of
    organization."""
    names: list[tuple[str, int]] = []
    words = list(_NAME_WORD.finditer(text))
    for n, m in enumerate(words):
        word, w = m.group(), fold(m.group())
        if w in MONTHS or w in WEEKDAYS or w in STOPWORDS or len(w) < 2 or _in_question(q, word):
            continue
        if word[:1].isupper():
            initial = n == 0 or bool(re.search(r"[.!?:;]\s*[\"'“(]*$", text[: m.start()]))
            after = words[n + 1].group() if n + 1 < len(words) else ""
            named_by_what_follows = after[:1].isupper() or fold(after) in COPULAS or stem(after) == q.predicate
            short = len(words) <= 3
            if not initial or named_by_what_follows or short or _entity_word(word) or _capitalized_inside(word, quoted):
                names.append((word, m.start()))
        elif _entity_word(word):
            names.append((word, m.start()))
    return names


def _capitalized_inside(word: str, quoted: Sequence[Quoted]) -> bool:
    """A quote writes `word` capitalized inside a sentence, so it is a name ("the American duo Carpenters")."""
    pattern = re.compile(rf"[\w,;]\s+{re.escape(word)}\b")
    return any(pattern.search(s) for qd in quoted for s in qd.sentences)


_BEFORE_NAME: Final = re.compile(r"\b(?:is|are|was|were|be|been|by|as)\s+(?:the\s+|an?\s+)?$", re.I)
_AFTER_NAME: Final = re.compile(r"^[\s,]*(?:is|are|was|were|has\s+been|have\s+been)\b", re.I)


def _linked(text: str, name: str, at: int) -> bool:
    """The name is what a copula, "by" or "as" links to: "X is the Treasurer", "the Treasurer is X", "kept by X".
    A name elsewhere in a sentence with a copula ("minutes are made available to Owners") answers no "who"."""
    return bool(_BEFORE_NAME.search(text[:at]) or _AFTER_NAME.match(text[at + len(name) :]))


def _names_whom(q: Question, text: str, quoted: Sequence[Quoted]) -> bool:
    """The answer names who: a new name or agent, placed where it answers (see `_type_ok`)."""
    names = _names(q, text, quoted)
    if not names:
        return False
    words = [fold(w) for w in WORD.findall(text)]
    if (
        len(words) <= 6  # a bare name: "The Owner.", "Priya Raman, the Treasurer."
        or any(_linked(text, name, at) for name, at in names)  # "X is the Treasurer", "directed by X"
        or ":" in text
        or (q.predicate is not None and any(stem(w) == q.predicate for w in words))  # "X maintains the roofs"
    ):
        return True
    first = next(
        (
            m
            for m in WORD.finditer(text)
            if fold(m.group()) not in STOPWORDS and (m.group()[:1].isupper() or _entity_word(m.group()))
        ),
        None,
    )
    if first is not None and any(at == first.start() for _, at in names):
        return True  # the answer starts with the new name: "Any Owner in good standing ..."
    return any(re.search(r",\s*(?:the\s+)?$", text[:at]) for _, at in names)  # apposition: "The Treasurer, X,"


# --- the checks ----------------------------------------------------------------------------------------------------


def _nil(figures: Sequence[Figure], words: Sequence[str]) -> bool:
    """No figure at all, and a word saying there is nothing to count ("None.", "Not material.")."""
    return not figures and any(w in NIL for w in words)


def _type_ok(q: Question, text: str, quoted: Sequence[Quoted]) -> bool:
    """The answer gives a value of the kind the question asks for (see `question.Expects`)."""
    given = {key for key, _ in q.values}
    figures = [f for f in _figures(text) if f.key not in given or (q.offers_choice and f.kind != "word")]
    words = [fold(w) for w in WORD.findall(text)]
    new_words = [w for w in words if stem(w) not in q.words]
    numbers = [f for f in figures if f.kind in ("money", "number", "percent", "word")]
    kind = q.expects
    if kind == "open":
        return True
    if kind == "entity":
        return _names_whom(q, text, quoted)
    if kind == "date":
        return (
            any(f.kind in ("date", "time") or f.key[0] == "year" or _year(f) or _era(text, f) for f in figures)
            or any(w in TEMPORAL for w in words)  # "once the cap is reached", "within 30 days"
            or any(w in MONTHS or w in WEEKDAYS or w in TIME_UNITS for w in new_words)
            or any(_next_word(text, f.end) in TIME_UNITS for f in numbers)
        )
    if kind == "duration":
        return bool(numbers) or any(w in _DURATION_WORDS for w in new_words)
    if kind == "frequency":
        return bool(numbers) or any(w in FREQUENCY or w in TIME_UNITS for w in new_words)
    if kind == "count":  # a figure, a share in words, nothing, or an identifier ("the account number")
        counted = _COUNTED_RE.search(q.text)
        if counted is not None and fold(counted.group(1)) not in TIME_UNITS:
            # "How many directors ...?" is not answered by "two (2) years": a span of time counts no directors
            numbers = [f for f in numbers if _next_word(text[f.end :].lstrip(") "), 0) not in TIME_UNITS]
        codes = [f for f in figures if f.kind == "code"]
        return bool(numbers or codes) or any(w in FRACTIONS for w in new_words) or _nil(numbers, words)
    if kind == "amount":
        return any(_next_word(text, f.end) not in TIME_UNITS for f in numbers) or _nil(numbers, words)
    if kind == "percent":
        return (
            any(f.kind == "percent" or _POINTS_RE.match(text[f.end :]) for f in numbers)
            or any(w in FRACTIONS for w in new_words)
            or _nil(numbers, words)
        )
    if kind == "year":
        return any(
            f.kind == "date"
            or _year(f)
            or _era(text, f)
            or (f.kind == "code" and (f.key[0] == "year" or re.search(r"(?<!\d)[12]\d{3}(?!\d)", f.text)))
            for f in figures
        )
    if kind == "section":  # "§ 8.1", "Article IV", "Exhibit B", or the number alone ("8.1")
        digits = [f for f in numbers if f.kind != "word"]
        return bool(digits) or any(f.kind == "section" for f in figures) or _STRUCTURE_RE.search(text) is not None
    if kind == "place":
        return any(w in LOCATIVE for w in words) or bool(_names(q, text, quoted))
    # polarity: yes/no, a polarity or modal word, or the question's own statement
    if any(w in POLARITY or w.endswith("n't") for w in words):
        return True
    said = sum(1 for s in q.subject if _shares((s,), text))
    return bool(q.subject) and 2 * said >= len(q.subject)


def _sentences_with(key: Key, quoted: Sequence[Quoted]) -> list[tuple[Quoted, str]]:
    return [(qd, s) for qd in quoted for s in qd.sentences if key in _keys(s)]


def _cells(sentence: str) -> list[str] | None:
    """The cells of a table row ("| Total sales | $1,496.5 |"), or None for prose."""
    line = sentence.strip()
    return [c.strip() for c in line.strip("|").split("|")] if line.startswith("|") else None


def _reading(key: Key, qd: Quoted, sentence: str, quoted: Sequence[Quoted]) -> str:
    """What a quoted sentence says about the figure `key`. Prose says it in the sentence. A table row says it with
    the row's label cells, the figure's column headers (the cells in its column of the other rows cited from that
    source), the section rows cited from that source ("| Weighted-average shares outstanding: | | |") and the
    prose its fact cites from that source (a caption), as a reader of the table reads a cell: "| Net profit |
    (9,819) | 6,639 | (248%) |" under "| | 2019 | 2018 | Change |" gives (9,819) for 2019, not a change."""
    cells = _cells(sentence)
    if cells is None:
        return sentence
    columns = [j for j, c in enumerate(cells) if key in _keys(c)]
    parts = [c for c in cells if any(is_content(w) for w in WORD.findall(c))]  # the row's labels
    for other_qd in quoted:
        if other_qd.source_id != qd.source_id:
            continue
        for s in other_qd.sentences:
            other = _cells(s)
            if s == sentence:
                continue
            if other is None:
                if other_qd.fact == qd.fact:
                    parts.append(s)  # the caption the fact cites
            elif len(other) == len(cells):
                parts += [other[j] for j in columns]
                if sum(1 for c in other if c) == 1 and not _figures(s):
                    parts.append(s)  # a section row
    return " ".join(parts)


def _about_subject(q: Question, key: Key, qd: Quoted, sentence: str, quoted: Sequence[Quoted]) -> bool:
    """A quoted sentence is about the subject when it (with a table cell's column headers) shares one of its words;
    a row of bare figures ("| | 2019 | 2018 |", "| | 206.2 | 132.6 |") is read with the other quotes cited from
    its source (the row or section label that names it)."""
    if _shares(q.subject, f"{sentence} {_reading(key, qd, sentence, quoted)}"):
        return True
    if any(
        other.fact == qd.fact and other.source_id == qd.source_id and _shares(q.subject, " ".join(other.sentences))
        for other in quoted
        if other is not qd
    ):
        return True  # the fact also quotes the line of that source naming the subject (a header, the payee line);
    # whether the value belongs to what that line names is the meaning rule's binding check
    if any(is_content(w) for w in WORD.findall(sentence)):
        return False
    together = " ".join(s for other in quoted if other.source_id == qd.source_id for s in other.sentences)
    return _shares(q.subject, together)


def _same_figure(said: Decimal, computed: Decimal) -> bool:
    """`said` is `computed` as an answer writes it: sign dropped, as a percentage, or rounded to its own places."""
    for candidate in (computed, -computed, computed * 100, -computed * 100):
        if said == candidate:
            return True
        exponent = said.as_tuple().exponent
        if isinstance(exponent, int):
            try:
                if candidate.quantize(Decimal(1).scaleb(exponent)) == said:
                    return True
            except InvalidOperation:
                continue
    return False


def _states(d: Derivation, figure: Figure, reading: str, sentence: str) -> bool:
    """A quoted figure states the derived figure `d` itself: its reading has a word of `d`'s family ("grew by",
    "Total", "averaging"; a percentage is a proportion), and names each item of a total of named items."""
    stems = _stems(reading)
    family = _FAMILY_ROOTS[d.family]
    said = bool(stems & family) or (d.family == "ratio" and figure.kind == "percent")
    return said and all(_shares(part, f"{sentence} {reading}") for part in d.parts)


def _derived_problem(q: Question, text: str, quoted: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """A derived figure is asked for, and the answer gives quoted figures that state none of it (nor one per the
    period asked), and no figure a verified calc produced."""
    if not (q.derived or q.rate) or q.expects not in ("count", "amount", "percent", "open"):
        return None
    figures = [f for f in _answer_figures(q, text) if f.number is not None]
    if not figures or any(_same_figure(f.number, c) for f in figures if f.number is not None for c in calc):
        return None
    found = [(f, qd, s) for f in figures for qd, s in _sentences_with(f.key, quoted)]
    if not found:
        return None  # a figure no quote states: the span rules report it
    for d in q.derived:
        if not any(_states(d, f, _reading(f.key, qd, s, quoted), s) for f, qd, s in found):
            return (
                f"the question asks for a computed figure ({d.word}), but the answer gives {figures[0].text!r} as "
                "it is quoted; compute it with calc over the quoted figures and state the result, or report that "
                "the documents do not give it"
            )
    if q.rate is not None:
        for f in figures:
            rates = {rate_of(s) for _, s in _sentences_with(f.key, quoted)}
            if rates and None not in rates and q.rate not in rates:
                return (
                    f"the question asks for a figure per {q.rate}, but {f.text!r} is quoted per "
                    f"{sorted(r for r in rates if r)[0]}; convert it with calc over the quoted figure and state the "
                    "result, or report that the documents do not give it"
                )
    return None


def _subject_problem(q: Question, text: str, quoted: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """Every figure the answer gives comes from quoted sentences about something other than the question's
    subject (one figure from a sentence about it is enough: an answer may add context)."""
    if not q.subject or q.expects == "year":  # a year that answers is a table's column heading, not its subject
        return None
    figures = [f for f in _answer_figures(q, text) if f.kind in _VALUE_KINDS]  # a section or a code names things
    checked: list[tuple[Figure, str]] = []
    for f in figures:
        if f.number is not None and any(_same_figure(f.number, c) for c in calc):
            return None  # a verified calc's result: its operands are checked by the calc rule
        found = _sentences_with(f.key, quoted)
        if any(_about_subject(q, f.key, qd, s, quoted) for qd, s in found):
            return None
        checked += [(f, s) for _, s in found]
    if not checked:
        return None
    f, s = checked[0]
    return (
        f"the figure {f.text!r} comes from a passage about something else ({_short(s)!r}), not about what the "
        "question asks; quote the passage that gives the answer for the question's subject, or report that the "
        "documents do not say"
    )


def _premise_problem(q: Question, text: str, quoted: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """A value the question asserts, shown in the answer, that no quote (nor a verified calc) states."""
    if not q.presupposed:
        return None
    said = {f.key for f in _figures(text)}
    stated = set().union(*(_keys(qd.quote) for qd in quoted)) if quoted else set()
    for key, written in q.presupposed:
        number = key[1] if isinstance(key[1], Decimal) else None
        if key not in said or key in stated or (number is not None and any(_same_figure(number, c) for c in calc)):
            continue
        return (
            f"the answer repeats {written!r} from the question, but no quote states it (the question may rest on a "
            "false premise); say what the quotes state instead"
        )
    return None


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _answer_texts(inputs: GateInputs) -> list[tuple[str, str]]:
    """(where, text) of the answer the user sees: level1 and the answer field, citations blanked out, each once."""
    by_field: dict[str, list[str]] = {"level1": [], "answer": []}
    for claim in claims(inputs):
        if claim.field in by_field:
            by_field[claim.field].append(claim.text)
    texts = [("level1", " ".join(by_field["level1"])), ("evidence.answer", " ".join(by_field["answer"]))]
    out: list[tuple[str, str]] = []
    for where, text in texts:
        if text and all(text != seen for _, seen in out):
            out.append((where, text))
    return out


def _document_problem(
    inputs: GateInputs, q: Question, texts: Sequence[tuple[str, str]], quoted: Sequence[Quoted]
) -> str | None:
    """The question names readable documents, and the answer quotes none of them, or takes its figures from others.
    Only readable sources can be named (`inputs.sources`), so the message names nothing the caller cannot see."""
    assert inputs.question is not None
    named = named_sources(inputs.question, inputs.sources)
    if not named or named >= {s.source_id for s in inputs.sources}:
        return None
    titles = ", ".join(repr(t) for t in document_titles(sorted(named), inputs.sources))
    own = [qd for qd in quoted if qd.source_id in named]
    if not own:
        return (
            f"the question asks about {titles}, but the answer quotes none of its passages; quote the passage of "
            "that document that answers, or report that it does not say"
        )
    for _, text in texts:
        figures = _answer_figures(q, text)
        if figures and not any(f.key in _keys(s) for f in figures for qd in own for s in qd.sentences):
            return (
                f"the question asks about {titles}, but the answer's figures come from other documents; quote the "
                "passage of that document that answers, or report that it does not say"
            )
    return None


def check(inputs: GateInputs) -> list[Finding]:
    """One `not_an_answer` finding per way the answer the user sees (level1, the answer field) misses the question."""
    if inputs.question is None or inputs.draft.evidence.mode != "answer":
        return []
    q = read_question(inputs.question)
    texts = _answer_texts(inputs)
    if not texts:
        return []
    quoted = _quoted(inputs)
    calc = _calc_values(inputs)
    messages: list[str] = []
    for where, text in texts:
        if not _type_ok(q, text, quoted):
            messages.append(
                f"{where} does not answer the question: it asks {_WANTED[q.expects]}, and the answer gives none; "
                "state it from the quote that gives it, or report that the documents do not say"
            )
        for problem in (_derived_problem, _subject_problem, _premise_problem):
            found = problem(q, text, quoted, calc)
            if found is not None:
                messages.append(f"{where}: {found}")
    document = _document_problem(inputs, q, texts, quoted)
    if document is not None:
        messages.append(document)
    return [Finding(code=FindingCode.NOT_AN_ANSWER, message=m) for m in dict.fromkeys(messages)]
