"""The rules of a turn: which actions are legal, and what each one does.

The rules are one table (`BOOK`, engines/rulebook.py): for each phase the function listing
its legal actions; for each (phase, kind of action) a `_*_problem` function that returns
None for a legal action and otherwise the sentence saying why not, and the effect. `apply`
asks the problem of the one action it is given and raises that sentence. The listing
functions ask the same questions of every candidate, with two shortcuts for speed: the path
rule for a whole list comes from the one-walk analysis (paths.py), while a single action may
be checked with one plain search; and a move that leaves nobody sharing a hex needs no
parting search. tests/engines/test_athos_consistency.py checks that `legal_actions` offers exactly
what `apply` accepts.

Actions (the text forms are in notation.py, everything in spec/games/athos.md):

    ("go", from, to)          move phase: one monk to a node, for its shortest distance
    ("turn", hex)             move phase: turn a tile over (4 points)
    ("end_move",)             move phase ends; unused points are lost
    ("lift", hex)             Athos phase: lift a tile ...
    ("drop", hex)             ... put it down on another hex, same side up ...
    ("fix", hex)              ... then put the Athos piece down
    ("skip_athos",)           Athos phase: no piece this turn
    ("place", hex)            place a tile blocking side up (also a handicap tile)
    ("place_open", hex)       handicap only: a tile passable side up
    ("end_turn",)             placement phase ends; the next seat's turn

No two orders of the same choices are offered where they give one position: a turn's tiles
go down in board order (a hex after the one placed last). Moves and turns of tiles keep
their order: it decides what the points pay for and which ways are open.
"""
from __future__ import annotations

from functools import partial
from operator import attrgetter
from typing import Callable, Protocol, Sequence

from peerboard.engines.athos.board import (
    COLOUR_LETTERS,
    COLOURS,
    HEX_COLOUR,
    HEX_COUNT,
    NEIGHBOURS,
    NODE_COUNT,
    NODE_NAMES,
    SUMMIT,
)
from peerboard.engines.athos.notation import decode
from peerboard.engines.athos.parting import TURN_COST, bonus, can_part, crowded
from peerboard.engines.athos.paths import bypassed, cutting_hexes, distances, steps, stranded
from peerboard.engines.athos.setup import (
    MONKS_PER_PLAYER,
    PLACING_LIMITS,
    POINTS_PER_TURN,
    TILES_PER_COLOUR,
)
from peerboard.engines.athos.state import (
    ATHOS,
    DROP,
    FIX,
    HANDICAP,
    MOVE,
    NO_HEX,
    NO_TILE,
    OVER,
    PLACE,
    State,
    tile_char,
)
from peerboard.engines.contract import Action
from peerboard.engines.rulebook import Rule, Rulebook, always, until_settled
from peerboard.engines.values import evolve, replaced

#: (passable, walkers) -> hex -> blocking it would cut a monk off (paths or oracle); a
#: passable is a byte per hex, 1 where a monk may walk
Cuts = Callable[[Sequence[int], Sequence[int]], list[bool]]

END_MOVE: tuple[str] = ("end_move",)
SKIP_ATHOS: tuple[str] = ("skip_athos",)
END_TURN: tuple[str] = ("end_turn",)

PHASE_WORDS = {
    HANDICAP: "handicap placement",
    MOVE: "move phase",
    ATHOS: "Athos phase",
    DROP: "Athos phase (the lifted tile must now be put down)",
    FIX: "Athos phase (the piece must now be put down)",
    PLACE: "placement phase",
}


# -- what a position tells -------------------------------------------------------------
def _mine(state: State) -> tuple[int, ...]:
    """The acting seat's monks not yet on the summit (the state's, worked out once)."""
    return state.mine


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
    if bypassed(state.passable, h):
        return False  # (proved around h, no search needed)
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
    """Why no tile may be put on hex h (placing or dropping), or None."""
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
        # (the state's own, worked out once per state: the problem of an action and the
        # settling after the action before ask the same position)
        self.mine = state.mine
        self.taken = state.taken
        self.crowded = state.sharing


