"""Whole games between separate node processes on loopback: every node ends with a
byte-identical log, and `peerboard replay --verify` accepts it."""
from __future__ import annotations

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, join_args, the_log, verify
from peerboard.protocol.log.logfile import read_log

pytestmark = pytest.mark.processes

# Athos has no chance: seeded random players decide the whole game. These seeds (seat i
# plays with seed S + i) give a 4-player game of a few thousand entries; most random Athos
# games are several times longer. If the engine changes the game only takes longer.
ATHOS_SEED = 56


def assert_ended_together(path) -> None:
    """The game ended as a table of this version ends it: one `audits` and one `results`
    entry (spec/protocol.md, "The end together"), each seat's seed and signature in them."""
    contents = read_log(path.read_bytes())
    players = len(contents.genesis.terms.seats)
    *_, audits, results = contents.entries
    assert (audits.kind, results.kind) == ("audits", "results")
    assert len(audits.body["seeds"]) == len(results.body["sigs"]) == players
    assert not any(e.kind in ("audit", "result") for e in contents.entries)


def play_table(tmp_path, game: str, players: int, seed: int, timeout: float, *extra: str):
    procs = Procs(tmp_path)
    try:
        host = procs.start("seat0", "host", game, "--players", str(players), "--bind", LOOPBACK, "--no-beacon",
                           "--headless", "--seed", str(seed), *extra)
        args = join_args(host)
        seats = [host]
        for i in range(1, players):  # one at a time, so seat i is the node with seed S + i
            seats.append(procs.start(f"seat{i}", "join", *args, "--bind", LOOPBACK, "--headless",
                                     "--seed", str(seed + i)))
            seats[-1].wait_for(rf"You have seat {i} of {players}", 20)
        for p in seats:
            assert p.wait(timeout) == 0, p.text()[-2000:]
        paths = [the_log(p.home) for p in seats]
        assert_same_logs(paths)
        assert "valid:" in verify(paths[0])
        assert_ended_together(paths[0])
        for p in seats:
            assert "Game over" in p.text()
    finally:
        procs.close()


def test_aton_two_nodes_play_a_whole_game(tmp_path):
    play_table(tmp_path, "aton", 2, 3, 60)


def test_athos_four_nodes_play_a_whole_game(tmp_path):
    play_table(tmp_path, "athos", 4, ATHOS_SEED, 110)


def test_asterix_six_nodes_by_play_with_five_bot_processes(tmp_path):
    procs = Procs(tmp_path)
    try:
        me = procs.start("me", "play", "asterix", "--bots", "5", "--headless", "--option", "max_rounds=3")
        assert me.wait(60) == 0, me.text()[-2000:]
        home = me.home
        paths = [the_log(home)] + [the_log(home / "bots" / f"bot-{i}") for i in range(1, 6)]
        assert_same_logs(paths)
        assert "valid: asterix" in verify(paths[0])
        assert_ended_together(paths[0])
    finally:
        procs.close()
