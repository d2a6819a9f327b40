"""The seats a node writes the log for, and their parts of the entries gathered from every
seat (spec/protocol.md, "Reveals that travel together", "The end together", "Takeover").

A node writes for its own seat and for every seat it runs taken over: each has its `Author`
(protocol/session/author.py) and its identity — the node's own, or the takeover's, derived
again from the node's master secret whenever it needs them (protocol/log/takeover.py), so
nothing of a taken-over seat is stored. An entry gathered from every seat's part — a reveal
round's values, the audit's seeds, the result's signatures — is written by its gatherer; each
other seat's part rides on its ack of the entry before, to the gatherer alone; the parts of
the seats the gatherer's own node writes for go to it directly.
"""
from __future__ import annotations

from peerboard.protocol.log import (
    GATHERED, Identity, Ledger, LedgerError, fits_chain, fits_seed, takeover_secrets, verify,
)
from peerboard.protocol.session.author import Author
from peerboard.protocol.session.effects import Effects, Send
from peerboard.protocol.session.messages import Ack, MessageError


def node_of(ledger: Ledger, seat: int) -> int:
    """The seat whose node holds seat `seat` now: itself, or, taken over, its runner."""
    for taken, _, runner in ledger.taken:
        if taken == seat:
            return runner
    return seat


def valued_ack(seat: int, seq: int, entry: bytes, state: bytes, kind: str, part: bytes) -> Ack:
    """An ack carrying seat `seat`'s part of the gathered entry of `kind` due next."""
    if kind == "results":
        return Ack(seat, seq, entry, state, sig=part)
    return Ack(seat, seq, entry, state, part)


class Authors:
    """The seats this node writes for: its own (`seat`, None for a spectator; its `own`
    author, None once it is gone for good) and those it runs taken over (`taken`)."""

    def __init__(self, seat: int | None, identity: Identity, own: Author | None):
        self.seat = seat
        self.identity = identity
        self.own = own
        #: the seats this node runs taken over: seat -> (its identity, its author)
        self.taken: dict[int, tuple[Identity, Author]] = {}

    def mine(self, seat: int) -> bool:
        """Whether this node writes seat `seat`'s entries: its own seat, or one it runs."""
        return self.seat is not None and (seat == self.seat or seat in self.taken)

    def author_of(self, seat: int) -> Author:
        if seat == self.seat:
            assert self.own is not None  # (a seat gone for good writes nothing)
            return self.own
        return self.taken[seat][1]

    def identity_of(self, seat: int) -> Identity:
        return self.identity if seat == self.seat else self.taken[seat][0]

    def take_up(self, ledger: Ledger) -> None:
        """The seats this node runs, taken over in the log: their identity and author, derived
        again from this seat's master secret (nothing of them is stored)."""
        if self.own is None:
            return
        for seat, _, runner in ledger.taken:
            if runner == self.seat and seat not in self.taken:
                identity, secrets = takeover_secrets(self.own.secrets.master, ledger.genesis.hash, seat)
                self.taken[seat] = (identity, Author(seat, secrets))

    # -- the parts of gathered entries ------------------------------------------------------------------

    def due_gathered(self, ledger: Ledger) -> tuple[int, str] | None:
        """(its gatherer, its kind) when the next entry is gathered from every seat's part."""
        if ledger.finished or not (ledger.together or ledger.ends_together):
            return None
        seat, kind = ledger.entitled()
        return (seat, kind) if kind in GATHERED else None

    def part_of(self, ledger: Ledger, seat: int, kind: str) -> bytes:
        """The part of seat `seat` (ours, or one this node runs) of the gathered entry due."""
        if kind == "reveals":
            return self.author_of(seat).round_value(ledger)
        if kind == "audits":
            return self.author_of(seat).secrets.seed
        return self.identity_of(seat).sign(ledger.result_statement())

    def round_value(self, ledger: Ledger, seq: int) -> tuple[int, str, bytes] | None:
        """(the gatherer, the kind, our part) when entry `seq` is the head and the next entry
        is gathered by another node (a reveal round, the audits, the results): our part rides
        on our ack of `seq` to it."""
        if self.own is None or self.seat is None or ledger.next_seq != seq + 1:
            return None
        due = self.due_gathered(ledger)
        if due is None or self.mine(due[0]) or (due[1] != "reveals" and self.seat not in ledger.writers):
            return None
        return due[0], due[1], self.part_of(ledger, self.seat, due[1])

    def taken_values(self, ledger: Ledger, seq: int, state_hash: bytes, keys: tuple[bytes, ...]) -> Effects:
        """The values of the seats this node runs taken over, for the round another node
        gathers after entry `seq`: each in an ack in that seat's name, to the gatherer (the
        ack itself counts for nothing: the runner acks as itself). `keys`: each seat's key."""
        if not self.taken:
            return []
        value = self.round_value(ledger, seq)
        if value is None:
            return []
        head, to, kind = ledger.head, keys[node_of(ledger, value[0])], value[1]
        return [Send(to, valued_ack(seat, seq, head, state_hash, kind, self.part_of(ledger, seat, kind)).to_bytes())
                for seat in sorted(self.taken) if kind == "reveals" or seat in ledger.writers]

    def local_values(self, ledger: Ledger) -> None:
        """Where a seat this node plays gathers the round due now, the values of the other
        seats this node plays go straight to it (they travel in no message)."""
        if self.own is None or self.seat is None or not (self.taken or (ledger.ends_together and ledger.over)):
            return  # (a round takes no local value but a taken-over seat's; the end takes ours too)
        try:
            due = self.due_gathered(ledger)
        except LedgerError:
            return
        if due is None or not self.mine(due[0]):
            return
        seat, kind = due
        gatherer = self.author_of(seat)
        if kind != "reveals":  # (the audits and the results take the gatherer's own part too)
            for other in [self.seat, *sorted(self.taken)]:
                if other in ledger.writers:
                    gatherer.gather(ledger.next_seq, other, self.part_of(ledger, other, kind))
            return
        for other in [self.seat, *sorted(self.taken)]:
            if other != seat:
                gatherer.gather(ledger.next_seq, other, self.author_of(other).round_value(ledger))

    def gather(self, ledger: Ledger, m: Ack) -> bool:
        """A seat's part of the entry a seat this node plays gathers — its value for a reveal
        round, its seed for the audits, its signature of the result — on its ack of the entry
        before: whether it is news. MessageError for a part that is forged or false."""
        if self.own is None or ledger.next_seq != m.seq + 1 or ledger.finished or m.entry != ledger.head:
            return False  # a repeat for an entry written already
        seat, kind = ledger.entitled()
        if kind not in GATHERED or not self.mine(seat):
            return False  # not ours to gather
        if kind == "reveals":
            if m.reveal is None:
                return False
            if not fits_chain(ledger.chain_values[m.seat], m.reveal):
                raise MessageError(f"ack: seat {m.seat}'s reveal does not match its hash chain (a biased or forged reveal)")
            return self.author_of(seat).gather(ledger.next_seq, m.seat, m.reveal)
        part = m.sig if kind == "results" else m.reveal
        if part is None or m.seat not in ledger.writers:
            return False
        if kind == "audits":
            fits = fits_seed(ledger.seeds[m.seat], part)
        else:
            fits = verify(ledger.keys[m.seat], ledger.result_statement(), part)
        if not fits:
            what = "signature of the result" if kind == "results" else "seed does not match its commitment: its"
            raise MessageError(f"ack: seat {m.seat}'s {what} is forged or false")
        return self.author_of(seat).gather(ledger.next_seq, m.seat, part)
