"""Read access to ingested sources: versions, lines, locator membership, lexical search.

Everything here returns the exact stored text; nothing summarizes. Policy is not applied here: the tools
(`quote_fetch`, `search_source`, `resolve_evidence`) apply it before anything reaches a caller or a model.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from quotebound.agent.core.contracts import Locator, Source, check_source_id
from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.tools.store import Store

log = logging.getLogger(__name__)

# Words too common to help BM25; numbers and section tokens are never dropped.
_STOPWORDS = frozenset(
    """a an and are as at be by can do does for from has have how i in is it its me my of on or our should that
    the their there this to was we were what when where which who why will with you your""".split()
)
_QUERY_TOKEN = re.compile(r"\d+(?:[.,:/-]\d+)*%?|[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)


@functools.cache
def _citable(source_id: str) -> bool:
    """Whether a stored source id can be cited. Ingest refuses ids that cannot; a store written by an older
    quotebound may hold some (`a#b.md`): retrieval leaves them out, once warned, rather than point at them."""
    try:
        check_source_id(source_id)
    except ValueError:
        log.warning("source %r cannot be cited (its name); retrieval leaves it out: rename it and re-ingest", source_id)
        return False
    return True


@dataclass(frozen=True)
class ChunkPointer:
    chunk_id: int
    source_id: str
    version: int
    locator: str


def query_terms(text: str) -> list[tuple[str, ...]]:
    """The question's content words as FTS5 reads them: each a phrase of lower-case word parts ("1,200" → 1 200)."""
    terms: list[tuple[str, ...]] = []
    for token in _QUERY_TOKEN.findall(text):
        lowered = token.lower()
        if lowered in _STOPWORDS or (len(lowered) < 2 and not lowered.isdigit()):
            continue
        phrase = tuple(re.findall(r"\w+", lowered))
        if phrase and phrase not in terms:
            terms.append(phrase)
    return terms


def mentions(text: str, term: tuple[str, ...]) -> bool:
    """Whether `text` holds the phrase `term` word for word (FTS5's phrase match, approximately)."""
    words = re.findall(r"\w+", text.lower())
    n = len(term)
    return any(tuple(words[i : i + n]) == term for i in range(len(words) - n + 1))


def fts_query(text: str) -> str | None:
    """An FTS5 query ORing the question's content words; numbers become exact phrases ("1,200" → "1 200")."""
    terms = ['"' + " ".join(term) + '"' for term in query_terms(text)]
    return " OR ".join(terms) if terms else None


