"""Answerhood: the answer answers the question asked, not a question beside it.

A draft can quote real passages and still not answer: "Who is the Treasurer?" answered with what the Treasurer
does, a quoted table value where a change was asked, a BSD question answered from the GPL, a table's caption
("The following DSUs were issued:"), or the question's own false premise ("Why is the late charge $50?") repeated
as fact. For the answer the user sees (level1 and the answer field) this rule checks, against what the question
asks (`question.py`):

- type: the answer gives a value of the kind asked (`answer_type.py`), and states something rather than only
  introduce what follows (a text ending in a colon);
- subject: a figure that answers comes from a quoted sentence about the question's subject (it shares one of the
  subject's words; a header row of figures counts with the rest of its fact's quotes from that source), not from
  one that states it for a differently qualified thing ("the special assessment" for "the monthly assessment";
  `answer_qualifier.py`), and a name
  that answers "who" is, in its quote, in the clause about the subject ("Deloitte was appointed as auditor,
  succeeding PwC" does not make PwC the auditor; `answer_binding.py`);
- document: a question that names a document ("According to the Bylaws, ...", "In <source id>, ...", "According to
  the Jacob Zook House article, ...") is answered from quotes of that document: a source its title or id names, or,
  when none is named so, a quoted source that writes the names the question gives it (`question_documents.py`);
- derived: a question asking for a change, difference, average, total, ratio ... is answered by a figure a verified
  calc produced over figures of the question's subject and periods (`answer_calc.py`: not over the 2017 column for
  "from 2018 to 2019"), unless a quote states that very figure with the same words ("Total annual budget:
  $93,600.00" answers "What is the total annual budget?"), of the kind asked (a percentage change is not a change in
  dollars), for the question's subject (not "a 180% increase in the volume of watts sold" for modules sales); a rate
  asked per year is not a quoted monthly figure;
- side: a value only a listed conflict's other side gives is reported as a disagreement ("one document says
  ..."), not asserted as the answer ("Raj Kapoor directed it" where the facts give Mahesh Bhatt; `answer_side.py`);
- premise: a value the question takes for granted ("$50", "ten units", "July") shown in the answer must be stated
  by a quote, and a question asking why something happened at a time ("Why did Suzuki stop manufacturing it in
  2009?") is not answered by restating that event at that time unless a quote states that event at that time.

A `report_insufficient_evidence` draft is not an answer and is not checked here. Findings go to repair, then to
abstention: a draft that cannot answer the question should say so instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from quotebound.agent.gate.answer_binding import (
    about_subject,
    bound,
    figure_bound,
    figure_clause,
    figure_in,
    name_clause,
    proper_subject,
    reading,
)
from quotebound.agent.gate.answer_calc import calc_operand_problem, column_heading, years
from quotebound.agent.gate.answer_counted import counted_problem
from quotebound.agent.gate.answer_document import document_problem
from quotebound.agent.gate.answer_figure import figureless_problem
from quotebound.agent.gate.answer_named import named_derived
from quotebound.agent.gate.answer_period import change_problem, period_problem
from quotebound.agent.gate.answer_premise import direction_problem, event_problem, premise_problem
from quotebound.agent.gate.answer_qualifier import qualifier_problem
from quotebound.agent.gate.answer_side import side_problem, side_values
from quotebound.agent.gate.answer_text import (
    VALUE_KINDS,
    Figure,
    Quoted,
    answer_figures,
    answer_texts,
    asked_values,
    calc_values,
    cells,
    keys,
    quoted,
    root,
    same_figure,
    sentences_with,
    shares,
    short,
    stems,
)
from quotebound.agent.gate.answer_type import POINTS_RE, WANTED, count_problem, linked, names, type_ok
from quotebound.agent.gate.answer_version import version_problem
from quotebound.agent.gate.answer_when import undated_problem
from quotebound.agent.gate.claims import sentences
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.question import (
    FAMILIES,
    Derivation,
    Family,
    Question,
    rate_of,
    read_question,
)
from quotebound.agent.gate.tokens import Key
from quotebound.agent.gate.vocabulary import WORD, fold, stem

_FAMILY_ROOTS: Final[dict[Family, frozenset[str]]] = {
    f: frozenset(stem(stem(w)) for w in ws) for f, ws in FAMILIES.items()
}
# Words by which a text points ahead to what follows it (a list, a table): "the following", "as follows", "below".
_FORWARD: Final = frozenset(
    "following follows below include includes including consist consists comprise comprises comprised listed".split()
)


# --- the answer states something, of the kind asked ----------------------------------------------------------------


def _lead_in(q: Question, text: str) -> bool:
    """Every sentence of `text` ends in a colon and points ahead ("The following DSUs were issued:") or gives no
    figure of its own (": Amounts falling due within one year:"): it introduces what follows and states nothing
    itself. "Income increased to $299.3 million, primarily as a result of:" states the figure before its colon."""
    found = sentences(text)
    if not found or not all(s.rstrip(" .\"'”’)").endswith(":") for s in found):
        return False
    pointing = any(fold(w) in _FORWARD for w in WORD.findall(text))
    return pointing or not any(f.kind != "word" for f in answer_figures(q, text))


# --- derived figures -----------------------------------------------------------------------------------------------


def _states(q: Question, d: Derivation, figure: Figure, said: str, sentence: str) -> bool:
    """A quoted figure states the derived figure `d` itself: its reading has a word of `d`'s family ("grew by",
    "Total", "averaging"; a percentage is a proportion) other than a word naming the question's subject (the row
    "Realized gains" asked about is a line item, not a rise), and names each item of a total of named items."""
    own = stems(said) - {root(w) for w in q.subject}
    family = _FAMILY_ROOTS[d.family]
    stated = bool(own & family) or (d.family == "ratio" and figure.kind == "percent")
    return stated and all(shares(part, f"{sentence} {said}") for part in d.parts)


def _said(q: Question, key: Key, qd: Quoted, sentence: str, quotes: Sequence[Quoted]) -> str:
    """What a quote says of the figure `key`, for a derived figure: a prose figure's own clause ("an increase of
    $473 million" says nothing of the average elsewhere in its sentence); a table cell's reading, or, where the
    question spans two years, its column's headings only (a row "Net increase in cash" gives each year's increase,
    not the change between the years)."""
    row = cells(sentence)
    if row is None:
        figure = figure_in(sentence, key)
        return sentence if figure is None else figure_clause(sentence, figure)
    if len(years(q.text)) < 2:
        return reading(key, qd, sentence, quotes)
    columns = [j for j, c in enumerate(row) if j >= 1 and key in keys(c)]
    return column_heading(qd, sentence, columns[0], quotes) if columns else ""


def _named(q: Question, d: Derivation, sentence: str, key: Key) -> bool:
    """The prose sentence names the quantity asked as derived before its figure `key` (`answer_named`)."""
    figure = figure_in(sentence, key)
    return figure is not None and named_derived(q, d, sentence, figure)


def _of_kind(q: Question, text: str, f: Figure) -> bool:
    """The answer's figure is of the kind asked: a percentage (or points) where a percentage is asked."""
    return q.expects != "percent" or f.kind == "percent" or POINTS_RE.match(text[f.end :]) is not None


