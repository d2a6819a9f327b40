"""The rules as transitions: the legal actions of a state and the state an action leads to.

Every function here is pure: states are frozen and each transition builds a new one. The
rules are one table (`BOOK`, engines/rulebook.py): for each phase the list of its legal
actions, for each (phase, kind of action) why such an action is refused (None when it is
legal) and what it does.
"""
from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from typing import Any, Mapping, TypeAlias

from peerboard.engines.contract import Action, IllegalAction
from peerboard.engines.asterix.board import (
    BIT,
    BOAR,
    CARRIED_KINDS,
    CLEARING,
    COHORT,
    FULL_POTIONS,
    KIND_INDEX,
    KIND_NAMES,
    LAKE,
    LAYOUT_ORDER,
    MENHIR,
    MISTLETOE,
    SCORING_TILES,
    SQUARE_INDEX,
    SQUARE_NAMES,
    TILE_COUNTS,
    VILLAGE,
    VILLAGE_SQUARES,
    kind_at,
    squares_of,
)
from peerboard.engines.asterix.notation import decode, format_action
from peerboard.engines.asterix.state import (
    EMPTY_PILE,
    FIRST_ROLL,
    LAYOUT,
    MOVE,
    ORDER,
    OVER,
    PICK,
    PLACE,
    ROLL,
    STEAL,
    Pile,
    State,
    _new,
    _set,
    changed,
    changed_by,
)
from peerboard.engines.rulebook import Rule, Rulebook, always
from peerboard.engines.values import replaced
from peerboard.engines.asterix.walks import blocked_squares, layers, region

SKIP: Action = ("skip",)
PICK_UP: Action = ("pick",)
LEAVE: Action = ("leave",)

_D6: list[tuple[Action, int]] = [(("d6", n), 1) for n in range(1, 7)]
# 2d6 as 21 unordered outcomes (low die first): a double has weight 1, any other pair 2.
_2D6: list[tuple[Action, int]] = [
    (("roll", a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)
]
_PLACEMENTS: list[Action] = [("village", SQUARE_NAMES[s]) for s in VILLAGE_SQUARES]
# The move actions of each rank for each 8-bit pattern of landings on it, in file order:
# a landing mask becomes its action list with eight lookups instead of a loop per square.
_MOVE_TO: tuple[Action, ...] = tuple(("move", name) for name in SQUARE_NAMES)  # [square]
_MOVES_BY_RANK: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(_MOVE_TO[8 * rank + f] for f in range(8) if byte >> f & 1) for byte in range(256))
    for rank in range(8)
)


_DIE_MOVES: tuple[Action, ...] = tuple(("die", v) for v in range(7))  # [v] is "die v"
TILE_LAID: tuple[Action, ...] = tuple(("tile", name) for name in KIND_NAMES)  # [kind]


def _move_list(state: State) -> list[Action]:
    seat = state.actor
    mask = layers(state.pawns[seat], blocked_squares(state.tiles, state.potions[seat]))[state.dice[0]]
    return list(_move_tuple(mask)) if mask else [SKIP]


def move_actions(mask: int) -> list[Action]:
    """The move actions landing on the squares of `mask`, a1 first."""
    return list(_move_tuple(mask))


# A pure function of one mask (a pawn's landings): a search lists the same ones again and again.
@lru_cache(maxsize=1 << 14)
def _move_tuple(mask: int) -> tuple[Action, ...]:
    moves: list[Action] = []
    for rank in range(8):
        byte = mask >> (8 * rank) & 255
        if byte:
            moves += _MOVES_BY_RANK[rank][byte]
    return tuple(moves)


def new_state(players: int, options: Mapping[str, Any]) -> State:
    """The empty board before the layout, every seat with 3 potions and nothing else."""
    return State(
        players=players,
        carry_rule=options["carry_rule"],
        max_rounds=options["max_rounds"],
        phase=LAYOUT,
        actor=0,
        first=-1,
        round=0,
        laid=0,
        tiles=(0, 0, 0, 0, 0),
        contenders=(),
        rolls=(),
        pawns=(-1,) * players,
        potions=(FULL_POTIONS,) * players,
        carried=(EMPTY_PILE,) * players,
        piles=(EMPTY_PILE,) * players,
        dice=(),
    )


