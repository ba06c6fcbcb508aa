"""Line machinery of the extractive model: the pool of lines read, what is excluded, and coverage scoring.

A line is admissible support only if it came verbatim from a bundle or a `search_source` hit, no bundle flag
names it, and it does not read as an instruction to an assistant. Lines are scored by idf-weighted coverage of
the question's content words; the best one answers, and close ones about the same subject are kept so that a
disagreement shows up as a conflict instead of being silently resolved.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from quotebound.agent.core.contracts import EvidenceBundle, Locator
from quotebound.agent.gate.answer_binding import value_clause
from quotebound.agent.models.base import Meaning
from quotebound.agent.models.extractive_clause_value import clause_value
from quotebound.agent.models.extractive_column import read_row
from quotebound.agent.models.extractive_inflect import bases, inflected
from quotebound.agent.models.extractive_meaning import Senses, sense_credit, senses
from quotebound.agent.models.extractive_polarity import modal_senses
from quotebound.agent.models.extractive_qualifiers import asked_years, change_figure, labels_only, row_labels, unstated
from quotebound.agent.models.extractive_role import role_holder, role_word, writes_role
from quotebound.agent.models.extractive_section import part_credit
from quotebound.agent.models.extractive_sentences import runs, sentences
from quotebound.agent.models.extractive_subject import names_only_a_group
from quotebound.agent.models.extractive_text import (
    CHANGE_DOWN,
    CHANGE_EITHER,
    CHANGE_UP,
    NUMERIC_KINDS,
    STOPWORDS,
    Question,
    Value,
    asks_polarity,
    content_tokens,
    extract_values,
    is_heading,
    is_lead_in,
    is_number_word,
    is_page_chrome,
    is_table_row,
    kind_class,
    line_value,
    period_of,
    token_forms,
    tokens,
    value_differs,
)


@dataclass(frozen=True)
class Thresholds:
    """Every tunable of the extractive strategy, with its default."""

    min_coverage: float = 0.6  # idf-weighted share of the question's words a line must cover to answer
    co_answer_margin: float = 0.2  # lines scoring within this of the best answer too (agreement or conflict)
    context_credit: float = 0.5  # a word found only in the line's heading / table header / document name
    value_bonus: float = 0.1  # the line holds a value of the asked kind
    primary_bonus: float = 0.02  # ties go to primary sources
    focus_bonus: float = 0.1  # times the share of the line's own words that the question asks about
    max_unknown_fraction: float = 0.3  # above this share of words absent from every line: abstain
    max_facts: int = 3
    search_top_n: int = 30
    search_pattern_chars: int = 200  # the tools' default pattern limit
    reserved_calls: int = 4  # tool calls kept back for calc after the searches
    header_fetches: int = 2  # table rows whose header the model fetches with quote_fetch
    header_reach: int = 40  # how many lines above such a row it reads (within quote_fetch's span limit)
    conflict_tolerance_pct: float = 1.0
    frame_fetches: int = 2  # best unframed lines whose lines above (up to their heading) the model fetches
    frame_reach: int = 12  # how many lines above such a line it reads
    frame_gap: float = 0.2  # how far below min_coverage a line may score and still be worth framing
    meaning_floor: float = 0.6  # embedder cosine from which a line word stands in for a question word
    # A sentence answering by meaning (`extractive_semantic`): on hoa and licenses the right sentences score
    # 0.72-0.80 against their question and the best wrong sentence of the asked type 0.69, so the floor sits between.
    semantic_floor: float = 0.7
    semantic_margin: float = 0.1  # a different value within this of the best sentence: too close to choose


# --- Exclusions -----------------------------------------------------------------------------------------

_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|earlier|preceding|"
    r"your|these|those|system)\b[^.]{0,20}?\b(?:instructions?|prompts?|rules|directions|messages)\b"
    r"|\bdisregard\s+(?:all\s+|everything\s+)?(?:the\s+)?above\b|\byou\s+are\s+now\b|\bsystem\s+prompt\b"
    r"|\bnew\s+instructions?\s*:|\bjailbreak|\bas\s+an\s+ai\b"
    r"|\bdo\s+not\s+(?:cite|mention|reveal)\s+(?:this|any)\s+(?:other\s+)?(?:document|paragraph|source|instruction)"
    r"|\bact\s+as\s+(?:an?\s+|the\s+)?(?:ai|assistant|language\s+model|chatbot)\b",
    re.IGNORECASE,
)
_PARAGRAPH_REACH = 5  # how far an instruction taints the lines its sentence wraps onto
_TABLE_REACH = 60  # how far above a line its table header or heading is looked for
# The words that name a change or a figure's form in a question: what changed is named by its other words.
_CHANGE_WORDS = tokens(" ".join((*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER)))
_FIGURE_WORDS = frozenset({"percentage", "percent", "amount", "value", "figure"})
_LOCATOR_IN_TEXT = re.compile(r"p\.(\d+) L(\d+)(?:-L(\d+))?")
_SEPARATOR_ROW = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


_SENTENCE_END = re.compile(r"[.!?:;][\"'”’)\]]*\s*$")


def same_sentence(first: Line, second: Line) -> bool:
    """Whether `second` continues the sentence `first` holds (hard-wrapped): `second` opens in lowercase, or
    `first` stops without a sentence's end and `second` opens with no capital. A line opening with a capital
    starts a statement of its own (a truncated line above it, "The Mercury T", does not join it)."""
    opening = second.text.lstrip(" \t>*-#")[:1]
    return opening.islower() or (not _SENTENCE_END.search(first.text) and not opening.isupper())


def looks_instructional(text: str) -> bool:
    """A line addressed to an assistant rather than a reader: data, never support."""
    return _INSTRUCTION.search(text) is not None


_TITLE_CHARS = 100  # a title names a document; a longer first line is its opening paragraph


def names_a_document(title: str) -> bool:
    """Whether a document's title (its first line with words) reads as a title: short, and not a sentence. A
    document opening with a paragraph has no title, and that paragraph frames nothing."""
    text = title.strip()
    return bool(text) and len(text) <= _TITLE_CHARS and not _SENTENCE_END.search(text)


LineKey = tuple[str, int, int]  # (source_id, page, line)


@dataclass(frozen=True)
class Line:
    source_id: str
    page: int
    line_no: int
    text: str
    line_end: int = 0  # a sentence wrapped over lines ends here (0: the unit is one line)

    @property
    def key(self) -> LineKey:
        return (self.source_id, self.page, self.line_no)

    @property
    def locator(self) -> str:
        return str(Locator(page=self.page, line_start=self.line_no, line_end=max(self.line_no, self.line_end)))


@dataclass
class LinePool:
    """Every line the model has read (bundles and search hits), which of them are excluded, and their context."""

    lines: dict[LineKey, Line] = field(default_factory=dict)
    excluded: set[LineKey] = field(default_factory=set)
    provenance: dict[str, str] = field(default_factory=dict)
    content_hash: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)  # source_id -> the document's title, where it has one
    _flagged: list[tuple[str, int, int, int]] = field(default_factory=list)  # (source, page, first, last)

    @classmethod
    def from_bundles(cls, bundles: Iterable[EvidenceBundle]) -> LinePool:
        pool = cls()
        for bundle in sorted(bundles, key=lambda b: (b.source_id, b.locator)):
            pool.add_bundle(bundle)
        return pool

    @classmethod
    def from_texts(cls, source_id: str, texts: Iterable[str]) -> LinePool:
        """One source's lines as read from page 1, numbered from L1 (a short document read whole)."""
        pool = cls()
        for number, text in enumerate(texts, start=1):
            pool.add(Line(source_id, 1, number, text))
        return pool

    def add_bundle(self, bundle: EvidenceBundle) -> None:
        try:
            span = Locator.parse(bundle.locator)
        except ValueError:
            return
        self.provenance.setdefault(bundle.source_id, bundle.provenance_kind)
        self.content_hash.setdefault(bundle.source_id, bundle.content_hash)
        for flag in bundle.flags:
            spans = _LOCATOR_IN_TEXT.findall(flag)
            for page, start, end in spans:
                self._flagged.append((bundle.source_id, int(page), int(start), int(end or start)))
            if not spans:  # a flag that names no line taints the whole bundle
                self._flagged.append((bundle.source_id, span.page, span.line_start, span.line_end))
        for offset, text in enumerate(bundle.text.split("\n")):
            if span.line_start + offset > span.line_end:
                break
            self.add(Line(bundle.source_id, span.page, span.line_start + offset, text))

    def add(self, line: Line) -> bool:
        if line.key in self.lines:
            return False
        self.lines[line.key] = line
        return True

    def add_hit(self, source_id: str, locator: str, snippet: str) -> bool:
        try:
            span = Locator.parse(locator)
        except ValueError:
            return False
        if span.line_start != span.line_end:
            return False
        return self.add(Line(source_id, span.page, span.line_start, snippet))

    def settle_exclusions(self) -> None:
        """Flagged lines, instruction-like lines, and the lines an instruction's sentence is wrapped onto."""
        for key, line in self.lines.items():
            flagged = any(s == key[0] and p == key[1] and a <= key[2] <= b for s, p, a, b in self._flagged)
            if flagged or looks_instructional(line.text):
                self.excluded.add(key)
        for source_id, page, line_no in sorted(self.excluded):  # an injected sentence is suspect as a whole
            for step in (-1, 1):
                at = self.lines[(source_id, page, line_no)]
                for distance in range(1, _PARAGRAPH_REACH + 1):
                    near = self.lines.get((source_id, page, line_no + step * distance))
                    if near is None or not near.text.strip():
                        break
                    if not same_sentence(*((near, at) if step < 0 else (at, near))):
                        break  # a sentence of its own: the detector judged it, and it is not the injection
                    self.excluded.add(near.key)
                    at = near

    def candidates(self) -> list[Line]:
        """Lines that may support an answer, in a stable order."""
        found = []
        for key in sorted(self.lines):
            line = self.lines[key]
            if key in self.excluded or not line.text.strip() or _SEPARATOR_ROW.match(line.text):
                continue
            if is_heading(line.text) or self.is_header_row(line):
                continue
            found.append(line)
        return self._sentences(found)

    def _sentences(self, lines: list[Line]) -> list[Line]:
        """Hard-wrapped prose as its sentences (`extractive_sentences`), each line's other uses unchanged."""
        units: list[Line] = []
        by_page: dict[tuple[str, int], list[Line]] = {}
        for line in lines:
            by_page.setdefault((line.source_id, line.page), []).append(line)
        for (source_id, page), page_lines in by_page.items():
            for run in runs([(line.line_no, line.text) for line in page_lines]):
                for first, last, text in sentences(run):
                    units.append(Line(source_id, page, first, text, last if last != first else 0))
        return units

    def is_header_row(self, line: Line) -> bool:
        below = self.lines.get((line.source_id, line.page, line.line_no + 1))
        return is_table_row(line.text) and below is not None and _SEPARATOR_ROW.match(below.text) is not None

    def header_row(self, line: Line) -> Line | None:
        """The header row of the table `line` is a row of, if it has been read."""
        if not is_table_row(line.text):
            return None
        for n in range(line.line_no - 1, max(0, line.line_no - _TABLE_REACH), -1):
            above = self.lines.get((line.source_id, line.page, n))
            if above is None:
                continue
            if not is_table_row(above.text):
                return None
            if self.is_header_row(above):
                return above
        return None

    def context_text(self, line: Line) -> str:
        """What frames a line: its table's header row, the nearest heading above it, and the document's name."""
        parts: list[str] = []
        n = line.line_no - 1
        in_table = is_table_row(line.text)
        while n >= max(1, line.line_no - _TABLE_REACH):
            above = self.lines.get((line.source_id, line.page, n))
            if above is None and in_table:  # rows not read yet: the header may still be above them
                n -= 1
                continue
            if above is None or (line.source_id, line.page, n) in self.excluded:
                break
            if in_table and is_table_row(above.text):
                if self.is_header_row(above):
                    parts.append(above.text)
                    in_table = False
            elif is_heading(above.text):
                parts.append(above.text)
                break
            n -= 1
        parts.append(re.sub(r"\.[A-Za-z0-9]{1,5}$", "", line.source_id).replace("/", " ").replace("-", " "))
        title = self.titles.get(line.source_id, "")
        if names_a_document(title):  # a document's title frames every line of it, as its name does
            parts.append(title)
        return "\n".join(parts)


