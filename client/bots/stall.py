"""Playing for progress when a game stands still.

A game without a round limit can stand still for ever between two players who each wait
for the other: in Athos, two monks below one blocking tile, whoever turns it open lets the
other up first, so neither does, and both shuffle monks to and fro turn after turn. A
search player is right that giving way loses; it is also a player nobody can finish a
game against.

So the search players keep count. A game's knowledge says what, at the start of a seat's
turn, shows whether the game moved on (`Knowledge.standing`: Athos, where every monk
stands) and how far a seat is from its goal (`Knowledge.distance`: Athos, the movement
points its monks still need). When the player has met one standing at the start of its
turns more than `Knowledge.patience` times, it plays that turn for progress: each action
for the distance it leaves its own side (a win first), whatever that gives the others.
The game then ends or moves on (a new standing starts its own count).

A game without knowledge of its own is watched by its numbers (client/bots/knowledge/
generic.py): the standing is every seat's score plus the engine's heuristic, and as the
contract names no turns, it is the player's decisions in a row that count; its distance
is minus its own number, so pressing takes the action that raises it.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Hashable

from peerboard.client.bots.knowledge.generic import Knowledge, outcome
from peerboard.client.bots.sdk import Decision


class StallWatch:
    """One player's count of standings at the start of its turns, over one game."""

    def __init__(self) -> None:
        self.turn: Hashable | None = None
        self.counts: Counter = Counter()
        self.pressing = False
        self.where: Hashable | None = None  # (a game without turns: the run's standing)
        self.run = 0

    def pressing_on(self, know: Knowledge, decision: Decision) -> bool:
        """Whether this decision is played for progress (counting a turn's first one)."""
        standing = know.standing(decision.view, decision.seat)
        if standing is None:
            return False
        turn, where = standing
        if turn is None:
            return self._run_of(where, know.patience)
        if turn == self.turn:
            return self.pressing
        if self.turn is not None and turn < self.turn:
            self.counts.clear()  # a new game for the same player
        self.turn = turn
        self.counts[where] += 1
        self.pressing = self.counts[where] > know.patience
        return self.pressing

    def _run_of(self, where: Hashable, patience: int) -> bool:
        """A game that names no turns: every decision counts, and only while `where` stays
        the same (a new game, or any change of the numbers, starts a new run)."""
        if where != self.where:
            self.where, self.run = where, 0
        self.run += 1
        self.pressing = self.run > patience
        return self.pressing


class Pressing:
    """The knowledge a pressing player evaluates with: a win is 1, a loss 0; before the
    end, only its own distance d counts, as 1/2 - d / (2 (1 + |d|)): between 0 and 1,
    1/2 at the goal (d = 0), the lower the farther."""

    def __init__(self, know: Knowledge, seat: int):
        self.know, self.game, self.seat = know, know.game, seat

    def evaluate(self, state: Any) -> list[float]:
        if self.game.is_terminal(state):
            return outcome(self.game, state)
        values = [0.0] * len(self.game.scores(state))
        d = self.know.distance(state, self.seat)
        values[self.seat] = 0.5 - d / (2.0 * (1.0 + abs(d)))
        return values
