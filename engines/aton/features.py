"""Aton's features (spec/games/aton.md, "Features"): the position as the viewing seat sees
it, that seat first ("mine", then "theirs"), so one learner plays either seat.

Per temple square (48): empty, mine, theirs. Per seat (mine, theirs): score / 40, supply
/ 29, in the Kingdom of the Dead / 8, white counter kept, cards in hand / 4, unseen cards
per value / 9 (4), discards per value / 9 (4), each cartouche's card once revealed (4 × 4
one-hot). My own hand per value / 4 (4; the other hand is hidden). The phase (8), whether
I am to act, the round / 30, counters owed / 5, the points that win / 200.
"""
from __future__ import annotations

from functools import cache

from peerboard.engines.aton.state import (
    ASSIGN, DRAW, EXCHANGE, OVER, PLACE, REMOVE, RETRIEVE, TURN_UP, State,
)
from peerboard.engines.aton.temples import NUM_SQUARES, square_name
from peerboard.engines.features import Features, one_hot, scaled

PHASES = (DRAW, EXCHANGE, ASSIGN, TURN_UP, REMOVE, PLACE, RETRIEVE, OVER)


def _encode(state: State, seat: int) -> list[float]:
    other = 1 - seat
    values: list[float] = []
    for owner in state.board:
        values += (float(owner == -1), float(owner == seat), float(owner == other))
    for s in (seat, other):
        x = state.seats[s]
        values += [scaled(x.score, 40), scaled(x.supply, 29), scaled(x.dead, 8), float(x.exchange),
                   scaled(x.hand_size, 4)]
        values += [scaled(n, 9) for n in x.unseen] + [scaled(n, 9) for n in x.discards]
        for k in range(4):
            values += one_hot(x.cartouches[k] - 1, 4) if x.cartouches is not None else [0.0] * 4
    hand = state.seats[seat].hand
    values += [scaled(n, 4) for n in hand] if hand is not None else [0.0] * 4
    values += one_hot(PHASES.index(state.phase), len(PHASES))
    values += [float(state.actor == seat and state.phase != OVER), scaled(state.round, 30),
               scaled(state.owed, 5), scaled(state.win_points, 200)]
    return values


@cache
def features() -> Features:
    names = [f"{what} {square_name(sq)}" for sq in range(NUM_SQUARES) for what in ("empty", "mine", "theirs")]
    for who in ("mine", "theirs"):
        names += [f"{who}: {what}" for what in ("score", "supply", "dead", "white counter", "hand size")]
        names += [f"{who}: unseen {v}s" for v in range(1, 5)] + [f"{who}: discarded {v}s" for v in range(1, 5)]
        names += [f"{who}: cartouche {k + 1} is {v}" for k in range(4) for v in range(1, 5)]
    names += [f"my hand: {v}s" for v in range(1, 5)] + [f"phase {p}" for p in PHASES]
    names += ["I am to act", "round", "owed", "win points"]
    return Features(names, _encode)
