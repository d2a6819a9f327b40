"""The values of the session's read-only surface (spec/protocol.md, "The session's public
surface"): what a client or a bot is told about the game. `protocol.session` re-exports them.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from peerboard.engines import Action, Game
from peerboard.protocol.log import Entry, Outcomes

#: moves kept for `MoveList` to write in the notation when next asked (nobody may ask)
UNFORMATTED_AT_MOST = 1024


class Phase(enum.Enum):
    FORMING = "forming"  # seats being asked for and handed out (before a proposal)
    SIGNING = "signing"  # the genesis is proposed; signatures being collected
    PLAYING = "playing"
    OVER = "over"  # the game is over and its result signed by every seat
    HALTED = "halted"  # a desync, an equivocation or our own internal fault: `Session.halt` says which


@dataclass(frozen=True)
class SeatInfo:
    index: int
    name: str  # as the peer gave it: escape it before showing it
    fingerprint: str  # "abcd-efgh"
    key: bytes  # Ed25519 public key
    connection: str  # "you" | "connected" | "away" | "left"
    last_heard: float | None  # session time (the `now` passed in) it was last heard; None: never, or you
    address: str = ""  # where that node listens (its hello's addr, untrusted text); "": unknown or not told


@dataclass(frozen=True)
class MoveRecord:
    """One accepted move entry, for move lists and bot notifications."""

    seq: int
    seat: int
    actions: tuple[Action, ...]  # the engine actions, in order
    texts: tuple[str, ...]  # each action in the game's notation, written at the state before it
    confirmed: bool  # every seat has acked it (when this record was made: see `Session.confirmed_seq`)


@dataclass(frozen=True)
class ChanceRecord:
    """The chance outcomes (dice, draws, shuffles) one accepted entry brought about, for move
    lists: a hidden draw of another seat is its placeholder, as the local view has it."""

    seq: int
    seat: int  # the entry's author
    kind: str  # the entry's kind: "reveal", "chance", "move" ...
    texts: tuple[str, ...]  # each outcome in the game's notation, written at the state before it


@dataclass(frozen=True)
class Position:
    seq: int  # entries applied (0: just the genesis)
    state: Any  # the local seat's view (a spectator's: the public view)
    to_act: tuple[int, str] | None  # (seat, kind) entitled to the next entry; None when over or halted


class LocalError(ValueError):
    """The local player asked for something the protocol or the rules do not allow now."""


class MoveList:
    """The accepted move entries, each written in the game's notation (at the state before
    it) the first time the list is asked for, so a node nobody asks pays nothing for it."""

    def __init__(self, game: Game):
        self.game = game
        self._records: list[MoveRecord] = []
        self._pending: list[tuple[Entry, Any]] = []  # (move entry, the state before it)
        self._chance: list[ChanceRecord] = []
        self._chance_pending: list[tuple[Entry, Outcomes]] = []  # (entry, its (state before, outcome) pairs)

    def add_chance(self, entry: Entry, outcomes: Outcomes) -> None:
        """The chance outcomes `entry` brought about, as (state before, outcome) pairs
        (written out as the moves are: when first asked for)."""
        self._chance_pending.append((entry, outcomes))
        if len(self._chance_pending) > UNFORMATTED_AT_MOST:
            self._write_out_chance()

    def chance_records(self) -> tuple[ChanceRecord, ...]:
        self._write_out_chance()
        return tuple(self._chance)

    def _write_out_chance(self) -> None:
        game = self.game
        for entry, outcomes in self._chance_pending:
            texts = tuple(game.format_action(state, outcome) for state, outcome in outcomes)
            self._chance.append(ChanceRecord(entry.seq, entry.seat, entry.kind, texts))
        self._chance_pending.clear()

    def add(self, entry: Entry, before: Any, confirmed: int) -> None:
        self._pending.append((entry, before))
        if len(self._pending) > UNFORMATTED_AT_MOST:
            self._write_out(confirmed)  # keep no more old states than this

    def records(self, confirmed: int) -> tuple[MoveRecord, ...]:
        """Every move so far; `confirmed`: the last confirmed seq."""
        self._write_out(confirmed)
        records = self._records
        for i in range(len(records) - 1, -1, -1):  # the newly confirmed ones: at the end
            record = records[i]
            if record.confirmed:
                break
            if record.seq <= confirmed:
                records[i] = MoveRecord(record.seq, record.seat, record.actions, record.texts, True)
        return tuple(records)

    def drop_from(self, seq: int) -> None:
        """Forget the moves from entry `seq` on (a claim of this node's seat replaced them)."""
        self._pending = [(e, s) for e, s in self._pending if e.seq < seq]
        self._records = [r for r in self._records if r.seq < seq]

    def _write_out(self, confirmed: int) -> None:
        game = self.game
        for entry, state in self._pending:
            actions, texts = entry.body["actions"], []
            for i, action in enumerate(actions):
                texts.append(game.format_action(state, action))
                if i + 1 < len(actions):
                    state = game.apply(state, action)
            self._records.append(MoveRecord(entry.seq, entry.seat, actions, tuple(texts), entry.seq <= confirmed))
        self._pending.clear()
