"""bench/bench_latency.py measures what it says without a hook in the product: its own
node processes (bench/latency_node.py) time every move, and a run that measured nothing
says so and exits non-zero instead of printing figures for nothing."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_latency.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_latency", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.processes
def test_a_game_between_bench_nodes_measures_every_move_at_every_node():
    latencies, rss, cpu = _bench().game_latency(2, 1, 0.0)
    assert latencies, "no move of a whole game was measured"
    assert len(rss) == 2
    assert cpu is not None and cpu[0] > 0  # (the CPU the nodes used per move)


@pytest.mark.processes
def test_traced_nodes_say_when_each_stage_of_every_move_happened_at_four_seats():
    bench, traces = _bench(), []
    latencies, _, _ = bench.game_latency(4, 1, 0.0, traces)
    moves = bench.move_stages(traces[0])
    assert latencies and len(moves) == len(latencies)
    steps = ["submit", "entry sent", "entry in, last peer", "checked, last peer", "fsynced, last peer",
             "ack sent, last peer", "last ack in", "confirm sent", "confirmed everywhere"]
    for when in moves:  # every stage, between the submit and the last confirmation (the peer
        # whose ack left last may have had the entry before the author's last send of it)
        assert all(step in when for step in steps), sorted(when)
        assert all(when["submit"] <= when[step] <= when["confirmed everywhere"] for step in steps)
        assert when["entry in, last peer"] <= when["checked, last peer"] <= when["fsynced, last peer"] \
            <= when["ack sent, last peer"] <= when["last ack in"] <= when["confirm sent"]
    # a node's CPU per move, split: its loop thread's, and inside that the session's
    loop, session = bench.game_split(traces[0])
    assert 0 < session <= loop
    # the CPU every node's loop thread spent inside each move's window, split by what it did:
    # the parts never more than the whole, and the checking the peers do always some of it
    windows = bench.move_window(traces[0])
    assert windows and len(windows) <= len(latencies)
    for parts in windows:
        split = [parts[name] for name, _, _ in bench.WINDOW_PARTS]
        assert all(part >= 0 for part in split)
        assert sum(split) <= parts["all"] * 1.001 + 1e-6
        assert parts["peer checks"] > 0 and parts["window"] > 0


def test_a_bench_that_measured_nothing_exits_non_zero(monkeypatch, capsys):
    bench = _bench()
    monkeypatch.setattr(bench, "floor", lambda pause, n: (1e-3, "1 ms"))
    monkeypatch.setattr(bench, "game_latency", lambda *args, **kw: ([], [], None))
    monkeypatch.setattr(sys, "argv", ["bench_latency.py", "--games", "1"])
    assert bench.main() == 1
    out, err = capsys.readouterr()
    assert "2 nodes: no moves measured" in out and "measured nothing for 2 nodes, 4 nodes, 8 nodes" in err


@pytest.mark.processes
def test_nodes_given_another_code_import_that_code(tmp_path):
    """`--against`: the nodes import the `peerboard` package of the folder given, not the
    installed one (a package that cannot be imported there measures nothing)."""
    bench = _bench()
    broken = tmp_path / "broken" / "peerboard"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('not the code under test')\n")
    assert bench.game_latency(2, 1, 0.0, code=broken.parent) == ([], [], None)
    other = tmp_path / "other"
    other.mkdir()
    (other / "peerboard").symlink_to(BENCH.parent.parent)
    assert bench.game_latency(2, 1, 0.0, code=other)[0], "no move measured with the code given"


@pytest.mark.processes
def test_nodes_beside_a_stand_in_screen_measure_every_move():
    """`--screen`: each node's loop in a thread beside a screen's stand-in that spends CPU
    after each event, with the client's switch interval: every move is still measured."""
    from peerboard.client.tui.live_run import NODE_SWITCH_INTERVAL

    latencies, rss, cpu = _bench().game_latency(2, 1, 0.0, env={"SCREEN": "1", "SWITCH": str(NODE_SWITCH_INTERVAL)})
    assert latencies, "no move of a whole game was measured beside the screen"
    assert cpu is not None and cpu[0] > 0
