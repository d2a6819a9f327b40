"""The knowledge every game has through the engine contract alone."""
from __future__ import annotations

import math
import random
from typing import Any

from engines import Action, Game


def outcome(game: Game, state: Any) -> list[float]:
    """A finished game's reward per seat: 1 shared among the winners; a draw shares it
    among every seat."""
    seats = len(game.scores(state))
    winners = game.winners(state)
    if not winners:
        return [1.0 / seats] * seats
    share = 1.0 / len(winners)
    return [share if i in winners else 0.0 for i in range(seats)]


def logistic(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


class Knowledge:
    """Generic: the result at the end; before it, each seat's `game.scores` against the
    best of the others'. Playouts are uniformly random and run to the end."""

    #: actions (chance included) a playout runs before it is scored by `estimate`;
    #: None: to the end of the game
    cutoff: int | None = 400
    #: the greedy player looks this many of its own actions ahead (one move of the game)
    lookahead: int = 1
    #: MCTS with priors: the root's children are valued this many own actions ahead (the turn)
    search_lookahead: int = 1
    #: states the greedy player looks at per decision, at most
    lookahead_nodes: int = 2000
    #: hidden information: positions the greedy player samples per decision
    samples: int = 1
    #: MCTS: a new node's children start as this many visits at the evaluation of the
    #: position each leads to (0: no prior, untried actions first)
    prior_visits: int = 0
    #: how sharply a score lead turns into an expected result
    sharpness: float = 1.0

    def __init__(self, game: Game):
        self.game = game

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's expected result in [0, 1]: the outcome when the game is over."""
        if self.game.is_terminal(state):
            return outcome(self.game, state)
        return self.estimate(state)

    def estimate(self, state: Any) -> list[float]:
        """A live position's expected result per seat."""
        return self.contest(self.values(state))

    def values(self, state: Any) -> list[float]:
        """How well each seat stands, in the game's points (higher is better)."""
        return [float(s) for s in self.game.scores(state)]

    def contest(self, values: list[float]) -> list[float]:
        """Values -> expected results: each seat's lead over the best other seat."""
        out = []
        for i, v in enumerate(values):
            best_other = max(values[:i] + values[i + 1:])
            out.append(logistic(self.sharpness * (v - best_other)))
        return out

    def playout_action(self, state: Any, legal: list[Action], rng: random.Random) -> Action:
        """The move a playout makes (the greedy and MCTS opponents' secret choices too)."""
        return legal[rng.randrange(len(legal))]
