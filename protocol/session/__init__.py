"""The live session: one node's side of a game, sans-IO (spec/protocol.md).

`Session` takes what arrives, what the local player decides and the passing of time, and
returns effects for its node to carry out (`EffectRunner` does); it tells the client what
happened in events, and shows the game on its read-only surface (`phase`, `seats`,
`position()`, `legal_actions()` ...). Built on the log's face (peerboard.protocol.log).
"""
from __future__ import annotations

from peerboard.protocol.session.chat import header_frame as chat_header_frame, line_frame as chat_line_frame, \
    read_chat
from peerboard.protocol.session.effects import EffectRunner
from peerboard.protocol.session.events import (
    Accepted, Chatted, Claimable, Confirmed, Declined, Desync, Disputed, Ended, Ending, Equivocation, Event, GameOver,
    GameStarted, Unanswered, Woke,
    InternalFault, Offered, PeerAway, PeerBack, PeerLeft, PeerMoved, PeersKnown, Refused, Rejected, RematchAnswer,
    Seated, SeatFreed, SeatTaken, TakenOver, TakeoverTurn, YourTurn,
)
from peerboard.protocol.session.forming import CLOSED, FULL, SEAT_LEASE, WRONG_CODE
from peerboard.protocol.session.messages import Ack, Confirm, EntryMessage, Hello, MessageError, Say, decode_message
from peerboard.protocol.session.rematch import REMATCH_WAIT, next_order
from peerboard.protocol.session.session import Session
from peerboard.protocol.session.surface import ChanceRecord, LocalError, MoveRecord, Phase, Position, SeatInfo
from peerboard.protocol.session.tablecode import code_problem, host_code_problem, pick_code

__all__ = [
    # the session and what it hands its node
    "Session", "EffectRunner",
    # its read-only surface
    "Phase", "SeatInfo", "Position", "MoveRecord", "ChanceRecord", "LocalError",
    # its events
    "Event", "Seated", "SeatTaken", "SeatFreed", "PeersKnown", "GameStarted", "Accepted", "Confirmed", "YourTurn",
    "PeerAway", "PeerBack", "PeerLeft", "PeerMoved", "Desync", "Equivocation", "InternalFault", "Ended", "Ending",
    "Claimable", "Offered", "Declined", "GameOver", "Rejected", "Refused", "Chatted", "RematchAnswer",
    "TakeoverTurn", "TakenOver", "Disputed", "Woke", "Unanswered",
    # the messages a node looks at before its session does (a stranger's hello, a chat line)
    "decode_message", "MessageError", "Hello", "Ack", "Confirm", "EntryMessage", "Say",
    # forming a table: why a hello was refused, how long a seat is leased, a private table's code
    "CLOSED", "FULL", "WRONG_CODE", "SEAT_LEASE", "code_problem", "host_code_problem", "pick_code",
    # chat beside the log, and the rematch
    "chat_header_frame", "chat_line_frame", "read_chat", "REMATCH_WAIT", "next_order",
]