# --- Same subject -----------------------------------------------------------------------------------


def _subject(text: str, asked: set[str]) -> tuple[frozenset[str], frozenset[str]]:
    """(the question's words a line states, the other words of the stretch that states them, with the one
    modifier before it). Numbers are left out: a year or amount qualifies a claim from anywhere in a line."""
    seq = token_forms(text)
    plain = {w for w in asked if not any(c.isdigit() for c in w)}
    hits = [i for i, forms in enumerate(seq) if forms & plain]
    if not hits:
        return frozenset(), frozenset()
    first = hits[0] - 1
    while first >= 0 and seq[first] <= STOPWORDS:
        first -= 1
    if first < 0 or any(c.isdigit() or is_number_word(f) for f in seq[first] for c in f):
        first = hits[0]
    stated = frozenset(f for i in hits for f in seq[i] & plain)
    extras = frozenset(
        f
        for forms in seq[first : hits[-1] + 1]
        for f in forms
        if f not in asked and f not in STOPWORDS and len(f) > 1 and not any(c.isdigit() for c in f)
    )
    return stated, extras


def same_subject(a: str, b: str, asked: Iterable[str]) -> bool:
    """Do two lines make their claim about the same thing? "Monthly service fee" and "the monthly service fee"
    do; "Total annual cost" and "Total operating cost" (a word swapped) do not."""
    stated_a, extra_a = _subject(a, set(asked))
    stated_b, extra_b = _subject(b, set(asked))
    if extra_a == extra_b:
        return True
    return stated_a == stated_b and (extra_a <= extra_b or extra_b <= extra_a)


