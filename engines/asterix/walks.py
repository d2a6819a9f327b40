"""Where a pawn can land: walks of exactly N king steps, computed one layer per step.

A walk may turn and revisit squares, so only "which squares can a walk of k steps end
on" matters, not the walks themselves: layer k is every open neighbour of layer k-1.
Village squares absorb: a walk that enters one stops there (so it may end after fewer
than N steps) and never walks on through it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterator

from peerboard.engines.asterix.board import BIT, COHORT, FULL, LAKE, OUTSIDE, VILLAGE, spread

_NOT_A = FULL & ~sum(BIT[8 * r] for r in range(8))  # a square off file a (one with a west neighbour)
_NOT_H = FULL & ~sum(BIT[8 * r + 7] for r in range(8))

#: per square, its king-step neighbours: a walk's first step without the shifts
_NEIGHBOURS: tuple[int, ...] = tuple(spread(BIT[square]) & ~BIT[square] for square in range(64))


def blocked_squares(tiles: tuple[int, ...], potions: int) -> int:
    """The squares a walk may not enter: lakes, and cohorts for a pawn with no potion."""
    return tiles[LAKE] | tiles[COHORT] if potions == 0 else tiles[LAKE]


def landings(start: int, steps: int, blocked: int) -> int:
    """The mask of squares a walk of exactly `steps` steps from `start` can end on.

    A walk entering a village square ends there, whatever steps are left, so village
    squares reached on any layer are landings and are not walked on from.
    """
    if 0 <= steps <= MOST_STEPS:
        return layers(start, blocked)[steps]
    return walked(start, steps, blocked)


#: the most steps a die walks; `layers` holds the landings of 0..MOST_STEPS steps
MOST_STEPS = 6


# A pure function of two ints, so a memo can only save time: a turn asks of the same
# square when the legal actions are listed and again when the chosen one is checked, the
# order phase asks of both dice, and a search asks of the same squares again and again.
# One walk of a die's most steps gives every shorter walk on its way (its layers), so the
# memo keeps them all per (start, blocked), and a caller that knows its die picks its layer.
@lru_cache(maxsize=1 << 14)
def layers(start: int, blocked: int) -> tuple[int, ...]:
    """`walked(start, k, blocked)` for k = 0 .. MOST_STEPS, from one walk."""
    return (BIT[start], *_walk(start, MOST_STEPS, blocked))


def walked(start: int, steps: int, blocked: int) -> int:
    """`landings` without the memo: the layered walk itself."""
    if steps <= 0:
        return BIT[start]
    *_, last = _walk(start, steps, blocked)
    return last


def _walk(start: int, steps: int, blocked: int) -> Iterator[int]:
    """The landings of 1, 2, ..., `steps` steps from `start`, one walk in layers."""
    open_squares = FULL & ~blocked
    layer = _NEIGHBOURS[start] & open_squares  # (a step never stays put: spread of one square, less itself)
    village = layer & VILLAGE
    layer &= OUTSIDE
    yield layer | village
    for _ in range(steps - 1):
        if layer:
            # spread(layer) & open_squares, written out (its masks to 64 bits: open_squares is)
            west = (layer >> 1) & _NOT_H
            east = (layer << 1) & _NOT_A
            row = layer | west | east
            layer = ((row << 8) | (row >> 8) | west | east) & open_squares
            village |= layer & VILLAGE
            layer &= OUTSIDE
        yield layer | village


# Pure, like `layers`: the end checks ask it of the same pawns and tiles turn after turn.
@lru_cache(maxsize=4096)
def region(squares: int, lakes: int) -> int:
    """Every square joined to `squares` by king steps over squares not in `lakes` (the
    squares a walk may never enter: lakes, and for some questions cohorts too)."""
    open_squares = FULL & ~lakes
    seen = squares & open_squares
    while True:
        # (seen | spread(seen)) & open_squares, written out as in `_walk`: a row of each
        # square and its west and east neighbours, with the rows above and below
        west = (seen >> 1) & _NOT_H
        east = (seen << 1) & _NOT_A
        row = seen | west | east
        grown = (row | (row << 8) | (row >> 8)) & open_squares
        if grown == seen:
            return seen
        seen = grown
