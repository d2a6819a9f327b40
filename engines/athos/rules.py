"""The rules of a turn: which actions are legal, and what each one does.

Legality is decided in one place per kind of action: a `_*_problem` function returns None
for a legal action and otherwise the sentence saying why not. `legal_actions` asks it of
every candidate; `apply` asks it of the one action it is given, and raises that sentence.
Two exceptions, for speed: the loop over tiles to turn is unrolled where no monks need
parting, and the path rule for a list comes from the one-walk analysis (paths.py) while a
single action may be checked with one plain search. tests/test_athos_consistency.py checks
that `legal_actions` offers exactly what `apply` accepts.

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

from engines.athos.board import (
    COLOUR_LETTERS,
    COLOURS,
    HEX_COLOUR,
    HEX_COUNT,
    NEIGHBOURS,
    NODE_NAMES,
    SUMMIT,
)
from engines.athos.parting import TURN_COST, bonus, can_part, crowded
from engines.athos.paths import cutting_hexes, stranded
from engines.athos.setup import (
    MONKS_PER_PLAYER,
    PLACING_LIMITS,
    POINTS_PER_TURN,
    TILES_PER_COLOUR,
)
from engines.athos.state import (
    ATHOS,
    FIX,
    HANDICAP,
    MOVE,
    NO_TILE,
    OVER,
    PLACE,
    State,
    tile_char,
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


def supply(state: State) -> tuple[int, ...]:
    """colour -> tiles of that colour not yet on the board."""
    tiles = state.tiles.upper()
    return tuple(TILES_PER_COLOUR - tiles.count(letter) for letter in COLOUR_LETTERS)


def _cuts(state: State, cuts: Cuts) -> Sequence[int]:
    """hex -> blocking it would cut a monk off; the state's cached analysis by default."""
    return state.cuts if cuts is cutting_hexes else cuts(state.passable, state.walkers)


def _would_cut(state: State, h: int) -> bool:
    """Would a blocking tile on hex h (no monk on it) cut a monk off? For one action:
    the state's analysis if it has one already, else one plain search."""
    known = state.__dict__.get("cuts")
    if known is not None:
        return bool(known[h])
    passable = bytearray(state.passable)
    passable[h] = 0
    return stranded(passable, state.walkers) is not None


def _cut_reason(state: State, hexes_blocked: Sequence[int], opened: int | None = None) -> str:
    """'would cut monk on e5 off from the summit', naming the first stranded monk."""
    passable = bytearray(state.passable)
    if opened is not None:
        passable[opened] = 1
    for h in hexes_blocked:
        passable[h] = 0
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
class _Movers:
    """What the move phase asks about the acting seat's monks, worked out once per position."""

    __slots__ = ("mine", "taken", "crowded")

    def __init__(self, state: State) -> None:
        self.mine = _mine(state)
        self.taken = state.taken
        self.crowded = crowded(self.mine, self.taken)


def _step_problem(state: State, u: int, v: int, movers: _Movers) -> str | None:
    mine = movers.mine
    if u == SUMMIT:
        return "A monk on the summit can't move again."
    if u not in mine:
        return f"Seat {state.seat} has no monk on {NODE_NAMES[u]}."
    if v not in NEIGHBOURS[u]:
        return f"{NODE_NAMES[v]} is not next to {NODE_NAMES[u]}."
    if not state.passable[v]:
        return f"{NODE_NAMES[v]} shows a blocking tile; no monk may enter it."
    if state.pool < 1:
        return "No movement points are left; end the move phase."
    taken = movers.taken
    if not movers.crowded and (v >= HEX_COUNT or not (taken[v] or v in mine)):
        return None  # nobody will share a hex
    after = list(mine)
    after.remove(u)
    arrived = len(state.arrivals)
    pool = state.pool - 1
    if v == SUMMIT:
        pool += bonus(arrived)
        arrived += 1
    else:
        after.append(v)
    if crowded(after, taken) and not can_part(
        state.passable, tuple(after), taken, pool, arrived, state.movable
    ):
        return (
            f"Stepping from {NODE_NAMES[u]} to {NODE_NAMES[v]} would leave two monks on one hex "
            f"with too few points left to part them."
        )
    return None


