"""The sentences a quote is read in: the whole sentences (or table rows) of the text at its locator that the quote
overlaps, hard-wrapped lines joined, so a quote cut after "No" is read with its "No". A sentence past
`MAX_SENTENCE_CHARS` is read in pieces."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.claims import QuoteSpan, sentences
from quotebound.agent.gate.layout import Frame
from quotebound.agent.gate.meaning.model import QuoteSentence
from quotebound.agent.gate.meaning.reading import parse
from quotebound.agent.gate.source_readings import source_reading

# The longest sentence read, in characters: a claim sentence past it is not checked but refused
# (`rules/meaning.py`), a quote sentence past it is read in pieces cut at its commas and semicolons. Every check
# here is linear or quadratic in a sentence's words and figures; this keeps the quadratic ones small.
MAX_SENTENCE_CHARS: Final = 2_000
_TABLE_LINE: Final = re.compile(r"^\s*\|")


def _joined(context: str) -> tuple[str, tuple[int, ...]]:
    """The text at a locator with hard-wrapped lines joined (a table row stays a line of its own), and where each
    line of the context starts in that text."""
    lines: list[str] = []
    starts: list[int] = []
    at = 0  # the length of the text so far
    for raw in context.split("\n"):
        line = " ".join(raw.split())
        if not line or _TABLE_LINE.match(raw) or not lines or not lines[-1] or _TABLE_LINE.match(lines[-1]):
            at += 1 if lines else 0  # the line break before it
            lines.append(line)
        else:
            at += 1  # the space that joins it to the line before
            lines[-1] += " " + line
        starts.append(at)
        at += len(line)
    return "\n".join(lines), tuple(starts)


def _pieces(sentence: str) -> list[str]:
    """`sentence`, when longer than `MAX_SENTENCE_CHARS`, cut at its commas and semicolons (at spaces, past that)
    into pieces that are not."""
    if len(sentence) <= MAX_SENTENCE_CHARS:
        return [sentence]
    out: list[str] = []
    current = ""
    for part in re.split(r"(?<=[;,])\s+", sentence):
        while len(part) > MAX_SENTENCE_CHARS:
            cut = part.rfind(" ", 0, MAX_SENTENCE_CHARS)
            cut = cut if cut > 0 else MAX_SENTENCE_CHARS
            out.append(part[:cut])
            part = part[cut:].lstrip()
        if current and len(current) + 1 + len(part) > MAX_SENTENCE_CHARS:
            out.append(current)
            current = part
        else:
            current = f"{current} {part}" if current else part
    if current:
        out.append(current)
    return out


def quote_sentences(quote: str, context: str) -> tuple[str, ...]:
    """The whole sentences (or table rows) of `context` that the quote overlaps: what the quote says is read in
    them (a sentence past `MAX_SENTENCE_CHARS` in its pieces that the quote overlaps). The quote alone when it
    cannot be found in its context."""
    return tuple(sentence for sentence, _, _ in placed_sentences(quote, context))


@lru_cache(maxsize=2048)
def placed_sentences(quote: str, context: str) -> tuple[tuple[str, int, int], ...]:
    """`quote_sentences`, each with the lines of `context` it starts and ends on (0 for the first)."""
    text, starts = _joined(context or quote)
    needle = " ".join(quote.split())
    flat = text.replace("\n", " ")
    at = flat.find(needle)
    if not needle or at < 0:
        return tuple((p, 0, 0) for s in sentences(needle) for p in _pieces(s)) or ((needle, 0, 0),)
    end = at + len(needle)
    out: list[tuple[str, int, int]] = []
    line_start = 0
    for line in text.split("\n"):
        local = 0
        for sentence in [line] if _TABLE_LINE.match(line) else sentences(line):
            for piece in _pieces(sentence):
                found = line.find(piece, local)
                if found < 0:
                    continue
                local = found + len(piece)
                begin = line_start + found
                if begin < end and at < begin + len(piece):
                    first = bisect_right(starts, begin) - 1
                    out.append((piece, first, bisect_right(starts, begin + len(piece) - 1) - 1))
        line_start += len(line) + 1
    return tuple(out) or ((needle, 0, 0),)


_LOCATOR: Final = re.compile(r"p\.(\d+)\s+L(\d+)")


def _place(locator: str) -> tuple[int, int]:
    """(page, first line) of a locator; (1, 0) when it is none."""
    m = _LOCATOR.search(locator)
    return (int(m.group(1)), int(m.group(2))) if m else (1, 0)


# A sentence of the text at a quote's locator is source text: read once per source version, for every draft.
_parse_source: Final = source_reading(parse.__wrapped__)


def _in_context(quote: str, context: str) -> bool:
    """The quote stands in its context, so `placed_sentences` gives the context's own sentences (else the quote's)."""
    needle = " ".join(quote.split())
    return bool(needle) and needle in _joined(context or quote)[0].replace("\n", " ")


@lru_cache(maxsize=2048)
def _read_span(span: QuoteSpan, frames: tuple[Frame, ...]) -> tuple[QuoteSentence, ...]:
    page, first = _place(span.locator)
    out: list[QuoteSentence] = []
    read = _parse_source if _in_context(span.quote, span.context) else parse
    for text, offset, last in placed_sentences(span.quote, span.context):
        sentence = read(text)
        frame = frames[offset] if offset < len(frames) else None
        if frame is None:
            out.append(QuoteSentence(sentence, span.source_id, first + offset, page, passage=first, last=first + last))
        else:
            block, section = frame.block + 1, frame.section + 1 if frame.section >= 0 else -1
            at = (sentence, span.source_id, first + offset, page, block, section, frame.heading, first, first + last)
            out.append(QuoteSentence(*at))
    return tuple(out)


def read_quotes(spans: Iterable[QuoteSpan], frames: Sequence[tuple[Frame, ...]] = ()) -> tuple[QuoteSentence, ...]:
    """Every sentence the spans rest on, each once. `frames[i]`, when given, frames the lines of `spans[i]`'s
    locator in its page (`layout.frames`): the paragraph, table and section each sentence stands in."""
    spans = tuple(spans)
    return _read_quotes(spans, tuple(frames) if frames else ((),) * len(spans))


@lru_cache(maxsize=512)
def _read_quotes(spans: tuple[QuoteSpan, ...], frames: tuple[tuple[Frame, ...], ...]) -> tuple[QuoteSentence, ...]:
    seen: dict[tuple[str, str], QuoteSentence] = {}
    for span, framed in zip(spans, frames, strict=True):
        for qs in _read_span(span, framed):
            seen.setdefault((qs.source_id, qs.sentence.text), qs)
    return tuple(seen.values())
