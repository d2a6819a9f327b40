"""What a beacon flood costs a listener, and whether a real table stays in view.

Prints, never asserts. A flood process (tests/programs/beacon_flood.py) sends one-off forged
beacons from 2,000 loopback addresses at RATE a second, and four forged other-version
tables from the real host's address; a real host (a signed beacon once a second) stands
beside it. Measured, each next to the same run without the flood:
- `peerboard tables --wait S` as a process: its CPU time over its wall time (1.00 = one
  core), and whether the real table is in what it printed;
- the lobby's listener (`NetworkLobby`, on an asyncio loop, as the lobby screen runs it) for
  S seconds: its CPU share, and whether the real table is in its snapshot at the end;
- `Heard.add` alone, per forged beacon, next to decoding one (the floor any listener pays).

    python bench/bench_discovery.py [--rate 5000] [--seconds 5]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "programs"))

from beacon_flood import forged  # noqa: E402
from peerboard.node.discovery import Heard, beacon_bytes, parse_beacon  # noqa: E402
from peerboard.protocol.log import decode  # noqa: E402
from peerboard.node.discovery import BEACON_LIMITS, MAGIC  # noqa: E402
from peerboard.protocol.log import Identity  # noqa: E402

HOST = Identity.from_seed(bytes(range(32)))
TABLE = bytes.fromhex("5e" * 16)


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RealHost:
    """A signed beacon once a second from 127.0.0.1, as a forming host sends it."""

    def __init__(self, port: int):
        self.port, self.stop = port, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        data = beacon_bytes("aton", 2, 1, "real-host", HOST, TABLE, 40000)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            while not self.stop.is_set():
                s.sendto(data, ("127.255.255.255", self.port))
                self.stop.wait(1.0)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(3)


def flooding(port: int, seconds: float, rate: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(ROOT / "tests" / "programs" / "beacon_flood.py"), str(port), str(seconds),
                             str(rate), "127.0.0.1"], stdout=subprocess.DEVNULL)


def tables_run(port: int, seconds: float, home: str) -> tuple[float, bool]:
    peerboard = shutil.which("peerboard", path=os.path.dirname(sys.executable)) or "peerboard"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run([peerboard, "tables", "--wait", str(seconds)], capture_output=True, text=True,
                         env=dict(os.environ, PEERBOARD_BEACON_PORT=str(port), PEERBOARD_HOME=home), timeout=120)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu / wall, "real-host" in out.stdout


def lobby_run(port: int, seconds: float) -> tuple[float, bool]:
    from peerboard.client.tui.lobby_source import NetworkLobby

    async def listen() -> bool:
        lobby = NetworkLobby(port, games=None)
        lobby.subscribe(lambda event: None)
        await asyncio.sleep(seconds)
        seen = any(t.host == "real-host" for t in lobby.snapshot().tables)
        lobby.close()
        return seen

    start_cpu, start = time.process_time(), time.monotonic()
    seen = asyncio.run(listen())
    return (time.process_time() - start_cpu) / (time.monotonic() - start), seen


def per_beacon() -> tuple[float, float]:
    noise = forged(2000)
    heard = Heard()
    t = time.perf_counter()
    for round_ in range(5):
        for i, data in enumerate(noise):
            source = f"10.{round_}.{i // 250}.{i % 250}"
            heard.add(parse_beacon(data, source), source)
    add = (time.perf_counter() - t) / (5 * len(noise))
    t = time.perf_counter()
    for _ in range(5):
        for data in noise:
            decode(data[len(MAGIC):], BEACON_LIMITS)
    return add, (time.perf_counter() - t) / (5 * len(noise))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=5000)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    print(f"beacon flood: {args.rate:,.0f} one-off forged beacons/s from 2,000 addresses, "
          f"a real table beside it; {args.seconds:g} s each")
    with tempfile.TemporaryDirectory() as home:
        for what, run in (("peerboard tables", lambda port: tables_run(port, args.seconds, home)),
                          ("lobby listener", lambda port: lobby_run(port, args.seconds))):
            results = {}
            for flood in (False, True):
                port = free_udp_port()
                with RealHost(port):
                    proc = flooding(port, args.seconds + 5, args.rate) if flood else None
                    try:
                        if proc is not None:
                            time.sleep(1.5)  # the flood is on before anyone listens
                        results[flood] = run(port)
                    finally:
                        if proc is not None:
                            proc.kill()
                            proc.wait()
            (quiet, quiet_seen), (loud, loud_seen) = results[False], results[True]
            print(f"  {what:<17} CPU {quiet:5.2f} core quiet, {loud:5.2f} core flooded "
                  f"(+{loud - quiet:.2f}); the real table listed: quiet {'yes' if quiet_seen else 'NO'}, "
                  f"flooded {'yes' if loud_seen else 'NO'}")
            if not quiet_seen:
                sys.exit(f"measured nothing: the {what} never listed the real table, even with no flood")
    add, floor = per_beacon()
    print(f"  parse + Heard.add {add * 1e6:6.1f} us per forged beacon; decoding it alone {floor * 1e6:5.1f} us "
          f"(ratio {add / floor:.1f}); at {args.rate:,.0f}/s that is {add * args.rate:.2f} core")


if __name__ == "__main__":
    main()