def _dated_apart(a: str, b: str) -> bool:
    """Both lines are pinned to dates, and to different ones: two points in time, not two claims."""
    x = {v.normalized() for v in extract_values(a) if v.kind == "date"}
    y = {v.normalized() for v in extract_values(b) if v.kind == "date"}
    return bool(x and y and not x & y)


# --- Scoring ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    line: Line
    coverage: float
    score: float
    value: Value | None
    stated_period: str | None  # the rate the line (or, failing that, its context) states
    period_ok: bool  # a rate question's amount is stated for a known rate
    value_period: str | None  # set when that rate is not the asked one: the value converts by twelve

    @property
    def converts(self) -> bool:
        return self.value_period is not None


@dataclass(frozen=True)
class Index:
    weights: dict[str, float]  # idf of every known question word
    unknown: tuple[str, ...]  # question words no readable line mentions
    unknown_weight: float  # each unknown word still counts in the denominator, at the mean known weight
    senses: Senses = field(default_factory=dict)  # question word -> line words close to it in meaning
    reworded: tuple[str, ...] = ()  # question words no line spells but some line says in other words


def build_index(question: Question, pool: LinePool, meaning: Meaning | None = None, floor: float = 1.0) -> Index:
    lines = pool.candidates()
    line_tokens = [tokens(line.text) for line in lines]
    context_tokens = set().union(*(tokens(pool.context_text(line)) for line in lines)) if lines else set()
    found = dict(senses(question.words, set().union(*line_tokens, context_tokens), meaning, floor))
    for word, said in modal_senses(question.words, asks_polarity(question.text)).items():
        found[word] = {**said, **found.get(word, {})}
    n = len(lines)
    weights: dict[str, float] = {}
    unknown: list[str] = []
    reworded: list[str] = []
    # a rate word ("yearly") is as common as the lines that state any rate, however they spell it
    rate_df = sum(1 for line in lines if period_of(line.text) is not None)
    # a word a heading or table header says in another inflection ("budgeted": "FY2025 budget") is known
    context_bases = frozenset().union(*(bases(w) for w in context_tokens))
    for word in question.words:
        df = rate_df if word in question.period_words else sum(1 for toks in line_tokens if word in toks)
        framed = word in context_tokens or bool(bases(word) & context_bases)
        if df == 0 and word not in question.period_words and not framed:
            if word in found:
                reworded.append(word)
                continue
            if word not in question.acronyms:  # an acronym no line spells out is neutral, not missing
                unknown.append(word)
            continue
        weights[word] = math.log((n + 1) / (df + 1)) + 1.0
    mean = sum(weights.values()) / len(weights) if weights else 0.0
    # a word said only in other words weighs what an unknown word weighs: rewording can add coverage, never take it
    weights.update(dict.fromkeys(reworded, mean))
    return Index(weights, tuple(unknown), mean, found, tuple(reworded))


