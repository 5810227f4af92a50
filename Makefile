# Each target sets up .venv itself, so a fresh clone needs nothing but Python 3.11+ and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench setup clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[server,dev]"
	@touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/bodoge serve --host 127.0.0.1 --port 8000 --db sqlite:///bodoge.db

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/mypy src/bodoge

test: lint
	$(BIN)/pytest -n auto

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
