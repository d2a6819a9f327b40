"""What an admitted spectator flooding `want` costs a game: its pace beside the same game
without the flood, measured in the same run.

Prints, never asserts. Each round is a real Athos game of two node processes on loopback
(`host` and `join`, the built-in random player pausing THINK seconds before each of its
decisions, 10 ms by default: a fast bot's pace, about 65 entries a second); once the
host's log holds START entries, the entries it gains in SECONDS are counted — with nothing
else running, then with an admitted spectator (tests/programs/want_flood.py, its own process) sending
`want(1)` to the host as fast as it can, reading whatever comes back. Printed: both paces
(entries a second), their ratio (goal: at least 0.8, "a flood costs the game at most a fifth
of its pace"), what the flooder sent and got back, and whether the host said who floods.
Rounds alternate (plain, flooded, plain, flooded ...) so a neighbour's load hits both alike.

    python bench/bench_want_flood.py [--rounds 2] [--seconds 6] [--start 80] [--think 0.01]

Exits 1 if a round measured nothing (a game that ended or never got going in its window).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.lanhelp import LOOPBACK, Procs, entries_in, join_args, logs, wait_until  # noqa: E402

from peerboard.node.keys import load_identity  # noqa: E402

FLOOD = ROOT / "tests" / "programs" / "want_flood.py"


def one_round(tmp: Path, flooded: bool, seconds: float, start: int, think: float) -> tuple[float | None, str]:
    """The host's entries a second over `seconds` once its log holds `start` entries."""
    flooder = load_identity(tmp / "flooder")
    procs = Procs(tmp)
    flags = ["--bind", LOOPBACK, "--headless", "--think", str(think)]
    try:
        host = procs.start("host", "host", "athos", "--players", "2", "--no-beacon", *flags,
                           "--spectator", flooder.public_key.hex())
        args = join_args(host)
        procs.start("joiner", "join", *args, *flags)
        path = wait_until(lambda: logs(host.home) and logs(host.home)[0], 30, "the host's log")
        wait_until(lambda: entries_in(path) >= start, 60, f"{start} entries")
        flood = None
        if flooded:
            flood = subprocess.Popen([sys.executable, str(FLOOD), str(tmp / "flooder"), args[0], args[2], args[4],
                                      args[6], str(seconds + 1)], stdout=subprocess.PIPE, text=True)
            time.sleep(1.0)  # (connected, and flooding)
        before, t0 = entries_in(path), time.monotonic()
        time.sleep(seconds)
        after, took = entries_in(path), time.monotonic() - t0
        said = ""
        if flood is not None:
            said = flood.communicate(timeout=60)[0].strip()
            shown = [line for line in host.text().splitlines() if "flood" in line]
            said += f"; the host said: {shown[0] if shown else 'nothing'}"
        over = host.popen.poll() is not None
        return (None if over or after <= before else (after - before) / took), said
    finally:
        procs.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--start", type=int, default=80)
    parser.add_argument("--think", type=float, default=0.01)
    a = parser.parse_args()
    paces: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as folder:
        for r in range(a.rounds):
            for flooded in (False, True):
                pace, said = one_round(Path(folder) / f"{r}-{flooded}", flooded, a.seconds, a.start, a.think)
                label = "with a want flood" if flooded else "without"
                print(f"round {r + 1}, {label:>17}: "
                      + ("nothing measured (the game ended in its window)" if pace is None else f"{pace:6.1f} entries/s")
                      + (f"  ({said})" if said else ""), flush=True)
                if pace is not None:
                    paces[flooded].append(pace)
    if not paces[False] or not paces[True]:
        print("nothing measured for one of the two: no ratio")
        sys.exit(1)
    plain, flooded = statistics.median(paces[False]), statistics.median(paces[True])
    print(f"Athos, 2 node processes, players pausing {a.think * 1000:g} ms: {plain:.1f} entries/s without, {flooded:.1f} with a want flood: "
          f"{flooded / plain:.2f}x the pace (goal: at least 0.80x)")


if __name__ == "__main__":
    main()
