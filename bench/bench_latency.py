"""Move confirmation latency on real node processes (loopback), next to its floor.

Prints, never asserts. For 2, 4 and 8 nodes (`peerboard play asterix --bots N-1 --headless`,
each a separate process): the time from a random player's submit to the moment every node
has confirmed that entry (p50, p99), and the resident memory of the nodes during the game.
The floor, measured in the same run: one raw pyzmq DEALER->ROUTER->DEALER round trip with
CURVE on loopback plus one fsynced append of a log entry.

    python bench/bench_latency.py [--rounds R] [--think S]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zmq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from node.storage import LogFile  # noqa: E402
from protocol.identity import Identity  # noqa: E402
from protocol.records import Genesis, Seat, make_entry, sign_genesis  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def zmq_round_trip(n: int = 2000) -> list[float]:
    ctx = zmq.Context()
    spub, ssec = zmq.curve_keypair()
    cpub, csec = zmq.curve_keypair()
    router = ctx.socket(zmq.ROUTER)
    router.curve_server, router.curve_publickey, router.curve_secretkey = True, spub, ssec
    router.bind("tcp://127.0.0.1:*")
    dealer = ctx.socket(zmq.DEALER)
    dealer.curve_publickey, dealer.curve_secretkey, dealer.curve_serverkey = cpub, csec, spub
    dealer.connect(router.getsockopt(zmq.LAST_ENDPOINT).decode())
    payload = os.urandom(300)
    times = []
    for i in range(n + 100):
        t = time.perf_counter()
        dealer.send(payload)
        who, data = router.recv_multipart()
        router.send_multipart([who, data])
        dealer.recv()
        if i >= 100:
            times.append(time.perf_counter() - t)
    dealer.close(0)
    router.close(0)
    ctx.term()
    return times


def fsync_append(n: int = 300) -> list[float]:
    me = Identity.from_seed(os.urandom(32))
    genesis = sign_genesis(Genesis("aton", "1", {}, (Seat("a", me.public_key),), os.urandom(16)), [me])
    entry = make_entry(me, 1, genesis.hash, 0, "move", {"actions": [("pass",)], "nonce": None})
    times = []
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        log = LogFile.create(Path(tmp) / "bench.pblog", genesis)
        for _ in range(n):
            t = time.perf_counter()
            log.append(entry)
            times.append(time.perf_counter() - t)
        log.close()
    return times


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def game_latency(nodes: int, rounds: int, think: float) -> tuple[list[float], list[int]]:
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "trace"
        trace.mkdir()
        env = dict(os.environ, PEERBOARD_HOME=str(Path(tmp) / "home"), PEERBOARD_TRACE=str(trace),
                   PYTHONPATH=str(ROOT))
        proc = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "play", "asterix", "--bots", str(nodes - 1), "--headless",
             "--think", str(think), "--option", f"max_rounds={rounds}", "--max-seconds", "300"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, cwd=str(ROOT))
        rss = []
        while proc.poll() is None:
            time.sleep(0.5)
            sample = [rss_kib(p) for p in [proc.pid] + children(proc.pid)]
            if len(sample) == nodes and all(sample):
                rss = max(rss, sample, key=sum) if rss else sample
        proc.wait()
        submits: dict[int, float] = {}
        confirms: dict[int, list[float]] = {}
        for f in trace.glob("*.trace"):
            for line in f.read_text().splitlines():
                what, seq, at = line.split()
                if what == "submit":
                    submits[int(seq)] = float(at)
                else:
                    confirms.setdefault(int(seq), []).append(float(at))
        latencies = [max(confirms[s]) - t for s, t in submits.items() if len(confirms.get(s, ())) == nodes]
        return latencies, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4, help="Asterix rounds per game (default 4)")
    parser.add_argument("--think", type=float, default=0.02, help="pause before each random move (default 0.02 s)")
    args = parser.parse_args()
    rtt, sync = zmq_round_trip(), fsync_append()
    floor = statistics.median(rtt) + statistics.median(sync)
    print(f"floor: pyzmq CURVE DEALER/ROUTER round trip p50 {statistics.median(rtt) * 1e3:.3f} ms "
          f"(p99 {pct(rtt, 0.99) * 1e3:.3f}), fsynced append p50 {statistics.median(sync) * 1e3:.3f} ms "
          f"(p99 {pct(sync, 0.99) * 1e3:.3f}); floor {floor * 1e3:.3f} ms")
    for nodes in (2, 4, 8):
        lat, rss = game_latency(nodes, args.rounds, args.think)
        if not lat:
            print(f"{nodes} nodes: no moves measured")
            continue
        p50, p99 = statistics.median(lat), pct(lat, 0.99)
        mem = f"RSS per node {min(rss) // 1024}-{max(rss) // 1024} MiB" if rss else "RSS not sampled"
        print(f"{nodes} nodes: confirmation latency p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms over "
              f"{len(lat)} moves; p50 = {p50 / floor:.1f}x the floor; {mem}")


if __name__ == "__main__":
    main()
