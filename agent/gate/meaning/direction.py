"""Direction and order. Bounds (at least / minimum vs at most / maximum / within), time order (before vs after),
change (rose vs fell), beginning and end (began, born vs ended, died), state (open vs closed) and superlatives
(largest vs smallest), a negator flipping each ("no more than" is "at most"; a deadline such as "no later than"
bounds nothing by itself). A range ("from 10 p.m. to 7 a.m.") keeps the order of its ends, a start is not the
second end of a quoted range; a rise or fall between two periods, and a largest or smallest, must agree with the
quoted figures."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.meaning.context import quote_contexts
from quotebound.agent.gate.meaning.lexicon import (
    ARTICLES,
    AUXILIARIES,
    NEGATORS,
    OPPOSITE,
    POLES,
    SCALES,
    UNITS,
    word_set,
)
from quotebound.agent.gate.meaning.model import Problem, QuoteSentence, Sentence, Tok, Value, same_figure, words_of
from quotebound.agent.gate.meaning.periods import label_figure, negative_figure
from quotebound.agent.gate.meaning.units import kind_class
from quotebound.agent.gate.tokens import Key

# Two-word bounds, read before single words.
_BOUND_PHRASES: Final[dict[tuple[str, str], tuple[str, str]]] = {
    ("at", "least"): ("magnitude", "high"),
    ("at", "most"): ("magnitude", "low"),
    ("up", "to"): ("magnitude", "low"),
    ("or", "more"): ("magnitude", "high"),
    ("or", "less"): ("magnitude", "low"),
    ("or", "fewer"): ("magnitude", "low"),
    ("prior", "to"): ("order", "before"),
}

# Comparatives: with a negator and no "than" ("no longer", "no more") they deny, they do not bound.
_COMPARATIVES: Final = word_set("more less fewer greater higher larger longer bigger lower smaller shorter")

# A deadline ("no later than", "no earlier than") bounds a time whose direction depends on what it is counted from
# ("no later than 10 days after signing" is "within 10 days after"): it is read as no direction at all.
_DEADLINE: Final = word_set("later earlier sooner")
_RANGE_MARKS: Final = word_set("to through until till – —")  # "from X to Y", "X – Y"

# Bound words that are first of all words of place or things ("within the United States", "Floor plan", "the 12th
# floor", "ceiling fan"): a bound only with its figure right after it ("within 30 days", "a cap of 5%").
_FIGURE_BOUNDS: Final = word_set("within floor ceiling cap")


def read_directions(low: list[str], used: set[int]) -> set[tuple[str, str]]:
    """The clause's (axis, pole) pairs; the words read (and a negator that flips one) are added to `used`."""
    found: set[tuple[str, str]] = set()
    n = len(low)
    for i in range(n - 1):
        if low[i] == "than" and low[i + 1] == "not":  # "more likely than not": neither a bound nor a negation
            used.update(k for k in range(max(0, i - 2), i + 2) if k == i or k == i + 1 or low[k] in POLES)
    for i in range(n):
        if i in used:
            continue
        pair = (low[i], low[i + 1]) if i + 1 < n else ("", "")
        if pair in _BOUND_PHRASES:
            found.add(_BOUND_PHRASES[pair])
            used.update((i, i + 1))
            continue
        word = low[i]
        if word not in POLES or (word == "following" and i > 0 and low[i - 1] in ARTICLES):
            continue  # "the following assumptions" orders nothing
        if word in _FIGURE_BOUNDS and not any(low[k] == "" for k in range(i + 1, min(n, i + 3))):
            continue  # "within the United States", "Floor plan": a place or a thing, not a bound
        axis, pole = POLES[word]
        than = i + 1 < n and low[i + 1] == "than"
        # a negator just before it (auxiliaries between) flips it: "no more than", "did not increase", "not before"
        j = i - 1
        while j >= 0 and low[j] in AUXILIARIES and j not in used:
            j -= 1
        negated = j >= 0 and j not in used and low[j] in NEGATORS and low[j] != "without"
        if negated and than and word in _DEADLINE:
            used.update((j, i, i + 1))
            continue
        if negated and axis == "magnitude" and not than and word in _COMPARATIVES:
            used.add(i)  # "no longer develop", "no more": a negator of time, not a bound; the negator stays
            continue
        if negated:
            pole = OPPOSITE[pole]
            used.add(j)
        found.add((axis, pole))
        used.add(i)
        if than:
            used.add(i + 1)
    return found


