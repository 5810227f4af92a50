# Each target sets up .venv itself, so a fresh clone needs nothing but Python 3.11+ and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Test workers: one more than the cores, since many tests wait on a server, a browser or a timer
# (a waiting worker leaves its core to the others).
WORKERS ?= $(shell $(PYTHON) -c "import os; print(len(getattr(os, 'sched_getaffinity', lambda _: range(os.cpu_count() or 1))(0)) + 1)")

.PHONY: run test lint docs bench setup compiled clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[server,dev,train]"
	@touch $(STAMP)

setup: compiled

# The hot modules compiled to C with mypyc (src/bodoge/compiled.py): built in place, again whenever
# their sources change; where no C compiler is at hand the pure-Python modules run, only slower.
compiled: $(STAMP)
	@$(BIN)/bodoge compile || true

run: compiled
	$(BIN)/bodoge serve --host 127.0.0.1 --port 8000 --db sqlite:///bodoge.db

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples docs/hooks
	$(BIN)/ruff format --check src tests bench examples docs/hooks
	$(BIN)/mypy src/bodoge
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict   # the docs site, every link checked (into site/; not --quiet, which hides the warnings --strict counts)

# The documentation site (README.md and docs/), rebuilt as its pages change.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

test: lint compiled
	$(BIN)/pytest -n $(WORKERS) --dist worksteal --durations=15   # worksteal: idle workers take tests from busy ones, no long tail on one core; the slowest are named for whoever trims next

bench: compiled
	$(BIN)/python bench/engine.py

clean:
	test ! -x $(BIN)/bodoge || $(BIN)/bodoge compile --clean
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis site
