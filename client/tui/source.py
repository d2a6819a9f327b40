"""What a game screen reads: the `GameSource` interface and the values it hands out.

A screen never reads a session, a node or a log file itself. It reads a `Snapshot` (an
immutable picture of the game as the local seat may see it), hands the local seat's
decision to `submit`, and hears `Changed` and `Alert` through the listener it subscribes.
Three sources implement it: the live game (live_source.py, over the node and its session), a
saved log (replay.py), and an in-process game against random players (local.py).

Every text in a snapshot that came from another player (seat names) is already passed
through `client.text.printable`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from peerboard.engines import Game


@dataclass(frozen=True)
class SeatLine:
    """One seat as the side panel shows it."""

    index: int
    name: str           # printable already
    fingerprint: str    # "abcd-efgh"
    score: int | None   # the game's score now (None before the game starts)
    connection: str     # "you" | "connected" | "away" | "left" | "bot" (taken over) | "" (a replay: not known)
    #: when this seat was last heard (time.monotonic()), None: never / you / a replay
    last_heard: float | None
    #: where its node listens, printable ("" when not known)
    address: str = ""


@dataclass(frozen=True)
class MoveLine:
    """One line of the move list."""

    seq: int
    seat: int
    text: str           # the actions in the notation, "; " between them (chance shown in brackets)
    confirmed: bool = True


@dataclass(frozen=True)
class FormingLine:
    """A table still forming (before the game starts), for the forming screen."""

    table_id: str       # hex
    #: seats at the table (0: a joiner not answered yet)
    players: int
    private: bool
    #: this node is the host
    hosting: bool
    #: the host may take a seat back now (the node offers it)
    can_remove: bool
    #: what the command said (how others join this table ...), printable already
    notes: tuple[str, ...] = ()
    #: every seat is taken; they sign the start of the game
    signing: bool = False


@dataclass(frozen=True)
class Snapshot:
    """The game at one moment, as the screen may show it."""

    game: Game
    #: entries applied (0: just the genesis)
    seq: int
    #: the state to draw: the local seat's view (a spectator or a replay: the chosen view)
    state: Any
    seats: tuple[SeatLine, ...]
    local_seat: int | None
    #: (seat, kind) entitled to the next entry, None when over or halted
    to_act: tuple[int, str] | None
    #: "move" or "commit" when the local seat must decide now, else None
    decision: str | None
    #: the local seat's legal actions for that decision (() when none)
    legal: tuple
    moves: tuple[MoveLine, ...]
    #: one line saying where the game stands ("seat 1 (bob) to move", "game over: ...")
    status: str
    over: bool = False
    #: a heading for the screen ("Aton, game against bots", "replay of x.pblog")
    title: str = ""
    #: the table before the game starts (a live game only), else None
    forming: FormingLine | None = None
    #: the latest lines said at the table, oldest first, printable already (a replay: those
    #: said by this entry)
    chat: tuple[str, ...] = ()
    #: seconds a seat may be away before the local seat may claim it (a live two-seat game
    #: the local seat plays), else None: the seats panel counts it down
    patience: int | None = None


@dataclass(frozen=True)
class Changed:
    """The snapshot changed: redraw."""


@dataclass(frozen=True)
class Alert:
    """One line for the status line. kind: "info", "warn" (someone else's fault, or
    waiting) or "error" (our own fault; details in a log file)."""

    text: str
    kind: str = "info"
    #: the newest part is at the end (the other seats' moves, oldest first): a line too
    #: long for the screen loses its beginning, never what just happened
    newest_last: bool = False


SourceEvent = Changed | Alert


class SubmitError(ValueError):
    """The source refused a decision; the message says why in one sentence."""


class GameSource(Protocol):
    """A game the screen shows and the local seat plays in."""

    def snapshot(self) -> Snapshot:
        """The game now (cheap; call it on every Changed)."""
        ...

    def submit(self, actions: Sequence[tuple]) -> None:
        """The local seat's decision: a planned turn (several actions, one entry), or the one
        action of a secret choice. SubmitError with the reason when it cannot be taken."""
        ...

    def chat(self, text: str) -> None:
        """Say `text` to the table (SubmitError with the reason when it cannot be said)."""
        ...

    def rematch(self, answer: str) -> None:
        """Once the game is over: "yes", play the same table again (the first seat moved on),
        or "no" (SubmitError with the reason when there can be no rematch here)."""
        ...

    def subscribe(self, listener: Callable[[SourceEvent], None]) -> None:
        """`listener` hears every Changed and Alert, on the screen's own thread."""
        ...

    def close(self) -> None:
        """The screen is closing: leave the game cleanly (it waits; resume brings you back)."""
        ...
