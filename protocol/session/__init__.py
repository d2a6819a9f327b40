"""The live session: one node's side of a game, sans-IO (spec/protocol.md).

`Session` takes what arrives, what the local player decides and the passing of time, and
returns effects for its node to carry out (`EffectRunner` does); it tells the client what
happened in events, and shows the game on its read-only surface (`phase`, `seats`,
`position()`, `legal_actions()` ...). Built on the log's face (peerboard.protocol.log).

Inside: `Session` (session.py) on `SessionView` (view.py), its message table (takes.py) and
phase table (phases.py); before the genesis the forming side (forming.py, hosting.py,
joining.py); from it on the game, `Play` (play.py) on `Table` (table.py), with a part for
each concern — `Acking` (acks.py), `Fetches` (catchup.py), `Liveness` (liveness.py),
`Endings` (endings.py), `Claims` (claims.py), `Authors` (authors.py), `Takeovers`
(takeovers.py), `Forks` (forks.py) — and the rematch (`Rematching`, rematch.py).
"""
from __future__ import annotations

from peerboard.protocol.session.chat import header_frame as chat_header_frame, line_frame as chat_line_frame, \
    read_chat
from peerboard.protocol.session.effects import Effect, EffectRunner, Effects
from peerboard.protocol.session.events import (
    Accepted, Chatted, Claimable, Confirmed, Declined, Desync, Disputed, Ended, Ending, Equivocation, Event, GameOver,
    GameStarted, Unanswered, Woke, ChoseAhead,
    InternalFault, Offered, PeerAway, PeerBack, PeerLeft, PeerMoved, PeersKnown, Refused, Rejected, RematchAnswer,
    Seated, SeatFreed, SeatTaken, TakenOver, TakeoverTurn, YourTurn,
)
from peerboard.protocol.session.forming import SEAT_LEASE
from peerboard.protocol.session.messages import Ack, Confirm, EntryMessage, Hello, MessageError, Say, decode_message
from peerboard.protocol.session.refusals import CLOSED, FULL, WRONG_CODE
from peerboard.protocol.session.rematch import REMATCH_WAIT, Rematches, next_order
from peerboard.protocol.session.session import Session
from peerboard.protocol.session.surface import ChanceRecord, LocalError, MoveRecord, Phase, Position, SeatInfo
from peerboard.protocol.session.tablecode import code_problem, host_code_problem, pick_code

__all__ = [
    # the session and what it hands its node
    "Session", "EffectRunner", "Effect", "Effects",
    # its read-only surface
    "Phase", "SeatInfo", "Position", "MoveRecord", "ChanceRecord", "LocalError",
    # its events
    "Event", "Seated", "SeatTaken", "SeatFreed", "PeersKnown", "GameStarted", "Accepted", "Confirmed", "YourTurn",
    "PeerAway", "PeerBack", "PeerLeft", "PeerMoved", "Desync", "Equivocation", "InternalFault", "Ended", "Ending",
    "Claimable", "Offered", "Declined", "GameOver", "Rejected", "Refused", "Chatted", "RematchAnswer",
    "TakeoverTurn", "TakenOver", "Disputed", "Woke", "Unanswered", "ChoseAhead",
    # the messages a node looks at before its session does (a stranger's hello, a chat line)
    "decode_message", "MessageError", "Hello", "Ack", "Confirm", "EntryMessage", "Say",
    # forming a table: why a hello was refused, how long a seat is leased, a private table's code
    "CLOSED", "FULL", "WRONG_CODE", "SEAT_LEASE", "code_problem", "host_code_problem", "pick_code",
    # chat beside the log, and the rematch
    "chat_header_frame", "chat_line_frame", "read_chat", "REMATCH_WAIT", "Rematches", "next_order",
]
