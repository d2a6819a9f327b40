"""Asterix: The Hunt for the search players: who leads each of the four categories,
counting what a pawn carries at a discount that grows with its way home to the village."""
from __future__ import annotations

import random

from client.bots.knowledge.generic import Knowledge
from engines.asterix.board import BOAR, COHORT, MENHIR, MISTLETOE
from engines.asterix.state import State

_VILLAGE_XY = ((3, 3), (4, 3), (3, 4), (4, 4))
_VILLAGE_NAMES = frozenset(("d4", "e4", "d5", "e5"))
CATEGORIES = (BOAR, COHORT, MENHIR, MISTLETOE)


def _home_distance(square: int) -> int:
    """King steps from `square` to the nearest village square (lakes ignored)."""
    if square < 0:
        return 0
    x, y = square % 8, square // 8
    return min(max(abs(x - vx), abs(y - vy)) for vx, vy in _VILLAGE_XY)


class AsterixKnowledge(Knowledge):
    cutoff = 12           # about one round of a 2-seat game after the turn under way, then the evaluation
    prior_visits = 4
    lookahead = 3         # one die's move: where it lands, the pick-up, the theft
    search_lookahead = 1
    lookahead_nodes = 1000
    sharpness = 1.2

    def values(self, state: State) -> list[float]:
        seats = range(state.players)
        held = []
        for i in seats:
            pile, carried = state.piles[i], state.carried[i]
            keep = max(0.25, 0.85 - 0.1 * _home_distance(state.pawns[i]))
            held.append([pile[k] + keep * carried[k] for k in CATEGORIES])
        values = []
        for i in seats:
            v = 0.0
            for c in range(len(CATEGORIES)):
                best_other = max(held[j][c] for j in seats if j != i)
                lead = held[i][c] - best_other
                v += max(-1.0, min(1.0, lead / 2.0))
            # the tie-breaks: menhirs, then boars
            v += 0.02 * held[i][2] + 0.01 * held[i][0]
            values.append(v)
        return values


    def playout_action(self, state: State, legal: list, rng: random.Random) -> tuple:
        """Take what can be taken, bring a load home when the village is in reach."""
        first = legal[0][0]
        if first == "pick":
            return legal[0]
        if first == "steal":  # the thefts, then "leave"
            return legal[rng.randrange(len(legal) - 1)]
        if first == "move" and any(state.carried[state.turn]):
            home = [a for a in legal if a[1] in _VILLAGE_NAMES]
            if home:
                return home[rng.randrange(len(home))]
        return legal[rng.randrange(len(legal))]


KNOWLEDGE = AsterixKnowledge
