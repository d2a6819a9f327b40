# Two commands on a fresh clone: `make play` (the full-screen client: you against a bot) and `make test`
# (the whole suite, as CI runs it). While working: `make check`, the quick loop (README.md, "Tests").
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# playing needs the package alone; the tests add pytest and hypothesis, and the cluster extra (dask) for
# the tournament tests on a scheduler
PLAYS  := $(VENV)/.installed-play
TESTS  := $(VENV)/.installed-test
PIP    := $(BIN)/python -m pip

.PHONY: play types check test docs bench setup clean

setup: $(TESTS)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "peerboard needs Python 3.11 or newer"'
	@$(PYTHON) -m venv $(VENV)

# install.log keeps pip's own words; they are shown only when it fails
$(PLAYS): pyproject.toml setup.py | $(BIN)/python
	@echo "setting up $(VENV): peerboard and what it needs to play (pip's own words go to $(VENV)/install.log)"
	@$(PIP) install -e . > $(VENV)/install.log 2>&1 || { tail -n 40 $(VENV)/install.log; echo "setup failed: see $(VENV)/install.log"; exit 1; }
	@touch $@

$(TESTS): $(PLAYS)
	@echo "adding the test, cluster and research extras to $(VENV) (pip's own words go to $(VENV)/install.log)"
	@$(PIP) install -e '.[test,cluster,research]' >> $(VENV)/install.log 2>&1 || { tail -n 40 $(VENV)/install.log; echo "setup failed: see $(VENV)/install.log"; exit 1; }
	@touch $@

play: $(PLAYS)
	$(BIN)/peerboard play aton --bots 1

# Byte-code: the tests start hundreds of processes (nodes, bots, clients), and each would compile
# peerboard from source again where PYTHONDONTWRITEBYTECODE is set (it is on some machines, CI's
# among them): about 0.7 s of CPU a process. So the tests run with it unset (pytest then keeps its
# rewritten test modules too), and the package is compiled once, before the workers start and race.
COMPILE = $(BIN)/python -m compileall -q -j 0 -x '/(\.venv|build|site|tests|bench|examples)/' .
check test: export PYTHONDONTWRITEBYTECODE :=

# The quick loop: every test that starts no second process and drives no terminal (the markers
# `processes` and `tmux`, pyproject.toml; tests/conftest.py fails a test that starts one unmarked).
CHECK_WORKERS ?= 2
check: types
	@$(COMPILE)
	$(BIN)/python -m pytest -m "not processes and not tmux" -n $(CHECK_WORKERS) --dist worksteal $(PYTEST_ARGS)

# The type check: mypy on the packages [tool.mypy] names, strict where pyproject.toml says. mypy finds
# a module by its folder's name, and this folder is the package `peerboard` under another name (the
# editable install's finder is invisible to mypy): build/types/peerboard is a link to it.
types: $(TESTS)
	@mkdir -p build/types && ln -sfn ../.. build/types/peerboard
	$(BIN)/mypy

# The whole suite, in parallel (CI runs it). The process tests mostly wait on each other's sockets,
# so more workers than cores pay; each test has its own ports, homes and tmux server.
TEST_WORKERS ?= 4
test: types
	@$(COMPILE)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --durations 10 $(PYTEST_ARGS)

# The manual (docs/) as a site in site/, built offline; --strict fails on a broken link or page.
DOCS := $(VENV)/.installed-docs
$(DOCS): $(PLAYS)
	@echo "adding the docs extra to $(VENV) (pip's own words go to $(VENV)/install.log)"
	@$(PIP) install -e '.[docs]' >> $(VENV)/install.log 2>&1 || { tail -n 40 $(VENV)/install.log; echo "setup failed: see $(VENV)/install.log"; exit 1; }
	@touch $@

docs: $(DOCS)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# Every benchmark, each section of bench/RESULTS.md rewritten with its figures, the machine, the date
# and the commit; `make bench BENCH="aton replay"` runs only those (bench/run.py --list names them).
bench: $(TESTS)
	$(BIN)/python bench/run.py $(BENCH)

clean:
	rm -rf $(VENV) build *.egg-info site
