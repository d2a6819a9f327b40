"""One node of bench/bench_latency.py: a seat of an Asterix table on loopback, played by a
random player that notes when it submitted each move and when each entry was confirmed at
this node. It uses the node's public surface only (node/loop.py: host, join, submit, run,
and the events it passes on), so nothing in the product writes traces for the bench.

    python bench/latency_node.py host PLAYERS ROUNDS THINK GAMES_DIR
        prints one JSON line {"endpoint", "key", "table"} once the table is open
    python bench/latency_node.py join ENDPOINT KEY TABLE THINK GAMES_DIR

Either writes, when its run ends, GAMES_DIR/latency.json: {"submits": {seq: t}, "confirms":
{seq: t}} (t: time.monotonic(), the same clock in every process of this machine), and exits
0 — or 1 for a game not over here within MAX_SECONDS.
"""
from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

from peerboard.node.loop import Node
from peerboard.node.transport import Admission, Transport
from peerboard.protocol.events import Confirmed, Event, YourTurn
from peerboard.protocol.identity import Identity
from peerboard.protocol.secrets import SeatSecrets
from peerboard.protocol.session import LocalError

GAME = "asterix"
LOOPBACK = "tcp://127.0.0.1:0"
MAX_SECONDS = 300.0
TRACE = "latency.json"


class TimedRandomPlayer:
    """A uniformly random legal choice after `think` seconds, each submit and confirmation timed."""

    def __init__(self, think: float):
        self.think = think
        self.rng = random.Random()
        self.node: Node | None = None
        self.submits: dict[int, float] = {}
        self.confirms: dict[int, float] = {}

    def on_event(self, event: Event) -> None:
        if isinstance(event, Confirmed):
            self.confirms[event.seq] = time.monotonic()
        elif isinstance(event, YourTurn):
            node, seq = self.node, self.node.session.log_length

            def decide() -> None:
                s = node.session
                if s.log_length != seq or s.decision_kind() != event.kind:
                    return  # stale: the game moved on since the prompt
                try:
                    self.submits[seq + 1] = time.monotonic()
                    node.submit([event.legal[self.rng.randrange(len(event.legal))]])
                except LocalError:
                    self.submits.pop(seq + 1, None)

            node.call_later(self.think, decide)


def main(argv: list[str]) -> int:
    role = argv[0]
    think, games = float(argv[-2]), Path(argv[-1])
    identity = Identity.from_seed(os.urandom(32))
    transport = Transport(identity, LOOPBACK, Admission())
    player = TimedRandomPlayer(think)
    node = Node(identity, f"bench-{os.getpid()}", transport, transport.endpoint, on_event=player.on_event,
                games=games)
    player.node = node
    secrets = SeatSecrets.from_master(os.urandom(32))
    if role == "host":
        players, rounds = int(argv[1]), int(argv[2])
        table = node.host(secrets, GAME, players, {"max_rounds": rounds}, None)
        print(json.dumps({"endpoint": transport.endpoint, "key": identity.public_key.hex(), "table": table.hex()}),
              flush=True)
    else:
        endpoint, key, table = argv[1], bytes.fromhex(argv[2]), bytes.fromhex(argv[3])
        node.join(secrets, key, endpoint, table, GAME)
    try:
        finished = node.run(node.finished, max_seconds=MAX_SECONDS)
        node.leave()
    finally:
        node.close(linger=1.0)
    games.mkdir(parents=True, exist_ok=True)
    (games / TRACE).write_text(json.dumps({"submits": player.submits, "confirms": player.confirms}))
    return 0 if finished else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
