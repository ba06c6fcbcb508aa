"""Coverage scoring of the extractive model's lines: a line is scored by the idf-weighted share of the question's
content words it covers (in its own words, its frame, or in other words of the same meaning), and answers when
that share is high enough and it states a value of the asked kind about the question's subject.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from quotebound.agent.gate.answer_binding import value_clause
from quotebound.agent.models.base import Meaning
from quotebound.agent.models.extractive_clause_value import clause_value
from quotebound.agent.models.extractive_column import read_row
from quotebound.agent.models.extractive_cues import CHANGE_DOWN, CHANGE_EITHER, CHANGE_UP, period_of
from quotebound.agent.models.extractive_inflect import bases, inflected
from quotebound.agent.models.extractive_line_text import is_lead_in, is_page_chrome, is_table_row
from quotebound.agent.models.extractive_meaning import Senses, sense_credit, senses
from quotebound.agent.models.extractive_polarity import modal_senses
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import Question, asks_polarity
from quotebound.agent.models.extractive_role import role_holder, writes_role
from quotebound.agent.models.extractive_section import part_credit
from quotebound.agent.models.extractive_subject import names_only_a_group
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_values import NUMERIC_KINDS, Value, extract_values, line_value
from quotebound.agent.models.extractive_words import content_tokens, tokens

# The words that name a change or a figure's form in a question: what changed is named by its other words.
_CHANGE_WORDS = tokens(" ".join((*CHANGE_DOWN, *CHANGE_UP, *CHANGE_EITHER)))
_FIGURE_WORDS = frozenset({"percentage", "percent", "amount", "value", "figure"})


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
