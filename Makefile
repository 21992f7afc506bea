# costsense: the two commands of the README, and a few for developers.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_CORE := $(VENV)/.installed-experiments
STAMP_DEV := $(VENV)/.installed-dev
STAMP_DOCS := $(VENV)/.installed-docs

.PHONY: demo test test-all test-slow lint format clean docs docs-screenshots docs-clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_CORE): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[experiments]"
	touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(STAMP_CORE)

demo: $(STAMP_CORE)
	$(BIN)/costsense reproduce rescaling --quick --jobs 2 --out results/rescaling-quick

# the fast set: every test but those marked slow (pyproject.toml says which)
test: $(STAMP_DEV)
	$(BIN)/python -m pytest -n 2 -q -m "not slow"

# the whole suite: the fast set, the full cross products, the statistical and
# resource checks and the Sphinx build of the API reference (tests/test_docs_build.py)
test-all: $(STAMP_DEV)
	$(BIN)/python -m pytest -n 2 -q

# the tests make test leaves out (CI runs make test, then this)
test-slow: $(STAMP_DEV)
	$(BIN)/python -m pytest -n 2 -q -m slow

lint: $(STAMP_DEV)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

format: $(STAMP_DEV)
	$(BIN)/ruff format src tests benchmarks
	$(BIN)/ruff check --fix src tests benchmarks

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .hypothesis

# the documentation site: user guide, API reference, executed example gallery;
# any Sphinx warning fails the build (all of them listed first: --keep-going)
$(STAMP_DOCS): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[docs]"
	touch $@ $(STAMP_CORE)

docs: $(STAMP_DOCS)
	$(BIN)/sphinx-build -b html -W --keep-going docs docs/_build/html
	@echo "open docs/_build/html/index.html"

# headless Chromium screenshots of the built site (needs `make docs` and chromium)
docs-screenshots: $(STAMP_DOCS)
	$(BIN)/python docs/screenshots.py

docs-clean:
	rm -rf docs/_build docs/generated docs/auto_examples docs/sg_execution_times.rst
