"""Split a document's pages into retrieval chunks: runs of non-blank lines on one page, bounded in size.

A chunk is only a retrieval unit and a locator; the text the model sees is always re-read through the tools.
The nearest heading above a chunk is added to its *indexed* text (not to its locator) so that a table row
can be found by the name of the section it sits in.
"""

from __future__ import annotations

from dataclasses import dataclass

from quotebound.agent.core.contracts import Locator


@dataclass(frozen=True)
class Chunk:
    page: int
    line_start: int
    line_end: int
    text: str
    heading: str

    @property
    def locator(self) -> str:
        return str(Locator(page=self.page, line_start=self.line_start, line_end=self.line_end))

    @property
    def indexed_text(self) -> str:
        return f"{self.heading}\n{self.text}" if self.heading and self.heading not in self.text else self.text


def _is_heading(line: str) -> bool:
    stripped = line.lstrip()
    return stripped.startswith("#") or (stripped.isupper() and 3 <= len(stripped) <= 80)


def _flush(chunks: list[Chunk], page_no: int, run: list[tuple[int, str]], heading: str) -> None:
    if run:
        text = "\n".join(line for _, line in run)
        chunks.append(Chunk(page_no, run[0][0], run[-1][0], text, heading))


def chunk_pages(pages: list[list[str]], *, max_lines: int, max_chars: int) -> list[Chunk]:
    chunks: list[Chunk] = []
    for page_no, lines in enumerate(pages, start=1):
        heading = ""
        run: list[tuple[int, str]] = []

        for line_no, line in enumerate(lines, start=1):
            if not line.strip():
                _flush(chunks, page_no, run, heading)
                run = []
                continue
            if _is_heading(line):
                _flush(chunks, page_no, run, heading)
                run = []
                heading = line.strip().lstrip("#").strip()
            size = sum(len(text) + 1 for _, text in run)
            if run and (len(run) >= max_lines or size + len(line) > max_chars):
                _flush(chunks, page_no, run, heading)
                run = []
            run.append((line_no, line))
        _flush(chunks, page_no, run, heading)
    return chunks
