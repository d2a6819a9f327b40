"""Forged and flooding beacons against real processes on loopback: `tables` and `join`
never end in a traceback and print a bounded output, with every name escaped; a second host
announcing a real table's id is shown beside it, and `join ID@FINGERPRINT` picks the real
one (spec/transport.md, "Discovery")."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from peerboard.engines.canonical import encode
from support.lanhelp import LOOPBACK, Procs, assert_same_logs, the_log
from peerboard.node.discovery import MAGIC, MAX_TABLES, SIGNED
from peerboard.protocol.log.identity import Identity

pytestmark = pytest.mark.processes

FAKE = Identity.from_seed(bytes([7]) * 32)
NOT_A_POINT = bytes.fromhex("02" + "00" * 31)


def _beacon(table: bytes, key: bytes, name: str, port: int = 9, **changes) -> bytes:
    """A beacon; signed when FAKE's key is the one it names (a forger signs with its own key)."""
    fields = {"v": 1, "game": "aton", "players": 2, "free": 1, "name": name, "key": key, "table": table,
              "port": port, "private": False, **changes}
    sig = FAKE.sign(SIGNED + encode(fields)) if key == FAKE.public_key else bytes(64)
    return MAGIC + encode({**fields, "sig": sig})


class Flood:
    """Sends forged and flooding beacons from 127.0.0.2 and 127.0.0.3 until stopped."""

    def __init__(self, port: int, real_table: bytes):
        self.port, self.real_table = port, real_table
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def datagrams(self, round_: int) -> list[tuple[str, bytes]]:
        flood = [("127.0.0.2", _beacon(os.urandom(16), FAKE.public_key, f"flood {round_}-{i}")) for i in range(40)]
        forged = [
            ("127.0.0.2", _beacon(os.urandom(16), NOT_A_POINT, "not a point")),
            ("127.0.0.2", _beacon(os.urandom(16), FAKE.public_key, "\x1b[2J\x1b]0;pwned\x07")),
            ("127.0.0.2", _beacon(os.urandom(16), FAKE.public_key, "x" * 500)),
            ("127.0.0.2", MAGIC + os.urandom(300)),
            ("127.0.0.2", MAGIC + encode({"v": 1})),
            # a second host claiming the real table's id, from another address
            ("127.0.0.3", _beacon(self.real_table, FAKE.public_key, "mallory", 41000)),
        ]
        return flood + forged

    def run(self) -> None:
        socks = {}
        for source in ("127.0.0.2", "127.0.0.3"):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            s.bind((source, 0))
            socks[source] = s
        round_ = 0
        try:
            while not self.stop.wait(0.05):
                for source, data in self.datagrams(round_):
                    socks[source].sendto(data, ("127.255.255.255", self.port))
                round_ += 1
        finally:
            for s in socks.values():
                s.close()

    def __enter__(self) -> "Flood":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(5)


def test_forged_and_flooding_beacons_give_a_bounded_list_and_join_picks_the_real_host_by_fingerprint(tmp_path):
    """Slow (about 10-20 s): `tables` and `join` listen through seconds of a forged-beacon flood."""
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--headless", "--think", "0.002",
                           "--name", "alice")
        table = host.wait_for(r"table ([0-9a-f]{8}) open", 20).group(1)
        fingerprint = host.wait_for(rf"peerboard join {table}@([a-z2-7]{{4}}-[a-z2-7]{{4}})", 5).group(1)
        full_id = host.wait_for(r"--table ([0-9a-f]{32})", 5).group(1)
        with Flood(procs.beacon_port, bytes.fromhex(full_id)):
            lister = procs.start("lister", "tables", "--wait", "3")
            assert lister.wait(30) == 0
            text = lister.text()
            lines = text.splitlines()
            assert len(lines) <= MAX_TABLES + 4 and max(map(len, lines)) < 300
            assert "Traceback" not in text and "\x1b" not in text and "\x07" not in text
            ours = [l for l in lines if l.startswith(table)]
            assert len(ours) == 2 and any(f"host alice ({fingerprint})" in l for l in ours)
            assert any(f"host mallory ({FAKE.fingerprint})" in l for l in ours)
            assert f"2 hosts announce table {table}" in text
            assert "announcements of further tables were ignored" in text
            assert "were not valid beacons" in text

            ambiguous = procs.start("ambiguous", "join", table, "--bind", LOOPBACK, "--headless", "--wait", "3")
            assert ambiguous.wait(30) == 2
            said = ambiguous.text()
            assert said.count("\n") == 1 and len(said) < 1000 and "Traceback" not in said
            assert f"{table}@{fingerprint}" in said and f"{table}@{FAKE.fingerprint}" in said
            assert "name one: peerboard join ID@FINGERPRINT" in said

            joiner = procs.start("joiner", "join", f"{table}@{fingerprint}", "--bind", LOOPBACK, "--headless",
                                 "--think", "0.002", "--wait", "5")
            for p in (host, joiner):
                assert p.wait(60) == 0, p.text()[-2000:]
        assert_same_logs([the_log(host.home), the_log(joiner.home)])
    finally:
        procs.close()


def test_join_by_a_host_fingerprint_alone_when_that_host_announces_one_table(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--headless", "--think", "0.002")
        fingerprint = host.wait_for(r"peerboard join [0-9a-f]{8}@([a-z2-7]{4}-[a-z2-7]{4})", 20).group(1)
        joiner = procs.start("joiner", "join", fingerprint, "--bind", LOOPBACK, "--headless", "--think", "0.002")
        for p in (host, joiner):
            assert p.wait(60) == 0, p.text()[-2000:]
    finally:
        procs.close()


def test_a_real_table_stays_listed_and_joinable_under_five_thousand_forged_beacons_a_second(tmp_path):
    """spec/transport.md, "Discovery": one-off forgeries from 2,000 addresses at 5,000 a
    second, and four forged other-version tables from the host's own address, hide nothing.

    Slow (about 10-20 s): the flood runs for seconds at its full rate while the table must stay listed."""
    procs = Procs(tmp_path)
    flood = None
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--headless", "--think", "0.002",
                           "--name", "alice")
        table = host.wait_for(r"table ([0-9a-f]{8}) open", 20).group(1)
        flood = subprocess.Popen([sys.executable, str(Path(__file__).resolve().parents[1] / "programs" / "beacon_flood.py"),
                                  str(procs.beacon_port), "40", "5000", "127.0.0.1"],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert flood.stdout.readline().strip() == "flooding"  # the flood is on before anyone listens
        # (listed by the third beacon heard: six seconds leave room for a few the flood drowned)
        lister = procs.start("lister", "tables", "--wait", "6")
        assert lister.wait(30) == 0
        text = lister.text()
        ours = [line for line in text.splitlines() if line.startswith(table)]
        assert len(ours) == 1 and "host alice" in ours[0], text[-3000:]
        assert "announcements of further tables were ignored" in text
        joiner = procs.start("joiner", "join", table, "--bind", LOOPBACK, "--headless", "--think", "0.002",
                             "--wait", "4")
        for p in (host, joiner):
            assert p.wait(90) == 0, p.text()[-2000:]
        assert flood.poll() is None, "the flood ended before the game did: it proved nothing"
    finally:
        if flood is not None:
            flood.kill()
            flood.wait(10)
        procs.close()
