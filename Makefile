# tableref: every target sets up what it needs in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.stamp-run
STAMP_DEV := $(VENV)/.stamp-dev

.PHONY: demo test lint bench-quick clean

demo: $(STAMP_RUN)
	$(BIN)/tableref demo

test: $(STAMP_DEV)
	bash scripts/ensure-chromium
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(STAMP_DEV)
	$(BIN)/ruff check .

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP_RUN): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(STAMP_DEV): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -e '.[test,train]'
	touch $@ $(STAMP_RUN)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