class Corpus:
    """The read side of a store."""

    _MEMO_LIMIT = 4096

    def __init__(self, store: Store) -> None:
        self.store = store
        # Values derived from immutable source versions under one caller's obligations (see ToolContext), shared
        # by the runs of one agent. Keys carry the versions and content hashes they depend on.
        self.memo: dict[tuple[object, ...], Any] = {}

    def remember(self, key: tuple[object, ...], value: Any) -> None:
        if len(self.memo) >= self._MEMO_LIMIT:
            self.memo.clear()  # many distinct callers: start over rather than grow without bound
        self.memo[key] = value

    def _rows(self, sql: str, params: Iterable[object] = ()) -> list[tuple[object, ...]]:
        """Rows of a query; a failing or corrupt locator index is an operator fault, never a raw sqlite3 error."""
        try:
            with self.store.lock:
                return list(self.store.db.execute(sql, tuple(params)).fetchall())
        except sqlite3.Error as exc:
            raise OperatorError(
                ErrorCode.RETRIEVAL_UNAVAILABLE, f"the locator index {self.store.db_path} could not be read: {exc}"
            ) from exc

    @staticmethod
    def _json_list(raw: object, item: type[int] | type[str], what: str) -> list[Any]:
        """A JSON list stored in the locator index; anything else means the index is corrupt (an operator fault)."""
        try:
            values = json.loads(str(raw))
        except ValueError:
            values = None
        if not isinstance(values, list) or not all(type(v) is item for v in values):
            raise OperatorError(ErrorCode.RETRIEVAL_UNAVAILABLE, f"the locator index holds a corrupt {what} entry")
        return values

    # --- sources ----------------------------------------------------------------------------------------

    _SOURCE_COLUMNS = (
        "source_id, version, content_hash, media_type, title, policy_label, license, attribution, "
        "provenance_kind, n_pages, n_lines, ingested_at, current"
    )

    @staticmethod
    def _source(row: tuple[object, ...]) -> Source:
        keys = [name.strip() for name in Corpus._SOURCE_COLUMNS.split(",")]
        data = dict(zip(keys, row, strict=True))
        data["ingested_at"] = datetime.fromisoformat(str(data["ingested_at"]))
        data["current"] = bool(data["current"])
        return Source.model_validate(data)

    def source(self, source_id: str, version: int | None = None) -> Source | None:
        """The current version of a source (or the given version), None if there is none."""
        if version is None:
            rows = self._rows(
                f"SELECT {self._SOURCE_COLUMNS} FROM sources WHERE source_id = ? AND current = 1", (source_id,)
            )
        else:
            rows = self._rows(
                f"SELECT {self._SOURCE_COLUMNS} FROM sources WHERE source_id = ? AND version = ?",
                (source_id, version),
            )
        return self._source(rows[0]) if rows else None

    def sources(self, *, include_old: bool = False) -> list[Source]:
        where = "" if include_old else "WHERE current = 1"
        rows = self._rows(f"SELECT {self._SOURCE_COLUMNS} FROM sources {where} ORDER BY source_id, version")
        return [self._source(row) for row in rows]

    # --- locators and lines -----------------------------------------------------------------------------

    def page_lines(self, source_id: str, version: int) -> list[int]:
        rows = self._rows(
            "SELECT page_lines FROM source_locator_index WHERE source_id = ? AND version = ?",
            (source_id, version),
        )
        return self._json_list(rows[0][0], int, "page_lines") if rows else []

    def chunk_locators(self, source_id: str, version: int) -> list[str]:
        rows = self._rows(
            "SELECT locators FROM source_locator_index WHERE source_id = ? AND version = ?",
            (source_id, version),
        )
        return self._json_list(rows[0][0], str, "locators") if rows else []

    def locator_exists(self, source_id: str, locator: str, version: int | None = None) -> bool:
        """Membership in the locator index: a well-formed span inside one page of that source version."""
        try:
            span = Locator.parse(locator)
        except ValueError:
            return False
        source = self.source(source_id, version)
        if source is None:
            return False
        pages = self.page_lines(source_id, source.version)
        return span.page <= len(pages) and span.line_end <= pages[span.page - 1]

    def current_chunk_count(self) -> int:
        rows = self._rows("SELECT COUNT(*) FROM chunks WHERE current = 1")
        return int(str(rows[0][0]))

    def lines(self, source_id: str, version: int, locator: Locator) -> list[str]:
        """The lines of a span the locator index holds (callers check `locator_exists` first)."""
        rows = self._rows(
            "SELECT text FROM lines WHERE source_id = ? AND version = ? AND page = ? AND line_no BETWEEN ? AND ? "
            "ORDER BY line_no",
            (source_id, version, locator.page, locator.line_start, locator.line_end),
        )
        if len(rows) != locator.line_end - locator.line_start + 1:
            # The locator index promises these lines; an empty or short answer means the lines table lost them.
            raise OperatorError(ErrorCode.RETRIEVAL_UNAVAILABLE, "the lines table disagrees with the locator index")
        return [str(row[0]) for row in rows]

    def text_at(self, source_id: str, version: int, locator: Locator) -> str:
        return "\n".join(self.lines(source_id, version, locator))

    def iter_lines(self, source_id: str, version: int) -> Iterator[tuple[int, int, str]]:
        """(page, line_no, text) of every line of a source version, in reading order."""
        rows = self._rows(
            "SELECT page, line_no, text FROM lines WHERE source_id = ? AND version = ? ORDER BY page, line_no",
            (source_id, version),
        )
        for page, line_no, text in rows:
            yield int(str(page)), int(str(line_no)), str(text)

    # --- chunks and lexical search ------------------------------------------------------------------------

    def chunk_pointers(self, chunk_ids: Iterable[int]) -> dict[int, ChunkPointer]:
        """Pointers for the given chunk ids that belong to a *current* source version."""
        ids = list(dict.fromkeys(chunk_ids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._rows(
            f"SELECT chunk_id, source_id, version, page, line_start, line_end FROM chunks "
            f"WHERE current = 1 AND chunk_id IN ({marks})",
            ids,
        )
        pointers: dict[int, ChunkPointer] = {}
        for chunk_id, source_id, version, page, start, end in rows:
            if not _citable(str(source_id)):
                continue
            locator = f"p.{page} L{start}-L{end}"
            cid = int(str(chunk_id))
            pointers[cid] = ChunkPointer(cid, str(source_id), int(str(version)), locator)
        return pointers

    def source_chunks(self, source_id: str, version: int) -> list[ChunkPointer]:
        rows = self._rows(
            "SELECT chunk_id, page, line_start, line_end FROM chunks WHERE source_id = ? AND version = ? "
            "ORDER BY chunk_id",
            (source_id, version),
        )
        return [
            ChunkPointer(int(str(cid)), source_id, version, f"p.{page} L{start}-L{end}")
            for cid, page, start, end in rows
        ]

    def chunk_texts(self, chunk_ids: Iterable[int]) -> dict[int, str]:
        ids = list(dict.fromkeys(chunk_ids))
        if not ids:
            return {}
        rows = self._rows(f"SELECT chunk_id, text FROM chunks WHERE chunk_id IN ({','.join('?' * len(ids))})", ids)
        return {int(str(chunk_id)): str(text) for chunk_id, text in rows}

    def lexical_search(self, query: str, limit: int) -> list[tuple[int, float]]:
        """(chunk id, BM25 score: higher is better) of current chunks matching the question's words."""
        match = fts_query(query)
        if match is None:
            return []
        rows = self._rows(
            "SELECT rowid, bm25(chunks_fts) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?",
            (match, limit),
        )
        return [(int(str(rowid)), -float(str(score))) for rowid, score in rows]
