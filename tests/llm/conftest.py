"""A real small LLM on loopback for the `llm` tests: SmolLM2-135M-Instruct behind llama-cpp-python's server.

`.ci/llm.sh` installs both (`make test` runs it). Without them the tests skip with the install hint, unless
`--require-llm` is given (as `make test` does), which turns a missing model into a failure: CI never skips them.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.models.local_llm import INSTALL_HINT, llama_server, smollm2_gguf_path

LOG_DIR = Path(__file__).resolve().parents[2] / ".ci" / "logs"


@pytest.fixture(scope="session")
def smollm2_base_url(request: pytest.FixtureRequest) -> Iterator[str]:
    try:
        model_path = smollm2_gguf_path()
        if importlib.util.find_spec("llama_cpp") is None:
            raise OperatorError(ErrorCode.MISCONFIGURED, f"llama-cpp-python is not installed: {INSTALL_HINT}")
    except OperatorError as exc:
        if request.config.getoption("--require-llm"):
            pytest.fail(f"--require-llm: {exc}")
        pytest.skip(str(exc))
    # 8192 is SmolLM2's trained context: the packed evidence (3,000 tokens) plus tool results fit in it.
    with llama_server(model_path, ctx=8192, timeout_s=180, log_dir=LOG_DIR) as url:
        yield url
