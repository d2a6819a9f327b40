"""The LAN commands read their command line once, into one value: the table to join parsed
into how it is named, every flag checked, one exit status per outcome; and the node's game
files say which logs are a table's (a resumed `play` finds its bots' logs by them)."""
from __future__ import annotations

import os

import pytest

from peerboard import engines
from peerboard.client.cli import build_parser
from peerboard.client.exitcode import ExitCode
from peerboard.client.lan.options import ByAddress, ByName, LanOptions, OnlyTable
from peerboard.client.lan.reading import read_options
from peerboard.client.usage import UsageError
from peerboard.node.gamefiles import GameFiles
from peerboard.node.storage import LogFile
from peerboard.protocol.log.builder import LogBuilder
from peerboard.protocol.log.identity import Identity

KEY = Identity.from_seed(bytes(32)).public_key.hex()
TABLE = "cd" * 16


def options(*argv: str) -> LanOptions:
    return read_options(build_parser().parse_args(list(argv)))


@pytest.mark.parametrize("argv, named", [
    (["join"], OnlyTable()),
    (["join", "3FA9C2D1"], ByName("3fa9c2d1")),
    (["join", "qkvy-yhgc"], ByName("qkvy-yhgc")),
    (["join", "3FA9C2D1@QKVY-YHGC"], ByName("3fa9c2d1", "qkvy-yhgc")),
    (["join", "192.168.1.5:41234"], ByAddress("tcp://192.168.1.5:41234")),
    (["join", "tcp://10.0.0.2:9", "--key", KEY, "--table", TABLE, "--game", "aton"],
     ByAddress("tcp://10.0.0.2:9", bytes.fromhex(KEY), bytes.fromhex(TABLE), "aton")),
])
def test_a_table_is_named_by_its_address_by_its_id_or_host_or_not_at_all(argv, named):
    assert options(*argv).table == named


@pytest.mark.parametrize("argv, says", [
    (["join", "tcp://host:port"], "is not an address like tcp://192.168.1.5:41234"),
    (["join", "tcp://10.0.0.2:9", "--key", KEY, "--table", "cd", "--game", "aton"], "--table takes the 32 hex digits"),
    (["join", "--name", "x" * 41], "--name: a name has at most 40 characters"),
    (["join", "--name", "\x1b[2Jowned"], r"--name: a name is printable text; character 1 \(U\+001B\)"),
    (["host", "aton", "--name", "evil\u202eevil"], r"--name: .*U\+202E"),
    (["join", "zz!"], "names no table: give a table id"),
    (["join", "3fa9@nope"], "names no table"),
    (["host", "aton", "--bind", "tcp://127.0.0.1:99999"], "--bind takes tcp://IP:PORT with a port from 0 to 65535"),
    (["join", "--bind", "127.0.0.1:5000"], "--bind takes tcp://IP:PORT"),
    (["host", "aton", "--advertise", "notanip"], "--advertise takes the IPv4 address others reach"),
    (["tables", "--wait", "-1"], "--wait takes a number of seconds, 0 or more, not -1"),
    (["join", "--wait", "nan"], "--wait takes a number of seconds"),
    (["host", "aton", "--max-seconds", "0"], "--max-seconds takes a number of seconds, more than 0"),
    (["host", "aton", "--think", "-0.5"], "--think takes a number of seconds"),
    (["join", "--code", "two words"], "--code: a table's code is letters, digits and punctuation"),
    (["host", "aton", "--code", "abc", "--private"], "not allowed with argument"),
    # online guessing costs a second a guess and more: a 3-digit code would still fall in hours
    (["host", "aton", "--code", "391"], "--code: a host's code has at least 6 characters"),
    (["host", "aton", "--spectator", "nothex"], "--spectator:"),
    (["host", "aton", "--players", "3"], "Aton is played by exactly 2 players, not 3."),
    (["play", "chess"], "There is no game 'chess'"),
])
def test_what_cannot_be_used_is_said_once_when_the_options_are_read(argv, says):
    with pytest.raises(UsageError, match=says):
        options(*argv)


def test_host_and_play_options_hold_the_checked_game():
    opts = options("host", "athos", "--players", "3", "--option", "teams=false", "--bots", "1")
    assert (opts.game.name, opts.players, opts.bots, dict(opts.options)) == ("athos", 3, 1, {"teams": False})
    play = options("play", "asterix", "--bots", "3")
    assert play.players == 4 and play.bind is None
    with pytest.raises(Exception):
        opts.players = 4  # one value, read once


