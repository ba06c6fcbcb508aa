"""Read `.txt`, `.md` and `.pdf` files into pages of lines: the exact text every tool will quote.

Text files are read as a stream (a block at a time, decoded incrementally), so a line longer than the cap is
refused as soon as it is seen instead of after the whole file is in memory. A file is opened without following
a final symlink and must still be the file the caller found (same device and inode): a file swapped for a link
between finding and reading is refused, never read.
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import logging
import os
import stat
import unicodedata
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pypdf import PdfReader
from pypdf.errors import LimitReachedError

from quotebound.agent.core.errors import CallerError, ErrorCode
from quotebound.agent.core.settings import RetrievalSettings
from quotebound.tools.injection import is_instructional

MEDIA_TYPES: dict[str, str] = {
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".pdf": "application/pdf",
}
MAX_FILE_BYTES = 64 * 1024 * 1024
#: The longest line read when the caller gives no cap: the default of the setting `retrieval.max_line_chars`.
DEFAULT_MAX_LINE_CHARS: int = RetrievalSettings().max_line_chars
_BLOCK_BYTES = 1 << 20


@dataclass(frozen=True)
class ReadDocument:
    media_type: str
    title: str
    pages: list[list[str]]

    @property
    def n_lines(self) -> int:
        return sum(len(page) for page in self.pages)

    def _normalized_parts(self) -> Iterator[bytes]:
        for index, page in enumerate(self.pages):
            if index:
                yield b"\f"
            for line_no, line in enumerate(page):
                if line_no:
                    yield b"\n"
                yield line.encode("utf-8")

    def normalized_text(self) -> str:
        """The text the content hash is taken over: lines joined by newlines, pages by form feeds."""
        return "\f".join("\n".join(page) for page in self.pages)

    def digests(self) -> tuple[str, str]:
        """(sha256, md5) of `normalized_text()` in UTF-8, computed without building that text."""
        sha, md5 = hashlib.sha256(), hashlib.md5(usedforsecurity=False)
        for part in self._normalized_parts():
            sha.update(part)
            md5.update(part)
        return sha.hexdigest(), md5.hexdigest()


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


def _too_long(path: Path, line_no: int, length: int, cap: int, *, page: int | None = None) -> CallerError:
    where = f"page {page} line {line_no}" if page is not None else f"line {line_no}"
    return _unreadable(
        path,
        f"{where} is longer than {cap:,} characters ({length:,}+); a quote is whole lines, so wrap the text "
        "or raise the cap (`quotebound ingest --max-line-chars`)",
    )


def _read_text(path: Path, stream: BinaryIO, max_line_chars: int) -> list[list[str]]:
    """Lines of a UTF-8 text file, read a block at a time; a line over `max_line_chars` stops the read."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    lines: list[str] = []
    pending = ""  # the line not yet ended by a newline (at most max_line_chars long)
    offset = 0
    while True:
        block = stream.read(_BLOCK_BYTES)
        final = not block
        if b"\x00" in block:
            raise _unreadable(path, "binary content (NUL bytes); only UTF-8 text, Markdown and PDF are ingested")
        buffered = len(decoder.getstate()[0])
        try:
            text = pending + decoder.decode(block, final=final)
        except UnicodeDecodeError as exc:
            at = offset - buffered + exc.start
            raise _unreadable(path, f"not valid UTF-8 (byte {at}); re-save it as UTF-8") from exc
        offset += len(block)
        if not final and text.endswith("\r"):
            text, pending = text[:-1], "\r"  # a "\r\n" may straddle two blocks
        else:
            pending = ""
        parts = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        tail = parts.pop() if not final else None
        for part in parts:
            if len(part) > max_line_chars:
                raise _too_long(path, len(lines) + 1, len(part), max_line_chars)
            lines.append(normalize_line(part))
        if final:
            break
        pending = (tail or "") + pending
        if len(pending) > max_line_chars:
            raise _too_long(path, len(lines) + 1, len(pending), max_line_chars)
    return [_trim_trailing_blank(lines)]


