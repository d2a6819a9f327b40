"""The lobby, headless: tables announced on loopback appear (and leave when they fall
silent), a table is joined, a table is hosted through the form, a game is resumed."""
import dataclasses
import re
import socket
from pathlib import Path

import pytest

from peerboard.client.tui import lobby_source
from peerboard.client.tui.lobby_presenter import LobbyPresenter
from peerboard.client.tui.lobby_source import (
    HostRequest, JoinRequest, LobbySnapshot, NetworkLobby, ResumeRequest, TableLine, UnfinishedLine,
)
from peerboard.client.tui.lobby_view import LobbyView
from peerboard.client.usage import UsageError
from peerboard.node.discovery import beacon_bytes
from peerboard.protocol.log.identity import Identity
from support.tui_harness import Screen, run


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


HOST = Identity.from_seed(bytes(range(32)))


def _announce(port: int, name: str, free: int = 2, table: bytes = bytes(16)) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(beacon_bytes("athos", 3, free, name, HOST, table, 4000), ("127.0.0.1", port))


class Listed:
    """A lobby source with fixed lines (the network's part is tested with real beacons)."""

    def __init__(self, tables=(), unfinished=()):
        self.lines = LobbySnapshot(tuple(tables), tuple(unfinished), "test lobby")
        self.closed = False

    def snapshot(self):
        return self.lines

    def subscribe(self, listener):
        self.listener = listener

    def close(self):
        self.closed = True


TABLE = TableLine("ab" * 16, "aton", 2, 1, "bob", "abcd-efgh", "tcp://127.0.0.1:4000", True, heard=0.0)


def _lobby(source, columns=120, rows=30) -> Screen:
    return Screen(LobbyPresenter(source), columns, rows, view_class=LobbyView)


def test_a_table_announced_on_the_network_appears_and_leaves_when_it_falls_silent(monkeypatch):
    monkeypatch.setattr(lobby_source, "SILENT_AFTER", 0.5)
    port = _free_udp_port()

    async def body():
        source = NetworkLobby(port=port, games=Path("/nonexistent-peerboard-games"))
        async with _lobby(source) as screen:
            _announce(port, "bob\x1b[31m")  # a name no beacon may carry: not listed
            _announce(port, "carol", table=bytes(range(16)))
            await screen.until(lambda: "host carol" in screen.text())
            assert "athos    1/3 seated" in screen.text() and "bob" not in screen.text()
            await screen.until(lambda: "host carol" not in screen.text())  # no beacon since: gone
        source.close()

    run(body())


def test_enter_on_a_table_joins_it_and_a_full_table_says_so():
    full = TableLine("cd" * 16, "athos", 3, 0, "carol", "wxyz-abcd", "tcp://127.0.0.1:4001", True, heard=0.0)

    async def body():
        screen = _lobby(Listed([full, TABLE]))
        async with screen:
            await screen.press("enter")
            assert "That table is full." in screen.text()
            await screen.press("down")
            await screen.press("enter")  # the form: the name the others see, where to listen
            assert "Join bob's table" in screen.text() and "your name" in screen.text()
            await screen.press_last("enter")
        assert screen.presenter.request == JoinRequest(TABLE, "")

    run(body())


def test_a_private_tables_code_is_asked_for_and_handed_on():
    async def body():
        screen = _lobby(Listed([TABLE]))
        async with screen:
            await screen.press("f3")
            await screen.type("s3cret", enter=False)
            await screen.press_last("enter")
        assert screen.presenter.request == JoinRequest(TABLE, "s3cret")

    run(body())


def test_the_join_form_takes_a_name_and_where_to_listen():
    async def body():
        screen = _lobby(Listed([TABLE]))
        async with screen:
            screen.presenter.name = "root"
            await screen.press("enter")
            for _ in "root":
                await screen.press("backspace")
            await screen.type("dana", enter=False)
            await screen.press("down", "right")  # this machine only
            await screen.press_last("enter")
        assert screen.presenter.request == JoinRequest(TABLE, "", "dana", "tcp://127.0.0.1:0")
        from peerboard.client.lobby_command import options_for

        opts = options_for(screen.presenter.request, "root")  # the form's name over the lobby's own
        assert opts.name == "dana" and opts.bind == "tcp://127.0.0.1:0"

    run(body())


