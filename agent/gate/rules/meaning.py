"""Meaning: every claim the user sees keeps the meaning of the quote sentences it rests on (`gate/meaning/`):
its polarity and modality, its directions and the order of its ranges, its units, and which subject each figure
and name belongs to.

Claim support holds a claim's words to its quotes; a claim made of quoted words can still say the opposite
("Short-term rentals are permitted" over "... are prohibited"), move a figure to another subject ("The late charge
is $325.00" over the monthly assessment's line), swap its unit ("15 months" over "15 days") or reverse a range.
Polarity, modality, direction and order changes are `meaning_changed`; a unit, figure or name bound to what its
quote does not give it to is `value_unbound`.

Each quote is read once per draft, in the frame of its page (`layout.frames`: the paragraph, table and section each
of its lines stands in), so a subject named in the quoted heading of its section or the quoted line above it in its
paragraph binds its figures, and two quotes of different paragraphs stay two contexts.

Descriptive fields (a fact's or conflict's key, a gap's need, extracted entities) name a slot and assert nothing;
conflict notes compare two sources on purpose; level3 lists citations. Those are not read here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from quotebound.agent.gate import meaning
from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.claims import QuoteSpan, claims
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.layout import Frame, frames
from quotebound.agent.gate.meaning import QuoteSentence
from quotebound.agent.gate.memo import per_draft
from quotebound.agent.gate.source_readings import source_reading

# The fields whose claims state facts from their quotes.
CHECKED_FIELDS: Final = frozenset(
    {"level1", "level2", "answer", "analysis", "fact_text", "fact_value", "conflict_value"}
)
_CODES: Final = {"meaning": FindingCode.MEANING_CHANGED, "unbound": FindingCode.VALUE_UNBOUND}
_NAME: Final = re.compile(r"[^\W\d_]+")
_MAX_SHOWN: Final = 300
_LOCATOR: Final = re.compile(r"p\.(\d+)\s+L(\d+)(?:-L(\d+))?")


@per_draft
def _names_and_documents(inputs: GateInputs) -> tuple[frozenset[str], frozenset[str]]:
    """(the stems of the words that may name a document or the question's subject anywhere: the cited sources' ids
    and titles and the question's capitalized words; the stems of the words of the cited sources' ids, which refer
    to a document)."""
    cited = {quote.source_id for claim in claims(inputs) for quote in claim.quotes}
    ids = {w for source_id in cited for w in _NAME.findall(source_id)}
    names = set(ids)
    for source in inputs.sources:
        if source.source_id in cited:
            names.update(_NAME.findall(source.title))
    if inputs.question:
        names.update(w for w in _NAME.findall(inputs.question) if w[0].isupper())
    return meaning.stems_of(names), meaning.stems_of(ids)


@per_draft
def _pages(inputs: GateInputs) -> dict[tuple[str, int], tuple[Frame, ...]]:
    """The frame of every line of the cited pages down to the last line a quote stands on (0-based within its
    page): a line's frame depends only on the lines above it and the one after it."""
    evidence = inputs.draft.evidence
    cited = [(s.source_id, s.locator) for f in evidence.facts for s in f.support]
    cited += [(v.source_id, v.locator) for c in evidence.conflicts for v in c.values]
    reach: dict[tuple[str, int], int] = {}
    for source_id, locator in set(cited):
        m = _LOCATOR.match(locator.strip())
        if m is not None:
            where = (source_id, int(m.group(1)))
            reach[where] = max(reach.get(where, 0), int(m.group(3) or m.group(2)) + 1)
    texts: dict[tuple[str, int], dict[int, str]] = {}
    for line in inputs.cited_lines:
        where = (line.source_id, line.page)
        if line.line <= reach.get(where, 0):
            texts.setdefault(where, {})[line.line] = line.text
    out: dict[tuple[str, int], tuple[Frame, ...]] = {}
    for where, page in texts.items():
        out[where] = _framed(tuple(page.get(n, "") for n in range(1, max(page) + 1)))
    return out


@source_reading  # a page's frames depend only on its lines: read once per source version
def _framed(lines: tuple[str, ...]) -> tuple[Frame, ...]:
    return tuple(frames(lines))


def _span_frames(pages: dict[tuple[str, int], tuple[Frame, ...]], span: QuoteSpan) -> tuple[Frame, ...]:
    """The frames of the lines of `span`'s locator (none when its page is not known)."""
    m = _LOCATOR.match(span.locator.strip())
    if m is None:
        return ()
    first = int(m.group(2))
    page = pages.get((span.source_id, int(m.group(1))), ())
    return page[first - 1 : int(m.group(3) or first)]


def _reader(inputs: GateInputs) -> Callable[[tuple[QuoteSpan, ...]], tuple[QuoteSentence, ...]]:
    """Reads a claim's quotes, once per set of quotes: the claims of a draft's levels share one tuple of them."""
    read: dict[int, tuple[QuoteSentence, ...]] = {}

    def reading(quotes: tuple[QuoteSpan, ...]) -> tuple[QuoteSentence, ...]:
        found = read.get(id(quotes))  # the claims hold their quotes alive while `check` runs: ids stay theirs
        if found is None:
            pages = _pages(inputs)
            found = read[id(quotes)] = meaning.read_quotes(quotes, [_span_frames(pages, s) for s in quotes])
        return found

    return reading


def check(inputs: GateInputs) -> list[Finding]:
    names, documents = _names_and_documents(inputs)
    reading = _reader(inputs)
    findings: list[Finding] = []
    for claim in claims(inputs):
        if claim.field not in CHECKED_FIELDS or not claim.quotes:
            continue
        check_deadline()
        if len(claim.text) > meaning.MAX_SENTENCE_CHARS:
            findings.append(
                Finding(
                    code=FindingCode.INPUT_BOUNDS,
                    message=f"{claim.where} is one sentence of {len(claim.text):,} characters, too long to check "
                    f"against its quotes (at most {meaning.MAX_SENTENCE_CHARS:,}); write it as shorter sentences",
                    fact_index=claim.fact_index,
                )
            )
            continue
        read = reading(claim.quotes)
        for problem in meaning.problems_read(claim.text, read, inputs.question, names, documents):
            quote = problem.quote if len(problem.quote) <= _MAX_SHOWN else problem.quote[: _MAX_SHOWN - 3] + "..."
            findings.append(
                Finding(
                    code=_CODES[problem.code],
                    message=f"{claim.where} {problem.detail}: {quote!r}; state it as the quote does, or move the "
                    "claim to gaps",
                    fact_index=claim.fact_index,
                )
            )
    return findings