def _read_pdf(path: Path, stream: BinaryIO, max_line_chars: int) -> list[list[str]]:
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    pages: list[list[str]] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pypdf warns about benign oddities in many real PDFs
            reader = PdfReader(stream, strict=False)
            if reader.is_encrypted:
                raise _unreadable(path, "encrypted PDF")
            total = 0
            for page_no, page in enumerate(reader.pages, start=1):
                text = page.extract_text() or ""
                total += len(text)
                if total > MAX_FILE_BYTES:  # a small PDF can inflate to far more text than any file we read
                    raise _unreadable(path, f"more than {MAX_FILE_BYTES // (1024 * 1024)} Mi characters of text")
                lines = _split_lines(text)
                for line_no, line in enumerate(lines, start=1):
                    if len(line) > max_line_chars:
                        raise _too_long(path, line_no, len(line), max_line_chars, page=page_no)
                pages.append(_trim_trailing_blank(lines))
    except CallerError:
        raise
    except LimitReachedError as exc:
        raise _unreadable(path, "a PDF stream inflates past the decompression limit (a decompression bomb?)") from exc
    except MemoryError as exc:
        raise _unreadable(path, "PDF too large to read in memory") from exc
    except Exception as exc:  # pypdf raises many kinds on malformed input (PdfReadError, KeyError, zlib.error, ...)
        raise _unreadable(path, f"corrupt or unsupported PDF ({type(exc).__name__})") from exc
    if not pages:
        raise _unreadable(path, "PDF has no pages")
    # An empty page still counts so page numbers stay those of the printed document.
    return [page or [""] for page in pages]


def _open(path: Path, target: Path, expected: tuple[int, int] | None) -> BinaryIO:
    """`target` opened for reading without following a final symlink; when `expected` (device, inode) is given,
    it must be that file. Raises CallerError(UNREADABLE_FILE) naming `path` otherwise."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _unreadable(path, "is a link (links are resolved before reading; it changed meanwhile)") from exc
        if isinstance(exc, PermissionError):
            raise _unreadable(path, "permission denied") from exc
        raise _unreadable(path, f"cannot be read ({exc.strerror or type(exc).__name__})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _unreadable(path, "not a regular file")
        if expected is not None and (info.st_dev, info.st_ino) != expected:
            raise _unreadable(path, "changed while being ingested (replaced by another file); run ingest again")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_document(
    path: Path,
    *,
    max_line_chars: int = DEFAULT_MAX_LINE_CHARS,
    target: Path | None = None,
    expected: tuple[int, int] | None = None,
) -> ReadDocument:
    """Read one file. Raises CallerError(UNREADABLE_FILE) naming the file for anything it cannot ingest.

    `target`: the file to open when `path` is a link (its resolved target, already checked by the caller); the
    name, type and messages are `path`'s. `expected`: the (device, inode) found there; the file read must be it."""
    media_type = MEDIA_TYPES.get(path.suffix.lower())
    if media_type is None:
        raise _unreadable(path, f"unsupported file type {path.suffix or '(none)'!r}; use .txt, .md or .pdf")
    with _open(path, target or path, expected) as stream:
        try:
            size = os.fstat(stream.fileno()).st_size
            if size == 0:
                raise _unreadable(path, "empty file")
            if size > MAX_FILE_BYTES:
                raise _unreadable(path, f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
            if media_type == "application/pdf":
                pages = _read_pdf(path, stream, max_line_chars)
            else:
                pages = _read_text(path, stream, max_line_chars)
        except PermissionError as exc:
            raise _unreadable(path, "permission denied") from exc
        except OSError as exc:
            raise _unreadable(path, f"cannot be read ({exc.strerror or type(exc).__name__})") from exc
    if not any(line.strip() for page in pages for line in page):
        raise _unreadable(path, "no text (empty, blank, or a scanned PDF without a text layer)")
    return ReadDocument(media_type=media_type, title=_title(path, pages), pages=pages)
