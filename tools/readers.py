"""Read `.txt`, `.md` and `.pdf` files into pages of lines: the exact text every tool will quote."""

from __future__ import annotations

import logging
import unicodedata
import warnings
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PdfReadError

from quotebound.agent.core.errors import CallerError, ErrorCode
from quotebound.tools.injection import is_instructional

MEDIA_TYPES: dict[str, str] = {
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".pdf": "application/pdf",
}
MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class ReadDocument:
    media_type: str
    title: str
    pages: list[list[str]]

    @property
    def n_lines(self) -> int:
        return sum(len(page) for page in self.pages)

    def normalized_text(self) -> str:
        """The text the content hash is taken over: lines joined by newlines, pages by form feeds."""
        return "\f".join("\n".join(page) for page in self.pages)


def _unreadable(path: Path, why: str) -> CallerError:
    return CallerError(ErrorCode.UNREADABLE_FILE, f"{path}: {why}")


def normalize_line(line: str) -> str:
    # NFC so that a quote typed with composed characters matches; trailing blanks carry no meaning.
    return unicodedata.normalize("NFC", line).rstrip()


def _split_lines(text: str) -> list[str]:
    return [normalize_line(line) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]


def _trim_trailing_blank(lines: list[str]) -> list[str]:
    end = len(lines)
    while end and not lines[end - 1]:
        end -= 1
    return lines[:end]


def _title(path: Path, pages: list[list[str]]) -> str:
    """The first line with words, unless it reads as instructions to an assistant: a title is shown to users
    outside any quote (source lists, abstention hints), where injected text must never appear."""
    for page in pages:
        for line in page:
            if line.strip() and not is_instructional(line):
                return line.strip().lstrip("#").strip()[:200] or path.name
    return path.name


def _read_text(path: Path) -> list[list[str]]:
    raw = path.read_bytes()
    if b"\x00" in raw:
        raise _unreadable(path, "binary content (NUL bytes); only UTF-8 text, Markdown and PDF are ingested")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _unreadable(path, f"not valid UTF-8 (byte {exc.start}); re-save it as UTF-8") from exc
    return [_trim_trailing_blank(_split_lines(text))]


def _read_pdf(path: Path) -> list[list[str]]:
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pypdf warns about benign oddities in many real PDFs
            reader = PdfReader(path, strict=False)
            if reader.is_encrypted:
                raise _unreadable(path, "encrypted PDF")
            pages = [_trim_trailing_blank(_split_lines(page.extract_text() or "")) for page in reader.pages]
    except CallerError:
        raise
    except (PdfReadError, OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise _unreadable(path, f"corrupt or unsupported PDF ({type(exc).__name__})") from exc
    if not pages:
        raise _unreadable(path, "PDF has no pages")
    # An empty page still counts so page numbers stay those of the printed document.
    return [page or [""] for page in pages]


def read_document(path: Path) -> ReadDocument:
    """Read one file. Raises CallerError(UNREADABLE_FILE) naming the file for anything it cannot ingest."""
    media_type = MEDIA_TYPES.get(path.suffix.lower())
    if media_type is None:
        raise _unreadable(path, f"unsupported file type {path.suffix or '(none)'!r}; use .txt, .md or .pdf")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise _unreadable(path, f"cannot be read ({exc.strerror})") from exc
    if size == 0:
        raise _unreadable(path, "empty file")
    if size > MAX_FILE_BYTES:
        raise _unreadable(path, f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    try:
        pages = _read_pdf(path) if media_type == "application/pdf" else _read_text(path)
    except PermissionError as exc:
        raise _unreadable(path, "permission denied") from exc
    if not any(line.strip() for page in pages for line in page):
        raise _unreadable(path, "no text (empty, blank, or a scanned PDF without a text layer)")
    return ReadDocument(media_type=media_type, title=_title(path, pages), pages=pages)