def _figure_bound(q: Question, key: tuple[str, object], sentence: str) -> bool | None:
    """Whether the quoted sentence states `key` for the question's subject (`answer_binding.bound`)."""
    figure = figure_in(sentence, key)
    return None if figure is None else figure_bound(q.subject, sentence, figure_clause(sentence, figure))


def _derived_problem(q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """A derived figure is asked for, and the answer gives quoted figures that state none of it (of the kind asked,
    for the question's subject, per the period asked), and no figure a verified calc produced."""
    if not (q.derived or q.rate) or q.expects not in ("count", "amount", "percent", "open"):
        return None
    found_figures = [f for f in answer_figures(q, text) if f.number is not None]
    if not found_figures or any(_same(f, c) for f in found_figures for c in calc):
        return None
    found = [(f, qd, s) for f in found_figures for qd, s in sentences_with(f.key, quotes)]
    if not found:
        return None  # a figure no quote states: the span rules report it
    for d in q.derived:
        stating = [
            (f, qd, s)
            for f, qd, s in found
            if _states(q, d, f, _said(q, f.key, qd, s, quotes), s) or (cells(s) is None and _named(q, d, s, f.key))
        ]
        if not stating:
            return (
                f"the question asks for a computed figure ({d.word}), but the answer gives "
                f"{found_figures[0].text!r} as it is quoted; compute it with calc over the quoted figures and state "
                "the result, or report that the documents do not give it"
            )
        if not any(_of_kind(q, text, f) for f, _, _ in stating):
            return (
                f"the question asks for a percentage ({d.word}), but the answer gives {stating[0][0].text!r}, "
                "which is not one; compute it with calc over the quoted figures and state the result, or report "
                "that the documents do not give it"
            )
        fitting = [(f, s) for f, _, s in stating if _of_kind(q, text, f)]
        if all(_figure_bound(q, f.key, s) is False for f, s in fitting):
            f, s = fitting[0]
            return (
                f"the answer gives {f.text!r}, which its quote states for something else "
                f"({short(figure_clause(s, figure_in(s, f.key) or f))!r}), not for what the question asks; "
                "compute the figure asked with calc over the quoted figures for it, or report that the documents do "
                "not give it"
            )
    if q.rate is not None:
        for f in found_figures:
            rates = {rate_of(s) for _, s in sentences_with(f.key, quotes)}
            if rates and None not in rates and q.rate not in rates:
                return (
                    f"the question asks for a figure per {q.rate}, but {f.text!r} is quoted per "
                    f"{sorted(r for r in rates if r)[0]}; convert it with calc over the quoted figure and state the "
                    "result, or report that the documents do not give it"
                )
    return None


def _same(f: Figure, computed: Decimal) -> bool:
    return f.number is not None and same_figure(f.number, computed)


# --- the subject ---------------------------------------------------------------------------------------------------


def _subject_problem(q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """Every figure the answer gives comes from quoted sentences about something other than the question's
    subject (one figure from a sentence about it is enough: an answer may add context). The sentence is the unit
    here, not the figure's clause: a sentence names its subject once ("The parish was founded in 1856, ...", "In
    2018, IMFT discontinued ...") and its figures stand in clauses that point back to it."""
    if not q.subject or q.expects == "year":  # a year that answers is a table's column heading, not its subject
        return None
    checked: list[tuple[Figure, str]] = []
    proper = proper_subject(q.text, q.subject)
    for f in (f for f in answer_figures(q, text) if f.kind in VALUE_KINDS):  # a section or a code names things
        if any(_same(f, c) for c in calc):
            return None  # a verified calc's result: its operands are checked by the calc rule
        found = sentences_with(f.key, quotes)
        if any(about_subject(q.subject, f.key, qd, s, quotes, proper) for qd, s in found):
            return None
        checked += [(f, s) for _, s in found]
    if not checked:
        return None
    f, s = checked[0]
    return (
        f"the figure {f.text!r} comes from a passage about something else ({short(s)!r}), not about what the "
        "question asks; quote the passage that gives the answer for the question's subject, or report that the "
        "documents do not say"
    )


def _name_problem(q: Question, text: str, quotes: Sequence[Quoted]) -> str | None:
    """A "who" answer's name (the one a copula links, else its first) stands, in every quote sentence that writes
    it and names the question's subject, outside the clause about the subject: the quote gives it another role.
    The question's verb ("Who voted against ...?") is not its subject but what the name does: a sentence that only
    shares the verb (a "Vote:" label) does not name the subject, while a name's clause that has the verb makes the
    name its doer ("The Association maintains the Common Area, the roofs ...")."""
    if q.expects != "entity" or not q.subject:
        return None
    subject = q.subject - {q.predicate} or q.subject
    given = names(q, text, quotes)
    answering = [(name, at) for name, at in given if linked(text, name, at)] or given[:1]
    for name, _ in answering:
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
        seen = [(s, m) for qd in quotes for s in qd.sentences for m in pattern.finditer(s)]
        verdicts = [
            bound(q.subject, s, name_clause(s, m.start(), m.end())) if shares(subject, s) else None for s, m in seen
        ]
        if verdicts and all(v is False for v in verdicts):
            return (
                f"the answer gives {name!r} as who the question asks about, but its quote gives {name!r} another "
                f"role ({short(seen[0][0])!r}); give the name the quote states for what the question asks, or report "
                "that the documents do not say"
            )
    return None


def check(inputs: GateInputs) -> list[Finding]:
    """One `not_an_answer` finding per way the answer the user sees (level1, the answer field) misses the question."""
    if inputs.question is None or inputs.draft.evidence.mode != "answer":
        return []
    q = read_question(inputs.question)
    texts = answer_texts(inputs)
    if not texts:
        return []
    quotes = quoted(inputs)
    calc = calc_values(inputs)
    given, sides = side_values(inputs)
    messages: list[str] = []
    for where, text in texts:
        if _lead_in(q, text):
            messages.append(
                f"{where} only introduces what follows (it ends with a colon) and states no answer; state the "
                "value itself from the line that gives it, or report that the documents do not say"
            )
        elif not type_ok(q, text, quotes, asked_values(q, inputs)):
            messages.append(
                f"{where} does not answer the question: it asks {WANTED[q.expects]}, and the answer gives none; "
                "state it from the quote that gives it, or report that the documents do not say"
            )
        for problem in (
            _derived_problem,
            _subject_problem,
            premise_problem,
            count_problem,
            counted_problem,
            undated_problem,
            direction_problem,
            figureless_problem,
            version_problem,
        ):
            found = problem(q, text, quotes, calc)
            if found is not None:
                messages.append(f"{where}: {found}")
        qualified = qualifier_problem(q, text, quotes, calc, (b.text for b in inputs.bundles))
        if qualified is not None:
            messages.append(f"{where}: {qualified}")
        calc_operands = calc_operand_problem(q, inputs.draft.evidence.facts, text, quotes)
        others = (
            _name_problem(q, text, quotes),
            event_problem(q, text, quotes),
            calc_operands,
            change_problem(q, text, quotes) if not calc else None,
            period_problem(q, text, quotes) if not calc else None,
            side_problem(text, given, sides),
        )
        for other in others:
            if other is not None:
                messages.append(f"{where}: {other}")
    document = document_problem(inputs, q, texts, quotes)
    if document is not None:
        messages.append(document)
    return [Finding(code=FindingCode.NOT_AN_ANSWER, message=m) for m in dict.fromkeys(messages)]
