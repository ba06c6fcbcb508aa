"""`ExtractiveModel`: the offline, deterministic, no-LLM drafting model (model_id "extractive").

It answers by quoting: score every line it has read (the resolved bundles, plus lines `search_source` finds
for the question's rarest words) by idf-weighted coverage of the question, quote the best line(s) verbatim,
report disagreeing values as a conflict instead of picking one, and derive a number only through `calc`
(rate conversions by twelve; the sum, difference or percentage of two quoted values, a change between two
points each quoted on its own line, or a quoted percentage share of a quoted amount). Nothing it writes in the
visible levels carries a digit that is not in a quote or a calc result, and the sentences it writes around its
quotes use only words about evidence ("X is a secondary source"), so each claim shown rests on its quotes.
With no answering line it reports insufficient evidence; `repair` narrows a failed draft.
"""

from __future__ import annotations

import re

from quotebound.agent.core.contracts import (
    CalcDerivation,
    Draft,
    Fact,
    Support,
)
from quotebound.agent.core.version import __version__
from quotebound.agent.models.base import DraftInput, Meaning
from quotebound.agent.models.extractive_ask import asked_text
from quotebound.agent.models.extractive_calc import (
    CalcPlan,
    ToolBudget,
    convert,
    operand,
    plan_two_operands,
    split_operands,
)
from quotebound.agent.models.extractive_documents import named, other_sides
from quotebound.agent.models.extractive_frame import read_frames
from quotebound.agent.models.extractive_known_part import known_part
from quotebound.agent.models.extractive_line_text import clean, is_label, is_table_row, table_cells
from quotebound.agent.models.extractive_parts import clauses
from quotebound.agent.models.extractive_polarity import polar_text
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import Question, analyze, asks_polarity
from quotebound.agent.models.extractive_rank import choose, identifiers, rank
from quotebound.agent.models.extractive_repair import repair_facts
from quotebound.agent.models.extractive_role import role_phrase
from quotebound.agent.models.extractive_same_subject import same_subject
from quotebound.agent.models.extractive_scope import in_scope, named_ids, unnamed
from quotebound.agent.models.extractive_score import Index, Scored, build_index
from quotebound.agent.models.extractive_semantic import semantic_rank
from quotebound.agent.models.extractive_sides import copy_sides, disputed
from quotebound.agent.models.extractive_swapped import swapped_sides
from quotebound.agent.models.extractive_table import table_facts
from quotebound.agent.models.extractive_table_calc import grouped
from quotebound.agent.models.extractive_thresholds import Thresholds
from quotebound.agent.models.extractive_transfer import transfer_ask, transfer_lines
from quotebound.agent.models.extractive_values import extract_values, value_differs
from quotebound.agent.models.extractive_words import tokens
from quotebound.agent.models.extractive_write import assemble, find_conflicts, unwrapped
from quotebound.tools.registry import ToolRegistry

_DIGIT = re.compile(r"\d")