def _turn_problem(
    state: State, h: int, movers: _Movers, would_cut: Callable[[int], bool]
) -> str | None:
    name = NODE_NAMES[h]
    tile = state.tiles[h]
    if tile == NO_TILE:
        return f"{name} has no tile to turn."
    if h in state.fixed:
        return f"The tile on {name} carries an Athos piece; it can never be turned or moved."
    if state.crowd[h]:
        return f"A monk stands on {name}; a tile with a monk on it can't be turned."
    if state.pool < TURN_COST:
        return (
            f"Turning a tile costs {TURN_COST} movement points; "
            f"seat {state.seat} has {state.pool} left."
        )
    closing = tile.islower()
    if closing and would_cut(h):
        return f"Turning {name} to its blocking side {_cut_reason(state, (h,))}."
    if movers.crowded:
        passable = bytearray(state.passable)
        passable[h] = 0 if closing else 1
        if not can_part(
            passable,
            movers.mine,
            movers.taken,
            state.pool - TURN_COST,
            len(state.arrivals),
            state.movable,
        ):
            return f"Turning {name} would leave too few points to part the monks sharing a hex."
    return None


def _end_move_problem(
    state: State, movers: _Movers, others_exist: Callable[[], bool]
) -> str | None:
    if movers.crowded:
        crowd = state.crowd
        shared = next(n for n in movers.mine if n < HEX_COUNT and crowd[n] > 1)
        return f"Two monks share {NODE_NAMES[shared]}; part them before the move phase ends."
    if state.setup.bonus_must_be_spent and state.owed and others_exist():
        return f"{state.owed} bonus points must still be spent (option bonus_must_be_spent)."
    return None


def _move_actions(state: State, cuts: Cuts) -> list[Action]:
    actions: list[Action] = []
    passable = state.passable
    movers = _Movers(state)
    if state.pool >= 1:
        for u in sorted(set(movers.mine)):
            for v in NEIGHBOURS[u]:
                if passable[v] and _step_problem(state, u, v, movers) is None:
                    actions.append(("step", NODE_NAMES[u], NODE_NAMES[v]))
    if state.pool >= TURN_COST:
        crowd = state.crowd
        tiles = state.tiles
        if movers.crowded:
            would_cut = lambda x: bool(_cuts(state, cuts)[x])  # noqa: E731
            for h in state.movable:
                if not crowd[h] and _turn_problem(state, h, movers, would_cut) is None:
                    actions.append(("turn", NODE_NAMES[h]))
        else:
            # _turn_problem with nobody to part, unrolled: this loop runs in most positions.
            cut: Sequence[int] = b""
            for h in state.movable:
                if crowd[h]:
                    continue
                if tiles[h].islower():
                    if not cut:
                        cut = _cuts(state, cuts)
                    if cut[h]:
                        continue
                actions.append(("turn", NODE_NAMES[h]))
    if _end_move_problem(state, movers, lambda: bool(actions)) is None:
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
    if state.tiles[src].islower():
        return free  # a passable tile changes no way up wherever it lies
    passable = bytearray(state.passable)
    passable[src] = 1
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
def _place_problem(
    state: State, h: int, blocking: bool, would_cut: Callable[[int], bool]
) -> str | None:
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
    if blocking and would_cut(h):
        return f"A blocking tile on {name} {_cut_reason(state, (h,))}."
    return None


def _place_actions(state: State, cuts: Cuts) -> list[Action]:
    actions: list[Action] = []
    handicap = state.phase == HANDICAP
    if handicap or sum(state.placed) < PLACING_LIMITS[state.setup.players][0]:
        cut = _cuts(state, cuts)
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
    if kind == "place_open" and phase != HANDICAP:
        raise IllegalAction(
            "Tiles are placed blocking side up; only handicap tiles may be placed passable side up."
        )
    if kind not in PHASE_KINDS[phase]:
        allowed = ", ".join(PHASE_KINDS[phase])
        raise IllegalAction(
            f"It is seat {state.seat}'s {PHASE_WORDS[phase]}, where {kind} is not possible "
            f"(possible: {allowed})."
        )

    def cuts_now(h: int) -> bool:
        return _would_cut(state, h)

    if kind == "step":
        _check(_step_problem(state, *nodes, _Movers(state)))
        return _do_step(state, *nodes)
    if kind == "turn":
        _check(_turn_problem(state, nodes[0], _Movers(state), cuts_now))
        return _do_turn(state, nodes[0])
    if kind == "end_move":
        def others() -> bool:
            return any(a != END_MOVE for a in _move_actions(state, cutting_hexes))

        _check(_end_move_problem(state, _Movers(state), others))
        after = ATHOS if state.pieces[state.seat] else PLACE
        return _replace(state, _ALL, phase=after, pool=0, owed=0)
    if kind == "move_tile":
        _check(_move_tile_problem(state, *nodes, cutting_hexes))
        return _do_move_tile(state, *nodes)
    if kind == "skip_athos":
        return _replace(state, _ALL, phase=PLACE)
    if kind == "fix":
        _check(_fix_problem(state, nodes[0]))
        return _do_fix(state, nodes[0])
    if kind in ("place", "place_open"):
        _check(_place_problem(state, nodes[0], kind == "place", cuts_now))
        return _do_place(state, nodes[0], kind == "place")
    return _do_end_turn(state)


