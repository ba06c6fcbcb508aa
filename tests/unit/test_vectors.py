"""VectorIndex over qdrant-client's embedded local mode (a server is only exercised as unreachable)."""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.tools import vectors as vectors_module
from quotebound.tools.embedders import HashingEmbedder
from quotebound.tools.vectors import VectorIndex

DIM = 64
EMBED = HashingEmbedder(dim=DIM)
TEXTS = {
    1: "The roof repair assessment is due in June.",
    2: "Dogs must be leashed in common areas.",
    3: "The pool opens on Memorial Day weekend.",
}


def vec(text: str) -> list[float]:
    return EMBED.embed([text])[0]


@pytest.fixture
def index(tmp_path: Path) -> Iterator[VectorIndex]:
    with VectorIndex(dim=DIM, path=tmp_path / "vectors") as opened:
        yield opened


def fill(index: VectorIndex) -> None:
    ids = list(TEXTS)
    index.upsert(ids, EMBED.embed([TEXTS[i] for i in ids]), [{"source": f"s{i}"} for i in ids])


def test_upsert_query_delete_count_round_trip(index: VectorIndex) -> None:
    assert index.count() == 0 and index.query(vec("anything"), 5) == []
    fill(index)
    assert index.count() == 3
    hits = index.query(vec(TEXTS[2]), 3)
    assert hits[0][0] == 2 and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert [score for _, score in hits] == sorted((score for _, score in hits), reverse=True)
    assert len(index.query(vec(TEXTS[2]), 2)) == 2

    index.delete([2, 99])  # unknown ids are ignored
    assert index.count() == 2
    assert 2 not in [point_id for point_id, _ in index.query(vec(TEXTS[2]), 3)]
    index.delete([])


def test_upsert_replaces_an_existing_id(index: VectorIndex) -> None:
    fill(index)
    index.upsert([1], [vec("Quarterly budget vote")], [{"source": "s1"}])
    assert index.count() == 3
    assert index.query(vec("Quarterly budget vote"), 1)[0][0] == 1


def test_reopening_a_path_keeps_the_data(tmp_path: Path) -> None:
    with VectorIndex(dim=DIM, path=tmp_path / "v") as first:
        fill(first)
        before = first.query(vec(TEXTS[3]), 3)
    with VectorIndex(dim=DIM, path=tmp_path / "v") as again:
        assert again.count() == 3
        after = again.query(vec(TEXTS[3]), 3)
    # same ranking; scores agree to float32 precision (vectors come back from disk as float32)
    assert [point_id for point_id, _ in after] == [point_id for point_id, _ in before]
    assert [score for _, score in after] == pytest.approx([score for _, score in before], abs=1e-6)


def test_a_second_client_on_the_same_path_is_refused(tmp_path: Path) -> None:
    first = VectorIndex(dim=DIM, path=tmp_path / "v")
    with pytest.raises(OperatorError) as err:
        VectorIndex(dim=DIM, path=tmp_path / "v")
    assert err.value.code is ErrorCode.STORE_UNAVAILABLE and "in use" in err.value.message
    del err
    gc.collect()  # a lock file the failed client left open would warn (an error here) when collected
    first.close()
    VectorIndex(dim=DIM, path=tmp_path / "v").close()  # the lock went with the first client


def test_dimension_mismatch_is_misconfigured_and_releases_the_folder(tmp_path: Path) -> None:
    VectorIndex(dim=DIM, path=tmp_path / "v").close()
    with pytest.raises(OperatorError) as err:
        VectorIndex(dim=DIM * 2, path=tmp_path / "v")
    assert err.value.code is ErrorCode.MISCONFIGURED
    assert f"{DIM}-dimensional" in err.value.message and f"{DIM * 2}-dimensional" in err.value.message
    VectorIndex(dim=DIM, path=tmp_path / "v").close()


