"""bench/bench_latency.py measures what it says without a hook in the product: its own
node processes (bench/latency_node.py) time every move, and a run that measured nothing
says so and exits non-zero instead of printing figures for nothing."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_latency.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_latency", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_game_between_bench_nodes_measures_every_move_at_every_node():
    latencies, rss = _bench().game_latency(2, 1, 0.0)
    assert latencies, "no move of a whole game was measured"
    assert len(rss) == 2


def test_a_bench_that_measured_nothing_exits_non_zero(monkeypatch, capsys):
    bench = _bench()
    monkeypatch.setattr(bench, "floor", lambda pause, n: (1e-3, "1 ms"))
    monkeypatch.setattr(bench, "game_latency", lambda nodes, rounds, think: ([], []))
    monkeypatch.setattr(sys, "argv", ["bench_latency.py", "--games", "1"])
    assert bench.main() == 1
    out, err = capsys.readouterr()
    assert "2 nodes: no moves measured" in out and "measured nothing for 2 nodes, 4 nodes, 8 nodes" in err
