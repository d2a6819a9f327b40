"""The rules of a turn: which actions are legal, and what each one does.

Legality is decided in one place per kind of action: a `_*_problem` function returns None
for a legal action and otherwise the sentence saying why not. `legal_actions` asks it of
every candidate; `apply` asks it of the one action it is given, and raises that sentence.

Actions (the text forms are in notation.py, everything in spec/games/athos.md):

    ("step", from, to)        move phase: one monk one step (1 point)
    ("turn", hex)             move phase: turn a tile over (4 points)
    ("end_move",)             move phase ends; unused points are lost
    ("move_tile", from, to)   Athos phase: move a tile, same side up ...
    ("fix", hex)              ... then put the Athos piece down
    ("skip_athos",)           Athos phase: no piece this turn
    ("place", hex)            place a tile blocking side up (also a handicap tile)
    ("place_open", hex)       handicap only: a tile passable side up
    ("end_turn",)             placement phase ends; the next seat's turn
"""
from __future__ import annotations

from typing import Callable, Sequence

from engines.athos.board import COLOURS, HEX_COLOUR, HEX_COUNT, NEIGHBOURS, NODE_NAMES, SUMMIT
from engines.athos.parting import TURN_COST, bonus, can_part, crowded
from engines.athos.paths import cutting_hexes, stranded
from engines.athos.setup import MONKS_PER_PLAYER, PLACING_LIMITS, POINTS_PER_TURN, TILES_PER_COLOUR
from engines.athos.state import (
    ATHOS,
    FIX,
    HANDICAP,
    MOVE,
    NO_TILE,
    OVER,
    PLACE,
    State,
    tile_code,
)
from engines.contract import Action, IllegalAction

#: (passable, walkers) -> hex -> blocking it would cut a monk off (paths or oracle)
Cuts = Callable[[Sequence[bool], Sequence[int]], list[bool]]

END_MOVE: Action = ("end_move",)
SKIP_ATHOS: Action = ("skip_athos",)
END_TURN: Action = ("end_turn",)

#: phase -> the kinds of action it allows, for the error that names them
PHASE_KINDS = {
    HANDICAP: ("place", "place_open"),
    MOVE: ("step", "turn", "end_move"),
    ATHOS: ("move_tile", "skip_athos"),
    FIX: ("fix",),
    PLACE: ("place", "end_turn"),
}
PHASE_WORDS = {
    HANDICAP: "handicap placement",
    MOVE: "move phase",
    ATHOS: "Athos phase",
    FIX: "Athos phase (the piece must now be put down)",
    PLACE: "placement phase",
}


# -- what a position tells -------------------------------------------------------------
def _mine(state: State) -> tuple[int, ...]:
    """The acting seat's monks not yet on the summit."""
    return tuple(n for n in state.monks[state.seat] if n != SUMMIT)


def _taken(state: State) -> list[bool]:
    """hex -> another seat's monk stands there."""
    taken = [False] * HEX_COUNT
    for seat, nodes in enumerate(state.monks):
        if seat != state.seat:
            for n in nodes:
                if n < HEX_COUNT:
                    taken[n] = True
    return taken


def _movable_tiles(state: State) -> tuple[int, ...]:
    """Hexes whose tile may still be turned or moved (no Athos piece on it)."""
    fixed = state.fixed
    return tuple(h for h, t in enumerate(state.tiles) if t >= 0 and h not in fixed)


def supply(state: State) -> tuple[int, ...]:
    """colour -> tiles of that colour not yet on the board."""
    out = [TILES_PER_COLOUR] * len(COLOURS)
    for t in state.tiles:
        if t >= 0:
            out[t >> 1] -= 1
    return tuple(out)


