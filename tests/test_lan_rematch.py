"""Playing the same table again, between real node processes on loopback (spec/protocol.md,
"Rematch"): at the end a seat offers a rematch, a bot accepts, and a new game starts with a
fresh genesis of its own (a new table id) and the first seat moved on; a seat that declines
ends it for everyone, each told why."""
from __future__ import annotations

from lanhelp import LOOPBACK, Procs, join_args, logs, verify
from peerboard.protocol.logfile import read_log

HEADLESS = ["--headless", "--think", "0.002"]
SHORT = ["--option", "win_points=15"]


def _genesis(path):
    return read_log(path.read_bytes()).genesis.terms


def test_a_rematch_offered_at_the_end_and_accepted_by_a_bot_is_a_new_game_with_the_first_seat_moved_on(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", *SHORT, "--bind", LOOPBACK, "--no-beacon", *HEADLESS,
                           "--name", "ann", "--rematches", "1", "--max-seconds", "150")
        bot = procs.start("bot", "bot", *join_args(host), "--bind", LOOPBACK, "--strategy", "random",
                          "--name", "bob", "--max-seconds", "150")
        assert host.wait(160) == 0, host.text()[-3000:]
        assert bot.wait(30) == 0, bot.text()[-3000:]
        host_logs, bot_logs = logs(tmp_path / "host"), logs(tmp_path / "bot")
        assert len(host_logs) == 2 and len(bot_logs) == 2
        first, second = sorted(host_logs, key=lambda p: p.stat().st_mtime)
        g1, g2 = _genesis(first), _genesis(second)
        assert g2.table != g1.table and g2.game == g1.game == "aton"
        assert [s.key for s in g2.seats] == [g1.seats[1].key, g1.seats[0].key]  # the first seat moved on
        assert [s.name for s in g2.seats] == ["bob", "ann"]
        assert {_genesis(p).table for p in bot_logs} == {g1.table, g2.table}
        for path in host_logs + bot_logs:
            assert "valid" in verify(path)
        assert "A rematch: table" in host.text() and "you are seat 1" in host.text()
        assert "A rematch: joining table" in bot.text()
        assert "Traceback" not in host.text() + bot.text()
    finally:
        procs.close()


def test_a_rematch_declined_ends_it_for_both_and_says_so(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", *SHORT, "--bind", LOOPBACK, "--no-beacon", *HEADLESS,
                           "--name", "ann", "--rematches", "1", "--max-seconds", "100")
        bot = procs.start("bot", "join", *join_args(host), "--bind", LOOPBACK, *HEADLESS, "--name", "bob",
                          "--rematches", "0", "--max-seconds", "100")
        assert host.wait(110) == 0, host.text()[-3000:]
        assert bot.wait(30) == 0, bot.text()[-3000:]
        assert len(logs(tmp_path / "host")) == 1 and len(logs(tmp_path / "bot")) == 1
        assert "seat 1 (bob) will not play again: no rematch." in host.text()
        assert "seat 0 (ann) would play again" in bot.text() and "You will not play again." in bot.text()
    finally:
        procs.close()
