"""The state of a game of Asterix: The Hunt: one frozen value, tuples and ints only.

The whole state is public (perfect information); `record` is what gets hashed and its
layout is spec/games/asterix.md, section "The record".
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from peerboard.engines.canonical import Record

# The phases, in the order a game goes through them.
LAYOUT = "layout"      # chance: the tile on the next square of LAYOUT_ORDER
FIRST_ROLL = "first"   # chance: 1d6 for the next contender for first player
PLACE = "place"        # a seat puts its pawn on a village square
ROLL = "roll"          # chance: the 2d6 of the seat to move
ORDER = "order"        # the seat chooses which die moves first (or skips a turn it can't move)
MOVE = "move"          # the seat chooses where the die at dice[0] lands (or skips it)
PICK = "pick"          # the seat picks up or leaves the tile it landed on
STEAL = "steal"        # the seat steals one thing from a pawn on its square, or leaves them
OVER = "over"          # the game has ended

#: Counts per scoring kind in kind order: (boar, cohort, menhir, mistletoe).
Pile = tuple[int, int, int, int]
EMPTY_PILE: Pile = (0, 0, 0, 0)


@dataclass(frozen=True, eq=False)
class State:
    """One position. Seats are 0..players-1; squares are indices 0..63 (board.py)."""

    players: int
    #: "either" (one Menhir or up to two Boars) or "both" (one Menhir and two Boars)
    carry_rule: str
    max_rounds: int
    phase: str
    #: the seat to act (or roll) now, the same word in every engine; during the
    #: first-player roll, unused (0)
    actor: int
    #: the first player, -1 until the roll has decided
    first: int
    #: the round being played, 1-based; 0 before the first turn
    round: int
    #: how many squares of LAYOUT_ORDER hold their tile (60 once the layout is done)
    laid: int
    #: one square mask per kind boar, cohort, menhir, mistletoe, lake; a square in none is empty
    tiles: tuple[int, int, int, int, int]
    #: the seats still rolling for first player, and their rolls so far this round of rolls
    contenders: tuple[int, ...]
    rolls: tuple[int, ...]
    #: each seat's pawn square, -1 before it is placed
    pawns: tuple[int, ...]
    potions: tuple[int, ...]
    #: what each pawn carries, counted per scoring kind (the cohort count is always 0)
    carried: tuple[Pile, ...]
    #: each seat's victory pile, counted per scoring kind
    piles: tuple[Pile, ...]
    #: the dice still to move this turn; in ORDER both as rolled (low first), in MOVE the
    #: die being moved first
    dice: tuple[int, ...]

    # A search keys its memos by positions (client/bots/lookahead.py) and meets the same
    # position objects again and again: the hash is worked out once per object and kept
    # in its dict as `_hash` (which `changed` never hands on to a changed copy). It is made
    # of the fields that tell apart the positions one search meets; the piles, potions and
    # round hardly ever differ where these agree (measured: not one more equality test in
    # 400 MCTS playouts, 2 % fewer instructions than with them), and equal positions hash
    # alike all the same. A plain class attribute stands for "not yet": a kept hash is
    # then one read from the object's dict, cheaper than a `cached` descriptor's (1.3 % of
    # an MCTS playout), and a first one costs no exception (a missing attribute's: 4 %).
    # Two positions are equal when every field is; when both hold their hash, or neither,
    # their dicts compare at once (equal fields, equal hashes).
    _hash = None

    def __hash__(self) -> int:
        found = self._hash
        if found is None:
            fields = self.__dict__  # (read by key: cheaper than by attribute, for a hash made once per position)
            found = fields["_hash"] = hash((
                fields["phase"], fields["actor"], fields["dice"], fields["pawns"], fields["tiles"],
                fields["carried"]))
        return found

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not State:
            return NotImplemented
        if self is other:
            return True
        mine, theirs = self.__dict__, other.__dict__
        if len(mine) == len(theirs):
            return mine == theirs
        return all(mine[name] == theirs[name] for name in _FIELDS)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied as its fields alone: a hash belongs to its process (a str's
        hash differs from one process to the next)."""
        fields = self.__dict__
        return {name: fields[name] for name in _FIELDS}


_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))
_new = object.__new__
_set = object.__setattr__


def changed(state: State, **changes: Any) -> State:
    """`evolve` (engines/values.py) for a position, as the rules make hundreds of thousands
    of them in a search: a copy with the named fields changed, and without the one cached
    value a position holds (its hash), which never survives a change; evolve works that
    out for any class, here it is known. (`changed_by`'s four lines, not a call to it:
    the commonest copy of all, one call less.)"""
    values = state.__dict__ | changes
    values.pop("_hash", None)
    new = _new(State)
    _set(new, "__dict__", values)
    return new


def changed_by(state: State, changes: dict[str, Any]) -> State:
    """`changed(state, **changes)` for a dict of changes a rule has gathered (a turn's
    end adds to what its last action changed), without unpacking it into a new one."""
    values = state.__dict__ | changes  # (one copy with the changes in; 15 % cheaper than copy, update)
    values.pop("_hash", None)
    new = _new(State)
    _set(new, "__dict__", values)
    return new


def record(state: State) -> Record:
    """The nested tuple that `state_hash` hashes: every field, in declaration order."""
    return (
        "asterix",
        state.players,
        state.carry_rule,
        state.max_rounds,
        state.phase,
        state.actor,
        state.first,
        state.round,
        state.laid,
        state.tiles,
        state.contenders,
        state.rolls,
        state.pawns,
        state.potions,
        state.carried,
        state.piles,
        state.dice,
    )