def _cut_reason(state: State, hexes_blocked: Sequence[int], opened: int | None = None) -> str:
    """'would cut monk on e5 off from the summit', naming the first stranded monk."""
    passable = list(state.passable)
    if opened is not None:
        passable[opened] = True
    for h in hexes_blocked:
        passable[h] = False
    node = stranded(passable, state.walkers)
    if node is None:  # not reached: callers ask only when a monk is cut off
        return "would cut a monk off from the summit"
    if node >= HEX_COUNT:
        return f"would cut the monks in start area {NODE_NAMES[node]} off from the summit"
    return f"would cut monk on {NODE_NAMES[node]} off from the summit"


def _free_problem(state: State, h: int) -> str | None:
    """Why no tile may be put on hex h (placing or moving), or None."""
    if state.tiles[h] != NO_TILE:
        return f"{NODE_NAMES[h]} already has a tile"
    if state.crowd[h]:
        return f"a monk stands on {NODE_NAMES[h]}"
    if h in state.fixed:
        return f"{NODE_NAMES[h]} carries an Athos piece, so no tile may ever go there"
    return None


# -- move phase ------------------------------------------------------------------------
def _step_problem(state: State, u: int, v: int) -> str | None:
    me = state.seat
    mine = _mine(state)
    if u == SUMMIT:
        return "A monk on the summit can't move again."
    if u not in mine:
        return f"Seat {me} has no monk on {NODE_NAMES[u]}."
    if v not in NEIGHBOURS[u]:
        return f"{NODE_NAMES[v]} is not next to {NODE_NAMES[u]}."
    if not state.passable[v]:
        return f"{NODE_NAMES[v]} shows a blocking tile; no monk may enter it."
    if state.pool < 1:
        return "No movement points are left; end the move phase."
    after = list(mine)
    after.remove(u)
    arrived = len(state.arrivals)
    pool = state.pool - 1
    if v == SUMMIT:
        pool += bonus(arrived)
        arrived += 1
    else:
        after.append(v)
    taken = _taken(state)
    if crowded(after, taken) and not can_part(
        state.passable, tuple(after), taken, pool, arrived, _movable_tiles(state)
    ):
        return (
            f"Stepping from {NODE_NAMES[u]} to {NODE_NAMES[v]} would leave two monks on one hex "
            f"with too few points left to part them."
        )
    return None


def _turn_problem(state: State, h: int, cuts: Callable[[], list[bool]]) -> str | None:
    name = NODE_NAMES[h]
    tile = state.tiles[h]
    if tile == NO_TILE:
        return f"{name} has no tile to turn."
    if h in state.fixed:
        return f"The tile on {name} carries an Athos piece; it can never be turned or moved."
    if state.crowd[h]:
        return f"A monk stands on {name}; a tile with a monk on it can't be turned."
    if state.pool < TURN_COST:
        return f"Turning a tile costs {TURN_COST} movement points; only {state.pool} are left."
    closing = not tile & 1
    if closing and cuts()[h]:
        return f"Turning {name} to its blocking side {_cut_reason(state, (h,))}."
    mine = _mine(state)
    taken = _taken(state)
    if crowded(mine, taken):
        passable = list(state.passable)
        passable[h] = not closing
        if not can_part(
            passable, mine, taken, state.pool - TURN_COST, len(state.arrivals), _movable_tiles(state)
        ):
            return f"Turning {name} would leave too few points to part the monks sharing a hex."
    return None


def _end_move_problem(state: State, others_exist: Callable[[], bool]) -> str | None:
    mine = _mine(state)
    if crowded(mine, _taken(state)):
        crowd = state.crowd
        shared = next(n for n in mine if n < HEX_COUNT and crowd[n] > 1)
        return f"Two monks share {NODE_NAMES[shared]}; part them before the move phase ends."
    if state.setup.bonus_must_be_spent and state.owed and others_exist():
        return f"{state.owed} bonus points must still be spent (option bonus_must_be_spent)."
    return None