def _parting_problem(state: State, u: int, v: int, d: int, movers: _Movers) -> str | None:
    """Why a monk going u -> v for d points would leave monks on one hex that can no
    longer be parted, or None."""
    taken = movers.taken
    mine = movers.mine
    if not movers.crowded and (v >= HEX_COUNT or not (taken[v] or v in mine)):
        return None  # nobody will share a hex
    after = list(mine)
    after.remove(u)
    arrived = len(state.arrivals)
    pool = state.pool - d
    if v == SUMMIT:
        pool += bonus(arrived)
        arrived += 1
    else:
        after.append(v)
    if crowded(after, taken) and not can_part(
        state.passable, tuple(after), taken, pool, arrived, state.movable
    ):
        return (
            f"Going from {NODE_NAMES[u]} to {NODE_NAMES[v]} would leave two monks on one hex "
            f"with too few points left to part them."
        )
    return None


def _go_problem(state: State, u: int, v: int) -> str | None:
    mine = _mine(state)
    if u == SUMMIT:
        return "A monk on the summit can't move again."
    if u not in mine:
        return f"Seat {state.actor} has no monk on {NODE_NAMES[u]}."
    if v == u:
        return f"A monk going from {NODE_NAMES[u]} must go to another node."
    if not state.passable[v]:
        return f"{NODE_NAMES[v]} shows a blocking tile; no monk may enter it."
    if state.pool < 1:
        return "No movement points are left; end the move phase."
    d = steps(state.passable, u, v, state.pool)
    if d is None:
        far = distances(state.passable, u, NODE_COUNT).get(v)
        if far is None:
            return (
                f"No way leads from {NODE_NAMES[u]} to {NODE_NAMES[v]} "
                f"past the blocking tiles."
            )
        return (
            f"From {NODE_NAMES[u]} to {NODE_NAMES[v]} is {far} steps; "
            f"seat {state.actor} has {state.pool} {'point' if state.pool == 1 else 'points'} left."
        )
    return _parting_problem(state, u, v, d, _Movers(state))


def _go(state: State, u: int, v: int) -> State:
    seat = state.actor
    d = steps(state.passable, u, v, state.pool)
    assert d is not None  # (_go_problem refuses a go out of reach)
    nodes = list(state.monks[seat])
    nodes.remove(u)
    nodes.append(v)
    monks = replaced(state.monks, seat, tuple(sorted(nodes)))
    spent = _spend(state, d)
    changes: dict[str, object] = dict(spent, monks=monks)
    if v == SUMMIT:
        extra = bonus(len(state.arrivals))
        changes["pool"] = spent["pool"] + extra
        changes["owed"] = spent["owed"] + extra
        changes["arrivals"] = state.arrivals + (seat,)
    return evolve(state, **changes)


