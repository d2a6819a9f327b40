# Two commands on a fresh clone: `make play` (the full-screen client: you against a bot) and `make test` (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# playing needs the package alone; the tests add pytest and hypothesis, and the cluster extra (dask) for
# the tournament tests on a scheduler
PLAYS  := $(VENV)/.installed-play
TESTS  := $(VENV)/.installed-test
PIP    := $(BIN)/python -m pip

.PHONY: play test bench setup clean

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

test: $(TESTS)
	$(BIN)/python -m pytest

bench: $(TESTS)
	$(BIN)/python bench/bench_aton.py
	$(BIN)/python bench/bench_athos.py
	$(BIN)/python bench/bench_asterix.py
	$(BIN)/python bench/bench_replay.py aton athos asterix
	$(BIN)/python bench/bench_latency.py
	$(BIN)/python bench/bench_session.py
	$(BIN)/python bench/bench_bots.py
	$(BIN)/python bench/bench_tui.py
	$(BIN)/python bench/bench_turn_inputs.py
	$(BIN)/python bench/bench_discovery.py
	$(BIN)/python bench/bench_resume.py
	$(BIN)/python bench/bench_want_flood.py
	$(BIN)/python bench/bench_guesses.py
	$(BIN)/python bench/bench_endings.py
	$(BIN)/python bench/bench_analysis.py

clean:
	rm -rf $(VENV) build *.egg-info
