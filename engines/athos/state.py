"""The Athos position: frozen dataclasses of tuples and strings, and its public record
(the hashed form).

Nodes and hexes are the integers of `board.py`. Nothing here is a set or a dict, so no
hash order can reach the state, `legal_actions` or the record.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from peerboard.engines.athos.board import COLOUR_LETTERS, HEX_COUNT, NODE_COUNT, NODE_NAMES, SUMMIT
from peerboard.engines.athos.parting import crowded
from peerboard.engines.athos.paths import Skeleton, cuts_from, skeleton
from peerboard.engines.canonical import Record, record_digest
from peerboard.engines.values import cached, derived_from

# The phases of a turn, in order, and the handicap placements before the first turn.
HANDICAP = "handicap"
MOVE = "move"
ATHOS = "athos"  # may lift a tile (then DROP) or skip the piece this turn
DROP = "drop"  # a tile is lifted; it must now be put down on another hex (then FIX)
FIX = "fix"  # the tile has moved; the Athos piece must now be put down
PLACE = "place"
OVER = "over"
#: `lifted` and `last_placed` when no hex is meant
NO_HEX = -1
#: the version of the record layout (spec/games/athos.md, "The public record")
RECORD_VERSION = 2

#: `tiles[hex]` when the hex has no tile. A tile is its colour letter (G Y O B W): upper
#: case while it shows its blocking side, lower case while it shows its passable side.
NO_TILE = "."
_PASSABLE = bytes.maketrans(b".GYOBWgyobw", b"\x01\x00\x00\x00\x00\x00\x01\x01\x01\x01\x01")
_TILE = re.compile(r"[^.]")
_NO_TILE = re.compile(r"\.")
_EXTRA_NODES = b"\x01" * (NODE_COUNT - HEX_COUNT)


def tile_char(colour: int, blocking: bool) -> str:
    letter = COLOUR_LETTERS[colour]
    return letter if blocking else letter.lower()


@dataclass(frozen=True)
class Setup:
    """What the options fixed for the whole game (normalised)."""

    players: int
    #: seat -> its start area node
    areas: tuple[int, ...]
    teams: bool
    #: seat -> tiles it places before the first turn
    handicap: tuple[int, ...]
    athos_on_empty: bool
    three_player_areas: str
    bonus_must_be_spent: bool

    def __deepcopy__(self, memo: dict[int, Any]) -> "Setup":
        return self  # an immutable value, like a tuple


@dataclass(frozen=True)
class State:
    setup: Setup
    #: 1-based; a round is one turn of every seat, seat 0 first
    round: int
    #: the seat to act (also during the handicap placements): the word `actor` is the same
    #: in every engine
    actor: int
    phase: str
    #: movement points left in this move phase (6 plus bonus points, minus what was spent)
    pool: int
    #: bonus points received this turn and not yet spent (bonus points are spent first)
    owed: int
    #: movement points used this turn: steps, turned tiles (4 each), bonus points spent
    spent: int
    #: tiles placed this turn, per colour
    placed: tuple[int, ...]
    #: handicap tiles the acting seat still places
    handicap_left: int
    #: seat -> its monks' nodes, ascending (SUMMIT for a monk that arrived)
    monks: tuple[tuple[int, ...], ...]
    #: one character per hex: NO_TILE or tile_char(colour, blocking)
    tiles: str
    #: hexes carrying an Athos piece, ascending
    fixed: tuple[int, ...]
    #: seat -> Athos pieces it still has
    pieces: tuple[int, ...]
    #: the seats of the monks on the summit, in arrival order
    arrivals: tuple[int, ...]
    #: seat -> movement points it used in its latest finished turn (the tie-break)
    last_spent: tuple[int, ...]
    #: DROP: the hex whose tile is lifted (it stays drawn there until it is dropped); else NO_HEX
    lifted: int = NO_HEX
    #: the hex of the tile placed last in this turn (or this seat's handicap), else NO_HEX:
    #: a turn's tiles go down in board order, so each set of placements is offered once
    last_placed: int = NO_HEX

    # Derived tables, computed once per state on first use. They are not fields, so they
    # take no part in equality, the record or the hash. (bytes: cheap to copy.) Each says
    # what it is computed from; `evolve` (engines/values.py) hands on exactly those whose
    # inputs an action left alone.
    @derived_from("tiles")
    def passable(self) -> bytes:
        """node -> 1 when a monk may stand on it or pass it (no blocking tile), else 0."""
        return self.tiles.encode("ascii").translate(_PASSABLE) + _EXTRA_NODES

    @derived_from("monks")
    def crowd(self) -> bytes:
        """node -> how many monks (of every seat) stand on it."""
        counts = [0] * NODE_COUNT
        for nodes in self.monks:
            for n in nodes:
                counts[n] += 1
        return bytes(counts)

    @derived_from("tiles", "crowd", "fixed")
    def free(self) -> bytes:
        """Hexes a tile may go on (placed or dropped): no tile, no monk, no Athos piece; ascending."""
        crowd, fixed = self.crowd, self.fixed
        return bytes(h for h in (m.start() for m in _NO_TILE.finditer(self.tiles)) if not crowd[h] and h not in fixed)

    @derived_from("monks", "actor")
    def mine(self) -> tuple[int, ...]:
        """The acting seat's monks not yet on the summit."""
        return tuple(n for n in self.monks[self.actor] if n != SUMMIT)

    @derived_from("mine", "taken")
    def sharing(self) -> bool:
        """Whether one of the acting seat's monks shares a hex with another monk (parting.crowded)."""
        return crowded(self.mine, self.taken)

    @derived_from("tiles", "fixed")
    def movable(self) -> bytes:
        """Hexes whose tile may still be turned or moved (no Athos piece on it), ascending."""
        fixed = self.fixed
        return bytes(
            [m.start() for m in _TILE.finditer(self.tiles) if m.start() not in fixed]
            if fixed
            else [m.start() for m in _TILE.finditer(self.tiles)]
        )

    @derived_from("passable")
    def walk(self) -> Skeleton:
        """The path rule's walk from the summit (paths.skeleton); depends on the tiles only."""
        return skeleton(self.passable)

    @derived_from("walk", "walkers")
    def cuts(self) -> bytes:
        """hex -> 1 when a blocking tile there would cut a monk off (paths.cutting_hexes)."""
        return bytes(cuts_from(self.walk, self.walkers))

    @derived_from("monks", "actor")
    def taken(self) -> bytes:
        """hex -> 1 when a monk of a seat other than the acting one stands there."""
        taken = bytearray(HEX_COUNT)
        for seat, nodes in enumerate(self.monks):
            if seat != self.actor:
                for n in nodes:
                    if n < HEX_COUNT:
                        taken[n] = 1
        return bytes(taken)

    @cached
    def digest(self) -> bytes:
        """The state hash: SHA-256 of the canonical msgpack of `record(self)`."""
        return record_digest(record(self))

    @derived_from("monks")
    def walkers(self) -> bytes:
        """The nodes of every monk not yet on the summit (with repeats), ascending."""
        return bytes(sorted(n for nodes in self.monks for n in nodes if n != SUMMIT))


_NAME_OF = NODE_NAMES.__getitem__


def record(state: State) -> Record:
    """The public record: every field of the state as nested tuples (spec/games/athos.md)."""
    s = state.setup
    return (
        "athos",
        RECORD_VERSION,
        (
            s.players,
            tuple(NODE_NAMES[a] for a in s.areas),
            s.teams,
            s.handicap,
            s.athos_on_empty,
            s.three_player_areas,
            s.bonus_must_be_spent,
        ),
        state.round,
        state.actor,
        state.phase,
        state.pool,
        state.owed,
        state.spent,
        state.placed,
        state.handicap_left,
        tuple(" ".join(map(_NAME_OF, nodes)) for nodes in state.monks),
        state.tiles,
        tuple(map(_NAME_OF, state.fixed)),
        state.pieces,
        state.arrivals,
        state.last_spent,
        None if state.lifted == NO_HEX else NODE_NAMES[state.lifted],
        None if state.last_placed == NO_HEX else NODE_NAMES[state.last_placed],
    )
