"""A takeover over real processes on loopback (spec/protocol.md, "Takeover"): a 3-seat
Athos and a 3-seat Asterix game, every seat `--headless`, `--patience 5`, the default
`--takeover greedy`; one seat's process is killed with kill -9. The other two claim it once
the patience has run out, the claim's writer takes it over and its greedy bot plays on, the
game finishes; both remaining logs are byte-identical and verify, naming the takeover. The
killed seat, resumed, becomes a spectator, is told why, and ends with the same log."""
from __future__ import annotations

import time

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, entries_in, join_args, logs, verify, wait_until

pytestmark = pytest.mark.processes

PATIENCE = 5
FLAGS = ["--headless", "--think", "0.15"]  # (slow enough that the game is still on when the killed seat is back)


@pytest.mark.parametrize("game, options", [("athos", []), ("asterix", ["--option", "max_rounds=2"])])
def test_a_killed_seat_is_taken_over_and_the_game_finishes(tmp_path, game, options):
    """Slow (10-30 s): the claim waits for the table's patience after the kill, then the runner's bot
    plays the taken seat to the end of a three-seat game."""
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", game, "--players", "3", "--no-beacon", "--bind", LOOPBACK,
                           "--patience", str(PATIENCE), *options, *FLAGS)
        first = procs.start("first", "join", *join_args(host), "--bind", LOOPBACK, *FLAGS)
        first.wait_for("You have seat 1", 20)
        second = procs.start("second", "join", *join_args(host), "--bind", LOOPBACK, *FLAGS)
        nodes = {"host": host, "first": first, "second": second}
        paths = {name: wait_until(lambda: logs(p.home) and logs(p.home)[0], 20, f"{name}'s log")
                 for name, p in nodes.items()}
        wait_until(lambda: min(entries_in(p) for p in paths.values()) >= 6, 60, "a few entries on every side")
        second.kill9()
        dead_at = time.monotonic()
        host.wait_for(r"Seat 2 \(.*\) was away longer than the table's patience and was claimed: from entry "
                      r"\d+ a greedy bot plays it, run by this node", 90)
        taken_after = time.monotonic() - dead_at
        # the killed seat comes back: it takes the claim and watches the rest, told why
        back = procs.start("second", "resume", str(paths["second"]), *FLAGS)
        first.wait_for(r"a greedy bot plays it, run by seat 0", 10)
        back.wait_for(r"(?i)you were away longer than the table's patience and were claimed", 60)
        back.wait_for("you watch the rest as a spectator", 5)
        assert host.wait(240) == 0, host.text()[-2000:]
        assert first.wait(60) == 0, first.text()[-2000:]
        assert back.wait(60) == 0, back.text()[-2000:]
        said = verify(paths["host"])
        assert "seat 2 (" in said and "taken over at seq" in said and "greedy bot, run by seat 0" in said
        assert_same_logs([paths["host"], paths["first"], paths["second"]])
        print(f"taken over {taken_after:.2f} s after the kill (patience {PATIENCE} s)")
    finally:
        procs.close()