def read_ranges(toks: Sequence[Tok], values: Sequence[Value]) -> tuple[tuple[Key, Key], ...]:
    """(first, second) of every "from X to Y" / "X to Y" / "X – Y" / "X-Y" with two figures of one kind."""
    found: list[tuple[Key, Key]] = []
    for i, t in enumerate(toks):
        if t.value < 0:
            continue
        a = values[t.value]
        j = i + 1
        while j < len(toks) and toks[j].value < 0 and (toks[j].low in UNITS or toks[j].low in SCALES):
            j += 1
        if j + 1 < len(toks) and toks[j].low in (*_RANGE_MARKS, "-") and toks[j + 1].value >= 0:
            b = values[toks[j + 1].value]
            if a.kind == b.kind and a.key != b.key and (toks[j].low != "-" or _rising(a.key, b.key)):
                found.append((a.key, b.key))
    return tuple(found)


# What may follow an open range's dash in place of its second end ("1981–present", "(1981– )", "1981–,").
_OPEN_END: Final = word_set("present now today date , ; ) ]")


@lru_cache(maxsize=4096)
def range_roles(s: Sentence) -> dict[Key, str]:
    """The phase each end of a range of `s` is ("start" for its first figure, "end" for its second), and "start" for
    the figure of an open range ("1981–", "1981–present", "years active 1981 – present"): a span written as a range
    says when it began and when it ended without the words."""
    roles: dict[Key, str] = {}
    for first, last in s.ranges:
        roles.setdefault(first, "start")
        roles.setdefault(last, "end")
    toks = s.toks
    for i, t in enumerate(toks[:-1]):
        if t.value >= 0 and toks[i + 1].low in ("–", "—", "-") and toks[i + 1].value < 0:
            after = toks[i + 2] if i + 2 < len(toks) else None
            year = s.values[t.value].label or s.values[t.value].kind == "date" or _year(s.values[t.value].key)
            # an open end, or, after a year, the name of what the span is in ("1981– Springfield FC")
            if after is None or (after.value < 0 and (after.low in _OPEN_END or (year and after.low.isalpha()))):
                roles.setdefault(s.values[t.value].key, "start")
    return roles


def _rising(a: Key, b: Key) -> bool:
    """A hyphen joins two ends of a range only when the second is the larger, by at most one more digit
    ("1981-1995", "10-12", "5-10"), not in a fiscal year's short form ("2018-19") or a number ("2003-118842")."""
    x, y = a[1], b[1]
    return isinstance(x, Decimal) and isinstance(y, Decimal) and x < y < x * 10 + 10


def _year(key: Key) -> bool:
    """A bare number that reads as a year (1000-2999, whole)."""
    n = key[1]
    return key[0] == "num" and isinstance(n, Decimal) and n == n.to_integral_value() and 1000 <= n <= 2999


def range_order_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    problems: list[Problem] = []
    for a, b in claim.ranges:
        reversed_in = [qs for qs in quotes if (b, a) in qs.sentence.ranges]
        if reversed_in and not any((a, b) in qs.sentence.ranges for qs in quotes):
            problems.append(
                Problem("meaning", "gives the two ends of a range in the reverse order", reversed_in[0].sentence.text)
            )
    return problems


def range_end_problems(claim: Sentence, quotes: Sequence[QuoteSentence], asked: Sentence | None) -> list[Problem]:
    """A figure said to start something ("born", "began", "opens") must not be the second end of the range its quote
    gives it ("(February 8, 1900 – March 2, 1977)"), nor one said to end something the first. A bare figure
    answers the question, whose words then say what it starts or ends."""
    problems: list[Problem] = []
    for c in claim.clauses:
        inside = [v for v in claim.values if c.start <= v.pos < c.end]
        phases = {pole for axis, pole in c.directions if axis == "phase"}
        if not c.words and asked is not None:
            phases = {pole for qc in asked.clauses for axis, pole in qc.directions if axis == "phase"}
        if len(phases) != 1 or not inside:
            continue
        pole = phases.pop()
        for v in inside:
            for qs in quotes:
                for first, last in qs.sentence.ranges:
                    if (first, last) in claim.ranges:
                        continue  # the claim gives the quote's range whole: each end stays the end it is
                    if (pole == "start" and v.key == last) or (pole == "end" and v.key == first):
                        which = "start" if pole == "start" else "end"
                        other = "end" if pole == "start" else "start"
                        detail = f"gives {v.text} as the {which}, which its quote gives as the {other}"
                        problems.append(Problem("unbound", detail, qs.sentence.text))
    return list(dict.fromkeys(problems))


