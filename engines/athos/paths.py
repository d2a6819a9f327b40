"""The path rule: every monk not yet on the summit keeps a way up.

A way runs through hexes without a blocking tile, start areas (any of them) and ends on the
summit; monks never block it. The one question the rules keep asking is "which hexes, if
they turned blocking, would cut some monk off?" `cutting_hexes` answers it for every hex at
once with a single depth-first walk from the summit (Hopcroft–Tarjan low-links): a hex cuts
a monk off exactly when it is an articulation point whose removal strands a subtree of the
walk that holds a monk. Linear in the board. (`oracle.py` asks the same question hex by
hex with a plain search; the tests check the two agree.)
"""
from __future__ import annotations

from typing import Sequence

from engines.athos.board import HEX_COUNT, NEIGHBOURS, NODE_COUNT, SUMMIT


def cutting_hexes(passable: Sequence[bool], walkers: Sequence[int]) -> list[bool]:
    """hex -> True when a blocking tile there would cut a monk (at `walkers`) off the summit.

    Only hexes that are passable and carry no monk are ever True (those are the hexes
    a tile could turn blocking on). Every walker must already have a way up.
    """
    disc = [0] * NODE_COUNT
    low = [0] * NODE_COUNT
    weight = [0] * NODE_COUNT  # monks in the walk's subtree below a node
    for node in walkers:
        weight[node] += 1
    occupied = [w > 0 for w in weight]
    cut = [False] * HEX_COUNT
    nxt = [0] * NODE_COUNT
    disc[SUMMIT] = low[SUMMIT] = clock = 1
    stack = [SUMMIT]
    while stack:
        v = stack[-1]
        around = NEIGHBOURS[v]
        i = nxt[v]
        if i < len(around):
            nxt[v] = i + 1
            w = around[i]
            if not passable[w]:
                continue
            if disc[w] == 0:
                clock += 1
                disc[w] = low[w] = clock
                stack.append(w)
            elif disc[w] < low[v]:
                # The edge back to the parent counts too: it never lets a subtree
                # bypass the parent itself, which is all the test below asks.
                low[v] = disc[w]
            continue
        stack.pop()
        if stack:
            p = stack[-1]
            if low[v] < low[p]:
                low[p] = low[v]
            weight[p] += weight[v]
            if weight[v] and low[v] >= disc[p] and p < HEX_COUNT and not occupied[p]:
                cut[p] = True
    return cut


def stranded(passable: Sequence[bool], walkers: Sequence[int]) -> int | None:
    """The first monk's node (ascending) with no way up, or None when all have one."""
    seen = [False] * NODE_COUNT
    seen[SUMMIT] = True
    frontier = [SUMMIT]
    while frontier:
        v = frontier.pop()
        for w in NEIGHBOURS[v]:
            if passable[w] and not seen[w]:
                seen[w] = True
                frontier.append(w)
    for node in sorted(walkers):
        if not seen[node]:
            return node
    return None


def distances(passable: Sequence[bool], start: int, limit: int) -> dict[int, int]:
    """node -> steps a monk at `start` needs to reach it, for every node within `limit`.

    Monks pass through occupied hexes and start areas, never through blocking tiles; a monk
    that reaches the summit stays there, so no way leads on from it. The dict is only looked
    up, never iterated for order, except in BFS order (which is deterministic).
    """
    dist = {start: 0}
    frontier = [start]
    d = 0
    while frontier and d < limit:
        d += 1
        nxt = []
        for v in frontier:
            if v == SUMMIT:
                continue
            for w in NEIGHBOURS[v]:
                if passable[w] and w not in dist:
                    dist[w] = d
                    nxt.append(w)
        frontier = nxt
    return dist
