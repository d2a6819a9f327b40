"""The knowledge every game has through the engine contract alone."""
from __future__ import annotations

import math
import random
from typing import Any, Callable, Sequence

from peerboard.client.bots.knowledge.fitted import chances, scores_of
from peerboard.engines import Action, Game


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
    """Generic: the result at the end; before it, each seat's `game.scores` plus the
    engine's `heuristic` (if it has one) against the best of the others'. When those
    numbers have stood still over more than `patience` of a player's decisions, it plays
    for progress (`standing`). Playouts are uniformly random and run to the end."""

    #: actions (chance included) a playout runs before it is scored by `estimate`;
    #: None: to the end of the game
    cutoff: int | None = 400
    #: MCTS: UCB1's exploration constant (rewards are in [0, 1])
    exploration: float = 0.7
    #: MCTS: after finishing the turn under way, playouts run this many more turns (a
    #: turn: a seat's actions until another seat acts) and are then scored; None: `cutoff`
    playout_turns: int | None = None
    #: MCTS: how a playout finishes the turn under way: "policy" (`playout_action`) or
    #: "plan" (the seat's best actions by `search_lookahead`, as the greedy player's)
    finish_turn: str = "policy"
    #: MCTS: the other seats' turns in a playout are their best plans too (as the greedy
    #: player's), not `playout_action`
    others_plan: bool = False
    #: MCTS: at most this many levels of tree (None: no limit; 1: the root's children)
    tree_depth: int | None = None
    #: MCTS: common random numbers for the root's children (see client/bots/mcts.py)
    common_chance: bool = False
    #: the greedy player looks this many of its own actions ahead (one move of the game)
    lookahead: int = 1
    #: MCTS: root priors and plans look this many own actions ahead
    search_lookahead: int = 1
    #: states the greedy player looks at per decision, at most
    lookahead_nodes: int = 2000
    #: states MCTS's priors and plans look at per decision, at most
    search_nodes: int = 2000
    #: hidden information: positions the greedy player samples per decision
    samples: int = 1
    #: MCTS: a new node's children start as this many visits at the evaluation of the
    #: position each leads to (0: no prior, untried actions first)
    prior_visits: int = 0
    #: MCTS: the search looks only at the root actions with the best priors, this many
    #: of them (None: every legal action)
    root_width: int | None = None
    #: MCTS: whether every new node's children get priors too (else only the root's)
    tree_priors: bool = True
    #: MCTS without priors below the root: a node with n visits has at most
    #: 1 + widening * sqrt(n) children, made in the playout policy's order (None: every
    #: child, untried ones first in random order)
    widening: float | None = None
    #: how sharply a score lead turns into an expected result
    sharpness: float = 1.0
    #: MCTS: (state, rng, n) -> the position after n more actions of the playout (fewer
    #: when the game ends), where a game's playout policy is the uniformly random player
    #: with the rules' odds and its engine plays that in one call (engines/aton/
    #: random_play.py). None: each action is listed and `playout_action`'s applied
    playout_steps: Callable[[Any, random.Random, int], Any] | None = None
    #: how often one standing may come back at the start of a player's turns before it
    #: plays for progress (see `standing`)
    patience: int = 6
    #: the fitted evaluation (client/bots/knowledge/fitted.py): the names of the columns
    #: `features` gives per seat, and their weights (client/games/NAME/fitted.py, fitted
    #: by bench/fit_evaluation.py); without weights a live position is `contest(values)`
    FEATURES: tuple[str, ...] = ()
    weights: tuple[float, ...] | None = None

    def __init__(self, game: Game):
        self.game = game

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's expected result in [0, 1]: the outcome when the game is over."""
        if self.game.is_terminal(state):
            return outcome(self.game, state)
        return self.estimate(state)

    def estimate(self, state: Any) -> list[float]:
        """A live position's expected result per seat: the fitted chances where the game
        has weights, else the contest of `values`."""
        if self.weights is not None:
            return self.fitted(state, self.weights)
        return self.contest(self.values(state))

    def features(self, state: Any) -> list[list[float]]:
        """Per seat, the columns `FEATURES` names (a game with a fitted evaluation defines it)."""
        raise TypeError(f"{self.game.name} has no features for a fitted evaluation")

    def fitted(self, state: Any, weights: Sequence[float]) -> list[float]:
        """Each seat's chance of winning by the conditional logit of `weights` over the
        seats' `features`; with sides of several seats (teams), a side's chance is its
        seats' together, shared among them as a win would be."""
        p = chances(scores_of(weights, self.features(state)))
        sides = self.game.sides(state)
        if len(sides) == len(p):
            return p
        out = [0.0] * len(p)
        for side in sides:
            share = sum(p[s] for s in side) / len(side)
            for s in side:
                out[s] = share
        return out

    def values(self, state: Any) -> list[float]:
        """How well each seat stands, in the game's points (higher is better): its score,
        plus what the engine's `heuristic` adds (nothing for a game without one)."""
        out = []
        for seat, score in enumerate(self.game.scores(state)):
            extra = self.game.heuristic(state, seat)
            out.append(float(score) + (0.0 if extra is None else float(extra)))
        return out

    def contest(self, values: list[float]) -> list[float]:
        """Values -> expected results: each seat's lead over the best other seat."""
        out = []
        for i, v in enumerate(values):
            best_other = max(values[:i] + values[i + 1:])
            out.append(logistic(self.sharpness * (v - best_other)))
        return out

    def standing(self, view: Any, seat: int) -> tuple[Any, Any] | None:
        """(turn, where) at one of `seat`'s decisions: `turn` orders and names the seat's
        turns, `where` is what of the position shows whether the game moved on; a
        player that meets one `where` more than `patience` times at the start of its
        turns plays for progress (client/bots/stall.py). None: the game always ends by
        itself (a round limit, a deck that runs out), no count kept.

        Generic: the contract has no turn count, so `turn` is None (each decision counts,
        and only an unbroken run of one `where` does) and `where` is every seat's
        `values`: a game whose scores and heuristic stand still while the player decides
        again and again is one in which it waits for the others."""
        return None, tuple(self.values(view))

    def distance(self, state: Any, seat: int) -> float:
        """How far `seat`'s side is from its goal (lower is nearer), for a player playing
        for progress: here, minus how well it stands (`values`)."""
        return -self.values(state)[seat]

    def playout_shortcut(self, state: Any) -> Action | None:
        """The playout's move when the policy knows it without the list of legal actions
        (listing them can cost more than the move; `apply` still checks it), else None."""
        return None

    def playout_action(self, state: Any, legal: list[Action], rng: random.Random) -> Action:
        """The move a playout makes (the greedy and MCTS opponents' secret choices too)."""
        return legal[rng.randrange(len(legal))]
