"""Property (hoa §3.1): every figure a draft that passes the gate shows is in a verified quote or a recomputed calc.

Evidence bundles are generated over a placeholder source (the locator index needs real lines; the bundle text is
what the gate verifies quotes against): each line carries random money, numbers, percentages, dates, months and
clock times, spelled the ways documents spell them. Drafts mix, in all three levels, the answer and the facts,
figures copied from the quotes (re-spelled), figures of uncited lines, invented figures, and calc results (right
and wrong, from quoted and unquoted operands); some supports are not verbatim.

The oracle here reads figures on its own (a few regexes, then `Decimal` and `datetime.strptime`), never through
the gate's token code, and rules by the spec: a figure may be said when a verified quote states it (a quote's
figures count leniently: the day and year of a date, the hour of a time, but never the number of a percentage),
or when it is the result, or an operand, of a calc the test recomputed from operands quoted in that fact's own
support (or unit constants).
"""

from __future__ import annotations

import calendar
import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from quotebound.agent.core.contracts import (
    AnswerLevels,
    AnswerObject,
    CalcDerivation,
    Draft,
    EvidenceBundle,
    Fact,
    PolicyDecision,
    Support,
)
from quotebound.agent.core.settings import Settings
from quotebound.agent.gate import FindingCode, GateReport, validate_draft
from quotebound.agent.gate.bounds import Bounds
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

SOURCE = "board-minutes-2025.md"  # digits in the id: a citation of it is not a figure
N_LINES = 8
WORDS = ["reserve", "roof", "pool", "garage", "fence", "paint", "water", "insurance", "legal", "audit", "snow", "pest"]
# Unit conversions a calc may use without quoting them (the gate's documented allowance).
CONSTANTS = frozenset(Decimal(n) for n in (1, 7, 12, 24, 52, 60, 100, 365, 1000))
PROFILE = settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# --- Figures and how documents spell them -------------------------------------------------------------------

MONTHS = list(calendar.month_name)[1:]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@dataclass(frozen=True)
class Figure:
    kind: str  # money, number, percent, date, month, time
    value: object  # Decimal, date, (year, month) or (hour, minute)

    def spellings(self) -> list[str]:
        v = self.value
        if self.kind == "money":
            assert isinstance(v, Decimal)
            out = [f"${v:,.2f}", f"{v:.2f}", f"{v:,.2f}", f"USD {v:,.2f}", f"{v.normalize():f}"]
            return out + ([f"${int(v):,}", f"{int(v)}"] if v == int(v) else [])
        if self.kind == "number":
            assert isinstance(v, int)
            return [f"{v}", f"{v:,}"]
        if self.kind == "percent":
            assert isinstance(v, Decimal)
            out = [f"{v:f}%", f"{v:f} %", f"{v:f} percent", f"{v:f} per cent"]
            return out + ([f"{int(v)}.0%"] if v == int(v) else [])
        if self.kind == "date":
            assert isinstance(v, date)
            month = MONTHS[v.month - 1]
            return [
                v.isoformat(),
                f"{month} {v.day}, {v.year}",
                f"{v.day} {month} {v.year}",
                f"{v.month:02d}/{v.day:02d}/{v.year}",
                f"{v.month}/{v.day}/{v.year}",
                f"{month[:3]}. {v.day}, {v.year}",
                f"{month} {_ordinal(v.day)}, {v.year}",
                f"{_ordinal(v.day)} of {month}, {v.year}",
            ]
        if self.kind == "month":
            assert isinstance(v, tuple)
            year, number = v
            return [
                f"{MONTHS[number - 1]} {year}",
                f"{MONTHS[number - 1][:3]}. {year}",
                f"{MONTHS[number - 1]}, {year}",
            ]
        assert self.kind == "time" and isinstance(v, tuple)
        hour, minute = v
        h12 = hour % 12 or 12
        out = [f"{hour:02d}:{minute:02d}", f"{hour}:{minute:02d}"]
        for ap in ("a.m.", "AM", "am") if hour < 12 else ("p.m.", "PM", "pm"):
            out += [f"{h12}:{minute:02d} {ap}", f"{h12}:{minute:02d}{ap}"]
            out += [f"{h12} {ap}", f"{h12}{ap}"] if minute == 0 else []
        return out