def _turn_problem_with(
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
            f"seat {state.actor} has {state.pool} left."
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


def _turn_problem(state: State, h: int) -> str | None:
    return _turn_problem_with(state, h, _Movers(state), partial(_would_cut, state))


def _turn(state: State, h: int) -> State:
    tiles = _set_tile(state.tiles, h, state.tiles[h].swapcase())
    return evolve(state, tiles=tiles, **_spend(state, TURN_COST))


def _end_move_problem_with(
    state: State, movers: _Movers, others_exist: Callable[[], bool]
) -> str | None:
    if movers.crowded:
        crowd = state.crowd
        shared = next(n for n in movers.mine if n < HEX_COUNT and crowd[n] > 1)
        return f"Two monks share {NODE_NAMES[shared]}; part them before the move phase ends."
    if state.setup.bonus_must_be_spent and state.owed and others_exist():
        return f"{state.owed} bonus points must still be spent (option bonus_must_be_spent)."
    return None


def _end_move_problem(state: State) -> str | None:
    def others() -> bool:
        return any(a != END_MOVE for a in _move_actions(state, cutting_hexes))

    return _end_move_problem_with(state, _Movers(state), others)


def _end_move(state: State) -> State:
    after = ATHOS if state.pieces[state.actor] else PLACE
    return evolve(state, phase=after, pool=0, owed=0)


def _move_actions(state: State, cuts: Cuts) -> list[Action]:
    actions: list[Action] = []
    passable = state.passable
    movers = _Movers(state)
    pool = state.pool
    if pool >= 1:
        for u in sorted(set(movers.mine)):
            reach = distances(passable, u, pool)
            name = NODE_NAMES[u]
            for v in sorted(reach):
                if v != u and _parting_problem(state, u, v, reach[v], movers) is None:
                    actions.append(("go", name, NODE_NAMES[v]))
    if pool >= TURN_COST:
        crowd = state.crowd
        tiles = state.tiles
        if movers.crowded:
            would_cut = lambda x: bool(_cuts(state, cuts)[x])  # noqa: E731
            for h in state.movable:
                if not crowd[h] and _turn_problem_with(state, h, movers, would_cut) is None:
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
    if _end_move_problem_with(state, movers, lambda: bool(actions)) is None:
        actions.append(END_MOVE)
    return actions


# -- Athos phase -----------------------------------------------------------------------
def _destinations(state: State, src: int, cuts: Cuts) -> list[int]:
    """Hexes the tile on `src` may be put down on (src already checked)."""
    free = list(state.free)  # (src holds a tile: never among them)
    if state.tiles[src].islower():
        return free  # a passable tile changes no way up wherever it lies
    passable = bytearray(state.passable)
    passable[src] = 1
    if cuts is not cutting_hexes:
        cut = cuts(passable, state.walkers)
        return [h for h in free if not cut[h]]
    # The one-walk analysis only for the hexes whose neighbours do not prove them safe
    # (paths.bypassed), and only once one of them asks for it.
    out = []
    found: Sequence[int] | None = None
    for h in free:
        if not bypassed(passable, h):
            if found is None:
                found = cuts(passable, state.walkers)
            if found[h]:
                continue
        out.append(h)
    return out


def _liftable(state: State, src: int, cuts: Cuts) -> bool:
    """Whether the tile on `src` (a movable one, no monk on it) has somewhere to go:
    `_destinations` is not empty. A blocking tile lifted opens ways, never closes one, so
    a free hex that blocks no way now blocks none with it lifted: any such hex (one
    proved by its neighbours, paths.bypassed) answers for every tile, with no walk."""
    if cuts is cutting_hexes and _safe_hex(state):
        return True
    return bool(_destinations(state, src, cuts))


def _safe_hex(state: State) -> bool:
    """Whether some free hex could take a blocking tile, as its neighbours prove."""
    passable = state.passable
    return any(bypassed(passable, h) for h in state.free)


def _lift_problem_with(state: State, src: int, cuts: Cuts) -> str | None:
    name = NODE_NAMES[src]
    if state.tiles[src] == NO_TILE:
        return f"{name} has no tile to lift."
    if src in state.fixed:
        return f"The tile on {name} carries an Athos piece; it can never be turned or moved."
    if state.crowd[src]:
        return f"A monk stands on {name}; a tile with a monk on it can't be moved."
    if not _liftable(state, src, cuts):
        return f"The tile on {name} has no hex to go to: every free hex would cut a monk off."
    return None


def _lift_problem(state: State, src: int) -> str | None:
    return _lift_problem_with(state, src, cutting_hexes)


def _lift(state: State, src: int) -> State:
    return evolve(state, phase=DROP, lifted=src)


def _skip_athos(state: State) -> State:
    return evolve(state, phase=PLACE)


def _athos_actions(state: State, cuts: Cuts) -> list[Action]:
    actions: list[Action] = [
        ("lift", NODE_NAMES[src])
        for src in state.movable
        if not state.crowd[src] and _liftable(state, src, cuts)
    ]
    actions.append(SKIP_ATHOS)
    return actions


def _drop_problem(state: State, dst: int) -> str | None:
    src = state.lifted
    if dst == src:
        return f"The lifted tile must go to another hex than {NODE_NAMES[src]}."
    problem = _free_problem(state, dst)
    if problem:
        return f"The tile can't go to {NODE_NAMES[dst]}: {problem}."
    if dst not in _destinations(state, src, cutting_hexes):
        return (
            f"Moving the blocking tile from {NODE_NAMES[src]} to {NODE_NAMES[dst]} "
            f"{_cut_reason(state, (dst,), opened=src)}."
        )
    return None


def _drop(state: State, dst: int) -> State:
    src = state.lifted
    tiles = _set_tile(_set_tile(state.tiles, dst, state.tiles[src]), src, NO_TILE)
    return evolve(state, tiles=tiles, phase=FIX, lifted=NO_HEX)


def _drop_actions(state: State, cuts: Cuts) -> list[Action]:
    return [("drop", NODE_NAMES[h]) for h in _destinations(state, state.lifted, cuts)]


def _fix_problem(state: State, h: int) -> str | None:
    name = NODE_NAMES[h]
    if h in state.fixed:
        return f"{name} already carries an Athos piece."
    if state.tiles[h] == NO_TILE and not state.setup.athos_on_empty:
        return f"{name} has no tile; an Athos piece goes on a tile (see option athos_on_empty)."
    return None


def _fix(state: State, h: int) -> State:
    pieces = replaced(state.pieces, state.actor, state.pieces[state.actor] - 1)
    fixed = tuple(sorted(state.fixed + (h,)))
    return evolve(state, fixed=fixed, pieces=pieces, phase=PLACE)


def _fix_actions(state: State, cuts: Cuts) -> list[Action]:
    empty = state.setup.athos_on_empty
    return [
        ("fix", NODE_NAMES[h])
        for h in range(HEX_COUNT)
        if (empty or state.tiles[h] != NO_TILE) and h not in state.fixed
    ]


# -- placing tiles ---------------------------------------------------------------------
def _room_after(state: State, h: int, left: Sequence[int]) -> int:
    """How many more handicap tiles fit on free hexes after h, given the supply `left`
    (either side up, so the path rule never stops one)."""
    free = [0] * len(COLOURS)
    for x in state.free:
        if x > h:
            free[HEX_COLOUR[x]] += 1
    return sum(min(f, n) for f, n in zip(free, left))


def _place_problem_with(
    state: State, h: int, blocking: bool, would_cut: Callable[[int], bool]
) -> str | None:
    name = NODE_NAMES[h]
    colour = HEX_COLOUR[h]
    word = COLOURS[colour]
    handicap = state.phase == HANDICAP
    per_turn, per_colour = PLACING_LIMITS[state.setup.players]
    if not handicap and sum(state.placed) >= per_turn:
        return f"Seat {state.actor} has placed its {per_turn} tiles for this turn."
    problem = _free_problem(state, h)
    if problem:
        return f"No tile may be placed on {name}: {problem}."
    left = supply(state)
    if left[colour] == 0:
        return f"All {TILES_PER_COLOUR} {word} tiles are on the board."
    if not handicap and state.placed[colour] >= per_colour:
        return (
            f"Seat {state.actor} has placed {per_colour} {word} "
            f"{'tile' if per_colour == 1 else 'tiles'} this turn, the most of one colour."
        )
    if h < state.last_placed:
        return (
            f"A turn's tiles go down in board order (a1, a2, …, k7); after "
            f"{NODE_NAMES[state.last_placed]} only a later hex may take one, not {name}."
        )
    if blocking and would_cut(h):
        return f"A blocking tile on {name} {_cut_reason(state, (h,))}."
    if handicap and state.handicap_left > 1:
        after = list(left)
        after[colour] -= 1
        if _room_after(state, h, after) < state.handicap_left - 1:
            return (
                f"After {name} no room is left for the other {state.handicap_left - 1} handicap "
                f"tiles (they go down in board order); place them on earlier hexes first."
            )
    return None


def _place_problem(state: State, h: int) -> str | None:
    return _place_problem_with(state, h, True, partial(_would_cut, state))


def _place_open_problem(state: State, h: int) -> str | None:
    return _place_problem_with(state, h, False, partial(_would_cut, state))


def _place_actions(state: State, cuts: Cuts) -> list[Action]:
    actions: list[Action] = []
    handicap = state.phase == HANDICAP
    if handicap or sum(state.placed) < PLACING_LIMITS[state.setup.players][0]:
        cut = _cuts(state, cuts)
        left = supply(state)
        limit = PLACING_LIMITS[state.setup.players][1]
        need = state.handicap_left - 1 if handicap else 0
        last = state.last_placed
        for h in state.free:  # (the hexes _free_problem passes, ascending)
            if h <= last:
                continue
            colour = HEX_COLOUR[h]
            if not left[colour]:
                continue
            if need:
                after = list(left)
                after[colour] -= 1
                if _room_after(state, h, after) < need:
                    continue
            if handicap or state.placed[colour] < limit:
                if not cut[h]:
                    actions.append(("place", NODE_NAMES[h]))
                if handicap:
                    actions.append(("place_open", NODE_NAMES[h]))
    if not handicap:
        actions.append(END_TURN)
    return actions


def _set_tile(tiles: str, h: int, tile: str) -> str:
    return tiles[:h] + tile + tiles[h + 1 :]


def _place_tile(state: State, h: int, blocking: bool) -> State:
    colour = HEX_COLOUR[h]
    tiles = _set_tile(state.tiles, h, tile_char(colour, blocking))
    if state.phase == PLACE:
        placed = replaced(state.placed, colour, state.placed[colour] + 1)
        return evolve(state, tiles=tiles, placed=placed, last_placed=h)
    left = state.handicap_left - 1
    if left:
        return evolve(state, tiles=tiles, handicap_left=left, last_placed=h)
    handicap = state.setup.handicap
    following = next((s for s in range(state.actor + 1, len(handicap)) if handicap[s]), None)
    if following is not None:
        left = handicap[following]
        return evolve(
            state, tiles=tiles, actor=following, handicap_left=left, last_placed=NO_HEX
        )
    return evolve(
        state,
        tiles=tiles,
        actor=0,
        handicap_left=0,
        phase=MOVE,
        pool=POINTS_PER_TURN,
        last_placed=NO_HEX,
    )


def _place(state: State, h: int) -> State:
    return _place_tile(state, h, True)


def _place_open(state: State, h: int) -> State:
    return _place_tile(state, h, False)


def _end_turn(state: State) -> State:
    seat = state.actor
    last = replaced(state.last_spent, seat, state.spent)
    turn_over = dict(
        last_spent=last,
        pool=POINTS_PER_TURN,
        owed=0,
        spent=0,
        placed=(0,) * len(COLOURS),
        last_placed=NO_HEX,
    )
    if seat + 1 < state.setup.players:
        return evolve(state, actor=seat + 1, phase=MOVE, **turn_over)
    if finished_sides(state):
        return evolve(state, actor=0, phase=OVER, **dict(turn_over, pool=0))
    return evolve(state, actor=0, round=state.round + 1, phase=MOVE, **turn_over)


def _spend(state: State, points: int) -> dict[str, int]:
    # Bonus points are spent first, so `owed` is what is left of them.
    return {
        "pool": state.pool - points,
        "owed": max(0, state.owed - points),
        "spent": state.spent + points,
    }


# -- nothing to decide -------------------------------------------------------------------
# A phase whose only legal action is the one that ends it is passed over at once (`settle`):
# a move phase with no point left, an Athos phase with no tile to lift, a placement phase
# with no tile to place. These checks say exactly that, stopping at the first action found
# (tests/engines/test_athos_consistency.py compares them with the full lists).
def _can_go(state: State, movers: _Movers) -> bool:
    # A go of any distance is legal only if its first step is (every position on a
    # shortest way can still part the monks), so looking one step ahead suffices.
    passable = state.passable
    for u in sorted(set(movers.mine)):
        for v in NEIGHBOURS[u]:
            if passable[v] and _parting_problem(state, u, v, 1, movers) is None:
                return True
    return False


def _can_turn(state: State, movers: _Movers) -> bool:
    crowd = state.crowd
    would_cut = partial(_would_cut, state)
    return any(
        not crowd[h] and _turn_problem_with(state, h, movers, would_cut) is None
        for h in state.movable
    )


def _only_end_move(state: State) -> bool:
    if state.pool == 0:
        return True
    movers = _Movers(state)
    if _can_go(state, movers):
        return False
    return state.pool < TURN_COST or not _can_turn(state, movers)


def _only_skip_athos(state: State) -> bool:
    return not any(
        not state.crowd[src] and _liftable(state, src, cutting_hexes)
        for src in state.movable
    )


def _only_end_turn(state: State) -> bool:
    per_turn, per_colour = PLACING_LIMITS[state.setup.players]
    if sum(state.placed) >= per_turn:
        return True
    left = supply(state)
    placed = state.placed
    tiles, crowd, fixed = state.tiles, state.crowd, state.fixed
    passable = state.passable
    doubtful = []
    for h in range(state.last_placed + 1, HEX_COUNT):
        colour = HEX_COLOUR[h]
        # (_free_problem is None, asked without its sentences)
        if left[colour] and placed[colour] < per_colour and tiles[h] == NO_TILE and not crowd[h] \
                and h not in fixed:
            if bypassed(passable, h):
                return False  # a tile may go there: proved around it, no search
            doubtful.append(h)
    # only hexes whose neighbours prove nothing are left: a search each, until one is safe
    return all(_would_cut(state, h) for h in doubtful)


#: phase -> (does it leave nothing but its end to decide, the action that ends it)
_PASSED_OVER = {
    MOVE: (_only_end_move, END_MOVE),
    ATHOS: (_only_skip_athos, SKIP_ATHOS),
    PLACE: (_only_end_turn, END_TURN),
}


def _pass_over(state: State) -> State:
    """The phase ended by its only legal action, or `state` itself when the seat has a
    choice (or the game is over): one forced step (engines.rulebook.until_settled)."""
    passing = _PASSED_OVER.get(state.phase)
    if passing is None or not passing[0](state):
        return state
    rule = BOOK.rules[(state.phase, passing[1][0])]
    if rule.problem(state) is not None:
        return state  # not reached: the end is legal whenever it is all that is left
    return rule.effect(state)


#: take every action that is the only one left, until a seat has a choice (or the end)
settle = until_settled(_pass_over)


def phase_end(state: State) -> Action | None:
    """The action that ends the phase the seat is in, doing nothing more there (end move,
    no Athos piece, end turn); None where the phase must be played out (handicap tiles, a
    lifted tile or a piece to put down) and at the end."""
    passing = _PASSED_OVER.get(state.phase)
    return passing[1] if passing is not None else None


# -- the table -------------------------------------------------------------------------
#: phase -> (state, cuts) -> its legal actions; `cuts` lets the tests and the bench put the
#: plain-search oracle (oracle.py) in place of the one-walk analysis
class Lister(Protocol):
    """A phase's legal actions, given the cut-off analysis to use (`cuts`: BOOK's lists
    pass paths.cutting_hexes, which stands for the state's own cached analysis)."""

    def __call__(self, state: State, cuts: Cuts) -> list[Action]: ...


LISTS: dict[str, Lister] = {
    HANDICAP: _place_actions,
    MOVE: _move_actions,
    ATHOS: _athos_actions,
    DROP: _drop_actions,
    FIX: _fix_actions,
    PLACE: _place_actions,
}


def _elsewhere(state: State, kind: str) -> str:
    phase = state.phase
    if phase == OVER:
        return "The game is over; no action is possible."
    if kind == "place_open" and phase == PLACE:
        return "Tiles are placed blocking side up; only handicap tiles may be placed passable side up."
    allowed = ", ".join(BOOK.kinds(phase))
    return (
        f"It is seat {state.actor}'s {PHASE_WORDS[phase]}, where {kind} is not possible "
        f"(possible: {allowed})."
    )


BOOK: Rulebook[State] = Rulebook(
    phase=attrgetter("phase"),  # (a lambda is a Python call more on every apply)
    lists={phase: partial(lister, cuts=cutting_hexes) for phase, lister in LISTS.items()},
    rules={
        (HANDICAP, "place"): Rule(_place_problem, _place),
        (HANDICAP, "place_open"): Rule(_place_open_problem, _place_open),
        (MOVE, "go"): Rule(_go_problem, _go),
        (MOVE, "turn"): Rule(_turn_problem, _turn),
        (MOVE, "end_move"): Rule(_end_move_problem, _end_move),
        (ATHOS, "lift"): Rule(_lift_problem, _lift),
        (ATHOS, "skip_athos"): Rule(always, _skip_athos),
        (DROP, "drop"): Rule(_drop_problem, _drop),
        (FIX, "fix"): Rule(_fix_problem, _fix),
        (PLACE, "place"): Rule(_place_problem, _place),
        (PLACE, "end_turn"): Rule(always, _end_turn),
    },
    decode=decode,
    elsewhere=_elsewhere,
    settle=settle,
)


def legal_actions(state: State, cuts: Cuts = cutting_hexes) -> list[Action]:
    """Every legal action, in a fixed order (spec/games/athos.md, "Actions and notation"):
    the rulebook's list, or with `cuts` another path-rule analysis in place of the
    one-walk one (the plain-search oracle of the tests and the bench)."""
    if cuts is cutting_hexes:
        return BOOK.legal_actions(state)
    lister = LISTS.get(state.phase)
    return lister(state, cuts) if lister is not None else []


def apply(state: State, action: Action) -> State:
    """The state after `action`; IllegalAction with the reason when it is not legal."""
    return BOOK.apply(state, action)


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
