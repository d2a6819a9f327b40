"""Who gets in: CurveZMQ with a ZAP handler admits the seats and the spectators a node
admits, and the sender a session sees is the key the handshake proved."""
from __future__ import annotations

import os
import time

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, entries_in, join_args, logs, the_log, wait_until
from peerboard.node.keys import load_identity
from peerboard.node.transport import Admission, Transport
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.log.logfile import read_log
from peerboard.protocol.session.messages import EntryMessage, Hello
from peerboard.protocol.log.records import make_entry


def _drain(transport: Transport, seconds: float) -> list:
    got = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not got:
        if transport.router.poll(50):
            got += transport.receive()
        if transport.zap.poll(0):
            transport.answer_zap()
    return got


def _pump_zap(transport: Transport, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if transport.zap.poll(20):
            transport.answer_zap()


def test_the_sender_is_the_key_the_handshake_proved_not_what_a_message_claims():
    a, b = Identity.from_seed(os.urandom(32)), Identity.from_seed(os.urandom(32))
    other = Identity.from_seed(os.urandom(32))
    ta, tb = Transport(a, LOOPBACK, Admission()), Transport(b, LOOPBACK, Admission())
    try:
        ta.connect(b.public_key, tb.endpoint)
        hello = Hello(bytes(16), "aton", "mallory", other.public_key, "seat", bytes(32), bytes(32), "tcp://1.2.3.4:5")
        assert ta.send(b.public_key, hello.to_bytes())
        [(key, curve, data)] = _drain(tb, 5)
        assert key is None and curve == ta.public  # unknown, and the handshake says it is a
        tb.know(a.public_key)
        ta.send(b.public_key, b"again")
        [(key, _, _)] = _drain(tb, 5)
        assert key == a.public_key  # not `other`, whatever the hello claimed
    finally:
        ta.close()
        tb.close()


def test_once_the_table_is_formed_an_unseated_key_is_refused_by_curve():
    seat, stranger = Identity.from_seed(os.urandom(32)), Identity.from_seed(os.urandom(32))
    ts = Transport(seat, LOOPBACK, Admission())
    ts.admit_seats([seat.public_key, Identity.from_seed(os.urandom(32)).public_key])
    tx = Transport(stranger, LOOPBACK, Admission())
    try:
        tx.connect(seat.public_key, ts.endpoint)
        tx.send(seat.public_key, b"let me in")
        _pump_zap(ts, 1.0)
        assert ts.receive() == []
        monitor = tx.dealers[seat.public_key][2]
        assert monitor.poll(2000)
        events = tx.connection_events(monitor)
        assert any(e.what == "refused" for e in events), events
    finally:
        ts.close()
        tx.close()


def test_identity_file_is_created_once_with_mode_0600(tmp_path):
    first = load_identity(tmp_path)
    assert (tmp_path / "identity.key").stat().st_mode & 0o777 == 0o600
    assert load_identity(tmp_path) == first


@pytest.mark.processes
def test_a_spectator_joining_mid_game_catches_up_and_cannot_author_moves_and_a_stranger_is_refused(tmp_path):
    """Slow (about 35 s): the seats think 0.3 s a move so the game outlasts the checks made while it
    runs (a game over before the forged entry is sent would prove nothing), then it is played out."""
    watcher = load_identity(tmp_path / "watcher")
    procs = Procs(tmp_path)
    admit = ["--spectator", watcher.public_key.hex()]
    # (players that think 0.3 s a move: the game, about 35 s, outlasts the checks below on
    # a loaded machine — a game over before the forged entry is sent proves nothing)
    flags = ["--bind", LOOPBACK, "--headless", "--think", "0.3", *admit]
    try:
        host = procs.start("seat0", "host", "aton", "--no-beacon", *flags)
        args = join_args(host)
        seat1 = procs.start("seat1", "join", *args, *flags)
        path0 = wait_until(lambda: logs(host.home) and logs(host.home)[0], 20, "the host's log")
        wait_until(lambda: entries_in(path0) >= 8, 30, "the game to be under way")

        spectator = procs.start("watcher", "join", *args, "--watch", "--bind", LOOPBACK, "--headless")
        # (--wait 20: the refusal is what is tested, not how soon a loaded host answers)
        stranger = procs.start("stranger", "join", *args, "--watch", "--bind", LOOPBACK, "--headless", "--wait", "20")
        assert stranger.wait(40) == 2
        assert "refused this node's key" in stranger.text()

        # the spectator's key tries to write seq 1 as seat 0: refused by every check
        genesis = read_log(path0.read_bytes()).genesis
        forged = make_entry(watcher, 1, genesis.hash, 0, "move", {"actions": [("pass",)], "nonce": None})
        t = Transport(watcher, LOOPBACK, Admission())
        try:
            host_key = bytes.fromhex(args[2])
            t.connect(host_key, args[0])
            t.send(host_key, EntryMessage(forged).to_bytes())
            host.wait_for(r"Rejected a message from " + watcher.fingerprint, 20)
        finally:
            t.close(linger_ms=500)

        for p in (host, seat1, spectator):
            assert p.wait(60) == 0, p.text()[-2000:]
        assert_same_logs([the_log(host.home), the_log(seat1.home), the_log(spectator.home)])
        assert "Watching" in spectator.text() or "Game over" in spectator.text()
    finally:
        procs.close()
