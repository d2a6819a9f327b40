"""What a search reads of the positions a seat's actions lead to, without building the
ones where the seat's own actions end.

A search's lookahead (client/bots/lookahead.py) values every position one of the seat's
actions leads to. Where the seat acts on it goes on from the position; where the turn is
over it only values it, and its judge of Asterix (client/games/asterix/knowledge.py)
reads four things of it: the victory piles, what each pawn carries, the pawns' squares and
whether the game is over. That is a position's *brief*. Building such a position (the
turn's end, a copy of the state, its hash) cost most of a playout; `successors_in_brief`
gives the brief alone, worked out by the rules' own functions on the fields that change,
and the same, to the last bit, as the brief of the position `apply` makes
(tests/test_asterix_briefs.py compares them at every step of many games).
"""
from __future__ import annotations

from functools import lru_cache

from peerboard.engines.asterix import rules
from peerboard.engines.asterix.board import COHORT, kind_at
from peerboard.engines.asterix.state import EMPTY_PILE, FIRST_ROLL, LAYOUT, MOVE, OVER, PICK, ROLL, Pile, State
from peerboard.engines.asterix.walks import blocked_squares, landings
from peerboard.engines.contract import Action
from peerboard.engines.values import replaced

#: (victory piles, what each pawn carries, the pawns' squares, whether the game is over)
Brief = tuple[tuple[Pile, ...], tuple[Pile, ...], tuple[int, ...], bool]

#: the phases in which no seat acts (chance, the end)
_NO_SEAT = (LAYOUT, FIRST_ROLL, ROLL, OVER)


def in_brief(state: State) -> Brief:
    """A position's brief: what a search's judge reads of it."""
    return (state.piles, state.carried, state.pawns, state.phase == OVER)


def successors_in_brief(state: State) -> list[tuple[Action, State | None, Brief]]:
    """(action, the position it leads to or None, that position's brief) for every legal
    action, in the legal order. The position is given where the seat to act acts on there
    (a search goes on from it); where its own actions end, None. The briefs are
    `in_brief(apply(state, action))`."""
    phase = state.phase
    if phase == MOVE:
        return _landings(state)
    if phase == PICK and not state.dice and state.pawns.count(state.pawns[state.actor]) < 2:
        return _pick_or_leave(state)
    seat = state.actor
    return [_briefed(seat, action, after) for action, after in rules.successors(state)]


def _briefed(seat: int, action: Action, after: State) -> tuple[Action, State | None, Brief]:
    own = after.phase not in _NO_SEAT and after.actor == seat
    return (action, after if own else None, in_brief(after))


def _landings(state: State) -> list[tuple[Action, State | None, Brief]]:
    seat = state.actor
    mask = landings(state.pawns[seat], state.dice[0], blocked_squares(state.tiles, state.potions[seat]))
    if not mask:
        return [_briefed(seat, rules.SKIP, rules._end_turn(state))]
    briefs = _briefs_from(rules.landing_key(state))
    known = briefs.get  # (an entry is never false: `or` goes on only when none is known)
    return [known(square) or _landing(briefs, state, square) for square in rules._squares(mask)]


# What landing on each square gives, for every position with the same `landing_key` (as
# rules._landings_from remembers the positions): square -> its entry of the list; -1 -> the
# turn's end (`_turn_end`). A pure function's memo, kept small.
@lru_cache(maxsize=256)
def _briefs_from(key: tuple) -> dict[int, tuple]:
    return {}


def _landing(briefs: dict[int, tuple], state: State, square: int) -> tuple[Action, State | None, Brief]:
    seat = state.actor
    does = rules.landing(state, square)
    last = not state.dice[1:]
    if does is rules.PLAIN and last:
        # The last die, and nothing happens on the square: the turn ends (`_plain_end`)
        # with every field as before but the pawn's square, and maybe the game with it.
        pawns = state.pawns[:seat] + (square,) + state.pawns[seat + 1:]
        over, potions, others = briefs.get(-1) or _turn_end(briefs, state)
        if not over and not others:
            over = rules.nothing_can_change_of(state.tiles, pawns, potions, state.carried, state.carry_rule)
        found = (rules._MOVE_TO[square], None, (state.piles, state.carried, pawns, over))
    elif does is rules.BANKS:
        found = (rules._MOVE_TO[square], None, _banked(briefs, state, square))
    elif does is rules.DEFEATS and last and state.pawns.count(square) == (state.pawns[seat] == square):
        found = (rules._MOVE_TO[square], None, _defeated(briefs, state, square))
    else:
        found = _briefed(seat, rules._MOVE_TO[square], rules._move(state, square))
    briefs[square] = found
    return found


