"""Athos for the search players: a race up the mountain, counted in movement points.

Each monk is as far from the summit as the cheapest way up costs now: 1 point a step, 5
through a blocking tile that may still be turned open (4 to turn it, 1 to step on), no
way through a blocking tile under an Athos piece. A seat needs the sum over its monks
not yet up, less the points it holds in its move phase; a seat's finish is that need in
turns of 6 points after its next turn comes round, and a seat is as well placed as its
finish is earlier than the best other seat's.
"""
from __future__ import annotations

import random
from functools import lru_cache

from peerboard.client.bots.knowledge.generic import Knowledge
from peerboard.client.games.athos import fitted
from peerboard.engines.athos.board import HEX_COUNT, NEIGHBOURS, NODE_COUNT, NODE_NAMES, SUMMIT
from peerboard.engines.athos.parting import TURN_COST
from peerboard.engines.athos.setup import POINTS_PER_TURN
from peerboard.engines.athos.rules import END_TURN, SKIP_ATHOS, sides
from peerboard.engines.athos.state import ATHOS, MOVE, NO_HEX, NO_TILE, PLACE, State

#: a way that no monk can take (a blocking tile under an Athos piece)
NO_WAY = 10_000
#: what stepping onto a blocking tile that can still be turned costs
THROUGH_BLOCKING = TURN_COST + 1
_NODE = {name: n for n, name in enumerate(NODE_NAMES)}


@lru_cache(maxsize=4096)
def summit_distances(tiles: str, fixed: tuple[int, ...], lifted: int = NO_HEX) -> tuple[int, ...]:
    """node -> the points the cheapest way from it to the summit costs (NO_WAY: none).

    Entering a node costs 1, a blocking tile THROUGH_BLOCKING, a fixed blocking tile is
    closed; no way leads through the summit; a lifted tile is in the player's hand. A
    buckets-by-cost Dijkstra from the summit (the costs are small whole numbers)."""
    cost = [1] * NODE_COUNT
    for h in range(HEX_COUNT):
        t = tiles[h]
        if t != NO_TILE and t.isupper() and h != lifted:
            cost[h] = NO_WAY if h in fixed else THROUGH_BLOCKING
    dist = [NO_WAY] * NODE_COUNT
    done = [False] * NODE_COUNT
    dist[SUMMIT] = 0
    buckets: list[list[int]] = [[SUMMIT]]
    d = 0
    while d < len(buckets):
        for u in buckets[d]:
            if dist[u] != d or done[u]:
                continue  # reached more cheaply, or met again in its own bucket
            done[u] = True
            step = cost[u] if u != SUMMIT else 1
            if step >= NO_WAY:
                continue
            reach = d + step
            for v in NEIGHBOURS[u]:
                if v != SUMMIT and reach < dist[v] and cost[v] < NO_WAY:
                    dist[v] = reach
                    while len(buckets) <= reach:
                        buckets.append([])
                    buckets[reach].append(v)
        d += 1
    return tuple(dist)


def need(state: State, seat: int, dist: tuple[int, ...] | None = None) -> int:
    """The points `seat` still needs to bring every monk up, less the points it holds."""
    if dist is None:
        dist = summit_distances(state.tiles, state.fixed, state.lifted)
    total = sum(dist[n] for n in state.monks[seat] if n != SUMMIT)
    if state.actor == seat and state.phase == MOVE:
        total -= state.pool
    return total


class AthosKnowledge(Knowledge):
    cutoff = 0            # a playout ends with the turn under way (a race: see playout_action)
    lookahead = 1         # an action's worth shows at once in the points needed
    search_lookahead = 1
    prior_visits = 8
    tree_priors = False
    widening = 1.0
    lookahead_nodes = 4000
    sharpness = 1.5       # per round of lead: a round ahead is a 4:5 ... 9:10 favourite

    def values(self, state: State) -> list[float]:
        """Minus each side's finish, in rounds: o (when its next turn comes) + need / 6."""
        dist = summit_distances(state.tiles, state.fixed, state.lifted)
        players = state.setup.players
        acting = state.actor
        finish = [0.0] * players
        for side in sides(state):
            total = 0.0
            for s in side:
                turn_comes = ((s - acting) % players or players) / players
                total += turn_comes + max(0, need(state, s, dist)) / POINTS_PER_TURN
            for s in side:
                finish[s] = -total / len(side)
        return finish

    FEATURES = ("need", "turn", "last_monk", "monks_up")
    weights = fitted.WEIGHTS

    def features(self, state: State) -> list[list[float]]:
        """Per seat, in turns of 6 points: the points it still needs to bring every monk up,
        less those it holds (`need`); when its next turn comes, in rounds (1 for the seat
        in its turn: its points are counted in its need); its farthest monk's way up; and
        its monks up (of 3). (Its finish, `values`, is the first two added.)"""
        dist = summit_distances(state.tiles, state.fixed, state.lifted)
        players = state.setup.players
        acting = state.actor
        out = []
        for s in range(players):
            walking = [dist[n] for n in state.monks[s] if n != SUMMIT]
            out.append([
                max(0, need(state, s, dist)) / POINTS_PER_TURN,
                ((s - acting) % players or players) / players,
                min(max(walking, default=0), NO_WAY) / POINTS_PER_TURN,
                state.monks[s].count(SUMMIT) / 3,
            ])
        return out

    def standing(self, view: State, seat: int) -> tuple[int, tuple]:
        """A round, and where every monk stands: a game whose monks stand where they stood
        at the start of earlier turns is one in which everybody waits (client/bots/stall.py)."""
        return view.round, tuple(tuple(sorted(m)) for m in view.monks)

    def distance(self, state: State, seat: int) -> float:
        """The movement points the seat's side still needs, not counting the points it
        holds (a point not spent by the end of the turn is lost)."""
        dist = summit_distances(state.tiles, state.fixed, state.lifted)
        return float(sum(dist[n] for s in _side_of(state, seat) for n in state.monks[s] if n != SUMMIT))

    def playout_shortcut(self, state: State) -> tuple | None:
        """The playouts skip the Athos piece and place no tiles (always legal)."""
        if state.phase == ATHOS:
            return SKIP_ATHOS
        if state.phase == PLACE:
            return END_TURN
        return None

    def playout_action(self, state: State, legal: list, rng: random.Random) -> tuple:
        """The race without blocking: in a move phase the `go` that brings a monk furthest
        up for its points (the summit first), else the end of the phase; no Athos piece,
        no tiles placed."""
        if state.phase == MOVE:
            dist = summit_distances(state.tiles, state.fixed)
            best, best_gain = None, 0
            for a in legal:
                if a[0] != "go":
                    break
                u, v = _NODE[a[1]], _NODE[a[2]]
                gain = dist[u] - dist[v]
                if gain > best_gain or (gain == best_gain and best is not None and rng.random() < 0.5):
                    best, best_gain = a, gain
            if best is not None:
                return best
            return legal[-1] if legal[-1][0] == "end_move" else legal[rng.randrange(len(legal))]
        last = legal[-1][0]
        if last in ("skip_athos", "end_turn"):
            return legal[-1]
        return legal[rng.randrange(len(legal))]


def _side_of(state: State, seat: int) -> tuple[int, ...]:
    for side in sides(state):
        if seat in side:
            return tuple(side)
    return (seat,)


KNOWLEDGE = AthosKnowledge
