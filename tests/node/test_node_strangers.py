"""A forming host admits any key (it cannot know its joiners'), so strangers cost it
something: what they cost is bounded. Hellos from thousands of fresh keys neither use up
the host's sockets and files nor keep an honest joiner out (spec/transport.md, "Admission")."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, join_args, the_log, wait_until
from peerboard.node.transport import MAX_STRANGERS, MAX_STRANGERS_PER_HOST, Admission, Transport
from peerboard.protocol.log.identity import Identity

FLOOD = Path(__file__).resolve().parents[1] / "programs" / "hello_flood.py"


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_dealers_to_strangers_are_bounded_in_all_and_per_host_the_oldest_closed_first():
    me = Transport(Identity.from_seed(os.urandom(32)), LOOPBACK, Admission())
    try:
        strangers = [Identity.from_seed(os.urandom(32)).public_key for _ in range(3 * MAX_STRANGERS)]
        for i, key in enumerate(strangers):
            me.connect(key, f"tcp://127.0.{1 + i}.1:4000", stranger=True)
        assert len(me.dealers) == MAX_STRANGERS and list(me.strangers) == strangers[-MAX_STRANGERS:]
        one_host = [Identity.from_seed(os.urandom(32)).public_key for _ in range(10)]
        for i, key in enumerate(one_host):
            me.connect(key, f"tcp://127.0.99.1:{5000 + i}", stranger=True)
        assert [k for k in me.strangers if k in one_host] == one_host[-MAX_STRANGERS_PER_HOST:]
        seat = one_host[-1]
        me.connect(seat, "tcp://127.0.99.1:5009")  # it took a seat: no stranger any more
        assert seat not in me.strangers and seat in me.dealers
        for i in range(2 * MAX_STRANGERS):
            me.connect(Identity.from_seed(os.urandom(32)).public_key, f"tcp://127.0.200.{1 + i}:6000", stranger=True)
        assert seat in me.dealers  # strangers never push out a seat
    finally:
        me.close()


@pytest.mark.processes
def test_hellos_from_thousands_of_fresh_keys_neither_exhaust_a_forming_host_nor_keep_a_joiner_out(tmp_path):
    """Slow (about 15 s): thousands of hellos from fresh keys, each a key made and a CURVE handshake,
    reach the host before the real joiner comes."""
    procs = Procs(tmp_path)
    try:
        host = procs.start("host", "host", "aton", "--bind", LOOPBACK, "--headless", "--think", "0.002")
        address, _, key, _, table, _, game = join_args(host)
        time.sleep(0.5)
        before = open_files(host.popen.pid)
        most = [before]
        stop = threading.Event()

        def watch() -> None:
            while not stop.wait(0.05):
                try:
                    most.append(open_files(host.popen.pid))
                except FileNotFoundError:
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        flood = subprocess.run([sys.executable, str(FLOOD), address, key, table, game, "10000"],
                               capture_output=True, text=True, timeout=300)
        stop.set()
        watcher.join(5)
        assert flood.returncode == 0, flood.stderr[-2000:]
        time.sleep(2)  # the flooder's connections are closed by now
        after = open_files(host.popen.pid)
        rss = int(Path(f"/proc/{host.popen.pid}/status").read_text().split("VmRSS:")[1].split()[0])
        print(flood.stdout.strip(), f"; the host's open files: {before} before, at most {max(most)} during, "
              f"{after} after; its memory after: {rss / 1024:.0f} MB")
        assert host.popen.poll() is None, host.text()[-2000:]
        # what strangers leave behind: at most MAX_STRANGERS DEALERs of three descriptors each
        # (socket, monitor, the monitor's pipe) — unbounded, three per key, until the process
        # ran out of descriptors
        assert after <= before + 3 * MAX_STRANGERS + 16
        # a stranger that says hello once holds seat 1 until its lease runs out (nothing more
        # comes from it): an honest joiner refused "full" meanwhile asks again till then
        def seat_1(said: str) -> bool:
            lines = [line for line in host.text().splitlines() if line.startswith("Seat 1 ")]
            return bool(lines) and said in lines[-1]

        wait_until(lambda: seat_1("is free again"), 30, "seat 1 freed after the flood")
        squat = subprocess.run([sys.executable, str(FLOOD), address, key, table, game, "1"],
                               capture_output=True, text=True, timeout=60)
        assert squat.returncode == 0, squat.stderr[-2000:]
        wait_until(lambda: seat_1("taken by fresh 0"), 10, "seat 1 taken by one more stranger")
        joiner = procs.start("joiner", "join", *join_args(host), "--bind", LOOPBACK, "--headless", "--think", "0.002")
        for p in (host, joiner):
            assert p.wait(90) == 0, p.text()[-2000:]
        assert joiner.text().count("refused this node for now: the table is full") == 1, joiner.text()
        assert_same_logs([the_log(host.home), the_log(joiner.home)])
    finally:
        procs.close()
