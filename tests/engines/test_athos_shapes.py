"""The new action shapes reach exactly the positions the old atomic ones reached.

Engine version 1 moved a monk one step per action, moved a tile for the Athos piece in one
(source, destination) action, and took a turn's placements in any order. Version 2 moves a
monk to any node in one `go`, lifts and drops a tile in two actions, and takes placements in
board order only. This file keeps an independent model of the old atomic shape (`Atomic`:
its own step, tile move and placement rules, the path rule by plain search) and checks both
ways on seeded random games:

* old -> new: random atomic play; every run of steps that is a shortest way becomes one
  `go`, every tile move a `lift` and a `drop`, every turn's placements go out sorted; the
  new engine accepts each and reaches the same positions;
* new -> old: random play of the new engine; every `go` of distance d becomes d steps along
  a shortest way, a `lift` with its `drop` a tile move; the atomic model accepts each and
  reaches the same positions.

Both sides pass over a phase that leaves nothing but its end to decide (rules.settle), so
positions are compared where a seat has a choice.
"""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from support.budget import LONG
from peerboard.engines.athos import GAME, oracle, rules
from peerboard.engines.athos.board import HEX_COLOUR, HEX_COUNT, NEIGHBOURS, NODE_NAMES, SUMMIT
from peerboard.engines.athos.notation import NODE_INDEX
from peerboard.engines.athos.parting import bonus, can_part, crowded
from peerboard.engines.athos.paths import distances, stranded
from peerboard.engines.athos.setup import PLACING_LIMITS
from peerboard.engines.athos.state import ATHOS, FIX, HANDICAP, MOVE, NO_TILE, PLACE, State, tile_char
from peerboard.engines.contract import IllegalAction

#: seeded random walks of each set-up (a third with --long)
SEEDS = range(3 if LONG else 2)
SETUPS = [
    (2, {}),
    (3, {"handicap": {"1": 3}, "athos_on_empty": True}),
    (4, {"teams": True, "bonus_must_be_spent": True}),
]


def position(state: State) -> tuple:
    """What both shapes must agree on: the record without the new shape's bookkeeping
    (the lifted tile's hex, the hex placed last)."""
    return GAME.public_record(state)[:17]


def _cuts_off(state: State, passable: bytearray) -> bool:
    return stranded(passable, state.walkers) is not None