def trend_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A clause saying a figure rose or fell "from" one period "to" another must agree with the quoted figures of
    those periods for its subject (the quote row or sentence sharing most of its words). Figures written negative
    are left alone: whether a loss "grew" speaks of its size or its sign is not written down."""
    problems: list[Problem] = []
    for c in claim.clauses:
        poles = {pole for axis, pole in c.directions if axis == "change"}
        if len(poles) != 1:
            continue
        pole = poles.pop()
        inside = {v.key: v for v in claim.values if c.start <= v.pos < c.end}
        for a, b in claim.ranges:  # "fell from 56.7 to 44.1": the figures themselves say which way
            x, y = inside.get(a), inside.get(b)
            if x is None or y is None or x.label or y.label or kind_class(x) != kind_class(y):
                continue
            if isinstance(a[1], Decimal) and isinstance(b[1], Decimal) and a[1] != b[1]:
                moved = "up" if b[1] > a[1] else "down"
                if moved != pole:
                    problems.append(Problem("meaning", f"says it went {pole} from {x.text} to {y.text}", claim.text))
        labels = {key for key, v in inside.items() if v.label}
        spans = [(a, b) for a, b in claim.ranges if a in labels and b in labels]
        if not spans:
            continue
        first, last = spans[0]
        words = words_of(c)
        ranked = sorted(
            (qs for qs in quotes if not qs.sentence.header),
            key=lambda qs: -len(words & qs.sentence.stems),
        )
        for qs in ranked[:1]:
            if not words & qs.sentence.stems:
                continue
            early, late = label_figure(qs, first, quotes), label_figure(qs, last, quotes)
            if early is None or late is None:
                continue
            if negative_figure(qs.sentence, early) or negative_figure(qs.sentence, late):
                continue
            was, became = early.key[1], late.key[1]
            if not isinstance(was, Decimal) or not isinstance(became, Decimal) or was == became:
                continue
            moved = "up" if became > was else "down"
            if moved != pole:
                problems.append(
                    Problem("meaning", f"says it went {pole} where the quoted figures went {moved}", qs.sentence.text)
                )
    return problems


def _series(qs: QuoteSentence, quotes: Sequence[QuoteSentence], kind: str) -> list[Value]:
    """The figures of a table row that stand under a period heading (all of its figures of `kind` when no
    heading is quoted)."""
    s = qs.sentence
    figures = [v for v in s.values if not v.label and kind_class(v) == kind]
    headed: set[int] = set()
    for h in quotes:
        if h.source_id == qs.source_id and h.sentence.header and h.line < qs.line:
            headed |= {h.sentence.toks[hv.pos].cell for hv in h.sentence.values if hv.label}
    return [v for v in figures if s.toks[v.pos].cell in headed] if headed else figures


def extreme_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A clause calling a figure (or a period's figure) the largest or the smallest must be right about the quoted
    row it comes from."""
    problems: list[Problem] = []
    rows = [qs for qs in quotes if qs.sentence.row and not qs.sentence.header]
    for c in claim.clauses:
        poles = {pole for axis, pole in c.directions if axis == "extreme"}
        if len(poles) != 1 or not rows:
            continue
        pole = poles.pop()
        inside = [v for v in claim.values if c.start <= v.pos < c.end]
        words = words_of(c)
        contexts = quote_contexts(tuple(quotes))
        row = max(rows, key=lambda qs: len(words & contexts[qs]))
        if not words & row.sentence.stems:
            continue
        stated = next((q for v in inside if not v.label for q in row.sentence.values if same_figure(q, v, True)), None)
        if stated is None:
            label = next((v.key for v in inside if v.label), None)
            stated = label_figure(row, label, quotes) if label is not None else None
        if stated is None:
            continue
        series = _series(row, quotes, kind_class(stated))
        if len(series) < 2 or stated not in series or any(negative_figure(row.sentence, v) for v in series):
            continue
        numbers = [v.key[1] for v in series if isinstance(v.key[1], Decimal)]
        mine = stated.key[1]
        if not isinstance(mine, Decimal) or len(numbers) != len(series):
            continue
        if (pole == "max" and mine < max(numbers)) or (pole == "min" and mine > min(numbers)):
            which = "largest" if pole == "max" else "smallest"
            detail = f"calls {stated.text} the {which}, which its row does not"
            problems.append(Problem("meaning", detail, row.sentence.text))
    return problems
