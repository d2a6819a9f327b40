"""Who an ack goes to, and the author's gathered `confirm` (spec/protocol.md, "Confirmation").

At two seats each seat acks an entry to the other (and to the spectators it serves): the
other seat then holds both acks, and nothing needs relaying. At three seats or more an ack
to every peer would cost n(n−1) messages an entry, so each seat acks an entry to its
author alone, and the author, once it holds every seat's ack, sends one `confirm` with
every seat's state hash to every peer: 3(n−1) messages an entry, entry included.
"""
from __future__ import annotations

from peerboard.protocol.session.messages import Confirm

GATHER_FROM = 3  # seats from which acks are gathered by each entry's author


def gathers(players: int) -> bool:
    """Whether a table of `players` seats gathers its acks at each entry's author."""
    return players >= GATHER_FROM


def confirm_of(seq: int, entry_hash: bytes, states: dict[int, bytes], players: int) -> Confirm:
    """The author's confirm of its entry `seq`: each seat's state hash acked there, None for
    a seat that vouched for it with the ack of a later entry (acks are cumulative)."""
    return Confirm(seq, entry_hash, tuple(states.get(i) for i in range(players)))