class ExtractiveModel:
    model_id = "extractive"
    model_version = __version__  # deterministic code: quotebound's version is the model's

    def __init__(self, thresholds: Thresholds | None = None) -> None:
        self.t = thresholds or Thresholds()

    # --- draft ---------------------------------------------------------------------------------------------

    def draft(self, request: DraftInput, tools: ToolRegistry) -> Draft:
        # a question naming a document is answered from it alone, or not at all (`extractive_scope`)
        named = named_ids(request.question, request.documents)
        bundles, scope = in_scope(named, request.bundles)
        question = unnamed(analyze(asked_text(request.question)), request.documents, named)
        pool = LinePool.from_bundles(bundles)
        pool.titles.update(request.documents)
        pool.settle_exclusions()
        budget = ToolBudget(tools, request.max_tool_calls)
        self._search(question, pool, scope, budget)
        self._read_table_headers(question, pool, budget)
        pool.settle_exclusions()
        index = build_index(question, pool, request.meaning, self.t.meaning_floor)
        if question.kind in ("amount", "money") and transfer_ask(question.text) is not None:
            # "paid to X" / "paid by X": the direction is the whole answer, and only the transfer reading fixes it
            # (a line where X charged, or was paid, covers the question's words either way, most of all once
            # "paid" is credited for "charged" or "sent" by meaning)
            transfers = transfer_lines(question, pool, self.t.max_facts)
            facts = [quote_fact(question, s, pool) for s in transfers]
            return assemble(question, request, facts, find_conflicts(facts, budget, self.t), pool, index.unknown)
        facts = self._facts(question, index, pool, budget, request)
        # no answer yet: glance up to the section headings of the best lines, then read again
        if not facts and read_frames(question, index, pool, budget, self.t):
            pool.settle_exclusions()
            index = build_index(question, pool, request.meaning, self.t.meaning_floor)
            facts = self._facts(question, index, pool, budget, request)
        conflicts = find_conflicts(facts, budget, self.t)
        return assemble(question, request, facts, conflicts, pool, index.unknown)

    def _facts(
        self, question: Question, index: Index, pool: LinePool, budget: ToolBudget, request: DraftInput
    ) -> list[Fact]:
        unknown_share = len(index.unknown) / max(1, len(question.words))
        if not index.weights:
            return []
        if unknown_share > self.t.max_unknown_fraction:  # too many words no line spells: meaning may still answer
            chosen = semantic_rank(question, index, pool, self.t, request.meaning)
            if not chosen and (known := known_part(self._parts(question), pool, request.meaning, self.t)):
                return self._answer_facts(*known, pool, budget, request.meaning)  # the part the documents speak of
            return [] if disputed(question, chosen, pool) else [quote_fact(question, s, pool) for s in chosen]
        parts = self._parts(question)
        joint = self._part_facts(parts, pool, request) if parts is not None else []
        return joint or self._answer_facts(question, index, pool, budget, request.meaning)

    @staticmethod
    def _parts(question: Question) -> tuple[str, str] | None:
        return clauses(question.text) if question.op is None else None

    def _search(self, question: Question, pool: LinePool, sources: list[str], budget: ToolBudget) -> None:
        """Find lines retrieval missed: per source, one pattern of the question's rarest words (those no bundle
        line has come first), then, if calls remain, one of the other words."""
        seen = [tokens(line.text) for line in pool.candidates()]
        df = {w: sum(1 for toks in seen if w in toks) for w in question.words}
        ordered = sorted(question.words, key=lambda w: (df[w], w))
        half = len(ordered) if len(ordered) <= 3 else (len(ordered) + 1) // 2
        calls = budget.left - self.t.reserved_calls
        for group in (ordered[:half], ordered[half:]):
            pattern = _alternation(group, self.t.search_pattern_chars)
            for source_id in sources if pattern else []:
                if calls <= 0:
                    return
                calls -= 1
                args = {"source_id": source_id, "pattern": pattern, "regex": True, "top_n": self.t.search_top_n}
                hits = budget.call("search_source", args)
                for hit in hits if isinstance(hits, list) else []:
                    pool.add_hit(source_id, str(hit.get("locator", "")), str(hit.get("snippet", "")))

    def _read_table_headers(self, question: Question, pool: LinePool, budget: ToolBudget) -> None:
        """A search hit on a table row ("| 4B | 4 | Ground | ... |") says nothing without its header row: fetch
        the lines above the rows the question names by identifier, so the columns can be read."""
        named = identifiers(question)
        rows = [
            line
            for line in pool.candidates()
            if named and is_table_row(line.text) and named <= tokens(line.text) and pool.header_row(line) is None
        ]
        for line in rows[: self.t.header_fetches]:
            if line.line_no <= 1 or budget.left <= self.t.reserved_calls:
                return
            first = max(1, line.line_no - self.t.header_reach)
            locator = f"p.{line.page} L{first}-L{line.line_no - 1}"
            result = budget.call("quote_fetch", {"source_id": line.source_id, "locator": locator})
            if not isinstance(result, dict):
                continue
            for offset, text in enumerate(str(result.get("quote", "")).split("\n")):
                pool.add(Line(line.source_id, line.page, first + offset, text))

    def _answer_facts(
        self, question: Question, index: Index, pool: LinePool, budget: ToolBudget, meaning: Meaning | None = None
    ) -> list[Fact]:
        # A line rarely states these: compute first. A sum is computed first when the question names its two
        # operands ("the sum of A and B"); a plain "total" is often a quoted line.
        from_table = table_facts(question, pool, budget)  # a table's cell for the year asked, or a figure derived
        if from_table:  # from its columns (a change, an average, a total)
            return from_table
        named_sum = question.op == "sum" and bool(split_operands(question))
        if question.op in ("difference", "percentage", "share") or named_sum:
            planned = plan_two_operands(question, pool, budget, self.t)
            if planned is not None:
                return self._operand_facts(question, pool, *planned)
            if question.op in ("difference", "share"):  # a quoted line is no answer to "how much more" or "A's share"
                return []
        # no line answers by the question's words: one may by meaning, with a value of the asked type
        ranked = rank(question, index, pool, self.t) or semantic_rank(question, index, pool, self.t, meaning)
        chosen = choose(ranked, question, self.t)
        if not chosen and question.op == "sum":
            planned = plan_two_operands(question, pool, budget, self.t)
            return self._operand_facts(question, pool, *planned) if planned is not None else []
        if disputed(question, chosen, pool):
            return []  # another document gives its own, different answer: never state one side silently
        if chosen and (top_named := named(question, chosen[0])) is not None:
            chosen = [top_named, *chosen[1:]]
        sides = other_sides(question, ranked, chosen, self.t)
        # a copy elsewhere gives another value in the answer's place: never state one side silently
        tolerance = self.t.conflict_tolerance_pct
        copies = copy_sides(chosen, pool, tolerance) or swapped_sides(chosen, pool, tolerance)
        revalued = {s.line.key: s for s in copies}  # a copy's line is shown with the value its copy disputes
        chosen = [revalued.get(s.line.key, s) for s in chosen]
        facts = [quote_fact(question, s, pool) for s in chosen]
        shown = {s.line.key for s in chosen}
        facts += [quote_fact(question, s, pool) for s in copies if s.line.key not in shown]
        facts += [side_fact(question, chosen[0], s, pool) for s in sides]
        top = chosen[0] if chosen else None
        if top is None or top.value is None or question.period is None or not top.converts:
            return facts
        read = [*chosen, *sides, *copies]
        if any(s.value is not None and value_differs(s.value, top.value, tolerance) for s in read):
            return facts  # never derive a figure from disputed operands: the conflict is the answer
        plan = convert(budget, top, question.period)
        # the quotes give the other rate: without the conversion they do not answer the question
        return [*facts, calc_fact(question, plan, chosen)] if plan is not None else []

    def _part_facts(self, parts: tuple[str, str], pool: LinePool, request: DraftInput) -> list[Fact]:
        """Each part of a joint question answered by its own best line; nothing unless both parts are."""
        facts: list[Fact] = []
        for text in parts:
            part = analyze(text)
            index = build_index(part, pool, request.meaning, self.t.meaning_floor)
            ranked = rank(part, index, pool, self.t)
            used = {(f.support[0].source_id, f.support[0].locator) for f in facts}
            # the second part asks something else: a line the first part used answers it only if no other does
            fresh = [s for s in ranked if (s.line.source_id, s.line.locator) not in used]
            chosen = choose(fresh or ranked, part, self.t)
            # a part the sources disagree on, or one answered only through a conversion, takes the whole path
            if len(chosen) != 1 or disputed(part, chosen, pool) or chosen[0].converts:
                return []
            fact = quote_fact(part, chosen[0], pool)
            if all(f.support[0] != fact.support[0] for f in facts):
                facts.append(fact)
        return facts

    def _operand_facts(
        self, question: Question, pool: LinePool, plan: CalcPlan, subs: tuple[Question, Question]
    ) -> list[Fact]:
        facts = [quote_fact(sub, s, pool) for sub, s in zip(subs, plan.operands, strict=True)]
        return [*facts, calc_fact(question, plan, list(plan.operands))]

    # --- repair --------------------------------------------------------------------------------------------

    def repair(self, request: DraftInput, tools: ToolRegistry) -> Draft:
        """Narrow the previous draft: keep what still verifies, re-fetch what did not, add named conflicts."""
        if request.previous is None:
            return self.draft(request, tools)
        question = analyze(asked_text(request.question))
        pool = LinePool.from_bundles(request.bundles)
        pool.settle_exclusions()
        for entry in request.previous.evidence.citations_index:
            pool.content_hash.setdefault(entry.source_id, entry.ingest_hash)
        budget = ToolBudget(tools, request.max_tool_calls)
        facts = repair_facts(question, request.previous, request.findings, pool, budget)
        return assemble(question, request, facts, find_conflicts(facts, budget, self.t), pool, ())