def spell(figure: Figure, style: int) -> str:
    options = figure.spellings()
    return options[style % len(options)]


def cents(low: int, high: int) -> st.SearchStrategy[Decimal]:
    return st.integers(low, high).map(lambda n: Decimal(n) / 100)


def tenths(low: int, high: int) -> st.SearchStrategy[Decimal]:
    return st.integers(low, high).map(lambda n: Decimal(n) / 10)


times = st.tuples(st.integers(0, 23), st.sampled_from([0, 0, 5, 15, 30, 45, 59]))
# What documents state: small ranges, so a fact's figures often meet (a year is also a day count, and so on).
quoted_figures = st.one_of(
    cents(100, 999_999).map(lambda v: Figure("money", v)),
    st.integers(1, 999).map(lambda v: Figure("number", v)),
    tenths(1, 999).map(lambda v: Figure("percent", v)),
    st.dates(date(2000, 1, 1), date(2035, 12, 31)).map(lambda v: Figure("date", v)),
    st.tuples(st.integers(2000, 2035), st.integers(1, 12)).map(lambda v: Figure("month", v)),
    times.map(lambda v: Figure("time", v)),
)
# What a model invents: ranges no quoted figure can reach (times cannot be kept apart; the oracle rules on them).
invented_amounts = st.one_of(
    cents(500_000_000, 999_999_999).map(lambda v: Figure("money", v)),
    st.integers(100_000, 199_999).map(lambda v: Figure("number", v)),
)
invented_percents = tenths(1001, 1999).map(lambda v: Figure("percent", v))
invented_figures = st.one_of(
    invented_amounts,
    invented_percents,
    st.dates(date(2040, 1, 1), date(2049, 12, 31)).map(lambda v: Figure("date", v)),
    st.tuples(st.integers(2040, 2049), st.integers(1, 12)).map(lambda v: Figure("month", v)),
    times.map(lambda v: Figure("time", v)),
)
styles = st.integers(0, 50)


# --- The oracle: reading figures without the gate ----------------------------------------------------------

_MONTH = "|".join(sorted({*MONTHS, *(m[:3] for m in MONTHS)}, key=len, reverse=True))
_DATE_SHAPES = [
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b"),
    re.compile(rf"\b(?:{_MONTH})\.? \d{{1,2}}(?:st|nd|rd|th)?, \d{{4}}\b"),
    re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?(?:{_MONTH}),? \d{{4}}\b"),
]
_DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%B %d %Y", "%b %d %Y", "%d %B %Y", "%d %b %Y")
_MONTH_SHAPE = re.compile(rf"\b(?:{_MONTH})\.?,? \d{{4}}\b")
_TIME_12 = re.compile(r"\b(\d{1,2})(?::(\d{2}))? ?([ap])\.?m\b\.?", re.I)
_TIME_24 = re.compile(r"\b\d{1,2}:\d{2}\b")
_PERCENT = re.compile(r"(\d[\d,]*(?:\.\d+)?) ?(?:%|percent\b|per cent\b)")
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_CITATION = re.compile(r"doc://[^#\s]+#p\.\d+ L\d+(?:-L\d+)?|p\.\d+ L\d+(?:-L\d+)?")


def _plain_date(text: str) -> str:
    text = re.sub(r"(?<=\d)(?:st|nd|rd|th)\b", "", text).replace(" of ", " ")
    return text.replace(".", "").replace(",", "")


