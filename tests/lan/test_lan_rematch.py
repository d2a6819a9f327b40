"""Playing the same table again, between real node processes on loopback (spec/protocol.md,
"Rematch"): at the end a seat offers a rematch, a bot accepts, and a new game starts with a
fresh genesis of its own (a new table id) and the first seat moved on; a seat that declines
ends it for everyone, each told why."""
from __future__ import annotations

import re
import shutil
import sys

import pytest

from support.lanhelp import LOOPBACK, ROOT, Procs, Tmux, join_args, logs, verify
from peerboard.protocol.log.logfile import read_log

pytestmark = pytest.mark.processes

HEADLESS = ["--headless", "--think", "0.002"]
SHORT = ["--option", "win_points=15"]
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _genesis(path):
    return read_log(path.read_bytes()).genesis.terms


def test_a_rematch_offered_at_the_end_and_accepted_by_a_bot_is_a_new_game_with_the_first_seat_moved_on(tmp_path):
    """Slow (about 15-25 s): two whole games between two processes, the second the rematch."""
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


PROMPT = "`help` lists them):"  # the end of the line prompt's question (client/seat.py)
LEGAL = "legal now: "


def _play_to_the_end(term, most: int = 80) -> str:
    """Answer each question of the line prompt with the first legal action `help` lists,
    until the game is over (at most `most` decisions); returns the screen then.

    It counts lines in the whole scrollback and never reads meaning into where a line sits:
    lines the node prints on its own (a move accepted once its fsync is done, a peer away and
    back on a loaded machine) may come after a question, and a driver that took any line
    after the newest question for its answer waited for ever (the stalls this test once had)."""
    answered = 0
    for _ in range(most):
        screen = term.wait_until(lambda s: s if s.count(PROMPT) > answered or "Play again?" in s else None,
                                 "the next question or the end of the game", 60)
        if "Play again?" in screen:
            return screen
        answered, lists = screen.count(PROMPT), screen.count(LEGAL)
        term.type("help")
        # help lists the legal actions when a decision is ours; when the question was taken by
        # then it lists none, and the next question (or the end) is what comes
        screen = term.wait_until(
            lambda s: s if s.count(LEGAL) > lists or s.count(PROMPT) > answered or "Play again?" in s else None,
            "the legal actions, the next question or the end", 60)
        if screen.count(LEGAL) > lists:
            first = screen.rsplit(LEGAL, 1)[1].splitlines()[0]
            term.type(re.split(r",|…", first)[0].strip())
    raise AssertionError(f"the game did not end within {most} decisions:\n{term.screen()[-4000:]}")


@needs_tmux
@pytest.mark.tmux
def test_again_at_the_line_prompt_plays_the_table_again_with_the_bot(tmp_path):
    procs = Procs(tmp_path)
    home = tmp_path / "ann"
    term = Tmux("again", (f"cd {ROOT} && PEERBOARD_HOME={home} {sys.executable} -m peerboard.client.cli host aton "
                          f"--option win_points=1 --bind {LOOPBACK} --no-beacon --name ann --plain; "
                          f"echo EXIT=$?; sleep 60"), 100, 50)
    try:
        m = term.wait_for(r"from anywhere: peerboard join (\S+) --key (\S+) --table (\S+) --game (\S+)")
        procs.start("bot", "bot", m.group(1), "--key", m.group(2), "--table", m.group(3), "--game", m.group(4),
                    "--bind", LOOPBACK, "--strategy", "random", "--name", "bob", "--max-seconds", "120")
        _play_to_the_end(term)
        term.type("again")
        term.wait_for(r"A rematch: table \w+ is open; you are seat 1")
        term.wait_for(r"The seats: 0 bob \(\S+\), 1 ann \(\S+\)")
        term.type("quit")
        screen = term.wait_for("EXIT=", 20).string
        assert "EXIT=0" in screen and "Traceback" not in screen
        first, second = sorted(logs(home), key=lambda p: p.stat().st_mtime)
        g1, g2 = _genesis(first), _genesis(second)
        assert g2.table != g1.table and [s.key for s in g2.seats] == [g1.seats[1].key, g1.seats[0].key]
    finally:
        term.close()
        procs.close()