def score_line(question: Question, index: Index, pool: LinePool, line: Line, t: Thresholds) -> Scored:
    line_toks = tokens(line.text)
    context = pool.context_text(line)
    context_toks = tokens(context)
    value = clause_value(question, line.text, line_value(question, line.text))  # the asked one of its values
    if question.kind == "entity" and writes_role(question, found := extract_values(line.text)):
        value = role_holder(question, found, line.text)  # the name beside the asked role, or no answer here
    header = pool.header_row(line)
    reading = read_row(question, line.text, header.text) if header is not None else None
    if reading is not None and reading.value is not None:
        value = reading.value  # the cell under the column the question names, not the row's first figure
    said = reading.said if reading is not None else frozenset()
    line_period = period_of(line.text)
    context_period = period_of(context, context_toks, context=True)
    stated_period = line_period or context_period
    amount = value is not None and value.kind in ("money", "number")
    total = index.unknown_weight * len(index.unknown)
    covered = 0.0
    for word, weight in index.weights.items():
        total += weight
        if word in question.period_words and question.period:
            credit = 1.0 if line_period else t.context_credit if context_period else 0.0
            # the asked rate, or the other one when the line's amount can be converted by twelve
            if stated_period != question.period and not amount:
                credit = 0.0
            covered += weight * credit
        elif word in line_toks or word in said:
            covered += weight
        else:
            framed = t.context_credit if word in context_toks or inflected(word, context_toks) else 0.0
            sensed = sense_credit(word, line_toks, index.senses, t.meaning_floor)
            covered += weight * max(framed, sensed, part_credit(word, line.text))
    coverage = covered / total if total else 0.0
    own = content_tokens(line.text)
    focus = len(own & set(question.words)) / len(own) if own else 0.0
    bonus = (
        (t.value_bonus if value is not None else 0.0)
        + (t.primary_bonus if pool.provenance.get(line.source_id) == "primary" else 0.0)
        + t.focus_bonus * focus
    )
    asks_rate = question.period is not None and amount
    converts_from = stated_period if asks_rate and stated_period != question.period else None
    period_ok = not asks_rate or stated_period is not None
    return Scored(line, round(coverage, 6), round(coverage + bonus, 6), value, stated_period, period_ok, converts_from)


