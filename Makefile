# Two commands on a fresh clone: `make play` (the full-screen client: you against a bot) and `make test` (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test bench setup clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "peerboard needs Python 3.11 or newer"'
	@echo "setting up $(VENV): peerboard and what it needs (pip's own words go to $(VENV)/install.log)"
	@$(PYTHON) -m venv $(VENV)
	@{ $(BIN)/python -m pip install --upgrade pip && $(BIN)/python -m pip install -e '.[test,cluster]'; } \
		> $(VENV)/install.log 2>&1 || { tail -n 40 $(VENV)/install.log; echo "setup failed: see $(VENV)/install.log"; exit 1; }
	@touch $(STAMP)

play: $(STAMP)
	$(BIN)/peerboard play aton --bots 1

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/bench_aton.py
	$(BIN)/python bench/bench_athos.py
	$(BIN)/python bench/bench_asterix.py
	$(BIN)/python bench/bench_replay.py aton athos asterix
	$(BIN)/python bench/bench_latency.py
	$(BIN)/python bench/bench_session.py
	$(BIN)/python bench/bench_bots.py
	$(BIN)/python bench/bench_tui.py

clean:
	rm -rf $(VENV) build *.egg-info