# -- what the rules allow -------------------------------------------------------------

def can_carry(load: Pile, kind: int, carry_rule: str) -> bool:
    """Whether a pawn carrying `load` may take one more tile of `kind`.

    Any number of Mistletoe; the heavy load is one Menhir or up to two Boars, never
    both ("either"), or one Menhir and two Boars at once ("both").
    """
    if kind == MISTLETOE:
        return True
    if kind == MENHIR:
        return load[MENHIR] == 0 and (carry_rule == "both" or load[BOAR] == 0)
    if kind == BOAR:
        return load[BOAR] < 2 and (carry_rule == "both" or load[MENHIR] == 0)
    return False


def tiles_left_to_lay(state: State) -> list[int]:
    """During the layout: how many tiles of each kind are still in the bag."""
    boar, cohort, menhir, mistletoe, lake = state.tiles
    left = [TILE_COUNTS[BOAR] - boar.bit_count(), TILE_COUNTS[COHORT] - cohort.bit_count(),
            TILE_COUNTS[MENHIR] - menhir.bit_count(), TILE_COUNTS[MISTLETOE] - mistletoe.bit_count(),
            TILE_COUNTS[LAKE] - lake.bit_count()]
    # a clearing is laid as no mask: the squares laid and in none
    left.append(TILE_COUNTS[CLEARING] - state.laid + (sum(TILE_COUNTS[:5]) - sum(left)))
    return left


def landing_mask(state: State, steps: int) -> int:
    """Where the seat to move can land with a die of `steps` from its square."""
    seat = state.actor
    return layers(state.pawns[seat], blocked_squares(state.tiles, state.potions[seat]))[steps]


def usable_dice(state: State) -> list[int]:
    """The distinct dice values (low first) that have at least one legal landing."""
    seat = state.actor
    walks = layers(state.pawns[seat], blocked_squares(state.tiles, state.potions[seat]))
    if len(state.dice) == 2:  # as rolled, low first (the one case there is: the order phase)
        low, high = state.dice
        if low == high:
            return [low] if walks[low] else []
        return [v for v in (low, high) if walks[v]]
    return [v for v in sorted(set(state.dice)) if walks[v]]


def thefts(state: State) -> list[tuple[int, int]]:
    """(victim, kind) pairs the mover may steal: other pawns on its square, within its load."""
    seat = state.actor
    square = state.pawns[seat]
    found: list[tuple[int, int]] = []
    if state.pawns.count(square) < 2:  # alone on its square: nobody to rob (the usual case)
        return found
    load = state.carried[seat]
    for victim in range(state.players):
        if victim == seat or state.pawns[victim] != square:
            continue
        for kind in CARRIED_KINDS:
            if state.carried[victim][kind] and can_carry(load, kind, state.carry_rule):
                found.append((victim, kind))
    return found


def chance_weights_of(phase: str) -> list[tuple[Action, int]]:
    """The odds of the dice, which never change: the 2d6 of a turn, or 1d6 for first player."""
    return list(_2D6) if phase == ROLL else list(_D6)


def chance_weights(state: State) -> list[tuple[Action, int]]:
    """At a chance node, each outcome with its exact integer weight."""
    if state.phase == ROLL:
        return list(_2D6)
    if state.phase == LAYOUT:
        left = tiles_left_to_lay(state)
        return [(TILE_LAID[k], n) for k, n in enumerate(left) if n]
    if state.phase == FIRST_ROLL:
        return list(_D6)
    raise IllegalAction(f"No chance event happens now: it is {situation(state)}.")


# -- what an action does -------------------------------------------------------------

def _not_legal(state: State, action: Action) -> str:
    return _refusal_text(state, f"'{_text(action)}' is not legal now.")


def _tile_problem(state: State, kind: str) -> str | None:
    left = tiles_left_to_lay(state)
    return None if left[KIND_INDEX[kind]] else _not_legal(state, ("tile", kind))


def _d6_problem(state: State, value: int) -> str | None:
    return None if 1 <= value <= 6 else _not_legal(state, ("d6", value))


def _village_problem(state: State, square: str) -> str | None:
    return None if BIT[SQUARE_INDEX[square]] & VILLAGE else _not_legal(state, ("village", square))


def _roll_problem(state: State, low: int, high: int) -> str | None:
    return None if 1 <= low <= high <= 6 else _not_legal(state, ("roll", low, high))