def _move_actions(state: State, cuts: Cuts) -> list[Action]:
    actions: list[Action] = []
    passable = state.passable
    if state.pool >= 1:
        for u in sorted(set(_mine(state))):
            for v in NEIGHBOURS[u]:
                if passable[v] and _step_problem(state, u, v) is None:
                    actions.append(("step", NODE_NAMES[u], NODE_NAMES[v]))
    if state.pool >= TURN_COST:
        found: list[list[bool]] = []

        def lazy_cuts() -> list[bool]:
            if not found:
                found.append(cuts(passable, state.walkers))
            return found[0]

        crowd = state.crowd
        for h in _movable_tiles(state):
            if not crowd[h] and _turn_problem(state, h, lazy_cuts) is None:
                actions.append(("turn", NODE_NAMES[h]))
    if _end_move_problem(state, lambda: bool(actions)) is None:
        actions.append(END_MOVE)
    return actions


# -- Athos phase -----------------------------------------------------------------------
def _tile_source_problem(state: State, src: int) -> str | None:
    name = NODE_NAMES[src]
    if state.tiles[src] == NO_TILE:
        return f"{name} has no tile to move."
    if src in state.fixed:
        return f"The tile on {name} carries an Athos piece; it can never be turned or moved."
    if state.crowd[src]:
        return f"A monk stands on {name}; a tile with a monk on it can't be moved."
    return None


def _destinations(state: State, src: int, cuts: Cuts) -> list[int]:
    """Hexes the tile on `src` may move to (src already checked)."""
    free = [h for h in range(HEX_COUNT) if h != src and _free_problem(state, h) is None]
    if not state.tiles[src] & 1:
        return free  # a passable tile changes no way up wherever it lies
    passable = list(state.passable)
    passable[src] = True
    cut = cuts(passable, state.walkers)
    return [h for h in free if not cut[h]]


def _move_tile_problem(state: State, src: int, dst: int, cuts: Cuts) -> str | None:
    problem = _tile_source_problem(state, src)
    if problem:
        return problem
    if dst == src:
        return "A tile must move to another hex."
    problem = _free_problem(state, dst)
    if problem:
        return f"The tile can't move to {NODE_NAMES[dst]}: {problem}."
    if dst not in _destinations(state, src, cuts):
        return (
            f"Moving the blocking tile from {NODE_NAMES[src]} to {NODE_NAMES[dst]} "
            f"{_cut_reason(state, (dst,), opened=src)}."
        )
    return None


def _athos_actions(state: State, cuts: Cuts) -> list[Action]:
    actions: list[Action] = []
    for src in range(HEX_COUNT):
        if state.tiles[src] != NO_TILE and _tile_source_problem(state, src) is None:
            for dst in _destinations(state, src, cuts):
                actions.append(("move_tile", NODE_NAMES[src], NODE_NAMES[dst]))
    actions.append(SKIP_ATHOS)
    return actions


def _fix_problem(state: State, h: int) -> str | None:
    name = NODE_NAMES[h]
    if h in state.fixed:
        return f"{name} already carries an Athos piece."
    if state.tiles[h] == NO_TILE and not state.setup.athos_on_empty:
        return f"{name} has no tile; an Athos piece goes on a tile (see option athos_on_empty)."
    return None


# -- placing tiles ---------------------------------------------------------------------
def _place_problem(state: State, h: int, blocking: bool, cuts: Callable[[], list[bool]]) -> str | None:
    name = NODE_NAMES[h]
    colour = HEX_COLOUR[h]
    word = COLOURS[colour]
    if state.phase == PLACE:
        per_turn, per_colour = PLACING_LIMITS[state.setup.players]
        if sum(state.placed) >= per_turn:
            return f"Seat {state.seat} has placed its {per_turn} tiles for this turn."
    problem = _free_problem(state, h)
    if problem:
        return f"No tile may be placed on {name}: {problem}."
    if supply(state)[colour] == 0:
        return f"All {TILES_PER_COLOUR} {word} tiles are on the board."
    if state.phase == PLACE and state.placed[colour] >= per_colour:
        return (
            f"Seat {state.seat} has placed {per_colour} {word} "
            f"{'tile' if per_colour == 1 else 'tiles'} this turn, the most of one colour."
        )
    if blocking and cuts()[h]:
        return f"A blocking tile on {name} {_cut_reason(state, (h,))}."
    return None


