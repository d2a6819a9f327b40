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

from functools import lru_cache
from typing import Sequence

from peerboard.engines.athos.board import HEX_COUNT, NEIGHBOURS, NODE_COUNT, SUMMIT


#: the walk from the summit: (discovery order, parent, discovery time, low-link), each a
#: bytes indexed by node (255: no parent; time 0: not reached). Depends on the tiles only.
Skeleton = tuple[bytes, bytes, bytes, bytes]
_NO_PARENT = 255


def skeleton(passable: Sequence[int]) -> Skeleton:
    """The depth-first walk from the summit over passable nodes, with its low-links.

    Remembered by the passable nodes (a pure function's memo, bounded): a search meets
    one arrangement of tiles again and again, in positions that differ elsewhere."""
    key = bytes(passable)
    found = _WALKS.get(key)
    if found is None:
        if len(_WALKS) >= _WALKS_KEPT:
            _WALKS.clear()
        found = _WALKS[key] = _walk(key)
    return found


#: passable nodes -> their walk (`skeleton`'s memo), at most _WALKS_KEPT of them
_WALKS: dict[bytes, Skeleton] = {}
_WALKS_KEPT = 4096


def _walk(passable: bytes) -> Skeleton:
    """`skeleton`, worked out."""
    disc = bytearray(NODE_COUNT)
    low = bytearray(NODE_COUNT)
    parent = bytearray([_NO_PARENT]) * NODE_COUNT
    order = bytearray([SUMMIT])
    disc[SUMMIT] = low[SUMMIT] = clock = 1
    stack = [(SUMMIT, iter(NEIGHBOURS[SUMMIT]))]
    while stack:
        v, around = stack[-1]
        for w in around:
            if not passable[w]:
                continue
            if not disc[w]:
                clock += 1
                disc[w] = low[w] = clock
                parent[w] = v
                order.append(w)
                stack.append((w, iter(NEIGHBOURS[w])))
                break
            if disc[w] < low[v]:
                # The edge back to the parent counts too: it never lets a subtree
                # bypass the parent itself, which is all `cuts_from` asks.
                low[v] = disc[w]
        else:
            stack.pop()
            if stack:
                p = stack[-1][0]
                if low[v] < low[p]:
                    low[p] = low[v]
    return bytes(order), bytes(parent), bytes(disc), bytes(low)


def cuts_from(walk: Skeleton, walkers: Sequence[int]) -> list[bool]:
    """hex -> True when blocking it strands a subtree of the walk that holds a monk."""
    order, parent, disc, low = walk
    weight = [0] * NODE_COUNT  # monks in the walk's subtree below a node
    for node in walkers:
        weight[node] += 1
    occupied = bytes(weight)
    cut = [False] * HEX_COUNT
    # Descendants are discovered after their ancestors, so the reversed discovery order
    # hands every subtree's monks up before its root passes them on.
    for i in range(len(order) - 1, 0, -1):
        v = order[i]
        if weight[v]:
            p = parent[v]
            if low[v] >= disc[p] and p < HEX_COUNT and not occupied[p]:
                cut[p] = True
            weight[p] += weight[v]
    return cut


def cutting_hexes(passable: Sequence[int], walkers: Sequence[int]) -> list[bool]:
    """hex -> True when a blocking tile there would cut a monk (at `walkers`) off the summit.

    Only hexes that are passable and carry no monk are ever True (those are the hexes
    a tile could turn blocking on). Every walker must already have a way up.
    """
    return cuts_from(skeleton(passable), walkers)


def bypassed(passable: Sequence[int], h: int) -> bool:
    """Whether the passable nodes around hex h are joined without it (through each other):
    then no way needs h, and a blocking tile there cuts nobody off. A local proof, six
    nodes looked at; when it fails, only a search of the board tells (`stranded`)."""
    mask = 0
    bit = 1
    for n in NEIGHBOURS[h]:
        if passable[n]:
            mask |= bit
        bit <<= 1
    return _JOINED[h][mask] == 1


def _joined(h: int) -> bytes:
    """For each set of h's neighbours (a bit mask in NEIGHBOURS[h]'s order): 1 when those
    nodes are joined by the board's links among themselves (an empty set or one node: 1)."""
    around = NEIGHBOURS[h]
    out = bytearray(1 << len(around))
    for mask in range(len(out)):
        nodes = [n for i, n in enumerate(around) if mask >> i & 1]
        if len(nodes) <= 1:
            out[mask] = 1
            continue
        reached = {nodes[0]}
        frontier = [nodes[0]]
        while frontier:
            v = frontier.pop()
            for w in NEIGHBOURS[v]:
                if w in nodes and w not in reached:
                    reached.add(w)
                    frontier.append(w)
        out[mask] = len(reached) == len(nodes)
    return bytes(out)


#: hex -> `_joined(hex)`, made once
_JOINED: tuple[bytes, ...] = tuple(_joined(h) for h in range(HEX_COUNT))


def stranded(passable: Sequence[int], walkers: Sequence[int]) -> int | None:
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


# A pure function of immutable values (passable is bytes), so a memo can only save time: a
# `go` asks it when it is checked and again when it is carried out, and the listing of the
# same position asks it once more. The dict it returns is shared: callers only read it.
@lru_cache(maxsize=1024)
def distances(passable: bytes, start: int, limit: int) -> dict[int, int]:
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


@lru_cache(maxsize=4096)
def steps(passable: bytes, start: int, goal: int, limit: int) -> int | None:
    """`distances(passable, start, limit).get(goal)`: the steps from `start` to `goal` within
    `limit`, or None; the same walk, stopped at the level that reaches the goal (one go is
    checked and carried out with it: most goes are short)."""
    if goal == start:
        return 0
    seen = {start}
    frontier = [start]
    d = 0
    while frontier and d < limit:
        d += 1
        nxt = []
        for v in frontier:
            if v == SUMMIT:
                continue
            for w in NEIGHBOURS[v]:
                if passable[w] and w not in seen:
                    if w == goal:
                        return d
                    seen.add(w)
                    nxt.append(w)
        frontier = nxt
    return None
