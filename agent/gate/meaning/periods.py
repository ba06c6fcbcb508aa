"""Period labels: a figure's period ("2019", "FY19", "December 31, 2018", "2020 – 2024") in a claim must be the one
its quote gives it, read from a table's column headings or row label, or from the label a sentence attaches to the
figure ("1,066 at the 2010 census", "(2018: $1.8 million)").

A period is a year, a fiscal code or a date, or a range of two of them (a row labelled "| 2020 – 2024 |"). A year
and a date or code of that year are the same period ("2019" and "FY19", "2019" and a column headed "December 31,
2019"); two dates are the same period only when they are the same date. A figure whose quote gives it a range is
stated right when its claim clause names both ends of the range.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from quotebound.agent.gate.meaning.lexicon import word_set
from quotebound.agent.gate.meaning.model import Problem, QuoteSentence, Sentence, Value, same_figure
from quotebound.agent.gate.meaning.units import kind_class
from quotebound.agent.gate.tokens import Key

Period = tuple[Key, ...]  # one label, or the two ends of a range

# Words that link a figure to the period it is for, standing between them ("1,066 at the 2010 census", "$5.2 million
# for the year ended 30 June 2019"): prepositions, articles and the words that name a reporting period.
PERIOD_LINKS: Final = word_set("at in for of on during as by the a an its fiscal financial calendar year ended ending")
_LINK_REACH: Final = 4  # linking words at most between a figure and its period
_QUANTITIES: Final = frozenset({"money", "number", "percent"})


def _year(key: Key) -> int | None:
    kind, value = key
    if kind == "year" and isinstance(value, int):
        return value
    if kind == "num" and isinstance(value, Decimal) and value == value.to_integral_value() and 1900 <= value < 2100:
        return int(value)
    if kind == "date" and isinstance(value, str) and value[:4].isdigit():
        return int(value[:4])
    return None


def same_label(a: Key, b: Key) -> bool:
    """The two labels name one period: equal, or of one year when at most one of them is a date."""
    if a == b:
        return True
    if a[0] == "date" and b[0] == "date":
        x, y = str(a[1]), str(b[1])
        return x.startswith(y) or y.startswith(x)  # "2019-12" and "2019-12-31"
    year = _year(a)
    return year is not None and year == _year(b)


def _same(a: Period, b: Period) -> bool:
    return len(a) == len(b) and all(same_label(x, y) for x, y in zip(a, b, strict=True))


def _shown(p: Period) -> str:
    return " – ".join(str(k[1]) for k in p)


def follows(s: Sentence, x: Value, label: Value) -> bool:
    """`label` stands right after figure `x` (one token between at most, not another figure: in "2010 10,000
    180.5 % 2020" the year 2020 heads the figures after it), or with only linking words between."""
    gap = label.pos - x.pos
    if gap <= 0:
        return False
    return (gap == 1 or (gap == 2 and s.toks[x.pos + 1].value < 0)) or (
        gap - 1 <= _LINK_REACH and all(t.value < 0 and t.low in PERIOD_LINKS for t in s.toks[x.pos + 1 : label.pos])
    )


def _periods(s: Sentence) -> list[Value]:
    """The values of `s` that are periods: its labels (years, fiscal codes), the dates of a heading row, and a date
    that follows a quantity ("1,396 at December 31, 2018")."""
    return [v for v in s.values if v.label or (v.kind == "date" and _dated(s, v))]


def _dated(s: Sentence, v: Value) -> bool:
    """Date `v` heads a column, or follows a quantity of a prose sentence."""
    if s.header:
        return True
    return not s.row and any(not q.label and q.kind in _QUANTITIES and follows(s, q, v) for q in s.values)


def _attached(s: Sentence) -> dict[Key, Key]:
    """The figures of a prose sentence that carry their own period label: "(2018: $1.8 million)" (a label, a colon,
    the figure) or "$62.6 million in FY18", "1,066 at the 2010 census" (a label after the figure)."""
    out: dict[Key, Key] = {}
    for index, label in _attached_at(s).items():
        out.setdefault(s.values[index].key, label)  # a label before a colon first, then one after the figure
    return out


def _attached_at(s: Sentence) -> dict[int, Key]:
    """`_attached` by figure (its index in `s.values`), so that two mentions of one figure keep their own labels."""
    out: dict[int, Key] = {}
    forward: set[int] = set()
    periods = _periods(s)
    for lab in periods:
        if lab.pos + 2 < len(s.toks) and s.toks[lab.pos + 1].low == ":":
            after = s.toks[lab.pos + 2]
            if after.value >= 0 and not s.values[after.value].label:
                out[after.value] = lab.key
                forward.add(lab.pos)
    keys = {s.values[i].key for i in out}
    for lab in periods:
        if lab.pos not in forward and not _opens_list(s, lab):
            for i, x in enumerate(s.values):
                if not x.label and x.kind in _QUANTITIES and follows(s, x, lab) and x.key not in keys:
                    out[i] = lab.key
                    keys.add(x.key)
    return out


def attached_labels(s: Sentence) -> dict[Key, Key]:
    """The period label a claim attaches to each of its figures (`_attached`), read once per claim."""
    return _attached(s) if not s.row else {}


def other_period(label: Key | None, s: Sentence) -> bool:
    """Sentence `s` names periods of its own, none of them `label`: what it says is for another period."""
    if label is None or s.row:
        return False
    own = [p.key for p in _periods(s)]
    return bool(own) and not any(same_label(label, p) for p in own)


_LIST_LINKS: Final = word_set(", and or &")  # what joins the items of a list ("2019, 2018 and 2017")


def _opens_list(s: Sentence, lab: Value) -> bool:
    """Label `lab` opens a list of labels ("$9.0, $12.2 and $12.8 billion in 2019, 2018 and 2017"): the list
    labels the figures before it in order, not the one figure it follows."""
    nxt = lab.pos + 1
    while nxt < len(s.toks) and s.toks[nxt].value < 0 and s.toks[nxt].low in _LIST_LINKS:
        nxt += 1
    return nxt > lab.pos + 1 and nxt < len(s.toks) and s.toks[nxt].value >= 0 and s.values[s.toks[nxt].value].label


def _cell_period(s: Sentence, cell: int) -> Period:
    """The period a row's cell names: its one label, or the two ends of a range ("2020 – 2024")."""
    found = tuple(v.key for v in _periods(s) if s.toks[v.pos].cell == cell)
    return found if len(found) <= 2 else ()


def _headings(qs: QuoteSentence, quotes: Sequence[QuoteSentence]) -> list[QuoteSentence]:
    """The quoted heading rows of `qs`'s table above it, nearest first."""
    above = [h for h in quotes if h.same_block(qs) and h.sentence.header and h.line < qs.line]
    return sorted(above, key=lambda h: -h.line)


def _quote_periods(qs: QuoteSentence, v: Value, quotes: Sequence[QuoteSentence]) -> frozenset[Period]:
    """The periods the quote gives figure `v` (empty: none known): in a table, the period its row is labelled with
    ("| 2021 | 4,870 |", "| 2020 – 2024 | 381 |") or the headings of the columns it stands in; in a sentence, the
    label it carries (`_attached`), or, with as many labels as figures and none attached, the label in the same
    place of the order."""
    s = qs.sentence
    if s.row:
        row_label = _cell_period(s, 1)
        if row_label and any(same_figure(q, v, True) and not q.label for q in s.values):
            return frozenset({row_label})
        cells = {s.toks[q.pos].cell for q in s.values if same_figure(q, v, True) and not q.label}
        headers = _headings(qs, quotes)
        found: set[Period] = set()
        for cell in cells:
            for h in headers:
                heading = _cell_period(h.sentence, cell)
                if heading:
                    found.add(heading)
                    break
        return frozenset(found)
    at = _attached_at(s)
    attached = {s.values[i].key for i in at}
    if v.key in attached:
        return _attached_periods(s, v, at)
    labels = [x for x in s.values if x.label]
    figures = [x for x in s.values if not x.label and kind_class(x) == kind_class(v)]
    if attached or len(labels) < 2 or len(labels) != len(figures):
        return frozenset()
    return frozenset((labels[n].key,) for n, x in enumerate(figures) if x.key == v.key)


def _attached_periods(s: Sentence, v: Value, at: dict[int, Key]) -> frozenset[Period]:
    """The labels a sentence attaches to figure `v`. When `v` is said again with no label of its own ("at 31
    December 2019 is £3.5 million (2018: £3.5 million)"), that mention may be for any of the sentence's periods no
    figure carries: those count too, and with none known the figure's period is unknown."""
    found = {(label,) for i, label in at.items() if s.values[i].key == v.key}
    if all(i in at for i, x in enumerate(s.values) if x.key == v.key and not x.label):
        return frozenset(found)
    free = {(p.key,) for p in _periods(s) if p.key not in at.values()}
    return frozenset(found | free) if free else frozenset()


Known = tuple[Value, frozenset[Period], QuoteSentence]


def _problem(v: Value, label: Value, quoted: frozenset[Period], qs: QuoteSentence) -> Problem | None:
    if any(_same((label.key,), p) for p in quoted):
        return None
    given = ", ".join(sorted(_shown(p) for p in quoted))
    return Problem(
        "unbound", f"gives {v.text} for {label.text}, where the quote gives it for {given}", qs.sentence.text
    )


def label_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A figure's period in the claim must be one its quote gives it. A figure whose quote gives it a range is
    right when the clause names both ends; a label the clause attaches to a figure ("1,396 at December 31, 2018")
    labels that figure; the others pair in order when the clause gives as many labels as placed figures, or, for a
    clause's one label, with the figure nearest to it."""
    problems: list[Problem] = []
    periods = _periods(claim)
    attached = _attached(claim)
    for c in claim.clauses:
        labels = [v for v in periods if c.start <= v.pos < c.end]
        if not labels:
            continue
        figures = [
            v
            for v in claim.values
            if c.start <= v.pos < c.end and not v.label and v.kind in _QUANTITIES and v not in labels
        ]
        known: list[Known] = []
        for v in figures:
            for qs in quotes:
                quoted = frozenset() if qs.sentence.header else _quote_periods(qs, v, quotes)
                if quoted:
                    known.append((v, quoted, qs))
                    break
        used: set[int] = set()
        rest: list[Known] = []
        for k in known:
            ends = [
                [lab.pos for lab in labels if any(same_label(end, lab.key) for end in p)]
                for p in k[1]
                if len(p) == 2 and all(any(same_label(end, lab.key) for lab in labels) for end in p)
            ]
            if ends:
                used.update(ends[0])  # "for 2020 – 2024 the table shows 381": both ends named
            else:
                rest.append(k)
        labels = [lab for lab in labels if lab.pos not in used]
        for lab in list(labels):
            hit = next((k for k in rest if attached.get(k[0].key) == lab.key and follows(claim, k[0], lab)), None)
            if hit is not None:
                labels.remove(lab)
                rest.remove(hit)
                found = _problem(hit[0], lab, hit[1], hit[2])
                problems += [found] if found else []
        if len(rest) == len(labels) >= 1:
            pairs = list(zip(rest, labels, strict=True))
        elif len(labels) == 1 and rest:
            # one label among several figures labels the figure nearest to it ("the 2019 revenue of $264.0 million,
            # up from $250.5 million")
            pairs = [(min(rest, key=lambda k: abs(k[0].pos - labels[0].pos)), labels[0])]
        else:
            continue
        for (v, quoted, qs), label in pairs:
            found = _problem(v, label, quoted, qs)
            problems += [found] if found else []
    return problems


def label_figure(qs: QuoteSentence, label: Key, quotes: Sequence[QuoteSentence]) -> Value | None:
    """The figure the quote gives for period `label`: in its column (a table row), or in the same place of the
    order (a sentence with as many labels as figures)."""
    s = qs.sentence
    figures = [x for x in s.values if not x.label and x.kind in _QUANTITIES]
    if s.row:
        for h in _headings(qs, quotes):
            cells = [h.sentence.toks[hv.pos].cell for hv in _periods(h.sentence) if same_label(hv.key, label)]
            if cells:
                return next((x for x in figures if s.toks[x.pos].cell == cells[0]), None)
        return None
    labels = [x.key for x in s.values if x.label]
    matching = [n for n, key in enumerate(labels) if same_label(key, label)]
    if len(labels) < 2 or len(labels) != len(figures) or len(matching) != 1:
        return None
    return figures[matching[0]]


def negative_figure(s: Sentence, v: Value) -> bool:
    """A figure written negative: with a minus sign, or in brackets as accounts write losses ("(19,911)")."""
    number = v.key[1]
    bracketed = v.pos > 0 and s.toks[v.pos - 1].low == "("
    return bracketed or (isinstance(number, Decimal) and number < 0)