def test_hosting_through_the_form_checks_the_options_and_gives_the_table_asked_for():
    async def body():
        screen = _lobby(Listed())
        async with screen:
            await screen.press("f2")
            while screen.presenter.model.form.current.value != "asterix":
                await screen.press("right")
            await screen.press("down", "right", "down", "right")  # 3 players, 1 bot
            await screen.press("down", "down")  # carry_rule, then max_rounds
            await screen.press("backspace", "backspace", "backspace")
            await screen.type("0", enter=True)
            assert "max_rounds=0 must be a whole number from 1 to 10000" in screen.text()
            await screen.press("backspace")
            await screen.type("5", enter=False)
            await screen.press("down")
            await screen.type("x1", enter=True)
            assert "a host's code has at least 6 characters" in screen.text()  # too short to resist guessing
            await screen.type("x1x1", enter=False)
            await screen.press("down")  # the table's patience: 300 s unless changed
            await screen.press("backspace", "backspace", "backspace")
            await screen.type("0", enter=True)
            assert "The patience is a whole number of seconds from 1 to 86400." in screen.text()
            await screen.press("backspace")
            await screen.type("45", enter=False)
            await screen.press("down")  # three seats: what plays a seat claimed gone for good
            assert "takeover" in screen.text() and "‹ greedy ›" in screen.text() and "none: game ends" in screen.text()
            await screen.press("right")
            await screen.press_last("enter")
        assert screen.presenter.request == HostRequest("asterix", 3, 1, {"carry_rule": "either", "max_rounds": 5},
                                                       "x1x1x1", 45, "mcts")

    run(body())


def test_an_unfinished_game_is_resumed_by_choosing_it():
    line = UnfinishedLine(Path("/games/aton-1.pblog"), "aton", "ann, bob", 17)

    async def body():
        screen = _lobby(Listed([TABLE], [line]))
        async with screen:
            assert "aton     17 entries  seats ann, bob" in screen.text()
            await screen.press("down")
            await screen.press_last("enter")
        assert screen.presenter.request == ResumeRequest(line.path)
        assert screen.presenter.source.closed

    run(body())


def test_a_table_whose_beacons_stop_is_shown_silent_until_one_comes_again(monkeypatch):
    monkeypatch.setattr(lobby_source, "SHOWN_SILENT_AFTER", 0.3)
    port = _free_udp_port()

    async def body():
        source = NetworkLobby(port=port, games=Path("/nonexistent-peerboard-games"))
        async with _lobby(source) as screen:
            _announce(port, "carol")
            await screen.until(lambda: "host carol" in screen.text())
            assert "silent" not in screen.text()
            # (counted once a second, by a timer that a loaded machine may run late: 1s or more)
            await screen.until(lambda: re.search(r"host carol.*silent [1-4]s", screen.text()) is not None)
            _announce(port, "carol")
            await screen.until(lambda: "host carol" in screen.text() and "silent" not in screen.text())
        source.close()

    run(body())


def test_enter_on_a_private_table_asks_for_its_code_and_a_code_that_cannot_be_one_says_why():
    private = TableLine("ef" * 16, "aton", 2, 1, "dan", "qrst-uvwx", "tcp://127.0.0.1:4002", True, heard=0.0,
                        private=True)

    async def body():
        screen = _lobby(Listed([private]))
        async with screen:
            assert "private" in screen.text()
            await screen.press("enter")
            assert "Join a private table" in screen.text()
            await screen.type("two words", enter=True)
            assert "The code: a table's code is letters, digits and punctuation" in screen.text()
            for _ in "two words":
                await screen.press("backspace")
            await screen.type("s3cret", enter=False)
            await screen.press_last("enter")
        assert screen.presenter.request == JoinRequest(private, "s3cret")

    run(body())


