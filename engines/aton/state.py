"""The Aton position: frozen values only, so `apply` can share what it does not change."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from peerboard.engines.aton.cards import EMPTY, FULL_DECK, Counts
from peerboard.engines.canonical import Record

T = TypeVar("T", "Seat", "State")

COUNTERS = 29
SEATS = (0, 1)

# Phases of a round, in order (spec/games/aton.md, "The round as actions").
DRAW = "draw"            # chance: the drawer's next card
EXCHANGE = "exchange"    # a seat with the white counter keeps or exchanges its hand
ASSIGN = "assign"        # secret and simultaneous: four cards onto the four cartouches
TURN_UP = "turn-up"      # chance: breaking a tie on cartouches 1 and 2 with deck cards
REMOVE = "remove"        # cartouche 2: the acting seat takes counters off
PLACE = "place"          # cartouche 4: the acting seat puts counters on
RETRIEVE = "retrieve"    # after a scoring: each seat takes 4 own counters back
OVER = "over"


@dataclass(frozen=True)
class Seat:
    score: int = 0
    supply: int = COUNTERS
    #: counters of this seat in the Kingdom of the Dead
    dead: int = 0
    exchange: bool = True
    #: the hand as counts, or None where this view cannot see it
    hand: Counts | None = EMPTY
    hand_size: int = 0
    #: cards not yet seen by the opponent: the hand plus the deck (public knowledge)
    unseen: Counts = FULL_DECK
    discards: Counts = EMPTY
    #: cards on cartouches 1..4 once revealed this round, else None
    cartouches: tuple[int, int, int, int] | None = None

    @property
    def deck_size(self) -> int:
        return sum(self.unseen) - self.hand_size


@dataclass(frozen=True)
class State:
    win_points: int
    first_round_removal: bool
    seats: tuple[Seat, Seat]
    #: owner (0/1) of each of the 48 temple squares, -1 when empty
    board: tuple[int, ...]
    round: int = 1
    phase: str = DRAW
    #: the seat to act or draw (DRAW, EXCHANGE, ASSIGN, TURN_UP, REMOVE, PLACE, RETRIEVE)
    actor: int = 0
    #: the order of play this round (first, second) once cartouche 2 is resolved
    order: tuple[int, ...] = ()
    #: removals or placements or retrievals still owed by `actor` in this phase
    owed: int = 0
    #: seats that have kept or exchanged their hand this round (EXCHANGE)
    decided: tuple[int, ...] = ()
    #: the tie-break card each seat turned up in the current pass (TURN_UP)
    turned: tuple[int, ...] = ()
    #: the seat that acted first in the round before this one's scoring
    last_first: int = 0
    winners: tuple[int, ...] = ()
    #: why the game ended: "" while playing, else a sentence for people
    ending: str = ""


def changed(value: T, **changes: Any) -> T:
    """`evolve` (engines/values.py) for Aton's values, as a search makes millions of them:
    a copy with the named fields changed. A Seat and a State hold no cached values (so
    there is nothing for evolve to hand on or drop), and the rules name only their fields
    (tests/engines/test_aton_equivalence.py plays them against the rules before)."""
    new = _new(type(value))
    _set(new, "__dict__", value.__dict__ | changes)
    return new


_new = object.__new__
_set = object.__setattr__


def record(state: State) -> Record:
    """The public record, what `state_hash` hashes: every field everyone knows, as nested
    tuples (spec/games/aton.md, "State hash"). No hand is in it: hands are hidden."""
    return (
        "aton",
        state.win_points,
        state.first_round_removal,
        state.round,
        state.phase,
        state.actor,
        state.order,
        state.owed,
        state.decided,
        state.turned,
        state.last_first,
        state.board,
        tuple(map(_seat_record, state.seats)),
        state.winners,
    )


def _seat_record(s: Seat) -> Record:
    return (s.score, s.supply, s.dead, s.exchange, s.hand_size, s.unseen, s.discards, s.cartouches)
