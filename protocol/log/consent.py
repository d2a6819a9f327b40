"""The endings by consent, checked (spec/log-format.md, "Endings"): a resignation signed by
the seat it names, an agreement signed by every seat still playing, a claim signed by every
other seat still playing (and not taken over), each statement bound to this game and, but
for a resignation, to the entry it stands at (protocol/log/records.py writes the
statements); and a protest of a claim one seat alone signed, carrying the protester's own
entries that claim displaced, each signed by it. Each check takes the keys and seats it needs, and refuses what does not hold
with class `consent`.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from peerboard.protocol.log import failures
from peerboard.protocol.log.failures import Refused
from peerboard.protocol.log.identity import verify
from peerboard.protocol.log.records import agree_statement, claim_statement, entry_from_record, resign_statement


def resigner(genesis_hash: bytes, keys: Sequence[bytes], body: Mapping[str, Any]) -> int:
    """The seat a `resign` entry's body resigns for, if that seat signed it."""
    seat: int = body["seat"]
    sig: bytes = body["sig"]
    if seat >= len(keys):
        raise Refused(failures.CONSENT, f"seat {seat} is not at this table: it cannot resign")
    if not verify(keys[seat], resign_statement(genesis_hash, seat), sig):
        raise Refused(failures.CONSENT, f"the resignation is not signed by seat {seat}")
    return seat


def agreed(genesis_hash: bytes, keys: Sequence[bytes], signers: Sequence[int], seq: int, prev: bytes,
           body: Mapping[str, Any]) -> None:
    """An `agree` entry at `seq` after `prev` carries one signature of its statement by each
    of `signers` (every seat still playing), in seat order."""
    how, sigs = body["how"], body["sigs"]
    if len(sigs) != len(signers):
        raise Refused(failures.CONSENT, f"an agreement that the game is {how} carries {len(sigs)} signatures; it "
                                        f"takes one of each seat still playing ({len(signers)})")
    _signed_by(keys, signers, sigs, agree_statement(genesis_hash, how, seq, prev), f"the agreement that the game is {how}")


def claimed(genesis_hash: bytes, keys: Sequence[bytes], signers: Sequence[int], seq: int, prev: bytes,
            body: Mapping[str, Any]) -> None:
    """A `claim` entry at `seq` after `prev` carries one signature of its statement by each
    of `signers` (every other seat still playing, not taken over), in seat order."""
    gone, sigs = body["gone"], body["sigs"]
    if len(sigs) != len(signers):
        raise Refused(failures.CONSENT, f"a claim of seat {gone} carries {len(sigs)} signatures; it takes one of "
                                        f"each other seat still playing ({len(signers)})")
    _signed_by(keys, signers, sigs, claim_statement(genesis_hash, gone, seq, prev), f"the claim of seat {gone}")


def protested(key: bytes, seat: int, seq: int, prev: bytes, body: Mapping[str, Any]) -> None:
    """A `protest` entry of seat `seat` (of key `key`), of the claim at `seq` after `prev`,
    carries its own entries the claim displaced: from the claim's seq on, after the entry the
    claim follows, in a row, each signed by `key`."""
    for i, record in enumerate(body["entries"]):
        carried = entry_from_record(record)
        what = f"the entry the protest carries at seq {seq + i}"
        if carried.seat != seat or carried.seq != seq + i or carried.prev != prev:
            raise Refused(failures.CONSENT, f"{what} is not seat {seat}'s entry {seq + i} after the entry the claim "
                                            f"follows (each carried entry is the protester's own, in a row, from "
                                            f"the claim's seq)")
        if not verify(key, carried.signing_bytes(), carried.sig):
            raise Refused(failures.CONSENT, f"{what} is not signed by seat {seat}")
        prev = carried.hash


def _signed_by(keys: Sequence[bytes], signers: Sequence[int], sigs: Sequence[bytes], statement: bytes,
               what: str) -> None:
    """Each of `signers` signed `statement` (its signature in `sigs`, in seat order)."""
    for signer, sig in zip(signers, sigs):
        if not verify(keys[signer], statement, sig):
            raise Refused(failures.CONSENT, f"{what} is not signed by seat {signer}")