def test_what_the_lobby_chose_is_what_the_command_line_would_have_asked():
    from peerboard.client.cli import build_parser
    from peerboard.client.lan.reading import read_options
    from peerboard.client.lobby_command import options_for

    def typed(*argv):
        return read_options(build_parser().parse_args(list(argv)))

    host = options_for(HostRequest("asterix", 3, 1, {"carry_rule": "both", "max_rounds": 5}, "x1x1x1"), "ann",
                       "tcp://127.0.0.1:0")
    assert (host.command, host.game.name, host.players, host.bots, host.code) == ("host", "asterix", 3, 1, "x1x1x1")
    assert dict(host.options) == {"carry_rule": "both", "max_rounds": 5} and host.name == "ann"
    assert host == dataclasses.replace(
        typed("host", "asterix", "--players", "3", "--bots", "1", "--option", "carry_rule=both", "--option",
              "max_rounds=5", "--code", "x1x1x1", "--name", "ann", "--bind", "tcp://127.0.0.1:0"), offer_resume=False)
    key = HOST.public_key.hex()
    join = options_for(JoinRequest(TableLine("ab" * 16, "aton", 2, 1, "bob", "abcd-efgh", "tcp://127.0.0.1:4000",
                                             True, key), "s3cret"), "ann")
    assert join.command == "join" and join.code == "s3cret" and join.bind == "tcp://0.0.0.0:0"
    assert (join.table.endpoint, join.table.key, join.table.table, join.table.game) == (
        "tcp://127.0.0.1:4000", HOST.public_key, bytes.fromhex("ab" * 16), "aton")
    assert join == dataclasses.replace(
        typed("join", "tcp://127.0.0.1:4000", "--key", key, "--table", "ab" * 16, "--game", "aton", "--code",
              "s3cret", "--name", "ann"), offer_resume=False)
    resume = options_for(ResumeRequest(Path("/games/aton-1.pblog")))
    assert resume.command == "resume" and resume.file == Path("/games/aton-1.pblog") and not resume.offer_resume
    with pytest.raises(UsageError, match="Asterix"):
        options_for(HostRequest("asterix", 9, 1, {}, ""))
    with pytest.raises(UsageError, match="--bind takes tcp://IP:PORT"):
        options_for(HostRequest("aton", 2, 1, {}, ""), "ann", "nowhere")


def test_the_lobby_runs_the_command_its_request_asks_for_with_those_options(monkeypatch):
    import argparse

    from peerboard.client import lobby_command

    ran = []
    for name in ("cmd_host", "cmd_join", "cmd_resume"):
        monkeypatch.setattr(lobby_command, name, lambda opts, name=name: ran.append((name, opts)) or 0)
    asked = argparse.Namespace(name="ann", bind=None)
    request = HostRequest("aton", 2, 1, {}, "")
    assert lobby_command.run_request(request, asked) == 0
    assert ran == [("cmd_host", lobby_command.options_for(request, "ann"))]
    lobby_command.run_request(ResumeRequest(Path("/games/aton-1.pblog")), asked)
    assert ran[-1][0] == "cmd_resume" and ran[-1][1].file == Path("/games/aton-1.pblog")


@pytest.mark.processes
def test_without_a_terminal_peerboard_alone_prints_its_help_and_the_lobby_says_it_needs_one():
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]

    def peerboard(*args):
        return subprocess.run([sys.executable, "-m", "peerboard.client.cli", *args], cwd=root, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60)

    alone = peerboard()
    assert alone.returncode == 2 and alone.stdout.startswith("usage: peerboard") and "lobby" in alone.stdout
    lobby = peerboard("lobby")
    assert lobby.returncode == 2 and lobby.stderr.strip() == (
        "peerboard: the lobby needs a terminal; without one use: peerboard tables, host, join or resume")