def _parse(text: str, formats: tuple[str, ...]) -> datetime | None:
    """`text` read by the first of `formats` that fits, or None when it is shaped like a date or a time but is
    none ("January 32, 2000", "22:00 AM": a tampered quote copied into the prose can say such things)."""
    for fmt in formats:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def _decimal(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


@dataclass
class Reading:
    """Figures read from a text, as (kind, normalized value, text) in the order found."""

    claims: list[tuple[str, object, str]] = field(default_factory=list)

    def values(self, kind: str) -> set[object]:
        return {value for k, value, _ in self.claims if k == kind}


def read(text: str, *, quote: bool) -> Reading:
    """Every figure of `text`. A quote is read leniently: the figures inside a date or a time also count as
    numbers (only a percentage's figure does not)."""
    reading = Reading()
    text = _CITATION.sub(lambda m: " " * len(m.group()), text).replace(SOURCE, " " * len(SOURCE))
    lenient = text

    def take(pattern: re.Pattern[str], kind: str, normalize: Callable[[re.Match[str]], object | None]) -> None:
        """Record every match of `pattern` as a `kind` figure and blank it out. A match that is no real date or
        time (normalize gives None) stays in the text: the passes after this one read its figures as numbers, so
        a draft saying "January 32, 2000" is still held to its 32 and its 2000."""
        nonlocal text

        def record(m: re.Match[str]) -> str:
            value = normalize(m)
            if value is None:
                return m.group()
            reading.claims.append((kind, value, m.group()))
            return " " * len(m.group())

        text = pattern.sub(record, text)

    take(_PERCENT, "percent", lambda m: _decimal(m[1]))
    lenient = _PERCENT.sub(lambda m: " " * len(m.group()), lenient)
    for shape in _DATE_SHAPES:
        take(shape, "date", lambda m: _date(m.group()))
    take(_MONTH_SHAPE, "month", lambda m: _month(m.group()))
    take(_TIME_12, "time", _time12)
    take(_TIME_24, "time", lambda m: _clock(_parse(m.group(), ("%H:%M",))))
    take(_NUMBER, "number", lambda m: _decimal(m.group()))
    if quote:
        reading.claims += [("number", _decimal(m.group()), m.group()) for m in _NUMBER.finditer(lenient)]
        reading.claims += [("month", (d.year, d.month), "") for d in reading.values("date")]  # type: ignore[attr-defined]
    return reading


def _date(text: str) -> date | None:
    parsed = _parse(_plain_date(text), _DATE_FORMATS)
    return None if parsed is None else parsed.date()


def _month(text: str) -> tuple[int, int] | None:
    parsed = _parse(_plain_date(text), ("%B %Y", "%b %Y"))
    return None if parsed is None else (parsed.year, parsed.month)


def _clock(parsed: datetime | None) -> tuple[int, int] | None:
    return None if parsed is None else (parsed.hour, parsed.minute)


def _time12(m: re.Match[str]) -> tuple[int, int] | None:
    return _clock(_parse(f"{m[1]}:{m[2] or '00'} {m[3].upper()}M", ("%I:%M %p",)))


@dataclass
class Pool:
    """What may be said: figures of verified quotes, and results and operands of recomputed calcs."""

    quoted: list[Reading] = field(default_factory=list)
    results: set[Decimal] = field(default_factory=set)
    operands: set[tuple[str, Decimal]] = field(default_factory=set)

    def has(self, kind: str, value: object) -> bool:
        if any(value in r.values("number" if kind == "money" else kind) for r in self.quoted):
            return True
        if kind in ("number", "money"):
            assert isinstance(value, Decimal)
            return value in self.results or -value in self.results or ("number", value) in self.operands
        if kind == "percent":
            assert isinstance(value, Decimal)
            return value in self.results or value / 100 in self.results or ("percent", value) in self.operands
        return False

    def union(self, other: Pool) -> None:
        self.quoted += other.quoted
        self.results |= other.results
        self.operands |= other.operands


# --- Scenarios: bundles and a draft --------------------------------------------------------------------------


@dataclass(frozen=True)
class Calc:
    operands: tuple[tuple[Figure, str], ...]  # the figure and how the expression writes it
    op: str  # "+", "-", "*"
    result: Decimal  # recomputed here

    @property
    def expr(self) -> str:
        return f" {self.op} ".join(text for _, text in self.operands)


@dataclass
class Scenario:
    lines: list[str]
    line_figures: list[list[Figure]]
    draft: Draft
    calcs: list[Calc | None]

    def bundles(self, ctx: ToolContext) -> list[EvidenceBundle]:
        source = ctx.readable_source(SOURCE)
        out = []
        for i, text in enumerate(self.lines, start=1):
            locator = f"p.1 L{i}-L{i}"
            digest = hashlib.sha256(text.encode()).hexdigest()
            out.append(
                EvidenceBundle(
                    bundle_id=hashlib.sha256(f"{SOURCE}{locator}{digest}".encode()).hexdigest(),
                    ref=f"doc://{SOURCE}#{locator}",
                    source_id=SOURCE,
                    version=source.version,
                    locator=locator,
                    text=text,
                    digest=digest,
                    content_hash=source.content_hash,
                    provenance_kind="primary",
                    policy=PolicyDecision(decision="allow"),
                )
            )
        return out


def _line_number(locator: str) -> int:
    m = re.fullmatch(r"p\.1 L(\d+)(?:-L\1)?", locator)
    assert m is not None, locator
    return int(m[1])


def _number_value(text: str) -> Decimal | None:
    m = re.fullmatch(r"\$?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)", text.strip())
    return _decimal(m[1]) if m else None


def oracle(scenario: Scenario) -> tuple[bool, list[str]]:
    """(is every citation verbatim and every calc right, from quoted operands; the figures said without support)."""
    draft = scenario.draft
    clean = True
    union = Pool()
    unsupported: list[str] = []
    own_pools: list[Pool] = []
    for fact, calc in zip(draft.evidence.facts, scenario.calcs, strict=True):
        own = Pool()
        for s in fact.support:
            line = scenario.lines[_line_number(s.locator) - 1]
            if s.quote in line:
                own.quoted.append(read(s.quote, quote=True))
            else:
                clean = False  # the gate must block a quote that is not verbatim
        if calc is not None:
            claimed = [fact.calc.value] + ([fact.value] if fact.value is not None else [])  # type: ignore[union-attr]
            right = all(_number_value(c) == calc.result for c in claimed)
            operands = [("percent" if f.kind == "percent" else "number", Decimal(f.value)) for f, _ in calc.operands]  # type: ignore[arg-type]
            quoted = all(own.has(kind, v) or (kind == "number" and v in CONSTANTS) for kind, v in operands)
            clean = clean and right and quoted
            if right and quoted:
                own.results.add(calc.result)
                own.operands |= set(operands)
        own_pools.append(own)
        union.union(own)

    def check(where: str, text: str, pool: Pool) -> None:
        for kind, value, written in read(text, quote=False).claims:
            if not pool.has(kind, value):
                unsupported.append(f"{where}: {written!r}")

    levels = draft.levels
    for where, text in [("level1", levels.level1), ("level2", levels.level2), ("level3", levels.level3)]:
        check(where, text, union)
    check("answer", draft.evidence.answer, union)
    for i, (fact, own) in enumerate(zip(draft.evidence.facts, own_pools, strict=True)):
        check(f"fact {i} text", fact.text, own)
        if fact.value is not None:
            check(f"fact {i} value", fact.value, own)
    return clean, unsupported


def _money_spelling(value: Decimal, style: int) -> str:
    """How a calc result is written where the gate must parse it (calc.value, fact.value)."""
    if value != value.quantize(Decimal("0.01")):
        return f"{value.normalize():f}"
    return [f"${value:,.2f}", f"{value:.2f}", f"{value:,.2f}", f"{value.normalize():f}"][style % 4]


@st.composite
def lines_strategy(draw: st.DrawFn) -> tuple[list[str], list[list[Figure]]]:
    figures = [draw(st.lists(quoted_figures, min_size=1, max_size=4)) for _ in range(N_LINES)]
    words = draw(st.lists(st.sampled_from(WORDS), min_size=N_LINES, max_size=N_LINES))
    lines = [
        f"The {word} record: " + "; ".join(spell(f, draw(styles)) for f in figs) + "."
        for word, figs in zip(words, figures, strict=True)
    ]
    return lines, figures


def quote_of(line: str, figures: list[Figure], pick: int) -> tuple[str, list[Figure]]:
    """The whole line (pick 0) or its clause stating figure pick-1, with the figures the quote states."""
    parts = line.split("; ")
    assert len(parts) == len(figures)
    if pick == 0 or pick > len(parts):
        return line, list(figures)
    return parts[pick - 1], [figures[pick - 1]]


@st.composite
def calc_strategy(draw: st.DrawFn, own: list[Figure], others: list[Figure], honest: bool) -> Calc | None:
    amounts = [f for f in own if f.kind in ("money", "number")]
    if not amounts:
        return None
    pick = st.sampled_from(amounts)
    if not honest:
        stray = [f for f in others if f.kind in ("money", "number")]
        pick = st.one_of(
            pick,
            invented_amounts,
            *([st.sampled_from(stray)] if stray else []),
        )
    a = draw(pick)
    x = Decimal(a.value)  # type: ignore[arg-type]
    shape = draw(st.sampled_from(["+", "-", "*k", "*p"]))
    if shape == "*k":
        k = draw(st.sampled_from([12, 7, 100] if honest else [12, 7, 100, 13]))
        operands: tuple[tuple[Figure, str], ...] = ((a, f"{x:f}"), (Figure("number", Decimal(k)), str(k)))
        return Calc(operands, "*", x * k)
    if shape == "*p":
        percents = [f for f in own if f.kind == "percent"]
        if not percents and honest:
            return None
        p = draw(st.sampled_from(percents) if percents else invented_percents)
        rate = Decimal(p.value)  # type: ignore[arg-type]
        return Calc(((a, f"{x:,f}"), (p, f"{rate:f}%")), "*", x * rate / 100)
    b = draw(pick)
    y = Decimal(b.value)  # type: ignore[arg-type]
    if shape == "-" and y > x:
        a, b, x, y = b, a, y, x
    op = shape
    return Calc(((a, f"{x:f}"), (b, f"{y:,f}")), op, x + y if op == "+" else x - y)


def _draft(levels: tuple[str, str, str], facts: list[Fact]) -> Draft:
    return Draft(
        levels=AnswerLevels(level1=levels[0], level2=levels[1], level3=levels[2]),
        evidence=AnswerObject(mode="answer", answer=levels[0], facts=facts),
    )


def _citations(draw: st.DrawFn, cited: list[int]) -> str:
    forms = [
        lambda n: f"doc://{SOURCE}#p.1 L{n}-L{n}",
        lambda n: f"doc://{SOURCE}@v1#p.1 L{n}",
        lambda n: f"{SOURCE} p.1 L{n}-L{n}",
    ]
    return "Citations: " + "; ".join(draw(st.sampled_from(forms))(n) for n in cited)


@st.composite
def scenarios(draw: st.DrawFn, honest: bool = False) -> Scenario:
    """A draft over random bundles; `honest` drafts say only quoted figures and right calcs."""
    lines, line_figures = draw(lines_strategy())
    every = [f for figs in line_figures for f in figs]
    facts: list[Fact] = []
    calcs: list[Calc | None] = []
    cited_figures: list[Figure] = []
    results: list[Decimal] = []
    for _ in range(draw(st.integers(1, 3))):
        supports: list[Support] = []
        own: list[Figure] = []
        for _ in range(draw(st.integers(1, 2))):
            n = draw(st.integers(1, N_LINES))
            quote, stated = quote_of(lines[n - 1], line_figures[n - 1], draw(st.integers(0, 4)))
            tamper = None if honest else draw(st.sampled_from([None] * 10 + ["other line", "edited"]))
            if tamper == "other line":
                quote, _ = quote_of(lines[n % N_LINES], line_figures[n % N_LINES], draw(st.integers(0, 4)))
            elif tamper == "edited":
                quote = re.sub(r"\d", lambda m: str((int(m.group()) + 1) % 10), quote, count=1)
            locator = draw(st.sampled_from([f"p.1 L{n}-L{n}", f"p.1 L{n}"]))
            supports.append(Support(source_id=SOURCE, locator=locator, quote=quote))
            own += stated
        calc = draw(calc_strategy(own, every, honest)) if draw(st.booleans()) else None
        said = st.sampled_from(own) if own else st.nothing()
        if not honest:
            said = st.one_of(said, st.sampled_from(every), invented_figures)
        texts = [spell(f, draw(styles)) for f in draw(st.lists(said, max_size=3))]
        value: str | None = None
        calc_model = None
        if calc is not None:
            claimed = calc.result
            if not honest and draw(st.integers(0, 4)) == 0:
                claimed += draw(st.sampled_from([Decimal("0.01"), Decimal(1), Decimal(10)]))
            written = _money_spelling(claimed, draw(styles))
            calc_model = CalcDerivation(expr=calc.expr, value=written)
            value = written if draw(st.booleans()) else None
            texts.append(written)
            results.append(claimed)
        elif own and draw(st.booleans()):
            value = spell(draw(said), draw(styles))
        facts.append(Fact(text="Fact: " + "; ".join(texts) + ".", support=supports, value=value, calc=calc_model))
        calcs.append(calc)
        cited_figures += own

    def said_in_levels() -> list[str]:
        sources = [st.sampled_from(cited_figures)] if cited_figures else []
        if not honest:
            sources += [st.sampled_from(every), invented_figures]
        out = [spell(f, draw(styles)) for f in draw(st.lists(st.one_of(*sources), max_size=3))] if sources else []
        if results and draw(st.booleans()):
            out.append(_money_spelling(draw(st.sampled_from(results)), draw(styles)))
        return out

    cited = sorted({_line_number(s.locator) for f in facts for s in f.support})
    level1 = "Answer: " + "; ".join(said_in_levels()) + "."
    level2 = "Rationale: " + "; ".join(said_in_levels()) + "."
    if draw(st.booleans()):  # the rationale copies a quote, cited
        s = draw(st.sampled_from([s for f in facts for s in f.support]))
        level2 += f' {s.source_id} {s.locator} states: "{s.quote}"'
    note = said_in_levels()
    level3 = _citations(draw, cited) + (" Note: " + "; ".join(note) + "." if note else "")
    return Scenario(lines, line_figures, _draft((level1, level2, level3), facts), calcs)


# --- Tests ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def indexed_ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolContext]:
    """A source of N_LINES placeholder lines: its locators exist, and the bundles say what they read."""
    root = tmp_path_factory.mktemp("gate-property")
    (root / "docs").mkdir()
    (root / "docs" / SOURCE).write_text("".join(f"Placeholder line {w}.\n" for w in WORDS[:N_LINES]), "utf-8")
    with Store(Settings(store=root / "store", embedder="hashing"), create=True) as store:
        assert Ingestor(store).ingest([root / "docs"]).ok
        yield ToolContext(Corpus(store))


# The property is about what a passing draft says, not about speed (bench_gate_speed.py and the bounds tests hold
# the deadline): on a loaded machine a draft can pass the default 1 s, and a deadline block would read as a
# false alarm, so these runs get a minute.
PATIENT = Bounds(deadline_ms=60_000)


def run(scenario: Scenario, ctx: ToolContext) -> GateReport:
    return validate_draft(scenario.draft, bundles=scenario.bundles(ctx), ctx=ctx, bounds=PATIENT)


def describe(scenario: Scenario, report: GateReport) -> str:
    return "\n".join([*scenario.lines, scenario.draft.model_dump_json(indent=1), *map(str, report.blocking)])


@PROFILE
@given(scenario=scenarios())
def test_what_passes_the_gate_says_only_quoted_or_recomputed_figures(
    indexed_ctx: ToolContext, scenario: Scenario
) -> None:
    report = run(scenario, indexed_ctx)
    clean, unsupported = oracle(scenario)
    event("passes" if report.ok else "blocked: " + ", ".join(sorted({f.code.value for f in report.blocking})))
    if report.ok:  # sound: nothing unquoted and uncomputed passes
        assert clean and not unsupported, f"{unsupported}\n{describe(scenario, report)}"
    # and exact on these spellings: a clean draft whose figures all check out passes
    assert report.ok == (clean and not unsupported), f"{unsupported}\n{describe(scenario, report)}"


@PROFILE
@given(
    scenario=scenarios(honest=True),
    invented=invented_figures,
    style=styles,
    where=st.sampled_from(["level1", "level2", "level3", "fact text", "fact value"]),
)
def test_an_honest_draft_passes_and_one_invented_figure_blocks_it(
    indexed_ctx: ToolContext, scenario: Scenario, invented: Figure, style: int, where: str
) -> None:
    report = run(scenario, indexed_ctx)
    assert report.ok, describe(scenario, report)

    figure = spell(invented, style)
    draft = scenario.draft
    if where.startswith("level"):
        levels = draft.levels.model_copy(update={where: f"{getattr(draft.levels, where)} Also {figure}."})
        changed = draft.model_copy(update={"levels": levels})
    else:
        fact = draft.evidence.facts[0]
        field_name = "text" if where == "fact text" else "value"
        update = {field_name: f"{getattr(fact, field_name) or ''} {figure}".strip()}
        if fact.calc is not None and field_name == "value":
            update = {"text": f"{fact.text} {figure}"}  # a calc fact's value is its result
        facts = [fact.model_copy(update=update), *draft.evidence.facts[1:]]
        changed = draft.model_copy(update={"evidence": draft.evidence.model_copy(update={"facts": facts})})
    mutated = Scenario(scenario.lines, scenario.line_figures, changed, scenario.calcs)
    clean, unsupported = oracle(mutated)
    assume(clean and unsupported)  # an invented time may still be a quoted one (times cannot be kept apart)

    report = run(mutated, indexed_ctx)
    assert not report.ok, f"{figure!r} passed\n{describe(mutated, report)}"
    assert {f.code for f in report.blocking} == {FindingCode.UNSUPPORTED_TOKEN}, describe(mutated, report)
    assert all(f.token is not None and f.token in figure for f in report.blocking), describe(mutated, report)


@pytest.mark.parametrize("said", ["22:00", "10:00 pm", "10 p.m.", "10:00 PM", "10pm"])
def test_a_quoted_clock_time_passes_the_gate_in_any_spelling(indexed_ctx: ToolContext, said: str) -> None:
    lines = ["The pool record: quiet hours start at 10:00 p.m. and end at 7 a.m.", *["No figures here."] * 7]
    quote = lines[0]
    facts = [Fact(text=quote, support=[Support(source_id=SOURCE, locator="p.1 L1-L1", quote=quote)])]
    scenario = Scenario(
        lines, [], _draft((f"Quiet hours start at {said}.", "As quoted.", "Citations: x"), facts), [None]
    )
    report = run(scenario, indexed_ctx)
    assert report.ok, report.findings
    for invented in ("23:00", "10:30 p.m.", "10:00", "7 pm"):
        wrong = Scenario(lines, [], _draft((f"Quiet hours start at {invented}.", "As quoted.", "x"), facts), [None])
        report = run(wrong, indexed_ctx)
        assert {(f.code, f.token) for f in report.blocking} == {(FindingCode.UNSUPPORTED_TOKEN, invented)}
