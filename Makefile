# Every target installs what it needs into .venv first, so each one works on a fresh clone.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STORE ?= .quotebound
EVAL_DIR ?= .eval
GOLDEN := evals/golden/hoa.yaml
BASELINE := evals/golden/hoa.baseline.json
EVAL_RUN = $(BIN)/quotebound eval run $(GOLDEN) --store $(EVAL_DIR)/store --policy examples/hoa/policy.yaml \
	--gate evals/golden/hoa.gate.yaml

.PHONY: install langgraph-venv demo serve lint typecheck test test-fast eval eval-store eval-baseline eval-licenses eval-realdocs2 eval-realdocs3 bench clean

$(BIN)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade "pip>=24"
	$(BIN)/pip install -q -c constraints.txt -e '.[test]'
	touch $@

install: $(BIN)/.installed

# `langgraph dev` in a venv of its own: langgraph-api 0.16 pins jsonschema-rs<0.45, schemathesis (test) >=0.60.
LANGGRAPH_VENV ?= .venv-langgraph
$(LANGGRAPH_VENV)/.installed: pyproject.toml constraints.txt constraints-langgraph.txt
	$(PYTHON) -m venv $(LANGGRAPH_VENV)
	$(LANGGRAPH_VENV)/bin/pip install -q --upgrade "pip>=24"
	$(LANGGRAPH_VENV)/bin/pip install -q -c constraints-langgraph.txt -e '.[langgraph-served]'
	touch $@

langgraph-venv: $(LANGGRAPH_VENV)/.installed

# The main job on the bundled example corpus, with the embedded defaults: no server, no API key, no network.
demo: install
	$(BIN)/quotebound ingest examples/hoa --store $(STORE)
	$(BIN)/quotebound sources --store $(STORE)
	$(BIN)/quotebound ask "What is the minimum lease term?" --store $(STORE)
	$(BIN)/quotebound ask "What is the monthly regular assessment per unit for 2025?" --store $(STORE)
	$(BIN)/quotebound ask "What are the opening hours of the swimming pool?" --store $(STORE)
	$(BIN)/quotebound ask "What's the square footage of my unit?" --store $(STORE) --session demo --json
	$(BIN)/quotebound ask --store $(STORE) --session demo --reply unit=4B

# The HTTP service and its chat page on http://127.0.0.1:8000/ over the demo store (run `make demo` first).
serve: install
	$(BIN)/quotebound serve --store $(STORE) --policy examples/hoa/policy.yaml

# The import package is the repository itself ("quotebound" = "."): the layer and type checks read it through a
# link named quotebound.
TYPECHECK_ROOT := .typecheck
$(TYPECHECK_ROOT)/quotebound:
	mkdir -p $(TYPECHECK_ROOT)
	ln -sfn .. $@

# Style, then the layer order (the import contract in pyproject.toml, docs/architecture.md).
lint: install $(TYPECHECK_ROOT)/quotebound
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	cd $(TYPECHECK_ROOT) && ../$(BIN)/lint-imports --config ../pyproject.toml

# mypy in strict mode over the whole package (pyproject.toml): 0 errors.
typecheck: install $(TYPECHECK_ROOT)/quotebound
	$(BIN)/mypy -p quotebound.agent -p quotebound.tools -p quotebound.graphs -p quotebound.evals -p quotebound.prompts \
		-m quotebound -m quotebound.testing
	MYPYPATH=benchmarks $(BIN)/mypy benchmarks/*.py

# The `llm` tests drive a real 135M model through llama.cpp: .ci/llm.sh installs it (a ~5-minute build, once per
# venv) and --require-llm makes a missing model a failure instead of a skip.
test: lint typecheck langgraph-venv
	bash .ci/llm.sh $(VENV) >/dev/null
	bash .ci/chromium.sh
	QUOTEBOUND_LANGGRAPH_BIN=$(abspath $(LANGGRAPH_VENV))/bin/langgraph $(BIN)/python -m pytest --require-llm
	$(MAKE) eval

# The same suite without the real LLM (its tests skip): the quick loop while developing.
test-fast: install
	$(BIN)/python -m pytest -m "not llm"

# The shipped golden set through the regression gate, against the committed baseline (exit 1 on a regression).
# Reports: $(EVAL_DIR)/report/report.{json,md,html}.
eval: eval-store
	$(EVAL_RUN) --baseline $(BASELINE) --out $(EVAL_DIR)/report

# After an intended change of behaviour: run the set and make its report the new baseline (review the diff).
eval-baseline: eval-store
	$(EVAL_RUN) --out $(EVAL_DIR)/baseline || true
	cp $(EVAL_DIR)/baseline/report.json $(BASELINE)

# The blind golden set over real documents (examples/licenses, no policy file): a measure, not a regression
# check, so no baseline; the default gate (evals/gates/default.yaml) still applies and may fail it.
# Reports: $(EVAL_DIR)/licenses/report/report.{json,md,html}.
eval-licenses: install
	rm -rf $(EVAL_DIR)/licenses/store
	$(BIN)/quotebound ingest examples/licenses --store $(EVAL_DIR)/licenses/store >/dev/null
	$(BIN)/quotebound eval run evals/golden/licenses.yaml --store $(EVAL_DIR)/licenses/store \
		--out $(EVAL_DIR)/licenses/report

# The second blind golden set over real documents (examples/realdocs2: GPL-2, LGPL-2.1, GFDL-1.3 and the
# READMEs of gzip, ed and bc; no policy file): a measure like eval-licenses, no baseline.
# Reports: $(EVAL_DIR)/realdocs2/report/report.{json,md,html}.
eval-realdocs2: install
	rm -rf $(EVAL_DIR)/realdocs2/store
	$(BIN)/quotebound ingest examples/realdocs2 --store $(EVAL_DIR)/realdocs2/store >/dev/null
	$(BIN)/quotebound eval run evals/golden/realdocs2.yaml --store $(EVAL_DIR)/realdocs2/store \
		--out $(EVAL_DIR)/realdocs2/report

eval-realdocs3: install
	rm -rf $(EVAL_DIR)/realdocs3/store
	$(BIN)/quotebound ingest examples/realdocs3 --store $(EVAL_DIR)/realdocs3/store >/dev/null
	$(BIN)/quotebound eval run evals/golden/realdocs3.yaml --store $(EVAL_DIR)/realdocs3/store \
		--out $(EVAL_DIR)/realdocs3/report

eval-store: install
	rm -rf $(EVAL_DIR)/store
	$(BIN)/quotebound ingest examples/hoa --store $(EVAL_DIR)/store >/dev/null

bench: install
	$(BIN)/python benchmarks/bench_gate.py
	$(BIN)/python benchmarks/bench_gate_speed.py
	$(BIN)/python benchmarks/bench_gate_calibration.py
	$(BIN)/python benchmarks/bench_graph.py
	$(BIN)/python benchmarks/bench_corpus.py
	$(BIN)/python benchmarks/bench_eval.py
	$(BIN)/python benchmarks/bench_server.py

clean:
	rm -rf $(VENV) $(LANGGRAPH_VENV) $(STORE) $(EVAL_DIR) $(TYPECHECK_ROOT) build *.egg-info
