"""The store: one folder holding the locator index (SQLite, with FTS5) and the vector index (Qdrant).

Layout of `DIR/`:
- `index.sqlite`: sources and their versions, every line of every version, the locator index (what
  makes a cited locator checkable), retrieval chunks and their FTS5 (BM25) index, and a manifest (`meta`),
  which also records the store's audit ledger: its id and last tip (`ledger`; agent/audit/identity.py).
- `qdrant/`: the embedded Qdrant collection (unless a Qdrant server URL is configured).
- `cache/`: files assembled from installed wheels (the embedding model folder).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.core.settings import Settings
from quotebound.agent.core.storage_errors import is_environmental, storage_error
from quotebound.tools.embedders import Embedder, make_embedder
from quotebound.tools.vectors import VectorIndex

STORE_SCHEMA_VERSION = "1"
_LEDGER_KEY = "ledger"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources (
    source_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    metadata_hash TEXT NOT NULL,
    media_type TEXT NOT NULL,
    title TEXT NOT NULL,
    policy_label TEXT NOT NULL,
    license TEXT,
    attribution TEXT,
    provenance_kind TEXT NOT NULL,
    n_pages INTEGER NOT NULL,
    n_lines INTEGER NOT NULL,
    ingested_at TEXT NOT NULL,
    current INTEGER NOT NULL,
    PRIMARY KEY (source_id, version)
);
CREATE INDEX IF NOT EXISTS sources_current ON sources (current, source_id);
CREATE TABLE IF NOT EXISTS lines (
    source_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    page INTEGER NOT NULL,
    line_no INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (source_id, version, page, line_no)
) WITHOUT ROWID;
-- Per source version, its chunk locators and the line count of every page, so that any
-- `p.<page> L<a>-L<b>` inside a page is a real locator and anything else is not.
CREATE TABLE IF NOT EXISTS source_locator_index (
    source_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    locators TEXT NOT NULL,
    page_lines TEXT NOT NULL,
    provenance_kind TEXT NOT NULL DEFAULT 'unknown',
    md5 TEXT NOT NULL,
    ingest_ts TEXT NOT NULL,
    PRIMARY KEY (source_id, version)
);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id INTEGER PRIMARY KEY,
    source_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    page INTEGER NOT NULL,
    line_start INTEGER NOT NULL,
    line_end INTEGER NOT NULL,
    text TEXT NOT NULL,
    current INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_source ON chunks (source_id, version);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    text, content='chunks', content_rowid='chunk_id', tokenize='unicode61 remove_diacritics 2'
);
"""


class Store:
    """Opens (or creates) a store folder. One `Store` per folder per process: Qdrant's local mode locks it."""

    def __init__(self, settings: Settings, *, create: bool = False, embedder: Embedder | None = None) -> None:
        self.settings = settings
        self.root = Path(settings.store)
        self.db_path = self.root / "index.sqlite"
        if not self.db_path.exists() and not create:
            raise OperatorError(
                ErrorCode.STORE_UNAVAILABLE,
                f"no store at {self.root}: run `quotebound ingest PATH --store {self.root}` first",
            )
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise storage_error(exc, self.root, "the store folder") from exc
        self.lock = threading.RLock()
        self._embedder = embedder
        self._vectors: VectorIndex | None = None
        try:
            self.db = sqlite3.connect(self.db_path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise storage_error(exc, self.db_path, "the locator index") from exc
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(_SCHEMA)
            self._check_manifest()
        except BaseException as exc:
            self.db.close()
            if isinstance(exc, sqlite3.Error):  # read-only, full, corrupt ...: say which, and where
                raise storage_error(exc, self.db_path, "the locator index") from exc
            raise

    # --- manifest --------------------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _check_manifest(self) -> None:
        with self.lock:
            version = self.meta("schema_version")
            if version is None:
                self.db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (STORE_SCHEMA_VERSION,))
            elif version != STORE_SCHEMA_VERSION:
                raise OperatorError(
                    ErrorCode.MISCONFIGURED,
                    f"store {self.root} has schema {version}; this quotebound reads {STORE_SCHEMA_VERSION}",
                )

    # --- the audit ledger's identity (agent/audit/identity.py) -----------------------------------------

    def recorded_ledger(self) -> tuple[str, int, str] | None:
        """The audit ledger this store recorded: (ledger_id, tip seq, tip hash); None before its first receipt."""
        with self.lock:
            value = self.meta(_LEDGER_KEY)
        if value is None:
            return None
        try:
            data = json.loads(value)
            return str(data["id"]), int(data["seq"]), str(data["hash"])
        except (ValueError, KeyError, TypeError) as exc:
            raise OperatorError(
                ErrorCode.STORE_UNAVAILABLE, f"the store {self.root} has an unreadable audit ledger record"
            ) from exc

    def record_ledger(self, ledger_id: str, seq: int, tip_hash: str) -> None:
        """Record the ledger's tip after an append. The first record names the ledger; later ones only move its
        tip forward (appends from several processes may record out of order), and never name another ledger."""
        value = json.dumps({"id": ledger_id, "seq": seq, "hash": tip_hash})
        with self.lock:
            self.db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                " WHERE json_extract(meta.value, '$.id') = json_extract(excluded.value, '$.id')"
                " AND json_extract(meta.value, '$.seq') < json_extract(excluded.value, '$.seq')",
                (_LEDGER_KEY, value),
            )

    # --- embedding and vectors (opened lazily: the tools never need them) ------------------------------

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            with self.lock:  # concurrent runs (the eval harness's threads) must not build it twice
                if self._embedder is None:
                    name = self.meta("embedder_kind") or self.settings.embedder
                    self._embedder = make_embedder(name, self.root / "cache")
        recorded = self.meta("embedder")
        if recorded is not None and recorded != self._embedder.name:
            raise OperatorError(
                ErrorCode.MISCONFIGURED,
                f"store {self.root} was indexed with embedder {recorded!r}, not {self._embedder.name!r}; "
                "re-ingest into a new store to switch embedders",
            )
        return self._embedder

    def record_embedder(self) -> None:
        embedder = self.embedder
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO meta VALUES ('embedder', ?)", (embedder.name,))
            db.execute("INSERT OR IGNORE INTO meta VALUES ('embedder_dim', ?)", (str(embedder.dim),))
            db.execute("INSERT OR IGNORE INTO meta VALUES ('embedder_kind', ?)", (self.settings.embedder,))

    @property
    def vectors(self) -> VectorIndex:
        if self._vectors is None:
            with self.lock:  # two threads opening embedded Qdrant at once: the second finds the folder locked
                if self._vectors is None:
                    self._vectors = self._open_vectors()
        return self._vectors

    def _open_vectors(self) -> VectorIndex:
        dim = self.embedder.dim
        if self.settings.qdrant_url:
            return VectorIndex(dim=dim, url=self.settings.qdrant_url, api_key=self.settings.qdrant_api_key)
        return VectorIndex(dim=dim, path=self.root / "qdrant")

    # --- transactions -----------------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction. A disk that is full or read-only (or an I/O error) becomes a `STORE_UNAVAILABLE`
        saying so, with the path; any other error is raised as it is."""
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield self.db
                except BaseException:
                    if self.db.in_transaction:  # SQLite may already have rolled back (a full disk does)
                        self.db.execute("ROLLBACK")
                    raise
                self.db.execute("COMMIT")
            except sqlite3.Error as exc:
                if is_environmental(exc):
                    raise storage_error(exc, self.db_path, "the locator index") from exc
                raise

    def close(self) -> None:
        if self._vectors is not None:
            self._vectors.close()
            self._vectors = None
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