def _die_problem(state: State, value: int) -> str | None:
    return None if value in usable_dice(state) else _not_legal(state, ("die", value))


def _order_skip_problem(state: State) -> str | None:
    return None if not usable_dice(state) else _not_legal(state, SKIP)


def _move_problem(state: State, square: str) -> str | None:
    if _lands(state, SQUARE_INDEX[square]):
        return None
    return _not_legal(state, ("move", square))


def _lands(state: State, square: int) -> int:
    """Whether the die being moved can land the seat's pawn on `square` (nonzero if so)."""
    seat = state.actor
    return layers(state.pawns[seat], blocked_squares(state.tiles, state.potions[seat]))[state.dice[0]] & BIT[square]


def _move_skip_problem(state: State) -> str | None:
    return None if not landing_mask(state, state.dice[0]) else _not_legal(state, SKIP)


def _steal_problem(state: State, victim: int, kind: str) -> str | None:
    if (victim, KIND_INDEX[kind]) in thefts(state):
        return None
    return _not_legal(state, ("steal", victim, kind))


def _rolled(state: State, low: int, high: int) -> State:
    return changed(state, phase=ORDER, dice=(low, high))


def _elsewhere(state: State, kind: str) -> str:
    if state.phase == OVER:
        return "The game is over; no action can follow."
    return _refusal_text(state, f"'{kind}' is not legal now.")


BOOK: Rulebook[State] = Rulebook(
    phase=attrgetter("phase"),  # (a lambda is a Python call more on every apply)
    lists={
        LAYOUT: lambda state: [action for action, _ in chance_weights(state)],
        FIRST_ROLL: lambda state: [action for action, _ in _D6],
        PLACE: lambda state: list(_PLACEMENTS),
        ROLL: lambda state: [action for action, _ in _2D6],
        ORDER: lambda state: [_DIE_MOVES[v] for v in usable_dice(state)] or [SKIP],
        MOVE: _move_list,
        PICK: lambda state: [PICK_UP, LEAVE],
        STEAL: lambda state: [("steal", v, KIND_NAMES[k]) for v, k in thefts(state)] + [LEAVE],
    },
    rules={
        (LAYOUT, "tile"): Rule(_tile_problem, lambda state, kind: _lay(state, KIND_INDEX[kind])),
        (FIRST_ROLL, "d6"): Rule(_d6_problem, lambda state, value: _first_roll(state, value)),
        (PLACE, "village"): Rule(_village_problem, lambda state, sq: _place(state, SQUARE_INDEX[sq])),
        (ROLL, "roll"): Rule(_roll_problem, _rolled),
        (ORDER, "die"): Rule(_die_problem, lambda state, value: _order(state, value)),
        (ORDER, "skip"): Rule(_order_skip_problem, lambda state: _end_turn(state)),
        (MOVE, "move"): Rule(_move_problem, lambda state, sq: _move(state, SQUARE_INDEX[sq])),
        (MOVE, "skip"): Rule(_move_skip_problem, lambda state: _end_turn(state)),
        (PICK, "pick"): Rule(always, lambda state: _pick(state, True)),
        (PICK, "leave"): Rule(always, lambda state: _pick(state, False)),
        (STEAL, "steal"): Rule(_steal_problem, lambda state, victim, kind: _steal(state, victim, kind)),
        (STEAL, "leave"): Rule(always, lambda state: _next_die(state)),
    },
    decode=decode,
    elsewhere=_elsewhere,
    known=(SKIP, PICK_UP, LEAVE, *_DIE_MOVES[1:], *TILE_LAID, *_PLACEMENTS,
           *(a for a, _ in _D6), *(a for a, _ in _2D6), *_MOVE_TO),
)


def legal_actions(state: State) -> list[Action]:
    """Every legal action in a fixed order (at chance nodes: the outcomes)."""
    lister = _LISTS.get(state.phase)  # BOOK.legal_actions, one call shorter
    return lister(state) if lister is not None else []


