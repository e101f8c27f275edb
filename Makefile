# memlab — set-up, quickstart and tests. `make quickstart` creates .venv, installs, runs the quickstart.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=
# pip shows its own progress on a terminal; CI logs stay quiet.
PIP_QUIET := $(if $(CI),-q,)

.PHONY: setup quickstart test test-slow test-all lint clean

setup: $(VENV)/.installed

# torch first: the CPU wheel 2.13.0 (a plain `torch` would pull a multi-GB CUDA build).
$(VENV)/.installed: pyproject.toml requirements/constraints.txt
	@echo "memlab setup: creating $(VENV)"
	python3 -m venv $(VENV)
	@echo "memlab setup: upgrading pip"
	$(PY) -m pip install $(PIP_QUIET) --upgrade pip
	@echo "memlab setup: installing torch 2.13.0 (CPU wheel, the largest download)"
	$(PY) -m pip install $(PIP_QUIET) torch==2.13.0
	@echo "memlab setup: installing memlab and its pinned dependencies"
	$(PY) -m pip install $(PIP_QUIET) -c requirements/constraints.txt -e ".[dev]"
	@echo "memlab setup: done"
	touch $@

quickstart: setup
	$(PY) -m memlab --multirun +experiment=seed_git_notes_memory_nollm,tuned dataset=project_history

# Bytecode of memlab and of the rewritten tests is kept in .venv/pycache even where the environment says
# PYTHONDONTWRITEBYTECODE: each worker and each `python -m memlab` or hook a test starts would otherwise compile
# the package from source again (a third of the default suite's CPU time here).
TEST_BYTECODE := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache

test: setup
	$(TEST_BYTECODE) $(PY) -m pytest -q -m "not slow" -n auto $(PYTEST_ARGS)

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
