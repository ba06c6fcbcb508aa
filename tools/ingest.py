"""Ingest files into a store: lines, the locator index, chunks, FTS5 and vectors, one file per transaction.

Rules: re-ingesting an unchanged file (same text, same metadata) is a no-op; a changed one becomes a new
version and the old version stays resolvable (old receipts still point at it) but leaves retrieval. A file
that cannot be read is reported by name and nothing of it is written; the other files still ingest.

Nothing outside a folder given is read: the folder is resolved once (whatever links led to it), and a link
inside it (to a file or a folder) is followed only when it resolves inside that folder; links out of it, broken
links, loops and files that are not regular files are skipped and named with the reason. A file is read only if
it is still the file found (same device and inode), so swapping it for a link meanwhile gains nothing.
"""

from __future__ import annotations

import array
import contextlib
import hashlib
import json
import os
import sqlite3
import stat
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from quotebound.agent.core.contracts import check_source_id
from quotebound.agent.core.errors import CallerError, ErrorCode, OperatorError, QuoteboundError
from quotebound.tools.chunking import Chunk, chunk_pages
from quotebound.tools.readers import MEDIA_TYPES, ReadDocument, read_document
from quotebound.tools.sidecars import SourceMetadata, is_sidecar, load_metadata, sidecar_for
from quotebound.tools.store import Store

ProgressFn = Callable[[int, int, str], None]

#: Chunks embedded (and their vectors written) per batch: bounds the memory a large file's vectors take.
EMBED_BATCH = 256

# Why a path was not read (the reasons `IngestReport.skip_reasons` holds).
SKIP_LINK_OUTSIDE = "link outside the folder"
SKIP_BROKEN_LINK = "broken link"
SKIP_LOOP = "link to a folder already read (a loop, or a second name for it)"
SKIP_HIDDEN = "hidden (name starts with '.')"
SKIP_SIDECAR = "sidecar (metadata, never a source)"
SKIP_SPECIAL = "not a regular file (a device, pipe or socket)"


def skip_unsupported(suffix: str) -> str:
    return f"unsupported file type {suffix or '(none)'!r}; .txt, .md, .markdown and .pdf are sources"


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    chunks: int = 0
    skip_reasons: dict[str, str] = field(default_factory=dict)

    @property
    def ingested(self) -> int:
        """Files now in the store from this run: added, updated or already there unchanged."""
        return len(self.added) + len(self.updated) + len(self.unchanged)

    @property
    def ok(self) -> bool:
        """Nothing failed and something was ingested (a run that finds nothing to ingest is not ok)."""
        return not self.failed and self.ingested > 0

    def skip(self, name: str, reason: str) -> None:
        self.skipped.append(name)
        self.skip_reasons[name] = reason

    def fail(self, path: str, why: str) -> None:
        self.failed.append((path, one_line(why)))


