"""Reveals that travel together (spec/protocol.md, "Fair chance"; spec/log-format.md, "Who
writes the next entry"): in a log whose genesis says `"reveals": "together"`, a reveal round
is one `reveals` entry holding every seat's next hash-chain value, written by the round's
gatherer — the writer of the entry before it (seat 0 when the genesis itself leaves the game
at chance). Each seat sends its value to the gatherer on its ack of that entry. A value
proves itself (its SHA-256 is the seat's previous value), so it needs no signature of its
own, and the gatherer can only withhold the round, never bias it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from peerboard.protocol.log import failures
from peerboard.protocol.log.secrets import sha256

if TYPE_CHECKING:
    from peerboard.protocol.log.ledger import Ledger


class RevealsRefused(Exception):
    """A `reveals` entry's values do not make the round: the failure class and why."""

    def __init__(self, failure: str, why: str):
        super().__init__(why)
        self.failure = failure
        self.why = why


def gatherer(ledger: "Ledger") -> int:
    """The seat that writes the next reveal round: the writer of the last entry (the one the
    seats ack with their values), seat 0 right after the genesis."""
    history = ledger.history
    return 0 if history is None else history.entry.seat


def fits_chain(ledger: "Ledger", seat: int, value: bytes) -> bool:
    """Whether `value` is seat `seat`'s next hash-chain value."""
    return sha256(value) == ledger.chain_values[seat]


def together_values(ledger: "Ledger", values: Sequence[bytes]) -> list[bytes]:
    """`values`, if they are one per seat, each the seat's next hash-chain value;
    RevealsRefused (class `reveal`) naming what is wrong otherwise."""
    n = ledger.seats
    if len(values) != n:
        raise RevealsRefused(failures.REVEAL, f"a reveals entry carries {len(values)} values; it takes one per seat ({n})")
    for seat, value in enumerate(values):
        if not fits_chain(ledger, seat, value):
            raise RevealsRefused(failures.REVEAL, f"seat {seat}'s value in the reveals entry does not match its hash "
                                                  f"chain (a biased or forged reveal)")
    return list(values)
