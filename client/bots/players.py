"""The built-in players that do not search a tree: random and greedy."""
from __future__ import annotations

from peerboard.client.bots.knowledge import Knowledge, knowledge_for
from peerboard.client.bots.sdk import Bot, Decision
from peerboard.client.bots.lookahead import best_own_action
from peerboard.client.bots.stall import Pressing, StallWatch
from peerboard.engines import Action


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def decide(self, decision: Decision) -> Action:
        return decision.legal[self.rng.randrange(len(decision.legal))]


class GreedyBot(Bot):
    """The action whose position the game's evaluation likes best, looking ahead through
    the seat's own following actions of the same turn (client/bots/knowledge). With hidden
    information it averages over a few positions its view allows; at a secret choice the
    other seats are imagined choosing at random. In a game that stands still it plays
    for progress (client/bots/stall.py)."""

    name = "greedy"

    def __init__(self, seed: int | str | bytes = 0, budget=None):
        super().__init__(seed, budget)
        self._knowledge: Knowledge | None = None
        self._stall = StallWatch()

    def decide(self, decision: Decision) -> Action:
        if len(decision.legal) == 1:
            return decision.legal[0]
        know = self._knowledge
        if know is None or know.game is not decision.game:
            know = self._knowledge = knowledge_for(decision.game)
            self._stall = StallWatch()
        judge = Pressing(know, decision.seat) if self._stall.pressing_on(know, decision) else know
        return best_own_action(decision, judge, self.rng, know.lookahead, know.lookahead_nodes, know.samples)
