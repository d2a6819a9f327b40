"""The consensus session's cost: messages and bytes per confirmed entry and per move, and
session CPU time per node per confirmed entry and per move (a move's share of the reveals,
commitments, audit and result entries around it included) next to one Ed25519 sign + verify
measured in the same run. The CPU includes the simulator's own bookkeeping (its nodes carry
out the effects with the production runner, the deferred next step included: one scheduled
event per entry per node). A clean simulated network (tests/simnet.py): no sockets, so this
is the protocol's own cost.

    python bench/bench_session.py
"""
from __future__ import annotations

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from peerboard.protocol.identity import Identity, verify  # noqa: E402
from simnet import SimNet  # noqa: E402

CASES = [("aton", 2, {}), ("asterix", 2, {"max_rounds": 10}), ("asterix", 4, {"max_rounds": 4}), ("asterix", 8, {"max_rounds": 2})]


def sign_verify_seconds(n: int = 2000) -> float:
    ident = Identity.from_seed(bytes(range(32)))
    key = ident.public_key
    message = b"x" * 200
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(n):
            verify(key, message, ident.sign(message))
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def main() -> None:
    unit = sign_verify_seconds()
    print(f"one Ed25519 sign + verify: {unit * 1e6:.0f} us")
    for game, seats, options in CASES:
        cpu = float("inf")
        for _ in range(3):  # the least disturbed of three identical runs
            net = SimNet(7)
            nodes = net.table(game, seats, options)
            m0, b0 = net.messages, net.bytes
            t0 = time.process_time()
            assert net.run(lambda: net.finished(nodes), max_time=100_000)
            net.run(lambda: all(len(n.confirmed) == len(n.disk.entries) for n in nodes), max_time=10)
            cpu = min(cpu, time.process_time() - t0)
        entries = len(nodes[0].disk.entries)
        moves = sum(1 for e in nodes[0].disk.entries if e.kind == "move")
        msgs, size = net.messages - m0, net.bytes - b0
        per_entry_node = cpu / entries / seats
        per_move_node = cpu / moves / seats
        print(f"{game:8} {seats} seats: {entries} entries ({moves} moves); "
              f"{msgs / entries:5.1f} messages and {size / entries:6.0f} bytes per confirmed entry, "
              f"{msgs / moves:5.1f} messages and {size / moves:6.0f} bytes per move; session CPU per node: "
              f"{per_entry_node * 1e6:4.0f} us per entry = {per_entry_node / unit:.2f}x sign+verify, "
              f"{per_move_node * 1e6:4.0f} us per move = {per_move_node / unit:.2f}x")


if __name__ == "__main__":
    main()