def _place_actions(state: State, cuts: Cuts) -> list[Action]:
    actions: list[Action] = []
    handicap = state.phase == HANDICAP
    if handicap or sum(state.placed) < PLACING_LIMITS[state.setup.players][0]:
        cut = cuts(state.passable, state.walkers)
        left = supply(state)
        limit = PLACING_LIMITS[state.setup.players][1]
        for h in range(HEX_COUNT):
            colour = HEX_COLOUR[h]
            if not left[colour] or _free_problem(state, h) is not None:
                continue
            if handicap or state.placed[colour] < limit:
                if not cut[h]:
                    actions.append(("place", NODE_NAMES[h]))
                if handicap:
                    actions.append(("place_open", NODE_NAMES[h]))
    if not handicap:
        actions.append(END_TURN)
    return actions


# -- the contract's two calls --------------------------------------------------------------
def legal_actions(state: State, cuts: Cuts = cutting_hexes) -> list[Action]:
    """Every legal action, in a fixed order (steps, turns, end; tiles in board order)."""
    phase = state.phase
    if phase == MOVE:
        return _move_actions(state, cuts)
    if phase == PLACE or phase == HANDICAP:
        return _place_actions(state, cuts)
    if phase == ATHOS:
        return _athos_actions(state, cuts)
    if phase == FIX:
        empty = state.setup.athos_on_empty
        return [
            ("fix", NODE_NAMES[h])
            for h in range(HEX_COUNT)
            if (empty or state.tiles[h] != NO_TILE) and h not in state.fixed
        ]
    return []


def apply(state: State, action: Action, kind: str, nodes: tuple[int, ...]) -> State:
    """The state after `action` (already split into its kind and node numbers by notation)."""
    phase = state.phase
    if phase == OVER:
        raise IllegalAction("The game is over; no action is possible.")
    if kind not in PHASE_KINDS[phase]:
        allowed = ", ".join(PHASE_KINDS[phase])
        raise IllegalAction(
            f"It is seat {state.seat}'s {PHASE_WORDS[phase]}, where {kind} is not possible "
            f"(possible: {allowed})."
        )

    def cuts_now() -> list[bool]:
        return cutting_hexes(state.passable, state.walkers)

    if kind == "step":
        return _check(_step_problem(state, *nodes)) or _do_step(state, *nodes)
    if kind == "turn":
        return _check(_turn_problem(state, nodes[0], cuts_now)) or _do_turn(state, nodes[0])
    if kind == "end_move":
        problem = _end_move_problem(
            state, lambda: any(a != END_MOVE for a in _move_actions(state, cutting_hexes))
        )
        return _check(problem) or _replace(
            state, phase=ATHOS if state.pieces[state.seat] else PLACE, pool=0, owed=0
        )
    if kind == "move_tile":
        return _check(_move_tile_problem(state, *nodes, cutting_hexes)) or _do_move_tile(state, *nodes)
    if kind == "skip_athos":
        return _replace(state, phase=PLACE)
    if kind == "fix":
        return _check(_fix_problem(state, nodes[0])) or _do_fix(state, nodes[0])
    if kind in ("place", "place_open"):
        blocking = kind == "place"
        problem = _place_problem(state, nodes[0], blocking, cuts_now)
        return _check(problem) or _do_place(state, nodes[0], blocking)
    # end_turn
    return _do_end_turn(state)


def _check(problem: str | None) -> None:
    if problem is not None:
        raise IllegalAction(problem)


def _replace(state: State, **changes: object) -> State:
    fields = {name: getattr(state, name) for name in state.__dataclass_fields__}
    fields.update(changes)
    return State(**fields)  # type: ignore[arg-type]


def _spend(state: State, points: int) -> dict[str, int]:
    # Bonus points are spent first, so `owed` is what is left of them.
    return {
        "pool": state.pool - points,
        "owed": max(0, state.owed - points),
        "spent": state.spent + points,
    }