def answers(question: Question, scored: Scored, t: Thresholds) -> bool:
    return scored.coverage >= t.min_coverage and admissible(question, scored)


def admissible(question: Question, scored: Scored) -> bool:
    """Everything but coverage that a line must meet to answer: a stated rate, a value of the asked kind, a claim
    about the question's subject."""
    if not scored.period_ok or is_lead_in(scored.line.text):
        return False  # a line ending "... as follows:" introduces the answer and states none of it
    if is_page_chrome(scored.line.text):
        return False  # a saved page's menu and header
    if not stated_for_subject(question, scored):
        return False
    if names_only_a_group(question, scored.line.text):
        return False  # "the New York School painters": what it says is said of the painters, not of the school
    return question.kind is None or scored.value is not None


def stated_for_subject(question: Question, scored: Scored) -> bool:
    """A change asked for ("the percentage increase in modules sales") is answered by a prose line's figure only
    when the figure's own clause names what changed: in "Net sales from our modules segment increased by $958.1
    million primarily due to a 180% increase in the volume of watts sold", 180% is the volume's change, not the
    sales'. A line that never names the subject, or a table row (read by its label), is not judged here."""
    value = scored.value
    if not question.change or value is None or value.kind not in NUMERIC_KINDS or is_table_row(scored.line.text):
        return True
    asked = {w for w in question.words if w not in _CHANGE_WORDS and not any(c.isdigit() for c in w)}
    asked -= question.period_words | _FIGURE_WORDS
    text = scored.line.text
    if not asked & tokens(text):
        return True
    clause = value_clause(text, value.start, value.start + len(value.text))
    return clause is None or bool(asked & tokens(clause))


def says_enough(question: Question, index: Index, line: Line, t: Thresholds) -> bool:
    """The unknown-word limit, judged for one line: a word no line spells counts as known only for a line that
    says it in other words ("which company" is answered by a line naming an LLC, not by a line naming none)."""
    line_toks = tokens(line.text)
    unsaid = [w for w in index.reworded if not line_toks & index.senses.get(w, {}).keys()]
    return (len(index.unknown) + len(unsaid)) / max(1, len(question.words)) <= t.max_unknown_fraction


def identifiers(question: Question) -> frozenset[str]:
    """Question words mixing letters and digits ("4b", "c-12"): they name one thing, so they are never optional."""
    return frozenset(w for w in question.words if any(c.isdigit() for c in w) and any(c.isalpha() for c in w))


def mentioned(line: Line) -> set[str]:
    """What a line names: its own words and its document's name. Every line of "CC0-1.0.txt" is about CC0, so a
    question naming CC0 is answered by it, though the line itself never repeats the name."""
    return tokens(line.text) | tokens(re.sub(r"\.[A-Za-z0-9]{1,5}$", "", line.source_id).replace("-", " "))


def _named_by(line: Line, pool: LinePool) -> set[str]:
    """What a line names (`mentioned`), a table row with its header: "| 2 | Snow removal | $4,800 |" under
    "| Line | Item | FY2025 budget |" gives FY2025's figure."""
    header = pool.header_row(line)
    return mentioned(line) | (tokens(header.text) if header is not None else set())


