# Every target installs what it needs into .venv first, so each one works on a fresh clone.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STORE ?= .quotebound

.PHONY: install demo lint typecheck test eval bench clean

$(BIN)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade "pip>=24"
	$(BIN)/pip install -q -c constraints.txt -e '.[test]'
	touch $@

install: $(BIN)/.installed

# The main job on the bundled example corpus, with the embedded defaults: no server, no API key, no network.
demo: install
	$(BIN)/quotebound ingest examples/hoa --store $(STORE)
	$(BIN)/quotebound sources --store $(STORE)
	$(BIN)/quotebound search "monthly assessment per unit" --store $(STORE) --top-k 3
	$(BIN)/quotebound tool search_source '{"source_id": "budget-2025.md", "pattern": "assessment", "top_n": 3}' --store $(STORE)
	$(BIN)/quotebound tool calc '{"expr": "325.00 * 12"}' --store $(STORE)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: install
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python benchmarks/bench_corpus.py

clean:
	rm -rf $(VENV) $(STORE) build *.egg-info