def _alternation(words: list[str], max_chars: int) -> str:
    """`\\bpool|\\bopening|2025`: words match at a word start (plurals follow), numbers anywhere."""
    parts: list[str] = []
    for word in words:
        if _DIGIT.search(word):
            part = re.escape(word)
        elif word.endswith("y") and len(word) > 3:
            part = rf"\b{re.escape(word[:-1])}(?:y|ies)"
        else:
            part = rf"\b{re.escape(word)}"
        if len("|".join([*parts, part])) > max_chars:
            break
        parts.append(part)
    return "|".join(parts)


# --- Facts and conflicts ------------------------------------------------------------------------------------


def _confidence(coverage: float, secondary: bool) -> float:
    return round(min(1.0, coverage) * (0.7 if secondary else 1.0), 4)


def quote_fact(question: Question, scored: Scored, pool: LinePool) -> Fact:
    line = scored.line
    secondary = pool.provenance.get(line.source_id) == "secondary"
    key = question.subject_key(scored.stated_period) if question.period else question.key
    header = pool.header_row(line)
    text = row_text(question, line.text, header.text) if header is not None else None
    said = text or unwrapped(clean(line.text)) or line.text.strip()
    # a row written as `column: cell` pairs quotes its header too: the column names are the header's words
    header_support = []
    if text is not None and header is not None:
        header_support = [Support(source_id=line.source_id, locator=header.locator, quote=header.text)]
    if question.kind == "entity" and text is None:  # "who is the treasurer": the name beside the role, first
        said = role_phrase(question, extract_values(line.text), line.text) or said
    if text is None and asks_polarity(question.text):  # yes/no: "No." before the quote that denies the act
        said = polar_text(question.text, question.words, said)
    return Fact(
        text=said,
        support=[Support(source_id=line.source_id, locator=line.locator, quote=line.text), *header_support],
        coverage=min(1.0, scored.coverage),
        key=key,
        value=scored.value.text if scored.value is not None else None,
        confidence=_confidence(scored.coverage, secondary),
        secondary_only=secondary,
    )


