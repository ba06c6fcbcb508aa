"""The dense vector index: one Qdrant collection of (integer id, vector, payload) with cosine distance.

Two backends behind one class:

- `path=...`: qdrant-client's embedded local mode, a folder on disk, no server. It is an exact (brute-force)
  search held in memory, fine up to some 20,000 points; past that it gets slow and memory-hungry, and
  qdrant-client warns about it. Only one process (one `VectorIndex`) may open a folder at a time.
- `url=...`: a Qdrant server (`QUOTEBOUND_QDRANT_URL`), for larger corpora and concurrent readers.

Queries take no payload filter: in local mode a filter is evaluated in Python point by point, so callers take
`limit` candidates and filter them against their own tables.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final, Self

from quotebound.agent.core.errors import ErrorCode, OperatorError

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

log = logging.getLogger(__name__)

#: qdrant-client's own threshold (QdrantLocal.LARGE_DATA_THRESHOLD) for its "local mode is not recommended"
#: warning.
LOCAL_MODE_SOFT_LIMIT: Final = 20_000
_LARGE_WARNING: Final = r"Local mode is not recommended"
_UPSERT_BATCH: Final = 256  # points per request: keeps a server request well under its body size limit


@contextlib.contextmanager
def _quiet_local_size_warning() -> Iterator[None]:
    # qdrant-client warns (UserWarning) on open and on upsert past 20,000 local points; under
    # `filterwarnings=error` that would turn a working index into a crash. We log it once ourselves instead.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_LARGE_WARNING, category=UserWarning)
        yield


def _close_leaked_lock_file(exc: BaseException) -> None:
    """Close the `.lock` file a failed `QdrantLocal` left open.

    QdrantLocal opens `<path>/.lock` and then raises without closing it when another client holds the lock;
    the garbage collector would close it later with a ResourceWarning (an error under `filterwarnings=error`).
    The half-built object is only reachable from the traceback's frames.
    """
    tb = exc.__traceback__
    while tb is not None:
        handle = getattr(tb.tb_frame.f_locals.get("self"), "_flock_file", None)
        if handle is not None and not handle.closed:
            handle.close()
        tb = tb.tb_next


class VectorIndex:
    """Cosine-similarity index of integer point ids. See the module docstring for local vs server mode.

    Errors: a folder held by another client → `OperatorError(STORE_UNAVAILABLE)`; an existing collection of
    another dimension → `OperatorError(MISCONFIGURED)`; any backend failure while reading or writing →
    `OperatorError(RETRIEVAL_UNAVAILABLE)`, chained to the qdrant exception. Bad arguments (length mismatch,
    negative id) raise `ValueError`: they are bugs in the caller, not outages.
    """

    def __init__(
        self,
        *,
        dim: int,
        path: Path | None = None,
        url: str | None = None,
        api_key: str | None = None,
        collection: str = "chunks",
    ) -> None:
        if (path is None) == (url is None):
            raise OperatorError(ErrorCode.MISCONFIGURED, "a vector index needs exactly one of a path or a url")
        if dim < 1:
            raise ValueError(f"dim must be positive, got {dim}")
        self.dim = dim
        self.collection = collection
        self.local = path is not None
        self._where = f"local vector store {path}" if path is not None else f"Qdrant server {url}"
        # Local mode is a Python object over SQLite, not safe for concurrent calls; a server client is.
        self._lock: contextlib.AbstractContextManager[object] = (
            threading.Lock() if self.local else contextlib.nullcontext()
        )
        self._warned_large = False
        self._closed = False
        self._client = self._connect(path, url, api_key)
        try:
            self._ensure_collection()
        except BaseException:
            self._client.close()  # release the folder lock: the caller never gets an object to close
            raise
        if self.local:
            self._tune_local_storage()
            self._note_size()

    # -- opening ---------------------------------------------------------------------------------------------

    def _connect(self, path: Path | None, url: str | None, api_key: str | None) -> QdrantClient:
        # Imported here: qdrant-client takes ~2 s to import and only commands touching the index need it.
        from qdrant_client import QdrantClient

        if path is not None:
            try:
                with _quiet_local_size_warning():
                    # check_same_thread off: a server answers from worker threads; self._lock serializes.
                    return QdrantClient(path=str(path), force_disable_check_same_thread=True)
            except RuntimeError as exc:
                _close_leaked_lock_file(exc)
                if "already accessed" in str(exc):
                    raise OperatorError(
                        ErrorCode.STORE_UNAVAILABLE,
                        f"the vector store {path} is in use by another client (another quotebound process, or "
                        "an index still open in this one; local mode allows one at a time): close it, or use a "
                        "Qdrant server (QUOTEBOUND_QDRANT_URL) for shared access",
                    ) from exc
                raise OperatorError(ErrorCode.STORE_UNAVAILABLE, f"cannot open the {self._where}: {exc}") from exc
            except Exception as exc:  # e.g. a corrupt meta.json or SQLite file
                _close_leaked_lock_file(exc)
                raise OperatorError(ErrorCode.STORE_UNAVAILABLE, f"cannot open the {self._where}: {exc}") from exc
        # check_compatibility would probe the server from a background thread and only *warn* on failure;
        # _ensure_collection reaches the server right away and fails loudly instead.
        try:
            return QdrantClient(url=url, api_key=api_key, check_compatibility=False)
        except Exception as exc:
            raise OperatorError(ErrorCode.MISCONFIGURED, f"invalid Qdrant url {url!r}: {exc}") from exc

    def _ensure_collection(self) -> None:
        from qdrant_client import models  # heavy (~2 s): see _connect

        with self._backend("open the collection"):
            if not self._client.collection_exists(self.collection):
                self._client.create_collection(
                    self.collection, vectors_config=models.VectorParams(size=self.dim, distance=models.Distance.COSINE)
                )
                return
            params = self._client.get_collection(self.collection).config.params.vectors
        if not isinstance(params, models.VectorParams):
            raise OperatorError(
                ErrorCode.MISCONFIGURED,
                f"collection {self.collection!r} in the {self._where} uses named vectors; quotebound expects one "
                "unnamed vector per point",
            )
        if params.size != self.dim or params.distance != models.Distance.COSINE:
            raise OperatorError(
                ErrorCode.MISCONFIGURED,
                f"collection {self.collection!r} in the {self._where} holds {params.size}-dimensional "
                f"{params.distance.value} vectors, but the embedder makes {self.dim}-dimensional Cosine ones: "
                "it was built with another embedder; rebuild the store or use that embedder",
            )

    # -- operations ------------------------------------------------------------------------------------------

    def upsert(
        self, ids: Sequence[int], vectors: Sequence[Sequence[float]], payloads: Sequence[dict[str, object]]
    ) -> None:
        """Insert or replace points; `ids`, `vectors` and `payloads` are parallel sequences."""
        from qdrant_client import models  # heavy (~2 s): see _connect

        if not len(ids) == len(vectors) == len(payloads):
            raise ValueError(f"{len(ids)} ids, {len(vectors)} vectors and {len(payloads)} payloads")
        self._check_ids(ids)
        for vector in vectors:
            self._check_vector(vector)
        with self._backend("write vectors"), _quiet_local_size_warning():
            for start in range(0, len(ids), _UPSERT_BATCH):
                end = start + _UPSERT_BATCH
                batch = models.Batch(
                    ids=list(ids[start:end]),
                    vectors=[list(vector) for vector in vectors[start:end]],
                    payloads=list(payloads[start:end]),
                )
                self._client.upsert(self.collection, points=batch, wait=True)
        if self.local:
            self._note_size()

    def delete(self, ids: Sequence[int]) -> None:
        """Remove points; unknown ids are ignored."""
        from qdrant_client import models  # heavy (~2 s): see _connect

        self._check_ids(ids)
        if not ids:
            return
        with self._backend("delete vectors"):
            self._client.delete(self.collection, points_selector=models.PointIdsList(points=list(ids)), wait=True)

    def query(self, vector: Sequence[float], limit: int) -> list[tuple[int, float]]:
        """The `limit` nearest points as (id, cosine similarity), best first."""
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        self._check_vector(vector)
        with self._backend("query vectors"):
            response = self._client.query_points(
                self.collection, query=list(vector), limit=limit, with_payload=False, with_vectors=False
            )
        return [(int(point.id), float(point.score)) for point in response.points]

    def count(self) -> int:
        with self._backend("count vectors"):
            return self._client.count(self.collection, exact=True).count

    def close(self) -> None:
        """Release the client (and, in local mode, the folder lock). Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- helpers ---------------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _backend(self, action: str) -> Iterator[None]:
        """Serialize local calls and turn any backend exception into RETRIEVAL_UNAVAILABLE."""
        if self._closed:
            raise RuntimeError("the vector index is closed")
        with self._lock:
            try:
                yield
            except OperatorError:
                raise
            except Exception as exc:  # qdrant-client raises many types: HTTP, gRPC, SQLite, ValueError...
                raise OperatorError(
                    ErrorCode.RETRIEVAL_UNAVAILABLE, f"{self._where}: could not {action}: {exc}"
                ) from exc

    def _check_vector(self, vector: Sequence[float]) -> None:
        if len(vector) != self.dim:
            raise ValueError(f"vector of length {len(vector)}, the index holds {self.dim}-dimensional vectors")

    @staticmethod
    def _check_ids(ids: Sequence[int]) -> None:
        # Qdrant point ids are unsigned 64-bit integers (or UUIDs, which quotebound does not use).
        for point_id in ids:
            if isinstance(point_id, bool) or not isinstance(point_id, int) or not 0 <= point_id < 2**64:
                raise ValueError(f"point ids must be integers in [0, 2**64), got {point_id!r}")

    def _tune_local_storage(self) -> None:
        """Local mode persists each point in its own SQLite commit (a journal write and fsync per point: ~14 ms
        on a busy disk, 30 minutes for 125,000 chunks). In WAL mode with synchronous=NORMAL a commit is a WAL
        append; the file stays consistent after a crash, and points lost to a power cut leave the index short,
        which the retriever's vector-count check reports. Reaches into qdrant-client's local collection: if its
        layout changes, writes stay correct, only slower."""
        collections = getattr(getattr(self._client, "_client", None), "collections", None)
        collection = collections.get(self.collection) if isinstance(collections, dict) else None
        connection = getattr(getattr(collection, "storage", None), "storage", None)
        if isinstance(connection, sqlite3.Connection):
            with self._lock:
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=NORMAL")

    def _note_size(self) -> None:
        if self._warned_large:
            return
        size = self.count()
        if size > LOCAL_MODE_SOFT_LIMIT:
            self._warned_large = True
            log.warning(
                "the %s holds %d vectors; local mode is an exact in-memory search meant for up to ~%d: use a "
                "Qdrant server (QUOTEBOUND_QDRANT_URL) for a corpus this size",
                self._where,
                size,
                LOCAL_MODE_SOFT_LIMIT,
            )
