"""Endings over real processes on loopback (spec/protocol.md, "Endings"): a two-seat Aton
game whose joiner — or host — is killed with kill -9: the other seat, a `--headless` seat,
claims it once the table's patience (`--patience 10`) has run out, and the game ends; its
log verifies and names the claim. The killed seat, resumed afterwards, takes the claim,
watches the rest as a spectator, is told why, and ends with a byte-identical log."""
from __future__ import annotations

import time

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, entries_in, join_args, logs, verify, wait_until

pytestmark = pytest.mark.processes

PATIENCE = 10
FLAGS = ["--headless", "--think", "0.02"]


@pytest.mark.parametrize("victim", ["joiner", "host"])
def test_a_killed_seat_is_claimed_after_the_patience_and_the_game_ends(tmp_path, victim):
    """Slow (about 20 s): a claim can only come once the table's patience has run out after the kill,
    and the patience must stay long enough to tell a dead node from a slow one on a loaded machine."""
    procs = Procs(tmp_path)
    try:
        nodes = {"host": procs.start("host", "host", "aton", "--players", "2", "--no-beacon", "--bind", LOOPBACK,
                                     "--patience", str(PATIENCE), *FLAGS)}
        nodes["joiner"] = procs.start("joiner", "join", *join_args(nodes["host"]), "--bind", LOOPBACK, *FLAGS)
        paths = {name: wait_until(lambda: logs(p.home) and logs(p.home)[0], 20, f"{name}'s log")
                 for name, p in nodes.items()}
        wait_until(lambda: min(entries_in(p) for p in paths.values()) >= 8, 60, "a few entries on both sides")
        nodes[victim].kill9()
        dead_at = time.monotonic()
        other = "host" if victim == "joiner" else "joiner"
        gone = 1 if victim == "joiner" else 0
        nodes[other].wait_for(r"has been away longer than the table's patience \(10 s\)", 60)
        nodes[other].wait_for(r"away longer than the table's patience and was claimed at entry \d+", 30)
        claimed_after = time.monotonic() - dead_at
        assert claimed_after >= PATIENCE - 1  # (never before the patience: counted from the last it was heard)
        # the killed seat comes back while the other still runs (a finished node waits up to
        # 10 s for a silent seat): it takes the claim and watches the rest, told why
        back = procs.start(victim, "resume", str(paths[victim]), *FLAGS)
        back.wait_for(r"you were away longer than the table's patience and were claimed at entry \d+", 60)
        back.wait_for("you watch the rest as a spectator", 5)
        assert nodes[other].wait(60) == 0, nodes[other].text()[-2000:]
        assert back.wait(60) == 0, back.text()[-2000:]
        said = verify(paths[other])
        assert f"seat {gone} (" in said and "gone for good: claimed at seq" in said
        assert f"seat {1 - gone} (" in said.split("claimed at seq")[1]  # the other seat won
        assert_same_logs([paths["host"], paths["joiner"]])
    finally:
        procs.close()


def test_a_claimed_seat_back_after_the_claimer_left_is_told_plainly_what_that_may_mean(tmp_path):
    """issue 39: killed, claimed, and back only once the claimer's node has left: nobody can
    tell it what happened, and it is told that plainly within seconds — the game may have
    gone on or ended without it — never only 'wait a moment'."""
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--players", "2", "--no-beacon", "--bind", LOOPBACK,
                           "--patience", str(PATIENCE), *FLAGS)
        joiner = procs.start("joiner", "join", *join_args(host), "--bind", LOOPBACK, *FLAGS)
        path = wait_until(lambda: logs(joiner.home) and logs(joiner.home)[0], 20, "the joiner's log")
        wait_until(lambda: entries_in(path) >= 8, 60, "a few entries")
        joiner.kill9()
        host.wait_for(r"away longer than the table's patience and was claimed at entry \d+", 60)
        assert host.wait(60) == 0
        back = procs.start("joiner", "resume", str(path), *FLAGS)
        back.wait_for(r"Seat 0 \(.*?\) has not answered in 1\d s since this node came back, and this seat writes "
                      r"nothing until it has heard where the game stands\. While you were away the game may have gone "
                      r"on, or ended without you: a seat away longer than the table's patience \(10 s\) can be "
                      r"claimed", 40)
        assert back.popen.poll() is None  # (it goes on asking)
    finally:
        procs.close()
