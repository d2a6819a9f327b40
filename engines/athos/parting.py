"""Parting monks: can a move phase that left two monks on one hex still end legally?

At the end of the move phase no hex may hold two monks (start areas and the summit hold
any number). A step onto an occupied hex is therefore only offered when the player can
still part the monks with what is left of the phase: steps, tiles turned open for 4 points,
and the bonus points of monks that reach the summit on the way. This module decides that
exactly, so no step ever leads into a position with no legal way on (a dead end).

The search, over what the player could still do:

* the monks go to distinct hexes free of other seats' monks, or to any start area, for
  the sum of their shortest distances (monks never block each other's way); or
* first one monk climbs to the summit (its bonus joins the pool, it leaves the board); or
* first a blocking tile is turned open (4 points), worth it only if some monk can still
  step onto it afterwards with the points left and no bonus in between (any climb that
  does not need the tile can be made first); turning a tile to blocking never helps.
"""
from __future__ import annotations

from itertools import product
from typing import Sequence

from peerboard.engines.athos.board import HEX_COUNT, NEIGHBOURS, SUMMIT
from peerboard.engines.athos.paths import distances

#: bonus points of the 1st, 2nd, … monk to arrive on the summit (counted over all players)
BONUS = (3, 3, 2, 2, 1)
TURN_COST = 4


def bonus(arrived_before: int) -> int:
    """The bonus for the monk arriving after `arrived_before` others."""
    return BONUS[arrived_before] if arrived_before < len(BONUS) else 0


def crowded(mine: Sequence[int], taken: Sequence[int]) -> bool:
    """True when one of `mine` shares a hex with another monk (its own or another seat's)."""
    seen: list[int] = []
    for n in mine:
        if n < HEX_COUNT:
            if taken[n] or n in seen:
                return True
            seen.append(n)
    return False


def can_part(
    passable: Sequence[int],
    mine: tuple[int, ...],
    taken: Sequence[int],
    pool: int,
    arrived: int,
    turnable: Sequence[int],
) -> bool:
    """Can the monks at `mine` (the acting seat's, off the summit) end on legal nodes?

    `taken[hex]`: another seat's monk stands there. `turnable`: tiles the player may turn
    (no Athos piece; the passable ones are ignored). `arrived`: monks on the summit so far.
    """
    return _can_part(bytes(passable), mine, taken, pool, arrived, turnable, set())


def _can_part(
    passable: bytes,
    mine: tuple[int, ...],
    taken: Sequence[int],
    pool: int,
    arrived: int,
    turnable: Sequence[int],
    failed: set[tuple[bytes, tuple[int, ...], int, int]],
) -> bool:
    if not crowded(mine, taken):
        return True
    key = (passable, mine, pool, arrived)
    if key in failed:  # the same position reached by turning tiles in another order
        return False
    reach = [distances(passable, m, pool) for m in mine]
    if _spread(reach, taken, pool):
        return True
    for i, dist in enumerate(reach):
        d = dist.get(SUMMIT)
        if d is not None and d <= pool:
            rest = mine[:i] + mine[i + 1 :]
            extra = bonus(arrived)
            if _can_part(passable, rest, taken, pool - d + extra, arrived + 1, turnable, failed):
                return True
    if pool >= TURN_COST + 1:
        budget = pool - TURN_COST - 1
        for t in turnable:
            if passable[t]:
                continue
            if any(d.get(v, budget + 1) <= budget for d in reach for v in NEIGHBOURS[t]):
                opened = passable[:t] + b"\x01" + passable[t + 1 :]
                if _can_part(opened, mine, taken, pool - TURN_COST, arrived, turnable, failed):
                    return True
    failed.add(key)
    return False


def _spread(reach: list[dict[int, int]], taken: Sequence[int], pool: int) -> bool:
    """Can the monks reach distinct free hexes or start areas for at most `pool` points?"""
    k = len(reach)
    choices = []
    for dist in reach:
        # With k monks, a monk's k nearest free hexes and its nearest start area hold an
        # optimal choice: the other k - 1 monks can take at most k - 1 of them.
        options: list[tuple[int, int]] = []
        area = False
        hexes = 0
        for node, d in dist.items():  # BFS order: nearest first
            if node >= HEX_COUNT:
                if not area and node != SUMMIT:
                    options.append((d, -1))
                    area = True
            elif hexes < k and not taken[node]:
                options.append((d, node))
                hexes += 1
        choices.append(options)
    for pick in product(*choices):
        picked = [n for _, n in pick if n >= 0]
        if len(picked) == len(set(picked)) and sum(d for d, _ in pick) <= pool:
            return True
    return False