class Atomic:
    """Engine version 1's action shapes, written again on the version-2 state."""

    @staticmethod
    def legal(state: State) -> list[tuple]:
        if state.phase == MOVE:
            mine = sorted({n for n in state.monks[state.actor] if n != SUMMIT})
            steps = [("step", u, v) for u in mine for v in NEIGHBOURS[u]]
            steps = [a for a in steps if Atomic.step_problem(state, a[1], a[2]) is None]
            steps = [("step", NODE_NAMES[u], NODE_NAMES[v]) for _, u, v in steps]
            same = [a for a in GAME.legal_actions(state) if a[0] == "turn" or a == ("end_move",)]
            return steps + same
        if state.phase == ATHOS:
            moves = [
                ("move_tile", NODE_NAMES[s], NODE_NAMES[d])
                for s in range(HEX_COUNT)
                for d in range(HEX_COUNT)
                if Atomic.tile_problem(state, s, d) is None
            ]
            return moves + [("skip_athos",)]
        if state.phase in (PLACE, HANDICAP):
            out = []
            for h in range(HEX_COUNT):
                for blocking in (True, False):
                    if Atomic.place_problem(state, h, blocking) is None:
                        out.append(("place" if blocking else "place_open", NODE_NAMES[h]))
            return out + ([("end_turn",)] if state.phase == PLACE else [])
        return GAME.legal_actions(state)  # fix: the same in both shapes

    @staticmethod
    def step_problem(state: State, u: int, v: int) -> str | None:
        mine = tuple(n for n in state.monks[state.actor] if n != SUMMIT)
        if u not in mine or v not in NEIGHBOURS[u] or not state.passable[v] or state.pool < 1:
            return "no such step"
        after = list(mine)
        after.remove(u)
        pool, arrived = state.pool - 1, len(state.arrivals)
        if v == SUMMIT:
            pool, arrived = pool + bonus(arrived), arrived + 1
        else:
            after.append(v)
        if crowded(after, state.taken) and not can_part(
            state.passable, tuple(after), state.taken, pool, arrived, state.movable
        ):
            return "cannot part"
        return None

    @staticmethod
    def tile_problem(state: State, s: int, d: int) -> str | None:
        if state.tiles[s] == NO_TILE or s in state.fixed or state.crowd[s]:
            return "no movable tile"
        if d == s or state.tiles[d] != NO_TILE or state.crowd[d] or d in state.fixed:
            return "no free hex"
        if state.tiles[s].isupper():
            passable = bytearray(state.passable)
            passable[s], passable[d] = 1, 0
            if _cuts_off(state, passable):
                return "cuts"
        return None

    @staticmethod
    def place_problem(state: State, h: int, blocking: bool) -> str | None:
        handicap = state.phase == HANDICAP
        if not handicap and not blocking:
            return "open tiles only as a handicap"
        per_turn, per_colour = PLACING_LIMITS[state.setup.players]
        colour = HEX_COLOUR[h]
        if state.tiles[h] != NO_TILE or state.crowd[h] or h in state.fixed:
            return "not free"
        if rules.supply(state)[colour] == 0:
            return "no supply"
        if not handicap and (sum(state.placed) >= per_turn or state.placed[colour] >= per_colour):
            return "limit"
        if blocking:
            passable = bytearray(state.passable)
            passable[h] = 0
            if _cuts_off(state, passable):
                return "cuts"
        return None

    @staticmethod
    def apply(state: State, action: tuple) -> State:
        kind = action[0]
        nodes = [NODE_INDEX[n] for n in action[1:]]
        if kind == "step":
            assert Atomic.step_problem(state, *nodes) is None, action
            u, v = nodes
            seat = state.actor
            monks = list(state.monks[seat])
            monks.remove(u)
            monks.append(v)
            changes = dict(
                monks=state.monks[:seat] + (tuple(sorted(monks)),) + state.monks[seat + 1 :],
                pool=state.pool - 1, owed=max(0, state.owed - 1), spent=state.spent + 1,
            )
            if v == SUMMIT:
                extra = bonus(len(state.arrivals))
                changes.update(pool=changes["pool"] + extra, owed=changes["owed"] + extra,
                               arrivals=state.arrivals + (seat,))
            return rules.settle(replace(state, **changes))
        if kind == "move_tile":
            assert Atomic.tile_problem(state, *nodes) is None, action
            s, d = nodes
            tiles = list(state.tiles)
            tiles[d], tiles[s] = tiles[s], NO_TILE
            return rules.settle(replace(state, tiles="".join(tiles), phase=FIX))
        if kind in ("place", "place_open"):
            h = nodes[0]
            assert Atomic.place_problem(state, h, kind == "place") is None, action
            tiles = state.tiles[:h] + tile_char(HEX_COLOUR[h], kind == "place") + state.tiles[h + 1 :]
            if state.phase == PLACE:
                placed = list(state.placed)
                placed[HEX_COLOUR[h]] += 1
                return rules.settle(replace(state, tiles=tiles, placed=tuple(placed)))
            if state.handicap_left > 1:
                return replace(state, tiles=tiles, handicap_left=state.handicap_left - 1)
            handicap = state.setup.handicap
            later = [s for s in range(state.actor + 1, len(handicap)) if handicap[s]]
            if later:
                return replace(state, tiles=tiles, actor=later[0], handicap_left=handicap[later[0]])
            return replace(state, tiles=tiles, actor=0, handicap_left=0, phase=MOVE, pool=6)
        return replace(GAME.apply(replace(state, last_placed=-1), action), last_placed=-1)


def _onward_steps(state: State, done: list[tuple], legal: list[tuple]) -> list[tuple]:
    """The legal steps that carry on the last run of steps away from where it began."""
    if not done or done[-1][0] != "step":
        return []
    i = len(done) - 1
    while i > 0 and done[i - 1][0] == "step" and done[i - 1][2] == done[i][1]:
        i -= 1
    start, here = NODE_INDEX[done[i][1]], NODE_INDEX[done[-1][2]]
    far = distances(state.passable, start, 20)
    return [
        a for a in legal
        if a[0] == "step" and a[1] == done[-1][2] and far.get(NODE_INDEX[a[2]], 0) > far.get(here, 0)
    ]


def _run_of_steps(actions: list[tuple], i: int) -> int:
    """The end (exclusive) of the run of steps from i where each goes on from the last."""
    j = i + 1
    while j < len(actions) and actions[j][0] == "step" and actions[j][1] == actions[j - 1][2]:
        j += 1
    return j