def apply(state: State, action: Action) -> State:
    """The state after `action`; IllegalAction (saying what is allowed) if it is not legal."""
    try:
        own, by_phase = _STRAIGHT[action]
    except (KeyError, TypeError):  # not one of the engine's actions (unhashable: malformed)
        return BOOK.apply(state, action)
    if own is action:
        found = by_phase.get(state.phase)
        if found is not None:
            rule, args = found
            if rule.problem(state, *args) is None:
                return rule.effect(state, *args)
    return BOOK.apply(state, action)


def successors(state: State) -> list[tuple[Action, State]]:
    """(action, the state it leads to) for every legal action, in the legal order: the same
    as `apply` of each, made faster for a die's landings (a search asks this of every
    position it looks through): a landing's outcome is remembered for the other walks to
    the same square, since it does not depend on the square the pawn came from (a pawn that
    lands on c3 with its last die ends its turn alike wherever it stood)."""
    phase = state.phase
    if phase != MOVE:
        if phase == PICK:  # straight to the rule: a search asks this after every landing on a tile
            return [(PICK_UP, _pick(state, True)), (LEAVE, _pick(state, False))]
        if phase == ORDER:
            usable = usable_dice(state)
            if usable:
                return [(_DIE_MOVES[v], _order(state, v)) for v in usable]
        return [(action, apply(state, action)) for action in legal_actions(state)]
    seat = state.actor
    pawns, tiles = state.pawns, state.tiles
    mask = layers(pawns[seat], blocked_squares(tiles, state.potions[seat]))[state.dice[0]]
    if not mask:
        return [(SKIP, _end_turn(state))]
    rest = state.dice[1:]
    landed = _landings_from((rest, pawns[:seat], pawns[seat + 1:], state.potions, state.carried, state.piles,
                             tiles, seat, state.round, state.first, state.players, state.max_rounds,
                             state.carry_rule, state.laid, state.contenders, state.rolls))
    known = landed.get  # (a pair is never false: `or` goes on only when none is known)
    return [known(square) or _landed(landed, state, square) for square in _squares(mask)]


def _landed(landed: Landings, state: State, square: int) -> tuple[Action, State]:
    pair = landed[square] = (_MOVE_TO[square], _move(state, square, landed))
    return pair


# A pure function of one mask, as `_move_tuple`: its squares, a1 first.
@lru_cache(maxsize=1 << 14)
def _squares(mask: int) -> tuple[int, ...]:
    return tuple(squares_of(mask))


#: square -> (its move action, the position after the pawn lands there), and under the key
#: -1 (the fields of the turn's end after a plain landing, whether the end is to be checked):
#: two kinds of pair in one memo (`_plain_end`), so its items are typed loosely
Landings: TypeAlias = dict[int, tuple[Any, Any]]


# What landing on a square does, from a position in the move phase whatever the square
# the pawn stands on: the key is every field but that square (and the die being moved:
# the dice left are in it); square -> (its move action, the position after landing there),
# the very pair each successors list holds. Filled by
# `successors`; a pure function's memo, like `layers`, kept small: the walks that meet
# on a square are looked through one after the other (and each entry holds positions).
@lru_cache(maxsize=256)
def _landings_from(key: tuple[object, ...]) -> Landings:
    return {}


def _lay(state: State, kind: int) -> State:
    tiles = state.tiles
    if kind != CLEARING:
        tiles = replaced(tiles, kind, tiles[kind] | BIT[LAYOUT_ORDER[state.laid]])  # type: ignore[assignment]
    laid = state.laid + 1
    if laid < len(LAYOUT_ORDER):
        return changed(state, tiles=tiles, laid=laid)
    return changed(state, tiles=tiles, laid=laid, phase=FIRST_ROLL, contenders=tuple(range(state.players)))


def _first_roll(state: State, value: int) -> State:
    rolls = state.rolls + (value,)
    if len(rolls) < len(state.contenders):
        return changed(state, rolls=rolls)
    high = max(rolls)
    tied = tuple(seat for seat, roll in zip(state.contenders, rolls) if roll == high)
    if len(tied) > 1:
        # Only the seats tied for the highest roll roll again.
        return changed(state, contenders=tied, rolls=())
    return changed(state, phase=PLACE, first=tied[0], actor=tied[0], contenders=(), rolls=())


def _place(state: State, square: int) -> State:
    seat = state.actor
    pawns = replaced(state.pawns, seat, square)
    following = (seat + 1) % state.players
    if following != state.first:
        return changed(state, pawns=pawns, actor=following)
    started = _start_turn(changed(state, pawns=pawns), state.first, state.potions, 1)
    return _check_end(started)


