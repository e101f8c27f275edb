# memlab — set-up, quickstart and tests. `make quickstart` creates .venv, installs, runs the quickstart.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=

.PHONY: setup quickstart test test-slow test-all lint clean

setup: $(VENV)/.installed

# torch first: the CPU wheel 2.13.0 (a plain `torch` would pull a multi-GB CUDA build).
$(VENV)/.installed: pyproject.toml requirements/constraints.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -c requirements/constraints.txt -e ".[dev]"
	touch $@

quickstart: setup
	$(PY) -m memlab --multirun +experiment=seed_git_notes_memory_nollm,tuned

test: setup
	$(PY) -m pytest -q -m "not slow" -n auto $(PYTEST_ARGS)

# pytest exits 5 when no test is marked slow: not a failure here.
test-slow: setup
	$(PY) -m pytest -q -m slow $(PYTEST_ARGS); rc=$$?; if [ $$rc -eq 5 ]; then exit 0; else exit $$rc; fi

test-all: setup
	$(PY) -m pytest -q $(PYTEST_ARGS)

lint: setup
	$(VENV)/bin/ruff check memlab tests experiments
	$(VENV)/bin/ruff format --check memlab tests experiments

clean:
	rm -rf outputs multirun .pytest_cache .hypothesis