def test_a_player_is_called_by_the_user_name_even_where_no_USER_is_set(monkeypatch):
    import pwd
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.delenv(variable, raising=False)
    account = pwd.getpwuid(os.getuid()).pw_name
    assert options("join").name == account  # (a shell started by tmux or a service may carry no $USER)
    monkeypatch.setenv("USER", "alice")
    assert options("host", "aton").name == "alice"
    assert options("join", "--name", "bob").name == "bob"


def test_a_private_table_gets_the_code_given_or_one_picked_and_resume_may_listen_elsewhere():
    assert options("host", "aton", "--code", "Tea-Time").code == "Tea-Time"
    picked = options("host", "aton", "--private").code
    assert len(picked) == 9 and picked[4] == "-" and picked != options("host", "aton", "--private").code
    assert options("host", "aton").code is None and options("join", "--code", "x").code == "x"
    assert options("resume", "game.pblog", "--bind", "tcp://127.0.0.1:7000").bind == "tcp://127.0.0.1:7000"
    assert options("resume", "game.pblog").bind is None
    assert options("tables", "--wait", "0").wait == 0


def test_one_exit_status_per_outcome():
    assert [int(c) for c in (ExitCode.DONE, ExitCode.HALTED, ExitCode.USAGE, ExitCode.GAVE_UP,
                             ExitCode.INTERNAL, ExitCode.INTERRUPTED)] == [0, 1, 2, 3, 4, 130]
    assert ExitCode.INVALID is ExitCode.HALTED and ExitCode.REFUSED is ExitCode.USAGE


def _log(path, table: bytes, seed: int, game: str = "aton") -> None:
    engine = engines.get(game)
    log = LogBuilder.table(engine, {}, ["a", "b"], [bytes([seed]) * 32, bytes([seed + 1]) * 32],
                           [os.urandom(32), os.urandom(32)], table, lambda: os.urandom(16))
    with LogFile.create(path, log.ledger.genesis):
        pass


def test_start_up_offers_the_unfinished_games_of_the_game_asked_for_the_newest_first(tmp_path, monkeypatch, capsys):
    from peerboard.client.lan.resume import _offer_resume
    from peerboard.node.gamefiles import SeatFile, seat_path

    monkeypatch.setenv("PEERBOARD_HOME", str(tmp_path))
    games = tmp_path / "games"
    games.mkdir()
    made = {}
    for stamp, (name, game) in enumerate([("aton-2", "aton"), ("aton-1", "aton"), ("athos-3", "athos"),
                                          ("aton-0", "aton")]):
        path = games / f"{name}.pblog"
        _log(path, bytes([stamp]) * 16, 2 * stamp + 1, game)
        seat_path(path).write_bytes(SeatFile(bytes(32), bytes(32), "me", "tcp://127.0.0.1:1", ()).to_bytes())
        os.utime(path, (1_000_000 + stamp, 1_000_000 + stamp))  # aton-0 played last, aton-2 first
        made[name] = path
    assert _offer_resume(options("host", "aton")) is None  # (no terminal: only said)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("unfinished aton games, the most recent first")
    assert [line.split(": ", 1)[1] for line in lines[1:]] == [str(made[n]) for n in ("aton-0", "aton-1", "aton-2")]
    assert _offer_resume(options("host", "athos")) is None
    assert [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()[1:]] == [str(made["athos-3"])]


def test_the_logs_of_a_table_are_told_by_their_genesis_not_only_their_name(tmp_path):
    table, other = b"\x11" * 16, b"\x11" * 4 + b"\x22" * 12  # the same first bytes: the same name part
    _log(tmp_path / f"aton-1-{table[:4].hex()}-me.pblog", table, 1)
    _log(tmp_path / f"aton-2-{other[:4].hex()}-me.pblog", other, 3)
    _log(tmp_path / "aton-3-99999999-me.pblog", b"\x99" * 16, 5)
    (tmp_path / f"aton-4-{table[:4].hex()}-me.pblog").write_bytes(b"not a log")
    assert [p.name for p in GameFiles.logs_of_table(tmp_path, table)] == [f"aton-1-{table[:4].hex()}-me.pblog"]
    assert GameFiles.logs_of_table(tmp_path / "none", table) == []
