"""Time from a seat's death to the game going on again: the table's patience, and what it
costs beyond it (spec/protocol.md, "Endings").

    python bench/bench_endings.py [--patience SECONDS] [--runs N] [--takeover]

A two-seat Aton game between two `--headless` processes on loopback (`host --patience P`,
`join`); after a few entries the joiner is killed (kill -9). The host, a headless seat,
claims the seat as soon as the patience has run out, and the game ends. Measured from the
kill, polling the host's output and its log file every 10 ms:
  - away: the host says the seat is away (the 5 s silence of spec/protocol.md, "Liveness"),
  - claimed: the claim entry is in the host's log (the game goes on: here, it ends),
  - signed: the host's result is in its log.
Printed per run, and beside them the patience: `claimed - patience` is what a claim costs
beyond it (the away timer counts from the last message heard, a beat a second; the claim
is written at the next tick), and `claimed / patience` the ratio. Exits 1 if no run measured.

With `--takeover`: a three-seat Athos game (`host --takeover greedy`, two joiners); the
second joiner is killed; both other seats claim it at once, the host (the claim's writer)
takes it over, and its greedy bot plays on. Measured besides: taken over (the `takeover`
entry is in the host's log) and going on (the first entry of the taken-over seat after it:
the bot's first move, or its reveal), each with the patience beside it as the baseline.
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from peerboard.protocol.log import read_log

JOIN = re.compile(r"from anywhere: peerboard join (\S+) --key (\S+) --table (\S+) --game (\S+)")
POLL = 0.01


def start(home: Path, *args: str) -> tuple[subprocess.Popen, Path]:
    home.mkdir(parents=True, exist_ok=True)
    out = home / "out.txt"
    env = dict(os.environ, PEERBOARD_HOME=str(home), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "peerboard.client.cli", *args], env=env,
                            stdin=subprocess.DEVNULL, stdout=open(out, "wb"), stderr=subprocess.STDOUT)
    return proc, out


def until(what, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(POLL)
    return None


def kinds(home: Path) -> list[str]:
    logs = sorted((home / "games").glob("*.pblog"))
    if not logs:
        return []
    try:
        return [e.kind for e in read_log(logs[0].read_bytes()).entries]
    except Exception:
        return []


def seats_of(home: Path) -> list[tuple[int, str]]:
    logs = sorted((home / "games").glob("*.pblog"))
    if not logs:
        return []
    try:
        return [(e.seat, e.kind) for e in read_log(logs[0].read_bytes()).entries]
    except Exception:
        return []


def takeover_run(tmp: Path, patience: int) -> dict | None:
    """Three Athos seats; the second joiner (seat 2) killed; the host takes it over."""
    flags = ["--headless", "--think", "0.02", "--bind", "tcp://127.0.0.1:0"]
    host, host_out = start(tmp / "host", "host", "athos", "--players", "3", "--no-beacon", "--patience",
                           str(patience), "--takeover", "greedy", *flags)
    joiners: list[subprocess.Popen] = []
    try:
        m = until(lambda: JOIN.search(host_out.read_text(errors="replace")), 30)
        if m is None:
            return None
        args = ["join", m.group(1), "--key", m.group(2), "--table", m.group(3), "--game", m.group(4), *flags]
        first, first_out = start(tmp / "first", *args)
        joiners.append(first)
        if not until(lambda: "You have seat 1" in first_out.read_text(errors="replace"), 30):
            return None
        second, _ = start(tmp / "second", *args)
        joiners.append(second)
        if not until(lambda: min(len(kinds(tmp / h)) for h in ("host", "first", "second")) >= 8, 60):
            return None
        second.send_signal(signal.SIGKILL)
        second.wait(10)
        dead = time.monotonic()
        times: dict[str, float] = {}
        deadline = dead + patience + 60
        while time.monotonic() < deadline and "going on" not in times:
            now = time.monotonic() - dead
            if "away" not in times and "is away" in host_out.read_text(errors="replace"):
                times["away"] = now
            entries = seats_of(tmp / "host")
            ks = [k for _, k in entries]
            if "claimed" not in times and "claim" in ks:
                times["claimed"] = now
            if "takeover" in ks:
                times.setdefault("taken over", now)
                after = ks.index("takeover")
                if any(seat == 2 for seat, _ in entries[after + 1:]):
                    times["going on"] = now
            time.sleep(POLL)
        return times if "going on" in times else None
    finally:
        for p in (host, *joiners):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(10)


def one_run(tmp: Path, patience: int) -> dict | None:
    flags = ["--headless", "--think", "0.02", "--bind", "tcp://127.0.0.1:0"]
    host, host_out = start(tmp / "host", "host", "aton", "--players", "2", "--no-beacon", "--patience", str(patience),
                           *flags)
    joiner = None
    try:
        m = until(lambda: JOIN.search(host_out.read_text(errors="replace")), 30)
        if m is None:
            return None
        joiner, _ = start(tmp / "joiner", "join", m.group(1), "--key", m.group(2), "--table", m.group(3),
                          "--game", m.group(4), *flags)
        if not until(lambda: len(kinds(tmp / "joiner")) >= 8 and len(kinds(tmp / "host")) >= 8, 60):
            return None
        joiner.send_signal(signal.SIGKILL)
        joiner.wait(10)
        dead = time.monotonic()
        times: dict[str, float] = {}
        deadline = dead + patience + 60
        while time.monotonic() < deadline and "signed" not in times:
            now = time.monotonic() - dead
            if "away" not in times and "is away" in host_out.read_text(errors="replace"):
                times["away"] = now
            ks = kinds(tmp / "host")
            if "claimed" not in times and "claim" in ks:
                times["claimed"] = now
            if "claimed" in times and ks and ks[-1] in ("result", "results"):  # (either form of the end)
                times["signed"] = now
            time.sleep(POLL)
        return times if "claimed" in times else None
    finally:
        for p in (host, joiner):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--patience", type=int, default=5)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--takeover", action="store_true", help="three Athos seats: the killed seat is taken over")
    args = ap.parse_args()
    if args.takeover:
        return takeover_main(args)
    measured = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            times = one_run(Path(tmp), args.patience)
        if times is None:
            print(f"run {run + 1}: measured nothing (the game did not start, or no claim came)")
            continue
        measured.append(times)
        print(f"run {run + 1}: away {times.get('away', float('nan')):.2f} s, claimed {times['claimed']:.2f} s, "
              f"result signed {times.get('signed', float('nan')):.2f} s after the kill; patience {args.patience} s")
    if not measured:
        print("measured nothing")
        return 1
    claimed = sorted(t["claimed"] for t in measured)
    best, worst = claimed[0], claimed[-1]
    print(f"death to the game going on: {best:.2f}-{worst:.2f} s with a patience of {args.patience} s: "
          f"{best - args.patience:+.2f} to {worst - args.patience:+.2f} s beyond it; "
          f"ratio claimed / patience {best / args.patience:.2f}-{worst / args.patience:.2f}")
    return 0


def takeover_main(args) -> int:
    measured = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            times = takeover_run(Path(tmp), args.patience)
        if times is None:
            print(f"run {run + 1}: measured nothing (the game did not start, or no takeover came)")
            continue
        measured.append(times)
        print(f"run {run + 1}: away {times.get('away', float('nan')):.2f} s, claimed {times['claimed']:.2f} s, "
              f"taken over {times['taken over']:.2f} s, the bot's first entry {times['going on']:.2f} s after the "
              f"kill; patience {args.patience} s")
    if not measured:
        print("measured nothing")
        return 1
    going = sorted(t["going on"] for t in measured)
    best, worst = going[0], going[-1]
    print(f"death to the game going on at three seats: {best:.2f}-{worst:.2f} s with a patience of {args.patience} s: "
          f"{best - args.patience:+.2f} to {worst - args.patience:+.2f} s beyond it; "
          f"ratio going on / patience {best / args.patience:.2f}-{worst / args.patience:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
