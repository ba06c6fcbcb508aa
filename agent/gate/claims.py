"""Claims: everything a draft shows the user, split into the statements it makes, each with the verified quotes it
may rest on.

The claim rules read a draft through these, never field by field. A sentence of level1, level2, the answer or the
analysis may rest on any verified quote of the draft; a fact's text, key and value rest on that fact's own
verified quotes; a listed conflict's key and notes rest on its verified value quotes, and each value on its own
quote; a gap's need and the extracted entities, numbers and dates are descriptive and rest on every verified
quote. Level3 is the citation list: its sentences are claims only for the figures in them (`field == "level3"`).

A quote a claim may rest on was verified at its locator and is no instructional text (a flagged line, or text the
injection detector reads as an instruction: such text is never evidence). A quoted table row carries its table's
header, group row and caption (`table_header`), read from the cited source's lines.

Citations (locators, doc:// refs, the ids of verified sources) are blanked out of a claim's text first: they are
references, not statements. The draft's own `citations_index` masks nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from quotebound.agent.core.contracts import Locator
from quotebound.agent.gate.conflicts import FlaggedLines
from quotebound.agent.gate.inputs import GateInputs, SourceLine, cited_ids
from quotebound.agent.gate.memo import per_draft
from quotebound.agent.gate.tokens import mask
from quotebound.agent.gate.verification import Verification
from quotebound.tools.injection import is_instructional


@dataclass(frozen=True)
class QuoteSpan:
    """One verified quote: where it is, what it says, and the text at its locator (the line(s) it was found in)."""

    source_id: str
    locator: str
    quote: str
    context: str  # the text at the locator; the quote itself when the gate was not given it
    header: str = ""  # for a table row: its table's header rows, the group rows above it and the caption


@dataclass(frozen=True)
class Claim:
    """One statement the user sees, and the verified quotes it may rest on."""

    where: str  # "level1 sentence 2", "fact 0 text", "gap 1 need", "conflict 0 notes", ...
    text: str  # the statement, citations blanked out and whitespace collapsed
    fact_index: int | None
    quotes: tuple[QuoteSpan, ...]
    field: str  # level1 | level2 | level3 | answer | analysis | fact_text | fact_key | fact_value | gap |
    # conflict_key | conflict_notes | conflict_value | extraction (entities, numbers, dates)
    conflict_index: int | None = None  # the listed conflict a conflict_* claim belongs to


# A sentence ends at . ! ? (closing quotes/brackets allowed) followed by whitespace, or at a line break.
_SENTENCE_END: Final = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+|\s*\n\s*")
# A period after these does not end a sentence: a single letter ("p.", "a.m.", "U.S."), or a common English
# abbreviation of a title, a reference or a list ("Sec.", "No.", "e.g.", "vs.", "Inc.").
_ABBREVIATION: Final = re.compile(
    r"(?:\b[A-Za-z]|\b(?:[a-z]\.){2,}|\b(?:Mr|Mrs|Ms|Dr|St|Sr|Jr|Prof|Sec|Secs|Art|No|Nos|Vol|Ch|Fig|Figs|Eq|Ref"
    r"|Refs|Para|Pp|Inc|Ltd|Co|Corp|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|approx|cf|vs|etc|al|ie|eg"
    r"|i\.e|e\.g))\.$",
    re.IGNORECASE,
)
_CAPTION_LINES: Final = 4  # how far above a table its caption may be
# A line that introduces the next table on its page ("The following table presents sales information by ..."): a
# caption even when other paragraphs stand between it and the table, read up to `_INTRODUCTION_LINES` above it.
_INTRODUCES_TABLE: Final = re.compile(
    r"\b(?:following|below)\b[^.|]{0,60}\btables?\b|\btables?\b[^.|]{0,20}\bbelow\b", re.I
)
_INTRODUCTION_LINES: Final = 40
_EMPTY_BRACKETS: Final = re.compile(r"[(\[][\s;,:]*[)\]]")  # what is left of "(a.md p.1 L3; b.md p.2 L1)"


def sentences(text: str) -> list[str]:
    """`text` split into sentences (and lines), whitespace collapsed, empty ones dropped."""
    return list(_sentences(text))


@lru_cache(maxsize=4096)  # a draft's summaries and quotes are split by several readers, and again on repair
def _sentences(text: str) -> tuple[str, ...]:
    out: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if "\n" not in m.group() and _ABBREVIATION.search(text[max(start, m.start() - 12) : m.start()]):
            continue  # "Sec. 4", "10 p.m. daily": not the end of a sentence
        out.append(text[start : m.end()])
        start = m.end()
    out.append(text[start:])
    return tuple(s for s in (" ".join(p.split()) for p in out) if s)


Page = dict[int, str]  # line number -> text, for one page of one cited source


def _pages(lines: Sequence[SourceLine]) -> dict[tuple[str, int], Page]:
    pages: dict[tuple[str, int], Page] = {}
    for line in lines:
        pages.setdefault((line.source_id, line.page), {})[line.line] = line.text
    return pages


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def table_header(page: Page, line: int) -> str:
    """What a table row at `line` means beyond its own cells: the table's caption (the lines just above it), its
    header rows (above its `---` rule, and the rows right after the rule with an empty first cell, such as
    "| | 2019 | 2018 |" or "| | (in millions) |") and the group row the quoted row falls under (a label with empty
    cells, "| Industrial Solutions: | | |", unless a subtotal row closed that group). Empty for a line outside a
    table."""
    if not page.get(line, "").lstrip().startswith("|"):
        return ""
    top = line
    while page.get(top - 1, "").lstrip().startswith("|"):
        top -= 1
    rows = [_cells(page[n]) for n in range(top, line)]
    rule = next((i for i, r in enumerate(rows) if all(set(c) <= set("-: ") for c in r)), None)
    body = 0 if rule is None else rule + 1
    while body < len(rows) and not rows[body][0]:
        body += 1  # header rows under the rule: an empty first cell
    kept = [page[top + i] for i in range(body) if i != rule]
    for i in range(len(rows) - 1, body - 1, -1):
        if not rows[i][0]:
            break  # a subtotal row: the group above it is closed
        if not any(rows[i][1:]):
            kept.append(page[top + i])  # the group label the quoted row falls under
            break
    caption: list[str] = []
    for n in range(top - 1, max(0, top - 1 - _CAPTION_LINES), -1):
        text = page.get(n, "")
        if text.lstrip().startswith("|"):
            break  # the table above: not this one's caption
        if text.strip():
            caption.insert(0, text)
    if not any(_INTRODUCES_TABLE.search(c) for c in caption):
        caption[:0] = [t for t in _introduction(page, top - 1) if t not in caption]
    return "\n".join([*caption, *kept])


def _introduction(page: Page, line: int) -> list[str]:
    """The nearest line at or above `line` that introduces a table, unless another table stands between ([])."""
    for n in range(line, max(0, line - _INTRODUCTION_LINES), -1):
        text = page.get(n, "")
        if text.lstrip().startswith("|"):
            return []
        if _INTRODUCES_TABLE.search(text):
            return [text]
    return []


def _instructional(source_id: str, quote: str, check: Verification, flagged: FlaggedLines) -> bool:
    """The quote sits on instructional text: every place it occurs touches a flagged line, or the detector finds an
    instruction in the text at its locator (whoever computed the flags). Such text is never evidence."""
    if check.spans and all(
        any((source_id, page, n) in flagged for n in range(first, last + 1)) for page, first, last in check.spans
    ):
        return True
    return _instruction_in(check.context or quote)


@lru_cache(maxsize=4096)  # the same quotes' contexts, draft after draft
def _instruction_in(text: str) -> bool:
    return is_instructional(text)


@lru_cache(maxsize=4096)  # a draft's locators recur claim after claim, and on repair
def _first_line(locator: str) -> tuple[int, int] | None:
    """(page, first line) of a locator, None when it is malformed."""
    try:
        at = Locator.parse(locator)
    except ValueError:
        return None
    return at.page, at.line_start


def _spans(
    quotes: Sequence[tuple[str, str, str]],
    checks: Sequence[Verification],
    pages: dict[tuple[str, int], Page],
    flagged: FlaggedLines = frozenset(),
) -> tuple[QuoteSpan, ...]:
    spans: list[QuoteSpan] = []
    for (source_id, locator, quote), check in zip(quotes, checks, strict=True):
        if not check.ok or _instructional(source_id, quote, check, flagged):
            continue
        header = ""
        at = _first_line(locator)
        if at is not None and (source_id, at[0]) in pages:
            header = table_header(pages[(source_id, at[0])], at[1])
        spans.append(QuoteSpan(source_id, locator, quote, check.context or quote, header))
    return tuple(spans)


def _build(inputs: GateInputs) -> tuple[Claim, ...]:
    draft = inputs.draft
    evidence, levels = draft.evidence, draft.levels
    cited = cited_ids(inputs)
    pages = _pages(inputs.cited_lines)
    fact_quotes = [
        _spans([(s.source_id, s.locator, s.quote) for s in fact.support], checks, pages, inputs.flagged)
        for fact, checks in zip(evidence.facts, inputs.support_checks, strict=True)
    ]
    conflict_quotes = [
        _spans([(v.source_id, v.locator, v.quote) for v in conflict.values], checks, pages, inputs.flagged)
        for conflict, checks in zip(evidence.conflicts, inputs.conflict_checks, strict=True)
    ]
    every = tuple(dict.fromkeys(q for qs in (*fact_quotes, *conflict_quotes) for q in qs))

    def masked(text: str) -> str:
        return _EMPTY_BRACKETS.sub(" ", mask(text, cited))

    def clean(text: str) -> str:
        return " ".join(masked(text).split())

    def split(field: str, where: str, text: str) -> Iterator[Claim]:
        for n, sentence in enumerate(sentences(masked(text)), start=1):
            yield Claim(f"{where} sentence {n}", sentence, None, every, field)

    out: list[Claim] = []
    out += split("level1", "level1", levels.level1)
    out += split("level2", "level2", levels.level2)
    out += split("level3", "level3", levels.level3)
    out += split("answer", "evidence.answer", evidence.answer)
    out += split("analysis", "evidence.analysis", evidence.analysis)
    for i, fact in enumerate(evidence.facts):
        out.append(Claim(f"fact {i} text", clean(fact.text), i, fact_quotes[i], "fact_text"))
        if fact.key:
            out.append(Claim(f"fact {i} key", clean(fact.key), i, fact_quotes[i], "fact_key"))
        if fact.value:
            out.append(Claim(f"fact {i} value", clean(fact.value), i, fact_quotes[i], "fact_value"))
    for k, conflict in enumerate(evidence.conflicts):
        quotes = conflict_quotes[k]
        out.append(Claim(f"conflict {k} key", clean(conflict.key), None, quotes, "conflict_key", k))
        notes = clean(f"{conflict.delta} {conflict.notes}")
        if notes:
            out.append(Claim(f"conflict {k} notes", notes, None, quotes, "conflict_notes", k))
        checks = inputs.conflict_checks[k]
        for m, (value, check) in enumerate(zip(conflict.values, checks, strict=True)):
            own = _spans([(value.source_id, value.locator, value.quote)], [check], pages, inputs.flagged)
            out.append(Claim(f"conflict {k} value {m}", clean(value.value), None, own, "conflict_value", k))
    for j, gap in enumerate(evidence.gaps):
        out.append(Claim(f"gap {j} need", clean(gap.need), None, every, "gap"))
    extractions = evidence.extractions
    for part, items in (("entity", extractions.entities), ("number", extractions.numbers), ("date", extractions.dates)):
        for e, item in enumerate(items):
            out.append(Claim(f"extractions {part} {e}", clean(item), None, every, "extraction"))
    return tuple(c for c in out if c.text)


@per_draft
def claims(inputs: GateInputs) -> tuple[Claim, ...]:
    """Every claim `inputs.draft` shows, in reading order (computed once per `inputs`: several rules read them)."""
    return _build(inputs)


__all__ = ["Claim", "QuoteSpan", "claims", "sentences"]