def test_collections_are_separate(tmp_path: Path) -> None:
    with VectorIndex(dim=DIM, path=tmp_path / "v", collection="a") as a:
        fill(a)
    with VectorIndex(dim=DIM * 2, path=tmp_path / "v", collection="b") as b:
        assert b.count() == 0


@pytest.mark.parametrize("where", [{}, {"path": Path("x"), "url": "http://localhost:6333"}])
def test_exactly_one_of_path_and_url(where: dict[str, object]) -> None:
    with pytest.raises(OperatorError) as err:
        VectorIndex(dim=DIM, **where)  # type: ignore[arg-type]
    assert err.value.code is ErrorCode.MISCONFIGURED


def test_unreachable_server_is_retrieval_unavailable() -> None:
    with pytest.raises(OperatorError) as err:
        VectorIndex(dim=DIM, url="http://127.0.0.1:1")
    assert err.value.code is ErrorCode.RETRIEVAL_UNAVAILABLE and err.value.__cause__ is not None


def test_backend_failures_are_retrieval_unavailable(index: VectorIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(index)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    client = index._client
    for method in ("query_points", "upsert", "delete", "count"):
        monkeypatch.setattr(client, method, broken)
    calls = [
        lambda: index.query(vec("x"), 3),
        lambda: index.upsert([7], [vec("x")], [{}]),
        lambda: index.delete([1]),
        index.count,
    ]
    for call in calls:
        with pytest.raises(OperatorError) as err:
            call()
        assert err.value.code is ErrorCode.RETRIEVAL_UNAVAILABLE
        assert isinstance(err.value.__cause__, RuntimeError) and "disk on fire" in err.value.message


def test_caller_bugs_are_value_errors(index: VectorIndex) -> None:
    with pytest.raises(ValueError):
        index.upsert([1, 2], [vec("a")], [{}])
    with pytest.raises(ValueError):
        index.upsert([1], [[0.1] * (DIM + 1)], [{}])
    with pytest.raises(ValueError):
        index.upsert([-1], [vec("a")], [{}])
    with pytest.raises(ValueError):
        index.query(vec("a"), 0)
    with pytest.raises(ValueError):
        index.query([1.0], 3)
    assert index.count() == 0


def test_closed_index(tmp_path: Path) -> None:
    index = VectorIndex(dim=DIM, path=tmp_path / "v")
    index.close()
    index.close()
    with pytest.raises(RuntimeError):
        index.count()


def test_usable_from_another_thread(index: VectorIndex) -> None:
    # local mode's SQLite refuses writes from another thread where SQLite is not serialized (e.g. macOS)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            fill(index)
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert errors == []
    assert index.query(vec(TEXTS[1]), 1) == [(1, pytest.approx(1.0, abs=1e-5))]


def test_large_local_collection_logs_instead_of_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # qdrant-client warns past 20,000 local points; pretend the limit is 2 instead of writing 20,000 points.
    from qdrant_client.common import client_warnings
    from qdrant_client.local.local_collection import LocalCollection
    from qdrant_client.local.qdrant_local import QdrantLocal

    monkeypatch.setattr(LocalCollection, "LARGE_DATA_THRESHOLD", 2)
    monkeypatch.setattr(QdrantLocal, "LARGE_DATA_THRESHOLD", 2)
    monkeypatch.setattr(client_warnings, "SEEN_MESSAGES", set())  # its warn-once memory
    monkeypatch.setattr(vectors_module, "LOCAL_MODE_SOFT_LIMIT", 2)
    with caplog.at_level(logging.WARNING, logger="quotebound.tools.vectors"):
        with VectorIndex(dim=DIM, path=tmp_path / "v") as index:
            fill(index)  # pytest's filterwarnings=error turns any leaked warning into a failure
        with VectorIndex(dim=DIM, path=tmp_path / "v") as index:  # qdrant-client warns again on load
            assert index.count() == 3
    assert sum("QUOTEBOUND_QDRANT_URL" in r.getMessage() for r in caplog.records) == 2
