"""The reference implementation of the path rule: a plain search for every candidate hex.

Deliberately naive and independent of `paths.py`: for each passable hex without a monk,
block it and search from the summit; the hex cuts a monk off when some monk is no longer
reached. Quadratic in the board. The engine never uses it; the tests compare it with
`paths.cutting_hexes` on many random positions and the bench measures the difference.
It has the same signature, so `rules.legal_actions(state, cuts=oracle.cutting_hexes)`
gives the legal actions as the plain search sees them.
"""
from __future__ import annotations

from collections import deque
from typing import Sequence

from peerboard.engines.athos.board import HEX_COUNT, NEIGHBOURS, SUMMIT


def _reached(passable: Sequence[int], blocked: int) -> set[int]:
    seen = {SUMMIT}
    queue = deque([SUMMIT])
    while queue:
        v = queue.popleft()
        for w in NEIGHBOURS[v]:
            if w != blocked and passable[w] and w not in seen:
                seen.add(w)
                queue.append(w)
    return seen


def cutting_hexes(passable: Sequence[int], walkers: Sequence[int]) -> list[bool]:
    """hex -> True when a blocking tile there would cut a monk off the summit."""
    occupied = set(walkers)
    cut = [False] * HEX_COUNT
    for h in range(HEX_COUNT):
        if passable[h] and h not in occupied:
            reached = _reached(passable, h)
            cut[h] = any(node not in reached for node in occupied)
    return cut
