"""The one-page replay (`peerboard replay FILE --html OUT`): how big a whole game's page
is, and how long writing it takes beside checking the same log (`replay --verify`).

    python bench/bench_pages.py [GAME ...] [--seed N]

For each game a random game is written as a signed log (bench_replay.py's `build_log`),
read as the replay viewer reads it, and turned into its page; the CPU time to build the
page is printed beside the CPU time of `verify_contents` on the same log, measured in the
same run (the ratio). Random players make long games: the entries are printed too.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench_replay import build_log

from peerboard import engines
from peerboard.client.page import build
from peerboard.client.tui.replay import load
from peerboard.protocol.log import read_log, verify_contents

PLAYERS = {"aton": 2, "athos": 3, "asterix": 3}


def cpu(work) -> tuple[float, object]:
    t0 = time.process_time()
    value = work()
    return time.process_time() - t0, value


def bench(name: str, seed: int, folder: Path) -> None:
    data, log = build_log(engines.get(name), PLAYERS.get(name, 2), seed)
    path = folder / f"{name}.pblog"
    path.write_bytes(data)
    verify_s, verdict = cpu(lambda: verify_contents(read_log(data)))
    assert verdict.ok, verdict.summary()
    page_s, page = cpu(lambda: build(load(path)[0]))
    size = len(page.html.encode("utf-8"))
    print(f"{name:8} {len(log.entries):5} entries {page.positions:5} positions {page.views} view(s) "
          f"{page.parts:5} parts  page {size / 1024:7.0f} KiB ({size / page.positions / 1024:5.2f} KiB a position)  "
          f"write {page_s:5.2f} s CPU  verify {verify_s:5.2f} s  ratio {page_s / verify_s:4.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["aton", "athos", "asterix"])
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name in args.games:
            bench(name, args.seed, Path(folder))


if __name__ == "__main__":
    main()
