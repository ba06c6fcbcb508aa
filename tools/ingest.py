"""Ingest files into a store: lines, the locator index, chunks, FTS5 and vectors, one file per transaction.

Rules: re-ingesting an unchanged file (same text, same metadata) is a no-op; a changed one becomes a new
version and the old version stays resolvable (old receipts still point at it) but leaves retrieval. A file
that cannot be read is reported by name and nothing of it is written; the other files still ingest.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from quotebound.agent.core.errors import CallerError, ErrorCode, QuoteboundError
from quotebound.tools.chunking import Chunk, chunk_pages
from quotebound.tools.readers import MEDIA_TYPES, ReadDocument, read_document
from quotebound.tools.sidecars import SourceMetadata, is_sidecar, load_metadata
from quotebound.tools.store import Store

ProgressFn = Callable[[int, int, str], None]


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    chunks: int = 0

    @property
    def ok(self) -> bool:
        return not self.failed


@dataclass(frozen=True)
class Candidate:
    path: Path
    source_id: str


def discover(paths: Iterable[Path]) -> tuple[list[Candidate], list[str], list[tuple[str, str]]]:
    """Files to ingest with their source ids, files skipped (unsupported, sidecars) and missing paths."""
    found: list[Candidate] = []
    skipped: list[str] = []
    missing: list[tuple[str, str]] = []
    for given in paths:
        if given.is_dir():
            for path in sorted(p for p in given.rglob("*") if p.is_file()):
                relative = path.relative_to(given)
                if any(part.startswith(".") for part in relative.parts):
                    continue
                if is_sidecar(path) or path.suffix.lower() not in MEDIA_TYPES:
                    skipped.append(relative.as_posix())
                    continue
                found.append(Candidate(path, relative.as_posix()))
        elif given.is_file():
            found.append(Candidate(given, given.name))
        else:
            missing.append((str(given), "no such file or folder"))
    return found, skipped, missing


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _metadata_hash(doc: ReadDocument, metadata: SourceMetadata) -> str:
    return _sha256(json.dumps({"meta": metadata.model_dump(), "media_type": doc.media_type}, sort_keys=True))


class Ingestor:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.settings = store.settings.retrieval

    def ingest(
        self, paths: Iterable[Path], *, label: str | None = None, progress: ProgressFn | None = None
    ) -> IngestReport:
        candidates, skipped, missing = discover(paths)
        report = IngestReport(skipped=skipped, failed=list(missing))
        duplicates = {c.source_id for c in candidates if [d.source_id for d in candidates].count(c.source_id) > 1}
        for index, candidate in enumerate(candidates, start=1):
            if progress is not None:
                progress(index, len(candidates), candidate.source_id)
            if candidate.source_id in duplicates:
                report.failed.append((str(candidate.path), "two files given with the same source_id"))
                continue
            try:
                outcome, n_chunks = self.ingest_file(candidate, label=label)
            except QuoteboundError as exc:
                report.failed.append((str(candidate.path), exc.message.removeprefix(f"{candidate.path}: ")))
                continue
            report.chunks += n_chunks
            getattr(report, outcome).append(candidate.source_id)
        return report

    def ingest_file(self, candidate: Candidate, *, label: str | None = None) -> tuple[str, int]:
        """Ingest one file; returns ('added' | 'updated' | 'unchanged', chunks written)."""
        doc = read_document(candidate.path)
        metadata = load_metadata(candidate.path, label=label)
        text = doc.normalized_text()
        content_hash = _sha256(text)
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
        # leaves nothing written.
        embedder = self.store.embedder
        vectors = embedder.embed([chunk.indexed_text for chunk in chunks])
        self.store.record_embedder()
        version = 1 if row is None else self._next_version(source_id)
        with self.store.transaction() as db:
            old_ids = self._retire(db, source_id)
            self._write_version(db, source_id, version, doc, metadata, content_hash, metadata_hash, text, chunks)
            new_ids = self._write_chunks(db, source_id, version, chunks)
            # Inside the transaction: if the vector store fails, the SQLite side rolls back with it.
            self.store.vectors.upsert(
                new_ids,
                vectors,
                [{"source_id": source_id, "version": version, "locator": c.locator} for c in chunks],
            )
        if old_ids:
            # Stale vectors would only point at retired chunks, which retrieval drops; delete them anyway.
            self.store.vectors.delete(old_ids)
        return ("added" if row is None else "updated"), len(chunks)

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
        text: str,
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
                json.dumps([len(page) for page in doc.pages]), metadata.provenance_kind,
                hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest(), now,
            ),
        )  # fmt: skip

    @staticmethod
    def _write_chunks(db: sqlite3.Connection, source_id: str, version: int, chunks: list[Chunk]) -> list[int]:
        ids: list[int] = []
        for chunk in chunks:
            cursor = db.execute(
                "INSERT INTO chunks (source_id, version, page, line_start, line_end, text, current) "
                "VALUES (?, ?, ?, ?, ?, ?, 1)",
                (source_id, version, chunk.page, chunk.line_start, chunk.line_end, chunk.indexed_text),
            )
            chunk_id = int(cursor.lastrowid or 0)
            db.execute("INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)", (chunk_id, chunk.indexed_text))
            ids.append(chunk_id)
        return ids


def _line_rows(source_id: str, version: int, pages: list[list[str]]) -> Iterator[tuple[str, int, int, int, str]]:
    for page_no, lines in enumerate(pages, start=1):
        for line_no, line in enumerate(lines, start=1):
            yield source_id, version, page_no, line_no, line