def _order(state: State, first_die: int) -> State:
    low, high = state.dice
    return changed(state, phase=MOVE, dice=(first_die, high if first_die == low else low))


def _move(state: State, square: int, landed: Landings | None = None) -> State:
    """The pawn lands on `square` with the die at dice[0], and what landing does: the
    village banks and ends the turn, a cohort is defeated, a tile may be picked up,
    another pawn may be robbed. (One copy of the state per outcome: a search makes
    hundreds of thousands of moves.) `landed`: the `successors` memo of this position's
    landings (`_landings_from`), where a turn's end after a plain landing is kept."""
    seat = state.actor
    pawns = state.pawns
    pawns = pawns[:seat] + (square,) + pawns[seat + 1:]  # (replaced, written out)
    dice = state.dice[1:]
    bit = BIT[square]
    if bit & VILLAGE:
        state = _deposit(changed(state, pawns=pawns, dice=dice), seat)
        if state.phase == OVER:
            return state
        return _end_turn(state)  # entering the village ends the turn's movement
    tiles = state.tiles
    if bit & tiles[COHORT]:
        state = _check_end(changed(
            state, pawns=pawns, dice=dice,
            tiles=_without_tile(tiles, COHORT, square),
            piles=replaced(state.piles, seat, _plus(state.piles[seat], COHORT)),
        ))
        if state.phase == OVER:
            return state
        return _after_pick(state)
    # the kind on the square, if a pawn can carry it (kind_at, asked only of the kinds that
    # matter here: a square holds one tile, it is no cohort and a walk never ends on a lake)
    kind = BOAR if bit & tiles[BOAR] else MENHIR if bit & tiles[MENHIR] else MISTLETOE if bit & tiles[MISTLETOE] else -1
    if kind >= 0 and can_carry(state.carried[seat], kind, state.carry_rule):
        return changed(state, pawns=pawns, dice=dice, phase=PICK)
    if pawns.count(square) < 2:  # nothing to take, nobody to rob: on with the next die
        if dice:
            return changed(state, pawns=pawns, dice=dice)
        if landed is not None:
            return _plain_end(landed, state, pawns)
        return _end_turn(state, {"pawns": pawns, "dice": dice})
    return _after_pick(changed(state, pawns=pawns, dice=dice))


def _plain_end(landed: Landings, state: State, pawns: tuple[int, ...]) -> State:
    """`_end_turn(state, {"pawns": pawns, "dice": ()})` after a plain landing with the
    last die (no tile taken, nobody met), for the position whose landings `landed`
    remembers: such a turn's end is the same whichever square the pawn landed on, but
    for the pawns and the end check (`nothing_can_change` asks where the pawn stands).
    The first one is worked out by `_end_turn` and its fields kept under the key -1;
    the others are those fields with their own pawns."""
    ended = landed.get(-1)
    if ended is None:
        unchecked = _end_turn(state, {"pawns": pawns, "dice": ()}, False)
        fields = unchecked.__dict__.copy()
        fields.pop("_hash", None)
        ended = landed[-1] = (fields, unchecked.phase != OVER)
    fields, check = ended
    new = _new(State)
    _set(new, "__dict__", fields | {"pawns": pawns})
    if check and nothing_can_change(new):
        return changed(new, phase=OVER)
    return new


def _pick(state: State, up: bool) -> State:
    seat = state.actor
    square = state.pawns[seat]
    changes: dict[str, Any] = {}
    if up:
        kind = kind_at(state.tiles, square)
        changes["tiles"] = _without_tile(state.tiles, kind, square)
        changes["carried"] = replaced(state.carried, seat, _plus(state.carried[seat], kind))
    if state.pawns.count(square) < 2:  # nobody to rob: on with the next die, or the turn ends
        if state.dice:
            changes["phase"] = MOVE
            return changed(state, **changes)
        return _end_turn(state, changes)  # (in the same copy of the state)
    return _after_pick(changed(state, **changes) if changes else state)


def _after_pick(state: State) -> State:
    if thefts(state):
        return changed(state, phase=STEAL)
    return _next_die(state)


