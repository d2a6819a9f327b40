"""How fast a private table's code can be guessed online: the guesses a real host checks a
second, beside the wrong-code hellos a guesser sends it in the same run.

Prints, never asserts. A host process opens a private table; a guesser process
(tests/programs/code_guesser.py) sends hellos from fresh keys, each with a knock for a wrong code, as
fast as it can for SECONDS — from one source address, then (at a new host) from SOURCES
addresses in turn. Printed for each: the hellos sent a second (what the host once checked,
9,670 a second), the codes the host checked (each one it told its user about, with the
count) and their rate, and the seconds a guess cost.

    python bench/bench_guesses.py [--seconds 20] [--sources 50]

Exits 1 if the host checked no guess at all (nothing measured).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.lanhelp import LOOPBACK, Procs, join_args  # noqa: E402

GUESSER = ROOT / "tests" / "programs" / "code_guesser.py"
WRONG = re.compile(r"a wrong code for this private table from (\S+) \((\d+) wrong codes so far")


def one_run(tmp: Path, seconds: float, sources: list[str]) -> tuple[int, float, int]:
    """(hellos sent, seconds they took, guesses the host checked)."""
    procs = Procs(tmp)
    try:
        host = procs.start("host", "host", "aton", "--no-beacon", "--code", "tea-time-42", "--bind", LOOPBACK,
                           "--headless")
        address, _, key, _, table, _, game = join_args(host)[:7]
        t0 = time.monotonic()
        out = subprocess.run([sys.executable, str(GUESSER), address, key, table, game, str(seconds), ",".join(sources)],
                             capture_output=True, text=True, timeout=seconds + 120)
        took = time.monotonic() - t0
        time.sleep(1)
        if out.returncode != 0:
            print(out.stderr[-2000:])
            return 0, took, 0
        return int(out.stdout.split()[1]), took, len(WRONG.findall(host.text()))
    finally:
        procs.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--sources", type=int, default=50)
    a = parser.parse_args()
    checked_any = False
    with tempfile.TemporaryDirectory() as folder:
        for label, sources in (("one source address", ["127.0.0.5"]),
                               (f"{a.sources} source addresses", [f"127.0.1.{i + 1}" for i in range(a.sources)])):
            sent, took, checked = one_run(Path(folder) / label.replace(" ", "-"), a.seconds, sources)
            checked_any |= checked > 0
            cost = f"{took / checked:.1f} s a guess" if checked else "no guess checked"
            print(f"{label:>22}: {sent / took:7.0f} wrong-code hellos/s sent, {checked} checked in {took:.1f} s = "
                  f"{checked / took:.2f} guesses/s ({cost})", flush=True)
    if not checked_any:
        print("the host checked no guess: nothing measured")
        sys.exit(1)


if __name__ == "__main__":
    main()
