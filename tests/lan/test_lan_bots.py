"""Bots of the SDK at a real LAN table (loopback processes): `peerboard bot --strategy` and
`--exec`, `host --bots LIST` with built-in and third-party strategies, a misbehaving bot
named in one line at the table while the game goes on; and every node of a table — its
bots included — admits the spectators the table admits (spec/transport.md, "Spectators")."""
from __future__ import annotations

import sys

import pytest

from support.lanhelp import JOIN_LINE, LOOPBACK, Procs, assert_same_logs, join_args, the_log, verify
from peerboard.node.keys import load_identity

pytestmark = pytest.mark.processes


def test_a_bot_of_the_sdk_takes_a_seat_at_a_real_table_and_plays_it_to_the_end(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--headless", "--no-beacon")
        bot = procs.start("bot", "bot", *join_args(host), "--strategy", "greedy", "--bind", LOOPBACK)
        for p in (host, bot):
            assert p.wait(90) == 0, p.text()[-2000:]
        assert "the bot greedy plays this seat" in bot.text()
        assert_same_logs([the_log(host.home), the_log(bot.home)])
        assert "valid: aton" in verify(the_log(bot.home))
    finally:
        procs.close()


def test_host_bots_play_the_strategies_they_are_given_one_of_them_a_third_party_bot_by_import_path(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "asterix", "--players", "3", "--bots", "mcts@20,tests.programs.lanbots:FirstLegal",
                           "--bind", LOOPBACK, "--headless", "--no-beacon", "--option", "max_rounds=2")
        assert host.wait(120) == 0, host.text()[-2000:]
        bots = host.home / "bots"
        assert "the bot mcts plays this seat" in (bots / "bot-1" / "bot.out").read_text()
        assert "the bot tests.programs.lanbots:FirstLegal plays this seat" in (bots / "bot-2" / "bot.out").read_text()
        assert_same_logs([the_log(host.home), the_log(bots / "bot-1"), the_log(bots / "bot-2")])
        assert "valid: asterix" in verify(the_log(host.home))
    finally:
        procs.close()


def test_openspiels_is_mcts_takes_a_seat_at_a_real_table_by_its_name(tmp_path):
    pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install -e '.[research]'")
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bots", "openspiel:is_mcts@10", "--bind", LOOPBACK,
                           "--headless", "--no-beacon", "--option", "win_points=10")
        assert host.wait(120) == 0, host.text()[-2000:]
        bot = host.home / "bots" / "bot-1"
        assert "the bot openspiel:is_mcts plays this seat" in (bot / "bot.out").read_text()
        assert "failed" not in (bot / "bot.out").read_text()
        assert_same_logs([the_log(host.home), the_log(bot)])
        assert "valid: aton" in verify(the_log(host.home))
    finally:
        procs.close()


def test_a_host_bot_that_fails_is_one_line_at_the_table_and_its_seat_plays_on(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bots", "tests.programs.lanbots:Crasher", "--bind", LOOPBACK,
                           "--headless", "--no-beacon")
        assert host.wait(90) == 0, host.text()[-2000:]
        lines = [l for l in host.text().splitlines() if l.startswith("bot-1: ")]
        assert len(lines) == 1, host.text()[-2000:]
        assert "raised RuntimeError: the crasher crashed on purpose" in lines[0]
        assert "played by the random player" in lines[0]
        assert "Game over" in host.text()
        assert "valid: aton" in verify(the_log(host.home))
    finally:
        procs.close()


def test_a_program_that_answers_garbage_at_a_table_falls_back_to_random_and_the_game_goes_on(tmp_path):
    garbage = tmp_path / "garbage.py"
    garbage.write_text("import sys\nfor line in sys.stdin:\n    print('I think, therefore I am', flush=True)\n")
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--headless", "--no-beacon")
        bot = procs.start("bot", "bot", *join_args(host), "--exec", f"{sys.executable} {garbage}",
                          "--bind", LOOPBACK)
        for p in (host, bot):
            assert p.wait(90) == 0, p.text()[-2000:]
        faults = [l for l in bot.text().splitlines() if "which is not JSON" in l]
        assert len(faults) == 1 and "played by the random player" in faults[0], bot.text()[-2000:]
        assert_same_logs([the_log(host.home), the_log(bot.home)])
    finally:
        procs.close()


def test_a_program_at_a_table_without_a_name_is_called_what_its_hello_calls_it(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--headless", "--no-beacon")
        bot = procs.start("bot", "bot", *join_args(host), "--exec", f"{sys.executable} examples/random_bot.py",
                          "--bind", LOOPBACK)
        for p in (host, bot):
            assert p.wait(90) == 0, p.text()[-2000:]
        seats = verify(the_log(host.home)).split(" entries")[0]
        assert ":example-python" in seats, seats  # not "player", not the user's name
    finally:
        procs.close()


def test_a_spectator_the_table_admits_is_admitted_by_its_bots_too_and_gets_the_whole_game(tmp_path):
    watcher = load_identity(tmp_path / "watcher")
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "asterix", "--players", "3", "--bots", "2", "--bind", LOOPBACK,
                           "--headless", "--no-beacon", "--spectator", watcher.public_key.hex(), "--think", "0.01",
                           "--option", "max_rounds=3")
        spectator = procs.start("watcher", "join", *join_args(host), "--watch", "--bind", LOOPBACK, "--headless")
        for p in (host, spectator):
            assert p.wait(90) == 0, p.text()[-2000:]
        assert "refused this node's key" not in spectator.text()
        bots = host.home / "bots"
        assert_same_logs([the_log(host.home), the_log(spectator.home), the_log(bots / "bot-1"),
                          the_log(bots / "bot-2")])
    finally:
        procs.close()


def test_the_whole_join_line_is_printed_whenever_a_table_opens(tmp_path):
    procs = Procs(tmp_path)
    try:
        for name, flags in (("quiet", ["--no-beacon", "--bots", "1"]), ("open", [])):
            host = procs.start(name, "host", "aton", "--bind", LOOPBACK, "--headless", *flags)
            m = host.wait_for(JOIN_LINE.pattern, 20)
            table = host.wait_for(r"table ([0-9a-f]{8}) open", 5).group(1)
            assert m.group(3).startswith(table) and len(m.group(3)) == 32 and len(m.group(2)) == 64
            assert m.group(4) == "aton" and m.group(1).startswith("tcp://127.0.0.1:")
            if name == "quiet":
                assert host.wait(90) == 0, host.text()[-2000:]
    finally:
        procs.close()