def _steal(state: State, victim: int, name: str) -> State:
    seat, kind = state.actor, KIND_INDEX[name]
    carried = replaced(state.carried, victim, _plus(state.carried[victim], kind, -1))
    carried = replaced(carried, seat, _plus(carried[seat], kind))
    return _next_die(changed(state, carried=carried))


def _next_die(state: State) -> State:
    if state.dice:
        return state if state.phase == MOVE else changed(state, phase=MOVE)
    return _end_turn(state)


def _end_turn(state: State, changes: dict[str, Any] | None = None, check: bool = True) -> State:
    """Discard a potion, pass the turn on, and end the game after the last round.
    `changes`: what the turn's last action changed, made in the same copy of the state
    (a dict of fields this function may add to). `check`: False leaves out the end
    check of the turn's start (`_plain_end` makes it itself)."""
    if changes is None:
        changes = {}
    seat = state.actor
    potions = state.potions
    left = potions[seat]
    if left:
        potions = potions[:seat] + (left - 1,) + potions[seat + 1:]
    following = seat + 1 if seat + 1 < state.players else 0
    round_ = state.round
    if following == state.first:
        if round_ >= state.max_rounds:
            changes.update(phase=OVER, potions=potions, dice=())
            return changed_by(state, changes)
        round_ += 1
    return _start_turn(state, following, potions, round_, changes, check)


def _start_turn(state: State, seat: int, potions: tuple[int, ...], round_: int,
                changes: dict[str, Any] | None = None, check: bool = True) -> State:
    if changes is None:
        changes = {}
    # Potions come back up to 3 only for a pawn that starts its turn in the village.
    if BIT[changes.get("pawns", state.pawns)[seat]] & VILLAGE:
        potions = replaced(potions, seat, FULL_POTIONS)
    changes["phase"] = ROLL
    changes["actor"] = seat
    changes["round"] = round_
    changes["potions"] = potions
    changes["dice"] = ()
    state = changed_by(state, changes)
    if check and nothing_can_change(state):
        return changed(state, phase=OVER)
    return state


def reach(state: State, seat: int) -> int:
    """Every square the seat's pawn could ever get to, generously: over non-lake squares,
    through cohort squares only if it holds a potion now or could refill (its region
    without cohorts holds a village square). Dice and the potions to come are ignored."""
    lakes = state.tiles[LAKE]
    start = BIT[state.pawns[seat]]
    if state.potions[seat]:
        return region(start, lakes)
    without_cohorts = region(start, lakes | state.tiles[COHORT])
    return region(start, lakes) if without_cohorts & VILLAGE else without_cohorts


def nothing_can_change(state: State) -> bool:
    """The ruling "Nothing can change any more" (rules/asterix.md): no pawn can ever again
    bank, pick up or steal anything. A pawn could still act when its reach holds a village
    square while it carries something, a scoring tile it could pick up (a cohort in its
    reach, a mistletoe, a boar or menhir its load takes or that it could bank first), or a
    square another pawn that carries something can reach (where they could meet)."""
    # (asked at every turn's start: what the loop reads, read once)
    tiles, carried, carry_rule = state.tiles, state.carried, state.carry_rule
    always_takeable = tiles[COHORT] | tiles[MISTLETOE]
    heavy = tiles[BOAR] | tiles[MENHIR]
    reaches = []
    for seat in range(state.players):
        where = reach(state, seat)
        if where & always_takeable:  # (most of a game: asked first, the load need not be)
            return False
        load = carried[seat]
        if where & VILLAGE:  # it can bank what it carries, and then take any heavy tile
            if load != EMPTY_PILE or where & heavy:
                return False
        elif where & heavy:
            for kind in (BOAR, MENHIR):
                if where & tiles[kind] and can_carry(load, kind, carry_rule):
                    return False
        reaches.append(where)
    carriers = [reaches[s] for s in range(state.players) if state.carried[s] != EMPTY_PILE]
    for seat, where in enumerate(reaches):
        mine = state.carried[seat] != EMPTY_PILE
        # another carrier's reach meets this one (a carrier never counts itself)
        if sum(1 for other in carriers if other & where) > (1 if mine else 0):
            return False
    return True


