"""The consensus session's cost: messages and bytes per confirmed entry and per move, and
session CPU time per node per confirmed entry and per move (a move's share of the reveals,
commitments, audit and result entries around it included) next to one Ed25519 sign + verify
measured in the same run, on the same clock (CPU time, `time.process_time`, which a loaded
machine disturbs less than wall time): the mean of one measured right before and one right
after each simulated game, and of five identical games the one with the median CPU in those
units (other work on the machine slows the unit and the game alike; a burst of it that hits
one game or its units moves only that game's ratio). A clean simulated network
(tests/support/simnet.py): no sockets, so this is the protocol's own cost.

What is counted as a node's CPU (`Node.cpu`, tests/support/simnet.py): everything its session does
with what it receives, its ticks, its submits and its deferred next steps, and every effect
its production runner carries out (the simulated sends and stores included). Not counted:
the simulator's scheduler, the random players' picking of a move from the legal list, and
the bench's own checks between steps. The CPU of the whole simulated run, all of that
included, is printed beside it ("whole run").

Each case runs twice in the same run: as this version plays (acks gathered by each entry's
author at three seats or more, a reveal round as one `reveals` entry, the end as one `audits`
and one `results` entry: spec/protocol.md, "Confirmation", "Fair chance" and "The end
together") and, as the baseline, the way the protocol played before (every seat acks every
entry to every peer, one `reveal` entry per seat and round, one `audit` and one `result`
entry per seat — what the same code does with those three switches turned back). Beats are counted apart: they go every
second, not with each move. The goals: at most 4n messages per move besides the beats, and
a node's CPU per move at most 3x one sign + verify.

    python bench/bench_session.py

Exits 1 if a case measured no move, or no node's CPU.
"""
from __future__ import annotations

import os
import sys
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from peerboard.protocol.log import ENDS_TOGETHER, REVEALS_TOGETHER, Identity, verify  # noqa: E402
from peerboard.protocol.session import decode_message  # noqa: E402
from support.forms import GATHER_FROM, table_forms  # noqa: E402
from support.simnet import SimNet  # noqa: E402

CASES = [("aton", 2, {}), ("asterix", 2, {"max_rounds": 10}), ("asterix", 4, {"max_rounds": 4}), ("asterix", 8, {"max_rounds": 2})]
FORMS = {  # name -> (seats from which acks are gathered, the genesis's `reveals`, its `ends`)
    "before": (99, None, None),
    # this version but for the end: one `audit` and one `result` entry per seat (what the end
    # together alone changes is the ratio of "now" to this)
    "ends-apart": (GATHER_FROM, REVEALS_TOGETHER, None),
    "now": (GATHER_FROM, REVEALS_TOGETHER, ENDS_TOGETHER),
}


def sign_verify_seconds(n: int = 2000, tries: int = 3) -> float:
    """CPU seconds of one sign + verify (the clock the session's CPU is measured on)."""
    ident = Identity.from_seed(bytes(range(32)))
    key = ident.public_key
    message = b"x" * 200
    best = float("inf")
    for _ in range(tries):
        t0 = time.process_time()
        for _ in range(n):
            verify(key, message, ident.sign(message))
        best = min(best, (time.process_time() - t0) / n)
    return best


RUNS = 5  # identical runs of each case and form


def measure(game: str, seats: int, options: dict, form: str) -> dict:
    gather_from, reveals, ends = FORMS[form]
    with table_forms(gather_from, reveals, ends):
        runs = []
        for _ in range(RUNS):
            # A unit right before and right after each run, and the run's CPU taken in units
            # of their mean: a machine busy with other work slows both alike, so the ratio
            # moves less than either (a unit measured once for the whole bench, while the
            # load changed, made one case look 1.5x slower than the same code a case later).
            before = sign_verify_seconds(300, 1)
            net = SimNet(7)
            nodes = net.table(game, seats, options)
            for n in nodes:
                n.sent.clear()
            m0, b0 = net.messages, net.bytes
            c0 = sum(n.cpu for n in nodes)
            t0 = time.process_time()
            assert net.run(lambda: net.finished(nodes), max_time=100_000)
            net.run(lambda: all(len(n.confirmed) == len(n.disk.entries) for n in nodes), max_time=10)
            run_whole, run_cpu = time.process_time() - t0, sum(n.cpu for n in nodes) - c0
            runs.append((run_cpu / ((before + sign_verify_seconds(300, 1)) / 2), run_cpu, run_whole))
        # the run of the median ratio: a burst of other work that slowed only the game, or
        # only its units, moves one run's ratio, not the median
        ratio, cpu, whole = sorted(runs)[len(runs) // 2]
        unit = cpu / ratio if ratio else 0.0
    kinds = Counter(decode_message(data).kind for n in nodes for _, data in n.sent)
    entries = len(nodes[0].disk.entries)
    moves = sum(1 for e in nodes[0].disk.entries if e.kind == "move")
    return {"entries": entries, "moves": moves, "messages": net.messages - m0, "bytes": net.bytes - b0,
            "beats": kinds["beat"], "cpu": cpu, "whole": whole, "unit": unit, "kinds": kinds}


def main() -> int:
    print(f"one Ed25519 sign + verify: {sign_verify_seconds() * 1e6:.0f} us of CPU (each row: its own, measured "
          f"around its runs)")
    measured = True
    for game, seats, options in CASES:
        rows = {form: measure(game, seats, options, form) for form in FORMS}
        for form, r in rows.items():
            entries, moves = r["entries"], r["moves"]
            if not moves or r["cpu"] <= 0:
                measured = False
                print(f"{game:8} {seats} seats {form:10}: no move, or no node's CPU, measured")
                continue
            per_move = (r["messages"] - r["beats"]) / moves
            per_move_node = r["cpu"] / moves / seats
            unit = r["unit"]
            print(f"{game:8} {seats} seats {form:10}: {entries:3} entries ({moves} moves); per move "
                  f"{per_move:5.1f} messages besides beats (goal {4 * seats}: {per_move / (4 * seats):.2f}x), "
                  f"{r['beats'] / moves:4.1f} beats, {r['bytes'] / moves:6.0f} bytes; "
                  f"session CPU per node {per_move_node * 1e6:5.0f} us per move = {per_move_node / unit:5.2f}x sign+verify "
                  f"({r['cpu'] / entries / seats / unit:.2f}x per entry; whole run {r['whole'] / moves / seats / unit:.2f}x; "
                  f"unit {unit * 1e6:.0f} us)")
        now = rows["now"]
        for base in ("before", "ends-apart"):
            before = rows[base]
            if before["moves"] and now["moves"]:
                b = (before["messages"] - before["beats"]) / before["moves"]
                a = (now["messages"] - now["beats"]) / now["moves"]
                # (each in its own run's units)
                cb = before["cpu"] / before["unit"] / before["moves"]
                ca = now["cpu"] / now["unit"] / now["moves"]
                eb, ea = before["entries"] / before["moves"], now["entries"] / now["moves"]
                print(f"{'':8} {seats} seats  now / {base:10}: entries per move {ea / eb:.2f}x, messages per move "
                      f"{a / b:.2f}x, CPU per move {ca / cb:.2f}x")
    return 0 if measured else 1


if __name__ == "__main__":
    sys.exit(main())
