"""A beacon flood, as a separate process: forged tables from fresh keys and many source
addresses (127.0.X.Y: every one of them is this machine's), at a steady rate, and a few
forged "other version" beacons from the address a real host announces from.

    python tests/programs/beacon_flood.py PORT SECONDS RATE [HOST_SOURCE]

It prints how many datagrams it sent, then exits."""
from __future__ import annotations

import os
import socket
import sys
import time

from peerboard.engines.canonical import encode
from peerboard.node.discovery import MAGIC, SIGNED
from peerboard.protocol.log.identity import Identity

SOURCES = [f"127.0.{a}.{b}" for a in range(1, 9) for b in range(1, 251)]  # 2,000 addresses


def forged(count: int) -> list[bytes]:
    """`count` well-formed beacons of tables nobody hosts, signed by fresh keys."""
    keys = [Identity.from_seed(os.urandom(32)) for _ in range(64)]
    out = []
    for i in range(count):
        key = keys[i % len(keys)]
        body = {"v": 1, "game": "aton", "players": 2, "free": 1, "name": f"noise {i}", "key": key.public_key,
                "table": os.urandom(16), "port": 9, "private": False}
        out.append(MAGIC + encode({**body, "sig": key.sign(SIGNED + encode(body))}))
    return out


def other_version(count: int) -> list[bytes]:
    return [MAGIC + encode({"v": 0, "game": "aton", "players": 2, "free": 1, "name": f"old {i}",
                            "key": os.urandom(32), "table": os.urandom(16), "port": 9}) for i in range(count)]


def main() -> None:
    port, seconds, rate = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
    host_source = sys.argv[4] if len(sys.argv) > 4 else None
    datagrams = forged(2000)
    socks = []
    for source in SOURCES:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (its port may be the beacons')
        s.bind((source, 0))
        socks.append(s)
    beside_host = None
    if host_source:
        beside_host = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        beside_host.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        beside_host.bind((host_source, 0))
    olds = other_version(4)
    # a real flooder is another machine; on the test's one machine the flood would take the CPU
    # of the very listener it floods (and its datagrams would be dropped unread, the real host's
    # among them): it runs at the lowest priority, so what is tested is the listener's rules
    os.nice(19)
    print("flooding", flush=True)
    sent, start = 0, time.monotonic()
    while (now := time.monotonic()) - start < seconds:
        due = int((now - start) * rate)
        while sent < due:  # (a burst to catch up, then a short sleep: a steady rate on average)
            # each table from a new address every time: no (table, key, address) comes back
            sock = socks[(sent + sent // len(datagrams)) % len(socks)]
            try:
                sock.sendto(datagrams[sent % len(datagrams)], ("127.255.255.255", port))
            except OSError:
                pass
            if beside_host is not None and sent % 50 == 0:
                for data in olds:
                    beside_host.sendto(data, ("127.255.255.255", port))
            sent += 1
        time.sleep(0.002)
    print(f"sent {sent} forged beacons in {time.monotonic() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
