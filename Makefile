# `make` creates .venv, installs printgen and builds every game into out/.
# `make test` runs the linter, the type checker and the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: all build test lint typecheck kernels bench clean

all: build

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

# The engines' kernels compiled with mypyc (a C compiler; without one, or after an edit until
# the next `make`, the engines play the same kernels in Python, slower): nothing to do when
# they are up to date.
kernels: $(STAMP)
	$(BIN)/python -m printgen.compile_kernels

build: kernels
	$(BIN)/printgen build

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck kernels
	$(BIN)/pytest -n 2 --dist loadgroup

bench: kernels
	$(BIN)/python bench/pace.py start --first
	$(BIN)/python bench/print.py
	$(BIN)/python bench/build.py --rounds 2 --before
	$(BIN)/python bench/loop.py
	$(BIN)/python bench/pace.py engines
	for script in bench/engine*.py; do $(BIN)/python $$script || exit 1; done
	$(BIN)/python bench/balance.py
	$(BIN)/python bench/peer.py
	$(BIN)/python bench/pace.py end
	$(BIN)/python bench/summary.py

clean:
	rm -rf out