def _banked(briefs: dict[int, tuple], state: State, square: int) -> Brief:
    """Into the village (`_move`, `_deposit`): the load banked, and the turn is over."""
    seat = state.actor
    pawns = state.pawns[:seat] + (square,) + state.pawns[seat + 1:]
    piles, carried, tiles = state.piles, state.carried, state.tiles
    load = carried[seat]
    if load != EMPTY_PILE:
        pile = piles[seat]
        piles = replaced(piles, seat, (pile[0] + load[0], pile[1] + load[1], pile[2] + load[2], pile[3] + load[3]))
        carried = replaced(carried, seat, EMPTY_PILE)
        if rules.ends_after_banking(piles, carried, tiles, pawns):
            return (piles, carried, pawns, True)
    over, potions, others = briefs.get(-1) or _turn_end(briefs, state)
    if not over and not others:  # (the others' loads and the tiles are as they were)
        over = rules.nothing_can_change_of(tiles, pawns, potions, carried, state.carry_rule)
    return (piles, carried, pawns, over)


def _defeated(briefs: dict[int, tuple], state: State, square: int) -> Brief:
    """A cohort defeated with the last die, nobody else on the square (`_move`, then
    `_after_pick` finds nobody to rob): the turn is over."""
    seat = state.actor
    pawns = state.pawns[:seat] + (square,) + state.pawns[seat + 1:]
    tiles = rules._without_tile(state.tiles, COHORT, square)
    piles = replaced(state.piles, seat, rules._plus(state.piles[seat], COHORT))
    carried = state.carried
    if rules.ends_after_banking(piles, carried, tiles, pawns):
        return (piles, carried, pawns, True)
    over, potions, _ = briefs.get(-1) or _turn_end(briefs, state)  # (a tile fewer: the others asked again)
    return (piles, carried, pawns, over or rules.nothing_can_change_of(tiles, pawns, potions, carried,
                                                                      state.carry_rule))


def _turn_end(briefs: dict[int, tuple], state: State) -> tuple[bool, tuple[int, ...], bool]:
    found = briefs[-1] = _ending(state)
    return found


def _ending(state: State) -> tuple[bool, tuple[int, ...], bool]:
    """What the end of the turn under way is, whatever the pawn's last square and load:
    (the round limit ends the game, the potions at the next turn's start, a pawn other than
    the mover's can still act on its own: then the game goes on, `nothing_can_change`
    need not be asked)."""
    end = rules._end_turn(state, {"dice": ()}, False)  # (the next seat's refill reads its own square)
    if end.phase == OVER:
        return (True, end.potions, True)
    others = rules.others_can_act(state.tiles, state.pawns, end.potions, state.carried, state.carry_rule,
                                  state.actor)
    return (False, end.potions, others)


def _pick_or_leave(state: State) -> list[tuple[Action, State | None, Brief]]:
    """A tile to pick up with no die left and nobody to rob: either way the turn ends
    (`_pick`, then `_end_turn`)."""
    seat = state.actor
    square = state.pawns[seat]
    over, potions, others = _ending(state)
    tiles, carried, pawns, carry_rule = state.tiles, state.carried, state.pawns, state.carry_rule
    kind = kind_at(tiles, square)
    loaded = replaced(carried, seat, rules._plus(carried[seat], kind))
    picked = over or rules.nothing_can_change_of(rules._without_tile(tiles, kind, square), pawns, potions,
                                                 loaded, carry_rule)
    left = over or (not others and rules.nothing_can_change_of(tiles, pawns, potions, carried, carry_rule))
    return [(rules.PICK_UP, None, (state.piles, loaded, pawns, picked)),
            (rules.LEAVE, None, (state.piles, carried, pawns, left))]