def rank_candidates(question: Question, index: Index, pool: LinePool) -> list[Line]:
    """The lines that may answer: a line about unit 4B must mention 4B; a general sentence about every unit does
    not answer for 4B. The rule applies only to identifiers some readable line mentions, so an unknown one still
    leads to a gap, not to nothing."""
    candidates = pool.candidates()
    named = [w for w in sorted(identifiers(question)) if w in index.weights]
    if named:
        candidates = [line for line in candidates if all(w in _named_by(line, pool) for w in named)]
    return candidates


def rank(question: Question, index: Index, pool: LinePool, t: Thresholds) -> list[Scored]:
    candidates = rank_candidates(question, index, pool)
    scored = [score_line(question, index, pool, line, t) for line in candidates]
    pinned = bool(asked_years(question))  # the qualifiers are read only for a question pinned to a year
    labels = row_labels([line.text for line in candidates]) if pinned else frozenset()
    good = [
        s
        for s in scored
        if answers(question, s, t)
        and says_enough(question, index, s.line, t)
        and not labels_only(s.line.text)
        and not change_figure(question, s.line.text, s.value)
        and not pool.is_header_row(s.line)  # column titles state no figure
        and not (
            pinned
            and unstated(
                question, index.weights, index.senses, s.line.text, pool.context_text(s.line), labels, t.meaning_floor
            )
        )
    ]
    # A secondary source (a newsletter retelling a rule) answers only when no other source does: a document of
    # record that answers governs, however closely the retelling echoes the question's words.
    secondary = {line.source_id for line in candidates if pool.provenance.get(line.source_id) == "secondary"}
    return sorted(good, key=lambda s: (s.line.source_id in secondary, -s.score, s.line.key))


def _agreeing(scored: Scored, value: Value) -> Scored:
    """A line that also states `value` does not contradict it (e.g. "two (2) of the seven (7) members")."""
    if scored.value is None or not value_differs(scored.value, value, 0.0):
        return scored
    same = [
        v
        for v in extract_values(scored.line.text)
        if kind_class(v.kind) == kind_class(value.kind) and not value_differs(v, value, 0.0)
    ]
    return dataclasses.replace(scored, value=same[0]) if same else scored


def _same_holder(ranked: list[Scored], question: Question, t: Thresholds) -> list[Scored]:
    """For "who is the <role>": close lines that give the best line's name too, each its own quote of the same
    holder (agreement only: a name is never set against another)."""
    top = ranked[0]
    if top.value is None or role_word(question) is None:
        return []
    same = [
        s
        for s in ranked[1:]
        if s.score >= top.score - t.co_answer_margin and s.value is not None and s.value.text == top.value.text
    ]
    return same[: t.max_facts - 1]


def choose(ranked: list[Scored], question: Question, t: Thresholds) -> list[Scored]:
    """The best line, plus lines close to it that state a value of the same family (agreement or conflict);
    every distinct value gets a line before any value gets a second one."""
    if not ranked:
        return []
    top = ranked[0]
    if top.value is None or top.value.kind == "entity":  # names are too loosely extracted to claim disagreement
        return [top, *_same_holder(ranked, question, t)]
    if len([w for w in question.words if not any(c.isdigit() for c in w)]) < 2:
        return [top]  # one word names no subject•predicate: lines about different things would look alike
    close = [
        _agreeing(s, top.value)
        for s in ranked
        if s.score >= top.score - t.co_answer_margin
        and s.value is not None
        and kind_class(s.value.kind) == kind_class(top.value.kind)  # "January" never conflicts with "7:00 p.m."
        and s.value_period == top.value_period
    ]
    # a differing value from a line about something else (another date, another policy) is not a conflict
    dated = kind_class(top.value.kind) in ("date", "time", "year", "month")
    close = [
        s
        for s in close
        if s.value is None
        or not value_differs(s.value, top.value, t.conflict_tolerance_pct)
        or (
            same_subject(s.line.text, top.line.text, question.words)
            and (dated or not _dated_apart(s.line.text, top.line.text))
        )
    ]
    picked: list[Scored] = []
    seen: list[Value] = []
    for s in close:
        assert s.value is not None
        if all(value_differs(s.value, other, 0.0) for other in seen):
            picked.append(s)
            seen.append(s.value)
    for s in close:
        if s not in picked:
            picked.append(s)
    picked = picked[: t.max_facts]
    order = {s.line.key: i for i, s in enumerate(ranked)}
    return sorted(picked, key=lambda s: order[s.line.key])
