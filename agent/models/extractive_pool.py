"""The pool of lines the extractive model has read (bundles and search hits), what is excluded, and their context.

A line is admissible support only if it came verbatim from a bundle or a `search_source` hit, no bundle flag
names it, and it does not read as an instruction to an assistant.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from quotebound.agent.core.contracts import EvidenceBundle, Locator
from quotebound.agent.models.extractive_line_text import is_heading, is_table_row
from quotebound.agent.models.extractive_sentences import runs, sentences

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
