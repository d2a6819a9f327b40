"""Reveals that travel together (spec/protocol.md, "Fair chance"; spec/log-format.md, "Who
writes the next entry"): in a log whose genesis says `"reveals": "together"`, a reveal round
is one `reveals` entry holding every seat's next hash-chain value, written by the round's
gatherer — the writer of the entry before it (seat 0 when the genesis itself leaves the game
at chance). Each seat sends its value to the gatherer on its ack of that entry. A value
proves itself (its SHA-256 is the seat's previous value), so it needs no signature of its
own, and the gatherer can only withhold the round, never bias it. Who the gatherer is, the
table of protocol/log/writers.py says.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from peerboard.protocol.log import failures
from peerboard.protocol.log.failures import Refused
from peerboard.protocol.log.secrets import sha256

if TYPE_CHECKING:
    from peerboard.protocol.log.ledger import Ledger


def fits_chain(ledger: "Ledger", seat: int, value: bytes) -> bool:
    """Whether `value` is seat `seat`'s next hash-chain value."""
    return sha256(value) == ledger.chain_values[seat]


def together_values(ledger: "Ledger", values: Sequence[bytes]) -> list[bytes]:
    """`values`, if they are one per seat, each the seat's next hash-chain value;
    Refused (class `reveal`) naming what is wrong otherwise."""
    n = ledger.seats
    if len(values) != n:
        raise Refused(failures.REVEAL, f"a reveals entry carries {len(values)} values; it takes one per seat ({n})")
    for seat, value in enumerate(values):
        if not fits_chain(ledger, seat, value):
            raise Refused(failures.REVEAL, f"seat {seat}'s value in the reveals entry does not match its hash "
                                                  f"chain (a biased or forged reveal)")
    return list(values)