def side_fact(question: Question, top: Scored, side: Scored, pool: LinePool) -> Fact:
    """Another document's own answer (`extractive_documents`). It shares the best line's key, and so is listed with
    it as a conflict, only when both lines make their claim about the same thing; a line about another thing of the
    same name ("Marina High School (San Leandro, California)") is that thing's answer, shown beside the best one."""
    fact = quote_fact(question, side, pool)
    if same_subject(side.line.text, top.line.text, question.words):
        return fact
    return fact.model_copy(update={"key": None})


def row_text(question: Question, row: str, header: str) -> str | None:
    """A table row as `column: cell` pairs, the columns the question asks about first: "Square feet: 1,180
    (Unit: 4B, Building: 4, ...)". Header words come from the same document; no figure is added."""
    names = [c.replace("**", "").strip() for c in table_cells(header)]
    cells = [c.replace("**", "").strip() for c in table_cells(row)]
    if len(names) != len(cells) or not cells:
        return None
    asked_words = {w for w in question.words if not any(ch.isdigit() for ch in w)}
    # a column name with a figure ("FY2025 budget") would put a figure in the answer that the quote lacks
    pairs = [(name, cell) for name, cell in zip(names, cells, strict=True) if cell and not _DIGIT.search(name)]
    asked = [f"{n}: {c}" for n, c in pairs if tokens(n) & asked_words and not tokens(c) & set(question.words)]
    rest = [f"{n}: {c}" for n, c in pairs if f"{n}: {c}" not in asked]
    if len(pairs) < len([c for c in cells if c]):
        return None
    if not asked:
        return "; ".join(rest)
    return f"{'; '.join(asked)} ({', '.join(rest)})"


def _label(scored: Scored) -> str:
    """A table row's label cells (its own words), for naming a derived figure."""
    if not is_table_row(scored.line.text):
        return ""
    cells = [c.replace("**", "").strip() for c in table_cells(scored.line.text)]
    return " / ".join(c for c in cells if is_label(c))


def calc_sentence(plan: CalcPlan, label: str = "") -> str:
    value = grouped(plan.value)
    shown = f"-{plan.unit}{value[1:]}" if value.startswith("-") else f"{plan.unit}{value}"
    quoted = [s.value.text for s in plan.operands if s.value is not None]
    if plan.op in ("annual", "monthly"):
        # The months are named, not counted: a "12" or "twelve" the question also says reads as repeated from it.
        how = f"the quoted monthly figure {quoted[0]} for every month of a year"
        if plan.op == "monthly":
            how = f"the quoted annual figure {quoted[0]} divided by twelve"
        head = f"{label}, {plan.op}" if label else f"The {plan.op} figure"
        return f"{head}: {shown}, {how}."
    if plan.op == "percentage":
        return f"That is {plan.value}%: the quoted {quoted[0]} divided by the quoted {quoted[1]}, times one hundred."
    if plan.op == "share":
        return f"The share is {shown}: the quoted {quoted[0]} of the quoted {quoted[1]}."
    word = "plus" if plan.op == "sum" else "minus"
    head = "The total" if plan.op == "sum" else "The difference"
    return f"{head} is {shown}: the quoted {quoted[0]} {word} the quoted {quoted[1]}."


def calc_fact(question: Question, plan: CalcPlan, lines: list[Scored]) -> Fact:
    operand_values = {operand(s.value) for s in plan.operands if s.value is not None}
    supporting = [s for s in lines if s.value is not None and operand(s.value) in operand_values] or list(plan.operands)
    coverage = min(1.0, min(s.coverage for s in supporting))
    return Fact(
        text=calc_sentence(plan, _label(plan.operands[0])),
        support=[Support(source_id=s.line.source_id, locator=s.line.locator, quote=s.line.text) for s in supporting],
        coverage=coverage,
        key=question.key,
        value=plan.value,
        calc=CalcDerivation(expr=plan.expr, value=plan.value),
        confidence=_confidence(coverage, False),
    )