def _do_step(state: State, u: int, v: int) -> State:
    seat = state.seat
    nodes = list(state.monks[seat])
    nodes.remove(u)
    nodes.append(v)
    monks = state.monks[:seat] + (tuple(sorted(nodes)),) + state.monks[seat + 1 :]
    changes: dict[str, object] = dict(_spend(state, 1), monks=monks)
    if v == SUMMIT:
        extra = bonus(len(state.arrivals))
        changes["pool"] = int(changes["pool"]) + extra  # type: ignore[call-overload]
        changes["owed"] = int(changes["owed"]) + extra  # type: ignore[call-overload]
        changes["arrivals"] = state.arrivals + (seat,)
    return _replace(state, **changes)


def _do_turn(state: State, h: int) -> State:
    tiles = list(state.tiles)
    tiles[h] ^= 1
    return _replace(state, tiles=tuple(tiles), **_spend(state, TURN_COST))


def _do_move_tile(state: State, src: int, dst: int) -> State:
    tiles = list(state.tiles)
    tiles[dst], tiles[src] = tiles[src], NO_TILE
    return _replace(state, tiles=tuple(tiles), phase=FIX)


def _do_fix(state: State, h: int) -> State:
    pieces = list(state.pieces)
    pieces[state.seat] -= 1
    return _replace(
        state, fixed=tuple(sorted(state.fixed + (h,))), pieces=tuple(pieces), phase=PLACE
    )


def _do_place(state: State, h: int, blocking: bool) -> State:
    tiles = list(state.tiles)
    colour = HEX_COLOUR[h]
    tiles[h] = tile_code(colour, blocking)
    if state.phase == PLACE:
        placed = list(state.placed)
        placed[colour] += 1
        return _replace(state, tiles=tuple(tiles), placed=tuple(placed))
    left = state.handicap_left - 1
    if left:
        return _replace(state, tiles=tuple(tiles), handicap_left=left)
    handicap = state.setup.handicap
    following = next((s for s in range(state.seat + 1, len(handicap)) if handicap[s]), None)
    if following is not None:
        return _replace(state, tiles=tuple(tiles), seat=following, handicap_left=handicap[following])
    return _replace(
        state, tiles=tuple(tiles), seat=0, handicap_left=0, phase=MOVE, pool=POINTS_PER_TURN
    )


def _do_end_turn(state: State) -> State:
    seat = state.seat
    last = state.last_spent[:seat] + (state.spent,) + state.last_spent[seat + 1 :]
    turn_over = dict(
        last_spent=last, pool=POINTS_PER_TURN, owed=0, spent=0, placed=(0,) * len(COLOURS)
    )
    if seat + 1 < state.setup.players:
        return _replace(state, seat=seat + 1, phase=MOVE, **turn_over)
    if finished_sides(state):
        return _replace(state, seat=0, phase=OVER, **dict(turn_over, pool=0))
    return _replace(state, seat=0, round=state.round + 1, phase=MOVE, **turn_over)


# -- the end -------------------------------------------------------------------------------
def sides(state: State) -> tuple[tuple[int, ...], ...]:
    """The sides that win or lose together: each seat alone, or the two teams."""
    if state.setup.teams:
        return ((0, 2), (1, 3))
    return tuple((s,) for s in range(state.setup.players))


def finished_sides(state: State) -> list[tuple[int, ...]]:
    """The sides whose every monk is on the summit."""
    return [
        side
        for side in sides(state)
        if all(state.monks[s].count(SUMMIT) == MONKS_PER_PLAYER for s in side)
    ]


def winners(state: State) -> list[int]:
    """At the end: the finished side that used the fewest points in its last turn(s)."""
    if state.phase != OVER:
        return []
    done = finished_sides(state)
    if not done:
        return []
    used = {side: sum(state.last_spent[s] for s in side) for side in done}
    least = min(used.values())
    return sorted(s for side in done if used[side] == least for s in side)
