"""Asterix's features (spec/games/asterix.md, "Features"): the whole position, as numbers.

Per square (64, a1 … h8): its tile (boar, cohort, menhir, mistletoe, lake; none of them:
empty), not yet laid; per seat and square: that seat's pawn there. Per seat: potions / 3,
carried and victory pile per scoring kind / 12 (4 + 4). The phase (9), the seat to act,
the viewing seat (one-hot over the seats), the dice still to move (two one-hot of 6), the
round / the last round, tiles laid / 60.
"""
from __future__ import annotations

from functools import cache

from peerboard.engines.asterix.board import BIT, KIND_NAMES, LAYOUT_ORDER, SQUARE_NAMES
from peerboard.engines.asterix.state import (
    FIRST_ROLL, LAYOUT, MOVE, ORDER, OVER, PICK, PLACE, ROLL, STEAL, State,
)
from peerboard.engines.features import Features, one_hot, scaled

PHASES = (LAYOUT, FIRST_ROLL, PLACE, ROLL, ORDER, MOVE, PICK, STEAL, OVER)
_SCORING = ("boar", "cohort", "menhir", "mistletoe")
_UNLAID_AFTER = {square: n for n, square in enumerate(LAYOUT_ORDER)}


def _encode(state: State, seat: int) -> list[float]:
    values: list[float] = []
    for square in range(64):
        bit = BIT[square]
        values += [float(bool(mask & bit)) for mask in state.tiles]
        values.append(float(_UNLAID_AFTER.get(square, -1) >= state.laid))
    for s in range(state.players):
        values += one_hot(state.pawns[s], 64)
    for s in range(state.players):
        values.append(scaled(state.potions[s], 3))
        values += [scaled(n, 12) for n in state.carried[s]] + [scaled(n, 12) for n in state.piles[s]]
    values += one_hot(PHASES.index(state.phase), len(PHASES))
    values += one_hot(state.actor if state.phase not in (LAYOUT, FIRST_ROLL, OVER) else -1, state.players)
    values += one_hot(seat, state.players)
    dice = state.dice if state.phase in (ORDER, MOVE, PICK, STEAL) else ()
    for k in range(2):
        values += one_hot(dice[k] - 1 if k < len(dice) else -1, 6)
    values += [scaled(state.round, state.max_rounds), scaled(state.laid, len(LAYOUT_ORDER))]
    return values


@cache
def features(players: int) -> Features:
    names = [f"{what} {SQUARE_NAMES[sq]}" for sq in range(64) for what in (*KIND_NAMES[:5], "unlaid")]
    names += [f"pawn of seat {s} on {SQUARE_NAMES[sq]}" for s in range(players) for sq in range(64)]
    for s in range(players):
        names += [f"seat {s}: potions"] + [f"seat {s}: carried {k}" for k in _SCORING]
        names += [f"seat {s}: pile {k}" for k in _SCORING]
    names += [f"phase {p}" for p in PHASES] + [f"to act: seat {s}" for s in range(players)]
    names += [f"viewing seat {s}" for s in range(players)]
    names += [f"die {k + 1} is {v}" for k in range(2) for v in range(1, 7)] + ["round", "tiles laid"]
    return Features(names, _encode)
