"""Claims at three or more seats (spec/protocol.md, "Patience and claims"): the statements of
a claim being gathered, and the one rule that keeps the table from splitting while they are.

A claim of seat g at entry N after P needs the statement of every other seat still playing;
the writer (the lowest of them) collects them and writes the claim. Two entries compete for
N: the claim, and g's own entry if g is not dead but was cut off. So:

- a seat that signed the claim for (N, P) never takes g's entry at N: it **holds** it aside
  (not stored, not acked) — until it hears an ack of that entry at N from another of the
  claim's signers (neither g nor itself). That seat took g's entry, and an honest seat that took an entry at
  N never signs a claim for N: the claim can never be whole, the signature is dead (it is
  bound to N and P), and the entry is taken;
- a seat that took an entry at N never signs for N, and answers a statement for N with its
  ack of the entry it took there, so every signer learns it.

Either every other seat signed before any of them took g's entry (the claim is written; g's
entry is never acked, never confirmed, set aside by g when it hears the claim), or one of
them took it first and every signer learns it from that seat's ack.

The local seat's own statement is kept on disk before it leaves (`StoreClaim`): a seat that
restarted having forgotten it signed could take g's entry while the writer writes the claim.
This module is pure: the session (protocol/session/play.py) sends, stores and signs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from peerboard.protocol.log import Entry


@dataclass(frozen=True)
class Signed:
    """A claim statement of the local seat: seat `gone` claimed at entry `seq` after `prev`."""

    gone: int
    seq: int
    prev: bytes


@dataclass
class Gathering:
    """The statements of the claims at the next entry, heard or made at this node."""

    #: the local seat's own statement, while it may still stand (None: none)
    mine: Signed | None = None
    #: (seq, prev) the statements in `sigs` are for
    at: tuple[int, bytes] = (0, b"")
    #: gone seat -> signer -> its signature, for `at`
    sigs: dict[int, dict[int, bytes]] = field(default_factory=dict)
    #: an entry at `mine.seq` held aside while the local statement stands, with its sender
    held: tuple[Entry, bytes] | None = None
    #: entry hash at `mine.seq` -> the seats (neither the gone seat nor the local one) that acked it
    refuted: dict[bytes, set[int]] = field(default_factory=dict)

    def here(self, seq: int, prev: bytes) -> None:
        """The next entry is `seq` after `prev`: statements for any other entry have lapsed;
        the local one stands until the log has passed its entry (after a power cut the log
        may be behind it for a while: it stands again when the log is back there)."""
        if self.at != (seq, prev):
            self.at, self.sigs = (seq, prev), {}
        mine = self.mine
        if mine is not None and (seq > mine.seq or (seq == mine.seq and prev != mine.prev)):
            self.mine, self.held, self.refuted = None, None, {}

    def standing(self, seq: int, prev: bytes) -> Signed | None:
        """The local statement, if it is for exactly the next entry."""
        mine = self.mine
        return mine if mine is not None and (mine.seq, mine.prev) == (seq, prev) else None

    def sign(self, mine: Signed, seat: int, sig: bytes) -> None:
        self.mine, self.held, self.refuted = mine, None, {}
        self.add(mine.gone, seat, sig)

    def add(self, gone: int, seat: int, sig: bytes) -> bool:
        """A statement for `at`; False if it was heard already."""
        sigs = self.sigs.setdefault(gone, {})
        if seat in sigs:
            return False
        sigs[seat] = sig
        return True

    def holds(self, entry: Entry) -> bool:
        """Whether `entry` must be held aside: the local statement stands at its seq, it is
        not the claim, and no third seat has acked it yet."""
        mine = self.mine
        if mine is None or entry.seq != mine.seq or entry.prev != mine.prev or entry.kind == "claim":
            return False
        return not self.refuted.get(entry.hash)

    def acked(self, seat: int, seq: int, entry_hash: bytes, local: int,
              signers: tuple[int, ...]) -> tuple[Entry, bytes] | None:
        """Seat `seat` acked `entry_hash` at `seq`. If that refutes the local statement (a
        third seat, one of the claim's `signers`, took an entry at its seq), it is dead: the
        entry held, if it is that one, is handed back to be taken. (The ack of a seat that is
        no signer — gone for good, watching — says nothing about whether the claim is whole.)"""
        mine = self.mine
        if mine is None or seq != mine.seq or seat in (mine.gone, local) or seat not in signers:
            return None
        self.refuted.setdefault(entry_hash, set()).add(seat)
        held = self.held
        if held is not None and held[0].hash == entry_hash:
            self.mine, self.held = None, None
            return held
        return None

    def complete(self, gone: int, signers: tuple[int, ...]) -> list[bytes] | None:
        """The signatures of a claim of `gone`, in seat order, once every signer's is here."""
        sigs = self.sigs.get(gone, {})
        if any(s not in sigs for s in signers):
            return None
        return [sigs[s] for s in signers]