def _check(problem: str | None) -> None:
    if problem is not None:
        raise IllegalAction(problem)


# Derived tables (State's cached properties) that stay true when only the monks move, when
# only the tiles change, and so on: handed on so the new state need not work them out again.
_TILES = ("passable", "walk", "movable")
_MONKS = ("crowd", "walkers")
_ALL = _TILES + _MONKS + ("taken", "cuts")


def _replace(state: State, keep: tuple[str, ...] = (), **changes: object) -> State:
    fields = {name: getattr(state, name) for name in state.__dataclass_fields__}
    fields.update(changes)
    new = State(**fields)  # type: ignore[arg-type]
    known = state.__dict__
    for name in keep:
        if name in known:
            new.__dict__[name] = known[name]  # what its `cached` property would compute
    return new


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
    return _replace(state, _TILES, **changes)


def _set_tile(tiles: str, h: int, tile: str) -> str:
    return tiles[:h] + tile + tiles[h + 1 :]


def _do_turn(state: State, h: int) -> State:
    tiles = _set_tile(state.tiles, h, state.tiles[h].swapcase())
    # the same hexes hold tiles, so `movable` stays
    return _replace(state, _MONKS + ("taken", "movable"), tiles=tiles, **_spend(state, TURN_COST))


def _do_move_tile(state: State, src: int, dst: int) -> State:
    tiles = _set_tile(_set_tile(state.tiles, dst, state.tiles[src]), src, NO_TILE)
    return _replace(state, _MONKS + ("taken",), tiles=tiles, phase=FIX)


def _do_fix(state: State, h: int) -> State:
    pieces = list(state.pieces)
    pieces[state.seat] -= 1
    fixed = tuple(sorted(state.fixed + (h,)))
    keep = ("passable", "walk", "cuts", "taken") + _MONKS
    return _replace(state, keep, fixed=fixed, pieces=tuple(pieces), phase=PLACE)


def _do_place(state: State, h: int, blocking: bool) -> State:
    colour = HEX_COLOUR[h]
    tiles = _set_tile(state.tiles, h, tile_char(colour, blocking))
    if state.phase == PLACE:
        placed = list(state.placed)
        placed[colour] += 1
        return _replace(state, _MONKS + ("taken",), tiles=tiles, placed=tuple(placed))
    left = state.handicap_left - 1
    if left:
        return _replace(state, _MONKS + ("taken",), tiles=tiles, handicap_left=left)
    handicap = state.setup.handicap
    following = next((s for s in range(state.seat + 1, len(handicap)) if handicap[s]), None)
    if following is not None:
        left = handicap[following]
        return _replace(state, _MONKS, tiles=tiles, seat=following, handicap_left=left)
    return _replace(
        state, _MONKS, tiles=tiles, seat=0, handicap_left=0, phase=MOVE, pool=POINTS_PER_TURN
    )


def _do_end_turn(state: State) -> State:
    seat = state.seat
    last = state.last_spent[:seat] + (state.spent,) + state.last_spent[seat + 1 :]
    turn_over = dict(
        last_spent=last, pool=POINTS_PER_TURN, owed=0, spent=0, placed=(0,) * len(COLOURS)
    )
    keep = _TILES + _MONKS + ("cuts",)  # a new seat acts: `taken` changes
    if seat + 1 < state.setup.players:
        return _replace(state, keep, seat=seat + 1, phase=MOVE, **turn_over)
    if finished_sides(state):
        return _replace(state, keep, seat=0, phase=OVER, **dict(turn_over, pool=0))
    return _replace(state, keep, seat=0, round=state.round + 1, phase=MOVE, **turn_over)


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
