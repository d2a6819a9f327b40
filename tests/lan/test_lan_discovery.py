"""Finding tables with no server: UDP beacons on loopback always, and across two network
namespaces joined by a veth pair where this machine allows it."""
from __future__ import annotations

import os
import subprocess
import threading
import uuid

import pytest

from peerboard.engines.canonical import encode
from support.lanhelp import LOOPBACK, Procs, assert_same_logs, the_log, verify
from peerboard.node.discovery import MAGIC, Beacon, parse_beacon

pytestmark = pytest.mark.processes


def test_tables_lists_a_table_on_loopback_and_join_by_its_id_plays_it(tmp_path):
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--headless", "--name", "alice")
        table = host.wait_for(r"table ([0-9a-f]{8}) open", 20).group(1)
        tables = procs.start("lister", "tables", "--wait", "3")
        assert tables.wait(20) == 0
        line = next(l for l in tables.text().splitlines() if l.startswith(table))
        assert "aton" in line and "1/2 seated" in line and "host alice" in line and "tcp://127.0.0.1:" in line
        joiner = procs.start("joiner", "join", table, "--bind", LOOPBACK, "--headless")
        for p in (host, joiner):
            assert p.wait(60) == 0, p.text()[-2000:]
        assert_same_logs([the_log(host.home), the_log(joiner.home)])
    finally:
        procs.close()


def test_a_table_speaking_another_protocol_version_is_named_not_joined(tmp_path):
    procs = Procs(tmp_path)
    beacon = Beacon("127.0.0.1", procs.beacon_port)
    data = MAGIC + encode({"v": 2, "game": "aton", "players": 2, "free": 1, "name": "future", "key": os.urandom(32),
                           "table": bytes.fromhex("ab" * 16), "port": 9})
    assert parse_beacon(data, "127.0.0.1").version == 2
    stop = threading.Event()

    def announce():
        while not stop.wait(0.2):
            beacon.send(data)

    thread = threading.Thread(target=announce, daemon=True)
    thread.start()
    try:
        joiner = procs.start("joiner", "join", "abababab", "--headless", "--wait", "3")
        assert joiner.wait(20) == 2
        assert "speaks protocol version 2; this peerboard speaks version 1" in joiner.text()
        lister = procs.start("lister", "tables", "--wait", "1.5")
        assert lister.wait(20) == 0 and "(protocol v2: cannot join)" in lister.text()
    finally:
        stop.set()
        thread.join(5)
        beacon.close()
        procs.close()


def _ip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)


@pytest.fixture
def two_namespaces():
    """Namespaces a and b joined by a veth pair, 10.231.x.1 and .2; removed afterwards."""
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root (ip netns); not running as root")
    tag = uuid.uuid4().hex[:6]
    a, b = f"pb-{tag}-a", f"pb-{tag}-b"
    made = []
    try:
        for ns in (a, b):
            r = _ip("netns", "add", ns)
            if r.returncode != 0:
                pytest.skip(f"this machine forbids network namespaces: ip netns add: {r.stderr.strip()}")
            made.append(ns)
        subnet = int(tag[:2], 16) % 250 + 1
        steps = [
            ("link", "add", f"v{tag}a", "type", "veth", "peer", "name", f"v{tag}b"),
            ("link", "set", f"v{tag}a", "netns", a), ("link", "set", f"v{tag}b", "netns", b),
            ("-n", a, "addr", "add", f"10.231.{subnet}.1/24", "broadcast", f"10.231.{subnet}.255", "dev", f"v{tag}a"),
            ("-n", b, "addr", "add", f"10.231.{subnet}.2/24", "broadcast", f"10.231.{subnet}.255", "dev", f"v{tag}b"),
            ("-n", a, "link", "set", f"v{tag}a", "up"), ("-n", b, "link", "set", f"v{tag}b", "up"),
            ("-n", a, "link", "set", "lo", "up"), ("-n", b, "link", "set", "lo", "up"),
        ]
        for step in steps:
            r = _ip(*step)
            if r.returncode != 0:
                pytest.skip(f"this machine forbids the veth setup: ip {' '.join(step)}: {r.stderr.strip()}")
        yield a, b, f"10.231.{subnet}.1"
    finally:
        for ns in made:
            _ip("netns", "del", ns)


def test_discovery_and_a_whole_game_across_two_network_namespaces(tmp_path, two_namespaces):
    """Slow (10-20 s): two network namespaces and a veth pair are made, then a whole game is played
    across them."""
    a, b, host_ip = two_namespaces
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--headless", "--name", "alice", netns=a)
        table = host.wait_for(r"table ([0-9a-f]{8}) open", 20).group(1)
        lister = procs.start("lister", "tables", "--wait", "3", netns=b)
        assert lister.wait(20) == 0
        assert f"{table}  aton" in lister.text() and f"tcp://{host_ip}:" in lister.text(), lister.text()
        joiner = procs.start("joiner", "join", table, "--headless", netns=b)
        for p in (host, joiner):
            assert p.wait(60) == 0, p.text()[-2000:]
        assert_same_logs([the_log(host.home), the_log(joiner.home)])
        assert "valid: aton" in verify(the_log(joiner.home))
    finally:
        procs.close()
