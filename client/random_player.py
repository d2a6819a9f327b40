"""The built-in random player of `--headless`: a uniformly random legal choice, after
`think` seconds; it claims a seat as soon as it may and declines every offer.
"""
from __future__ import annotations

import random

from peerboard.client.player import Player
from peerboard.node.loop import Node
from peerboard.protocol.session import Claimable, LocalError, Offered, YourTurn


class RandomPlayer(Player):
    """The built-in random player: a uniformly random legal choice, after `think` seconds."""

    def __init__(self, node: Node, seed: int | None = None, think: float = 0.0, **kw):
        super().__init__(node, **kw)
        self.rng = random.Random(seed)
        self.think = think

    def on_your_turn(self, e: YourTurn) -> None:
        seq = self.node.session.log_length

        def decide() -> None:
            s = self.node.session
            if s.log_length != seq or s.decision_kind() != e.kind:
                return  # stale: the game moved on (or halted) since the prompt
            try:
                self.node.submit([e.legal[self.rng.randrange(len(e.legal))]])
            except LocalError:
                pass

        self.node.call_later(self.think, decide)

    def on_claimable(self, e: Claimable) -> None:
        # a built-in player claims a seat as soon as the table's patience has run out
        self.tell(e)
        self.claim(e.seat)

    def on_offered(self, e: Offered) -> None:
        # a built-in player declines every offer
        self.tell(e)
        self.offer(e.how, accept=False)
