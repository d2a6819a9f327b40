"""The Athos position: frozen dataclasses of tuples, and its public record (the hashed form).

Nodes and hexes are the integers of `board.py`. Nothing here is a set or a dict, so no
hash order can reach the state, `legal_actions` or the record.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from engines.athos.board import COLOUR_LETTERS, HEX_COUNT, NODE_COUNT, NODE_NAMES, SUMMIT

# The phases of a turn, in order, and the handicap placements before the first turn.
HANDICAP = "handicap"
MOVE = "move"
ATHOS = "athos"  # may move a tile (then FIX) or skip
FIX = "fix"  # the tile has moved; the Athos piece must now be put down
PLACE = "place"
OVER = "over"
PHASES = (HANDICAP, MOVE, ATHOS, FIX, PLACE, OVER)

#: `tiles[hex]` when the hex has no tile; otherwise `colour * 2 + blocking`
NO_TILE = -1


def tile_code(colour: int, blocking: bool) -> int:
    return colour * 2 + (1 if blocking else 0)


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


@dataclass(frozen=True)
class State:
    setup: Setup
    #: 1-based; a round is one turn of every seat, seat 0 first
    round: int
    #: the seat acting (also during the handicap placements)
    seat: int
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
    #: hex -> NO_TILE or tile_code(colour, blocking)
    tiles: tuple[int, ...]
    #: hexes carrying an Athos piece, ascending
    fixed: tuple[int, ...]
    #: seat -> Athos pieces it still has
    pieces: tuple[int, ...]
    #: the seats of the monks on the summit, in arrival order
    arrivals: tuple[int, ...]
    #: seat -> movement points it used in its latest finished turn (the tie-break)
    last_spent: tuple[int, ...]

    # Derived tables, computed once per state on first use. They are not fields, so they
    # take no part in equality, the record or the hash.
    @cached_property
    def passable(self) -> tuple[bool, ...]:
        """node -> a monk may stand on it / pass it (no blocking tile)."""
        tiles = self.tiles
        return tuple(tiles[h] < 0 or not tiles[h] & 1 for h in range(HEX_COUNT)) + (True,) * (
            NODE_COUNT - HEX_COUNT
        )

    @cached_property
    def crowd(self) -> tuple[int, ...]:
        """node -> how many monks (of every seat) stand on it."""
        counts = [0] * NODE_COUNT
        for nodes in self.monks:
            for n in nodes:
                counts[n] += 1
        return tuple(counts)

    @cached_property
    def walkers(self) -> tuple[int, ...]:
        """The nodes of every monk not yet on the summit (with repeats), ascending."""
        return tuple(sorted(n for nodes in self.monks for n in nodes if n != SUMMIT))


def record(state: State) -> tuple:
    """The public record: every field of the state as nested tuples (spec/games/athos.md)."""
    s = state.setup
    return (
        "athos",
        1,
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
        state.seat,
        state.phase,
        state.pool,
        state.owed,
        state.spent,
        state.placed,
        state.handicap_left,
        tuple(tuple(NODE_NAMES[n] for n in nodes) for nodes in state.monks),
        tuple(
            (NODE_NAMES[h], COLOUR_LETTERS[t >> 1], "blocking" if t & 1 else "open")
            for h, t in enumerate(state.tiles)
            if t >= 0
        ),
        tuple(NODE_NAMES[h] for h in state.fixed),
        state.pieces,
        state.arrivals,
        state.last_spent,
    )