def _deposit(state: State, seat: int) -> State:
    load = state.carried[seat]
    if load == EMPTY_PILE:
        return state
    pile = state.piles[seat]
    banked: Pile = (pile[0] + load[0], pile[1] + load[1], pile[2] + load[2], pile[3] + load[3])
    state = changed(
        state,
        carried=replaced(state.carried, seat, EMPTY_PILE),
        piles=replaced(state.piles, seat, banked),
    )
    return _check_end(state)


def _check_end(state: State) -> State:
    """Over when every scoring tile is banked, or when nothing is carried and no scoring
    tile is left where a pawn could ever walk (pawns never leave their lake-bounded region)."""
    banked = 0
    for pile in state.piles:
        banked += pile[0] + pile[1] + pile[2] + pile[3]
    if banked == SCORING_TILES:
        return changed(state, phase=OVER, dice=())
    if state.carried.count(EMPTY_PILE) == len(state.carried):
        scoring = state.tiles[BOAR] | state.tiles[COHORT] | state.tiles[MENHIR] | state.tiles[MISTLETOE]
        pawns = 0
        for square in state.pawns:
            pawns |= BIT[square]
        if not region(pawns, state.tiles[LAKE]) & scoring:
            return changed(state, phase=OVER, dice=())
    return state


# -- small pieces -------------------------------------------------------------------------

def _plus(pile: Pile, kind: int, amount: int = 1) -> Pile:
    return replaced(pile, kind, pile[kind] + amount)  # type: ignore[return-value]


def _without_tile(tiles: tuple[int, int, int, int, int], kind: int, square: int) -> tuple[int, int, int, int, int]:
    return replaced(tiles, kind, tiles[kind] & ~BIT[square])  # type: ignore[return-value]


def _text(action: Action) -> str:
    try:
        return format_action(action)
    except IllegalAction:
        return repr(action)


def situation(state: State) -> str:
    """What happens next, as a sentence fragment (for error messages and the board picture)."""
    phase, seat = state.phase, state.actor
    if phase == LAYOUT:
        return f"the layout's turn to lay a tile on {SQUARE_NAMES[LAYOUT_ORDER[state.laid]]}"
    if phase == FIRST_ROLL:
        return f"seat {state.contenders[len(state.rolls)]}'s roll of 1d6 for first player"
    if phase == PLACE:
        return f"seat {seat}'s turn to put its pawn on a village square"
    if phase == ROLL:
        return f"seat {seat}'s roll of 2d6"
    if phase == ORDER:
        return f"seat {seat}'s choice of which die ({state.dice[0]} or {state.dice[1]}) moves first"
    if phase == MOVE:
        return f"seat {seat}'s move of {state.dice[0]} steps from {SQUARE_NAMES[state.pawns[seat]]}"
    if phase == PICK:
        kind = KIND_NAMES[kind_at(state.tiles, state.pawns[seat])]
        return f"seat {seat}'s choice to pick up or leave the {kind}"
    if phase == STEAL:
        return f"seat {seat}'s choice to steal or leave the other pawns be"
    return "the end of the game"


def _refusal_text(state: State, why: str) -> str:
    legal = ", ".join(format_action(a) for a in legal_actions(state))
    return f"{why} It is {situation(state)}; the legal actions are: {legal}."


_LISTS = BOOK.lists

# The engine's own action objects (those its legal lists are made of, BOOK.known) straight
# to their rule in each phase, decoded once: a search applies hundreds of thousands of
# them. Identity, as in the rulebook: an equal action from elsewhere (("die", True) equals
# ("die", 1)) takes the rulebook's four steps, and so does every refusal, in its words.
_STRAIGHT: dict[Action, tuple[Action, dict[str, tuple[Rule[State], tuple[Any, ...]]]]] = {}
for _action in BOOK.known:
    _kind, _args = decode(_action)
    _STRAIGHT[_action] = (_action, {phase: (rule, _args) for (phase, kind), rule in BOOK.rules.items()
                                    if kind == _kind})


def _lands_not(state: State, square: int) -> str | None:
    """The problem of a move by the engine's own action object: None when it lands, and
    otherwise anything but None (the rulebook then says why, in its words)."""
    return None if _lands(state, square) else "refused"


# A move's square is looked up once here, not twice per move (problem, then effect).
for _square, _action in enumerate(_MOVE_TO):
    _STRAIGHT[_action][1][MOVE] = (Rule(_lands_not, _move), (_square,))
