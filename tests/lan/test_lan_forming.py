"""A table forming on a hostile LAN, with real node processes on loopback: a joiner killed
while the table forms loses its seat, a clean leave frees it at once and the same key takes
it again, squatters from throwaway keys that vanish are freed, a private table takes only
the nodes that know its code, the host removes a seat at its prompt, and a node whose game
is over stops even when a peer died right at the end (spec/protocol.md, "Forming a table";
spec/transport.md, "The loop")."""
from __future__ import annotations

import os
import shutil
import socket
import sys
import time

import pytest

from support.lanhelp import LOOPBACK, ROOT, Procs, Tmux, assert_same_logs, join_args, the_log, verify
from peerboard.node.discovery import MAGIC

pytestmark = pytest.mark.processes

ASTERIX3 = ["asterix", "--players", "3", "--option", "max_rounds=1"]  # a short game of three
HEADLESS = ["--headless", "--think", "0.002"]
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _host(procs: Procs, *args: str, name: str = "host"):
    return procs.start(name, "host", *args, "--bind", LOOPBACK, "--no-beacon", *HEADLESS, "--name", name)


def _join(procs: Procs, host, name: str, *extra: str):
    return procs.start(name, "join", *join_args(host), "--bind", LOOPBACK, *HEADLESS, "--name", name, *extra)


def _finish(nodes) -> None:
    for p in nodes:
        assert p.wait(60) == 0, p.text()[-2000:]
    assert_same_logs([the_log(p.home) for p in nodes])
    assert "valid:" in verify(the_log(nodes[0].home))


