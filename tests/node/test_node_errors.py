"""What goes wrong on a network, each said in one clear line: a port in use, an address
this machine does not have, a wrong key, a full table, a peer speaking another protocol
version — and a node keeps running where it can."""
from __future__ import annotations

import os
import socket

import pytest

from peerboard.engines.canonical import encode
from support.lanhelp import LOOPBACK, Procs, entries_in, join_args, logs, wait_until
from peerboard.node.transport import Admission, Transport
from peerboard.protocol.log.identity import Identity

pytestmark = pytest.mark.processes


def one_line_error(proc, says: str) -> None:
    assert proc.wait(20) == 2, proc.text()
    text = proc.text()
    assert text.count("\n") == 1 and says in text and "Traceback" not in text, text


def test_a_port_in_use_is_one_line(tmp_path):
    procs = Procs(tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        try:
            host = procs.start("host", "host", "aton", "--bind", f"tcp://127.0.0.1:{port}", "--headless")
            one_line_error(host, f"tcp://127.0.0.1:{port} is already in use by another program")
        finally:
            procs.close()


def test_an_address_this_machine_does_not_have_is_one_line(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", "tcp://203.0.113.7:0", "--headless")
        one_line_error(host, "no network interface of this machine has that address")
    finally:
        procs.close()


def test_wrong_key_full_table_and_another_protocol_version_leave_the_game_running(tmp_path):
    procs = Procs(tmp_path)
    flags = ["--bind", LOOPBACK, "--headless", "--think", "0.03", "--spectators-any"]
    try:
        host = procs.start("seat0", "host", "aton", "--no-beacon", *flags)
        args = join_args(host)
        seat1 = procs.start("seat1", "join", *args, *flags)
        path = wait_until(lambda: logs(host.home) and logs(host.home)[0], 20, "the host's log")
        wait_until(lambda: entries_in(path) >= 10, 30, "the game to be under way")

        wrong = list(args)
        wrong[2] = Identity.from_seed(os.urandom(32)).public_key.hex()  # --key: someone else's
        impostor = procs.start("wrongkey", "join", *wrong, "--bind", LOOPBACK, "--headless", "--wait", "2")
        late = procs.start("late", "join", *args, "--bind", LOOPBACK, "--headless")

        # a node speaking protocol version 2 (admitted: this table lets anyone watch)
        future = Identity.from_seed(os.urandom(32))
        t = Transport(future, LOOPBACK, Admission())
        try:
            host_key = bytes.fromhex(args[2])
            t.connect(host_key, args[0])
            t.send(host_key, encode({"t": "hello", "v": 2, "table": bytes(16)}))
            host.wait_for(r"rejected a message from .*: protocol version 2; this node speaks version 1", 20)
        finally:
            t.close(linger_ms=500)

        assert impostor.wait(20) == 2
        assert "does not hold the key" in impostor.text() and "no answer from the table" in impostor.text()
        assert late.wait(20) == 2
        assert "The table refused this node: the table is full" in late.text()
        for p in (host, seat1):
            assert p.wait(60) == 0, p.text()[-2000:]
    finally:
        procs.close()