def one_line(text: str) -> str:
    """`text` on one line: control characters (a newline or BEL in a file name) shown escaped (`\\n`, `\\x07`)."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


@dataclass(frozen=True)
class Candidate:
    path: Path
    source_id: str
    within: Path | None = None  # the resolved folder its sidecar must resolve into
    identity: tuple[int, int] | None = None  # (device, inode) of the file found
    target: Path | None = None  # what `path` resolves to, when it is a link
    # A link inside a folder: its metadata (policy label) is its target's sidecar, so linking a restricted file
    # under another name never makes it public.
    metadata_from_target: bool = False


@dataclass
class Discovery:
    found: list[Candidate] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    missing: list[tuple[str, str]] = field(default_factory=list)


def source_id_problem(source_id: str) -> str | None:
    """Why `source_id` (a path relative to the folder given) cannot be cited, or None when it can."""
    try:
        check_source_id(source_id)
    except ValueError:
        pass
    else:
        return None
    bad = sorted({ch for ch in source_id if ch in "#\\" or ord(ch) < 0x20})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        return f"its name cannot be cited (holds {shown}: '#', '\\' and control characters are not allowed); rename it"
    if len(source_id) > 512:
        return f"its path is {len(source_id)} characters; a source id is at most 512: move it up or shorten it"
    return "its name cannot be cited (it reads as a pinned version '@vN' or a path escape); rename it"


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def _walk(given: Path, discovery: Discovery) -> None:
    """Every file under the folder `given`, links followed only inside it, each folder read once."""
    root = given.resolve(strict=True)
    visited = {_identity(root.stat())}
    queue: deque[tuple[Path, str]] = deque([(root, "")])
    links: deque[tuple[Path, str]] = deque()  # links to folders inside the root: read after the real folders
    found: list[Candidate] = []
    while queue or links:
        if not queue:
            folder_target, relative = links.popleft()
            try:
                key = _identity(folder_target.stat())
            except OSError:
                discovery.skipped.append((relative, SKIP_BROKEN_LINK))
                continue
            if key in visited:
                discovery.skipped.append((relative, SKIP_LOOP))
                continue
            visited.add(key)
            queue.append((folder_target, relative + "/"))
            continue
        folder, prefix = queue.popleft()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as exc:
            discovery.missing.append((str(given / prefix), f"folder cannot be read ({exc.strerror or exc})"))
            continue
        for entry in entries:
            relative = prefix + entry.name
            if entry.name.startswith("."):
                discovery.skipped.append((relative, SKIP_HIDDEN))
                continue
            target: Path | None = None  # where a link leads
            try:
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISLNK(info.st_mode):
                    target = Path(entry.path).resolve(strict=True)
                    if not target.is_relative_to(root):
                        discovery.skipped.append((relative, SKIP_LINK_OUTSIDE))
                        continue
                    info = target.stat()
                    if stat.S_ISDIR(info.st_mode):
                        links.append((target, relative))
                        continue
                elif stat.S_ISDIR(info.st_mode):
                    key = _identity(info)
                    if key in visited:  # a bind mount of a folder already read
                        discovery.skipped.append((relative, SKIP_LOOP))
                        continue
                    visited.add(key)
                    queue.append((Path(entry.path), relative + "/"))
                    continue
            except RuntimeError:  # Python 3.11's resolve() on a symlink loop
                discovery.skipped.append((relative, SKIP_LOOP))
                continue
            except OSError as exc:
                if target is None and entry.is_symlink():
                    discovery.skipped.append((relative, SKIP_BROKEN_LINK))
                else:
                    discovery.missing.append((str(given / relative), f"cannot be read ({exc.strerror or exc})"))
                continue
            if not stat.S_ISREG(info.st_mode):
                discovery.skipped.append((relative, SKIP_SPECIAL))
            elif is_sidecar(Path(entry.name)):
                discovery.skipped.append((relative, SKIP_SIDECAR))
            elif Path(entry.name).suffix.lower() not in MEDIA_TYPES:
                discovery.skipped.append((relative, skip_unsupported(Path(entry.name).suffix)))
            else:
                found.append(
                    Candidate(
                        given / relative,
                        relative,
                        within=root,
                        identity=_identity(info),
                        target=target,
                        metadata_from_target=target is not None,
                    )
                )
    discovery.found.extend(sorted(found, key=lambda candidate: candidate.source_id))


def discover(paths: Iterable[Path]) -> Discovery:
    """Files to ingest with their source ids, paths skipped (with why) and paths missing or unreadable."""
    discovery = Discovery()
    for given in paths:
        try:
            if given.is_dir():
                _walk(given, discovery)
            elif given.is_file():
                # A file named on the command line is read wherever it (or the link named) is; its sidecar
                # must sit in the same folder.
                target = given.resolve(strict=True)
                within = given.absolute().parent.resolve()
                discovery.found.append(
                    Candidate(given, given.name, within=within, identity=_identity(target.stat()), target=target)
                )
            elif given.exists() or given.is_symlink():
                what = "broken link" if given.is_symlink() and not given.exists() else "not a regular file"
                discovery.missing.append((str(given), what))
            else:
                discovery.missing.append((str(given), "no such file or folder"))
        except (OSError, RuntimeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            discovery.missing.append((str(given), f"cannot be read ({reason})"))
    return discovery


def _metadata_hash(doc: ReadDocument, metadata: SourceMetadata) -> str:
    blob = json.dumps({"meta": metadata.model_dump(), "media_type": doc.media_type}, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class Ingestor:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.settings = store.settings.retrieval

    def ingest(
        self, paths: Iterable[Path], *, label: str | None = None, progress: ProgressFn | None = None
    ) -> IngestReport:
        discovery = discover(paths)
        report = IngestReport()
        for name, reason in discovery.skipped:
            report.skip(name, reason)
        for path, why in discovery.missing:
            report.fail(path, why)
        candidates = discovery.found
        counts: dict[str, int] = {}
        for candidate in candidates:
            counts[candidate.source_id] = counts.get(candidate.source_id, 0) + 1
        for index, candidate in enumerate(candidates, start=1):
            if progress is not None:
                progress(index, len(candidates), one_line(candidate.source_id))
            if counts[candidate.source_id] > 1:
                report.fail(str(candidate.path), "two files given with the same source_id")
                continue
            problem = source_id_problem(candidate.source_id)
            if problem is not None:
                report.fail(str(candidate.path), problem)
                continue
            try:
                outcome, n_chunks = self.ingest_file(candidate, label=label)
            except QuoteboundError as exc:
                report.fail(str(candidate.path), exc.message.removeprefix(f"{candidate.path}: "))
                continue
            except OSError as exc:  # e.g. a name too long for the file system, a file gone meanwhile
                report.fail(str(candidate.path), f"cannot be read ({exc.strerror or type(exc).__name__})")
                continue
            except MemoryError:
                report.fail(str(candidate.path), "too large to ingest in the memory available")
                continue
            report.chunks += n_chunks
            getattr(report, outcome).append(candidate.source_id)
        return report

    def ingest_file(self, candidate: Candidate, *, label: str | None = None) -> tuple[str, int]:
        """Ingest one file; returns ('added' | 'updated' | 'unchanged', chunks written)."""
        problem = source_id_problem(candidate.source_id)
        if problem is not None:
            raise CallerError(ErrorCode.UNREADABLE_FILE, f"{candidate.path}: {problem}")
        doc = read_document(
            candidate.path,
            max_line_chars=self.settings.max_line_chars,
            target=candidate.target,
            expected=candidate.identity,
        )
        metadata = self._metadata(candidate, label)
        content_hash, md5 = doc.digests()
        metadata_hash = _metadata_hash(doc, metadata)
        source_id = candidate.source_id
        row = self.store.db.execute(
            "SELECT version, content_hash, metadata_hash FROM sources WHERE source_id = ? AND current = 1",
            (source_id,),
        ).fetchone()
        if row is not None and row[1] == content_hash and row[2] == metadata_hash:
            return "unchanged", 0
        chunks = chunk_pages(
            doc.pages, max_lines=self.settings.chunk_max_lines, max_chars=self.settings.chunk_max_chars
        )
        if not chunks:
            raise CallerError(ErrorCode.UNREADABLE_FILE, f"{candidate.path}: no text to index")
        # Embed before the transaction: the slow part must not hold the write lock, and a failure here
        # leaves nothing written. Vectors wait in a temporary file as float32, a batch at a time, so a file of
        # 100,000 chunks holds one batch of vectors in memory, not gigabytes of Python floats.
        with tempfile.TemporaryFile(prefix="quotebound-vectors-") as spool:
            dim = self._embed(chunks, spool)
            self.store.record_embedder()
            version = 1 if row is None else self._next_version(source_id)
            with self.store.transaction() as db:
                old_ids = self._retire(db, source_id)
                self._write_version(db, source_id, version, doc, metadata, content_hash, metadata_hash, md5, chunks)
                new_ids = self._write_chunks(db, source_id, version, chunks)
                # Inside the transaction: if the vector store fails, the SQLite side rolls back with it.
                self._write_vectors(source_id, version, chunks, new_ids, spool, dim)
        if old_ids:
            # Stale vectors would only point at retired chunks, which retrieval drops; delete them anyway.
            self.store.vectors.delete(old_ids)
        return ("added" if row is None else "updated"), len(chunks)

    @staticmethod
    def _metadata(candidate: Candidate, label: str | None) -> SourceMetadata:
        if not (candidate.metadata_from_target and candidate.target is not None):
            return load_metadata(candidate.path, label=label, within=candidate.within)
        own = sidecar_for(candidate.path)
        if own is not None:
            raise CallerError(
                ErrorCode.UNREADABLE_FILE,
                f"{candidate.path}: a link takes the metadata of the file it points to "
                f"({candidate.target.name}); remove its own sidecar {own.name}",
            )
        return load_metadata(candidate.target, label=label, within=candidate.within)

    def _embed(self, chunks: list[Chunk], spool: BinaryIO) -> int:
        """Embed `chunks` a batch at a time into `spool` (float32, in order); returns the dimension."""
        embedder = self.store.embedder
        for start in range(0, len(chunks), EMBED_BATCH):
            batch = chunks[start : start + EMBED_BATCH]
            flat: array.array[float] = array.array("f")
            for vector in embedder.embed([chunk.indexed_text for chunk in batch]):
                if len(vector) != embedder.dim:
                    raise OperatorError(
                        ErrorCode.MISCONFIGURED,
                        f"embedder {embedder.name} returned {len(vector)} values, not {embedder.dim}",
                    )
                flat.extend(vector)
            flat.tofile(spool)
        return embedder.dim

    def _write_vectors(
        self, source_id: str, version: int, chunks: list[Chunk], ids: list[int], spool: BinaryIO, dim: int
    ) -> None:
        spool.seek(0)
        written: list[int] = []
        try:
            for start in range(0, len(chunks), EMBED_BATCH):
                batch_ids = ids[start : start + EMBED_BATCH]
                flat: array.array[float] = array.array("f")
                flat.fromfile(spool, len(batch_ids) * dim)
                vectors = [flat[i * dim : (i + 1) * dim].tolist() for i in range(len(batch_ids))]
                payloads: list[dict[str, object]] = [
                    {"source_id": source_id, "version": version, "locator": chunk.locator}
                    for chunk in chunks[start : start + EMBED_BATCH]
                ]
                self.store.vectors.upsert(batch_ids, vectors, payloads)
                written.extend(batch_ids)
        except BaseException:
            # The SQLite side rolls back and may hand these chunk ids out again: their vectors must go too.
            # If the index is down, the original error is the one to report; the retriever's vector-count
            # check reports the store out of step.
            with contextlib.suppress(QuoteboundError):
                self.store.vectors.delete(written)
            raise

    def _next_version(self, source_id: str) -> int:
        row = self.store.db.execute("SELECT MAX(version) FROM sources WHERE source_id = ?", (source_id,)).fetchone()
        return int(row[0] or 0) + 1

    @staticmethod
    def _retire(db: sqlite3.Connection, source_id: str) -> list[int]:
        old = db.execute(
            "SELECT chunk_id, text FROM chunks WHERE source_id = ? AND current = 1", (source_id,)
        ).fetchall()
        for chunk_id, text in old:
            db.execute("INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', ?, ?)", (chunk_id, text))
        db.execute("UPDATE chunks SET current = 0 WHERE source_id = ? AND current = 1", (source_id,))
        db.execute("UPDATE sources SET current = 0 WHERE source_id = ? AND current = 1", (source_id,))
        return [int(chunk_id) for chunk_id, _ in old]

    @staticmethod
    def _write_version(
        db: sqlite3.Connection,
        source_id: str,
        version: int,
        doc: ReadDocument,
        metadata: SourceMetadata,
        content_hash: str,
        metadata_hash: str,
        md5: str,
        chunks: list[Chunk],
    ) -> None:
        now = datetime.now(UTC).isoformat()
        db.execute(
            "INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
            (
                source_id, version, content_hash, metadata_hash, doc.media_type, doc.title,
                metadata.policy_label, metadata.license, metadata.attribution, metadata.provenance_kind,
                len(doc.pages), doc.n_lines, now,
            ),
        )  # fmt: skip
        db.executemany(
            "INSERT INTO lines VALUES (?, ?, ?, ?, ?)",
            _line_rows(source_id, version, doc.pages),
        )
        db.execute(
            "INSERT INTO source_locator_index VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                source_id, version, json.dumps([c.locator for c in chunks]),
                json.dumps([len(page) for page in doc.pages]), metadata.provenance_kind, md5, now,
            ),
        )  # fmt: skip

    @staticmethod
    def _write_chunks(db: sqlite3.Connection, source_id: str, version: int, chunks: list[Chunk]) -> list[int]:
        ids: list[int] = []
        for chunk in chunks:
            indexed = chunk.indexed_text
            cursor = db.execute(
                "INSERT INTO chunks (source_id, version, page, line_start, line_end, text, current) "
                "VALUES (?, ?, ?, ?, ?, ?, 1)",
                (source_id, version, chunk.page, chunk.line_start, chunk.line_end, indexed),
            )
            chunk_id = int(cursor.lastrowid or 0)
            db.execute("INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)", (chunk_id, indexed))
            ids.append(chunk_id)
        return ids


def _line_rows(source_id: str, version: int, pages: list[list[str]]) -> Iterator[tuple[str, int, int, int, str]]:
    for page_no, lines in enumerate(pages, start=1):
        for line_no, line in enumerate(lines, start=1):
            yield source_id, version, page_no, line_no, line