def test_a_joiner_killed_while_the_table_forms_loses_its_seat_and_the_table_still_forms(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = _host(procs, *ASTERIX3)
        alice = _join(procs, host, "alice")
        alice.wait_for("You have seat 1 of 3", 20)
        host.wait_for(r"Seat 1 taken by alice \([a-z2-7-]{9}\) from tcp://127\.0\.0\.1:\d+", 10)
        alice.kill9()
        host.wait_for(r"Seat 1 \(alice, [a-z2-7-]{9}\) is free again: it fell silent", 20)
        bob, carol = _join(procs, host, "bob"), _join(procs, host, "carol")
        _finish([host, bob, carol])
        assert "the game's log: " in host.text()
    finally:
        procs.close()


def test_a_joiner_is_told_its_seat_once_while_the_table_forms(tmp_path):
    """(issue 24, 18: "seated" said every 2 s while the table formed: the host answers each
    repeated hello with the same welcome.)"""
    procs = Procs(tmp_path)
    try:
        host = _host(procs, *ASTERIX3)
        alice = _join(procs, host, "alice")
        alice.wait_for("You have seat 1 of 3", 20)
        time.sleep(5)  # (the hello is repeated every 2 s, and answered each time)
        assert alice.text().count("You have seat 1 of 3") == 1, alice.text()
        bob = _join(procs, host, "bob")
        _finish([host, alice, bob])
        assert alice.text().count("You have seat 1 of 3") == 1
    finally:
        procs.close()


def test_a_clean_leave_frees_the_seat_at_once_and_the_same_key_takes_it_again(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = _host(procs, *ASTERIX3)
        alice = _join(procs, host, "alice")
        alice.wait_for("You have seat 1 of 3", 20)
        alice.popen.terminate()  # Ctrl-C or a kill: the node leaves cleanly
        assert alice.wait(10) == 130
        assert "leaving the table: the host frees your seat" in alice.text()
        host.wait_for(r"Seat 1 \(alice, \S+\) is free again: it left", 5)
        again = _join(procs, host, "alice")  # the same home: the same key
        again.wait_for("You have seat 1 of 3", 20)
        assert host.text().count("Seat 1 taken by alice") == 2
        bob = _join(procs, host, "bob")
        _finish([host, again, bob])
    finally:
        procs.close()


def test_squatters_from_throwaway_keys_that_vanish_are_freed_and_real_nodes_then_play(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = _host(procs, *ASTERIX3)
        endpoint, _, key, _, table, _, game = join_args(host)
        squat = procs.start("squat", endpoint, key, table, game, "2", "squatter", entry=["tests/programs/squatter.py"])
        assert squat.wait(30) == 0, squat.text()
        assert squat.text().splitlines() == ["welcomed to seat 1", "welcomed to seat 2"]
        evil = procs.start("evil", endpoint, key, table, game, "1", "\x1b[2J\x1b]0;pwned\x07",
                           entry=["tests/programs/squatter.py"])
        assert evil.wait(30) == 0 and evil.text().strip() == "no answer"
        host.wait_for(r"(?s)Seat \d \(squatter, .* fell silent.*Seat \d \(squatter, .* fell silent", 20)
        assert "The game has started" not in host.text()  # nothing was ever proposed to them
        alice, bob = _join(procs, host, "alice"), _join(procs, host, "bob")
        _finish([host, alice, bob])
        text = host.text()
        assert "rejected a message" in text and "name must be printable text" in text  # (the node's own notice)
        assert "\x1b" not in text and "\x07" not in text
    finally:
        procs.close()


def _beacons(port: int, seconds: float) -> list[bytes]:
    """The raw datagrams heard on the beacon port."""
    heard = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        s.bind(("", port))
        s.settimeout(0.2)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                heard.append(s.recv(2048))
            except socket.timeout:
                pass
    return heard


def test_a_private_table_takes_only_nodes_that_know_its_code_which_never_travels(tmp_path):
    """Slow (about 20 s): the host checks a code at most once a second, less often as wrong ones pile
    up (the defence under test), and the joiner with the right code then plays the game out."""
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--private", "--bind", LOOPBACK, *HEADLESS, "--name", "host")
        code = host.wait_for(r"a private table: its code is ([a-z2-9]{4}-[a-z2-9]{4})", 20).group(1)
        table = host.wait_for(r"table ([0-9a-f]{8}) open", 5).group(1)
        assert f"--code {code}" in host.wait_for(r"join it from anywhere: .*", 5).group(0)
        beacons = [b for b in _beacons(procs.beacon_port, 2.5) if b.startswith(MAGIC)]
        assert beacons and not any(code.encode() in b or code.upper().encode() in b for b in beacons)
        lister = procs.start("lister", "tables", "--wait", "2")
        assert lister.wait(20) == 0 and "private" in lister.text()

        by_beacon = procs.start("nocode", "join", table, "--bind", LOOPBACK, *HEADLESS)
        assert by_beacon.wait(20) == 2
        assert "is private: give its code with --code" in by_beacon.text()
        by_address = procs.start("nocode", "join", *join_args(host)[:7], "--bind", LOOPBACK, *HEADLESS)
        assert by_address.wait(20) == 2
        assert "The table refused this node: this table is private: ask its host for the code" in by_address.text()
        wrong = procs.start("wrong", "join", table, "--code", "zzzz-zzzz", "--bind", LOOPBACK, *HEADLESS)
        assert wrong.wait(20) == 2 and "that is not this private table's code" in wrong.text()
        for p in (by_beacon, by_address, wrong):
            assert p.text().count("\n") <= 3 and "Traceback" not in p.text()

        right = procs.start("right", "join", table, "--code", code.upper(), "--bind", LOOPBACK, *HEADLESS)
        _finish([host, right])
    finally:
        procs.close()


def _tmux_command(home, *args: str) -> str:
    """The line prompt (--plain) in a real terminal (where the full-screen client would open)."""
    return (f"cd {ROOT} && PEERBOARD_HOME={home} {sys.executable} -m peerboard.client.cli "
            + " ".join(args) + " --plain; echo EXIT=$?; sleep 60")


@needs_tmux
@pytest.mark.tmux
def test_the_host_sees_each_seat_and_removes_one_at_its_prompt(tmp_path):
    procs = Procs(tmp_path)
    term = Tmux("remove", _tmux_command(tmp_path / "host", "host", *ASTERIX3, "--bind", LOOPBACK, "--no-beacon",
                                        "--name", "host"))
    try:
        endpoint = term.wait_for(r"from anywhere: peerboard join (\S+) --key (\S+) --table (\S+) --game (\S+)")
        args = [endpoint.group(1), "--key", endpoint.group(2), "--table", endpoint.group(3), "--game", endpoint.group(4)]
        term.wait_for("`remove N` frees seat N")
        alice = procs.start("alice", "join", *args, "--bind", LOOPBACK, *HEADLESS, "--name", "alice")
        term.wait_for(r"Seat 1 taken by alice \(\S+\) from tcp://127\.0\.0\.1:\d+")
        term.type("seats")
        term.wait_for(r"seat 0: you\s+seat 1: alice \(\S+\) at tcp://127\.0\.0\.1:\d+\s+seat 2: free")
        term.type("remove 0")
        term.wait_for("Seat 0 is the host's own")
        term.type("remove 1")
        term.wait_for(r"Seat 1 \(alice, \S+\) is free again: the host removed it")
        assert alice.wait(20) == 2 and "the host removed this node from the table" in alice.text()
        term.type("quit")
        screen = term.wait_for("EXIT=").string
        assert "closing the table" in screen and "EXIT=0" in screen and "Traceback" not in screen
    finally:
        term.close()
        procs.close()


@needs_tmux
@pytest.mark.tmux
def test_quit_at_the_prompt_leaves_at_once_the_bot_sees_it_and_leaves_too(tmp_path):
    term = Tmux("quit", _tmux_command(tmp_path, "play", "aton", "--bots", "1"))
    try:
        term.wait_for("your move")
        term.type("quit")
        screen = term.wait_for("EXIT=", 20).string
        assert "EXIT=0" in screen and "leaving the game: the other seats are told you left" in screen
        assert "peerboard resume" in screen and "your bots leave the table too" in screen
        bot = (tmp_path / "bots" / "bot-1" / "bot.out").read_text()
        assert "left the table; the game waits until it resumes" in bot  # it showed "left", not "away"
        assert "leaving the game" in bot and "is away" not in bot  # told to leave, it left by itself
    finally:
        term.close()


def test_a_node_whose_peer_died_right_after_the_end_stops_all_the_same(tmp_path):
    """A seat dies before it acknowledges the last entry (its own `results`, or the host's):
    the host, holding the whole log, waits FINISHED_GRACE seconds for that ack, then stops
    (before: until --max-seconds).

    Slow (about 15 s): the survivor waits out the silence it allows a peer after the end (10 s)
    before it stops."""
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--no-beacon", *HEADLESS,
                           "--max-seconds", "90")
        dying = procs.start("dying", "join", *join_args(host), "--bind", LOOPBACK, *HEADLESS,
                            entry=["tests/programs/dying_node.py"])
        assert dying.wait(60) == 9 and "dying right after the last entry left" in dying.text()
        assert host.wait(60) == 0, host.text()[-2000:]
        assert "Game over" in host.text() and "gave up" not in host.text()
        assert "valid:" in verify(the_log(host.home))
    finally:
        procs.close()


def test_resume_listens_elsewhere_with_bind_and_the_others_are_told(tmp_path):
    from peerboard.node.gamefiles import SeatFile, seat_path

    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--no-beacon", *HEADLESS)
        joiner = _join(procs, host, "joiner")
        log = joiner.home / "games"
        path = None
        deadline = time.monotonic() + 20
        while path is None and time.monotonic() < deadline:
            found = sorted(log.glob("*.pblog")) if log.exists() else []
            path = found[0] if found and found[0].stat().st_size > 3000 else None
            time.sleep(0.02)
        assert path is not None
        joiner.kill9()
        port = int(SeatFile.from_bytes(seat_path(path).read_bytes()).extra["bind"].rsplit(":", 1)[1])
        taken = socket.socket()
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", port))
        taken.listen()
        try:
            blocked = procs.start("joiner", "resume", str(path), *HEADLESS)
            assert blocked.wait(20) == 2
            assert "already in use by another program; choose another port with --bind" in blocked.text()
            moved = procs.start("joiner", "resume", str(path), "--bind", LOOPBACK, *HEADLESS)
            moved.wait_for(r"resuming .* listening on tcp://127\.0\.0\.1:\d+", 20)
            host.wait_for(r"seat 1 \(.*\) listens at tcp://127\.0\.0\.1:\d+ now", 20)
            assert moved.wait(60) == 0, moved.text()[-2000:]
            assert host.wait(60) == 0, host.text()[-2000:]
        finally:
            taken.close()
        assert_same_logs([the_log(host.home), path])
    finally:
        procs.close()


def test_a_name_with_escape_codes_is_refused_where_it_is_typed(tmp_path):
    procs = Procs(tmp_path)
    try:
        p = procs.start("host", "host", "aton", "--name", "\x1b[2J\x1b]0;owned\x07", "--headless")
        assert p.wait(20) == 2
        text = p.text()
        assert text.count("\n") == 1 and "--name: a name is printable text; character 1 (U+001B)" in text
        assert "\x1b" not in text and "\x07" not in text
    finally:
        procs.close()


def test_an_old_log_with_an_escape_code_in_a_name_is_invalid_and_said_without_it(tmp_path):
    from peerboard import engines
    from peerboard.node.storage import LogFile
    from peerboard.protocol.log.builder import LogBuilder

    log = LogBuilder.table(engines.get("aton"), {}, ["alice", "evil\x1b[2J\u202e"], [b"\x01" * 32, b"\x02" * 32],
                           [os.urandom(32), os.urandom(32)], bytes(16), lambda: os.urandom(16))
    path = tmp_path / "old.pblog"
    with LogFile.create(path, log.ledger.genesis):
        pass
    procs = Procs(tmp_path)
    try:
        p = procs.start("checker", "replay", str(path), "--verify")
        assert p.wait(30) == 1
        text = p.text()
        assert text.count("\n") == 1 and text.startswith("invalid at seq 0 [schema]:")
        assert "the name of seat 1 is not a valid name" in text and "U+001B" in text
        assert "\x1b" not in text and "\u202e" not in text
    finally:
        procs.close()