@pytest.mark.parametrize("players, options", SETUPS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_atomic_play_is_reached_by_the_new_actions(players, options, seed):
    rng = random.Random(f"old to new {players} {seed}")
    old = GAME.new_game(players, options)
    new = old
    turn_actions: list[tuple] = []
    for _ in range(700):
        if GAME.is_terminal(old):
            break
        legal = Atomic.legal(old)
        action = legal[rng.randrange(len(legal))]
        onward = _onward_steps(old, turn_actions, legal)
        if onward and rng.random() < 0.7:
            action = onward[rng.randrange(len(onward))]  # long straight runs: long gos
        turn_actions.append(action)
        old = Atomic.apply(old, action)
        if old.phase in (MOVE, ATHOS, PLACE, HANDICAP) and (old.actor, old.phase) == (new.actor, new.phase):
            continue  # the same seat still acts in the same phase: translate later
        new = _replay_in_new_shape(new, turn_actions)
        turn_actions = []
        assert position(new) == position(old)


def _replay_in_new_shape(state: State, actions: list[tuple]) -> State:
    """The new engine plays what the atomic model played: runs of steps along a shortest
    way as one go, tile moves as lift + drop, placements sorted into board order."""
    actions = GAME.plan_order(state, actions)
    i = 0
    while i < len(actions):
        action = actions[i]
        if action[0] == "step":
            j = _run_of_steps(actions, i)
            start, end = NODE_INDEX[action[1]], NODE_INDEX[actions[j - 1][2]]
            if start != end and distances(state.passable, start, j - i).get(end) == j - i:
                state = GAME.apply(state, ("go", action[1], actions[j - 1][2]))
            else:
                for step in actions[i:j]:
                    state = GAME.apply(state, ("go", step[1], step[2]))
            i = j
            continue
        if action[0] == "move_tile":
            state = GAME.apply(GAME.apply(state, ("lift", action[1])), ("drop", action[2]))
        elif action == ("end_turn",) and state.phase != PLACE:
            pass  # the board-order placements left nothing to place: the turn ended itself
        else:
            state = GAME.apply(state, action)
        i += 1
    return state


@pytest.mark.parametrize("players, options", SETUPS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_new_play_is_reached_by_atomic_actions(players, options, seed):
    rng = random.Random(f"new to old {players} {seed}")
    new = GAME.new_game(players, options)
    old = new
    for _ in range(500):
        if GAME.is_terminal(new):
            break
        legal = GAME.legal_actions(new)
        action = legal[rng.randrange(len(legal))]
        if action[0] == "go":
            for step in _shortest_way(new, NODE_INDEX[action[1]], NODE_INDEX[action[2]]):
                old = Atomic.apply(old, step)
        elif action[0] == "lift":
            pass  # the atomic tile move follows with the drop
        elif action[0] == "drop":
            old = Atomic.apply(old, ("move_tile", NODE_NAMES[new.lifted], action[1]))
        else:
            old = Atomic.apply(old, action)
        new = GAME.apply(new, action)
        if old.phase == PLACE and (new.actor, new.phase) != (old.actor, PLACE):
            # nothing is left after the last hex placed, so the turn ended by itself;
            # the atomic player ends it
            old = Atomic.apply(old, ("end_turn",))
        if new.phase != "drop":
            assert position(old) == position(new), f"after {action}"


def _shortest_way(state: State, start: int, goal: int) -> list[tuple]:
    """The steps of one shortest way from start to goal (breadth first, ascending nodes)."""
    came = {start: start}
    frontier = [start]
    while goal not in came:
        nxt = []
        for v in frontier:
            if v == SUMMIT:
                continue
            for w in NEIGHBOURS[v]:
                if state.passable[w] and w not in came:
                    came[w] = v
                    nxt.append(w)
        frontier = nxt
    way = [goal]
    while way[-1] != start:
        way.append(came[way[-1]])
    way.reverse()
    return [("step", NODE_NAMES[a], NODE_NAMES[b]) for a, b in zip(way, way[1:])]


def test_the_atomic_model_refuses_what_version_1_refused():
    # a sanity check of the model itself: no step through a blocking tile, no tile move
    # onto a tile, no placement that cuts a monk off
    state = replace(GAME.new_game(2), tiles="G" + NO_TILE * (HEX_COUNT - 1))
    assert Atomic.tile_problem(state, 0, 0) and Atomic.tile_problem(state, 1, 2)
    assert Atomic.place_problem(state, 1, True) is None
    with pytest.raises(IllegalAction):
        GAME.apply(state, ("go", "B", "B"))
