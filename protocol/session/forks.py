"""An entry for a seq this node holds already (spec/protocol.md, "Equivocation", "Patience
and claims"): a duplicate (dropped); an entry of a claimed seat that lost to its claim
(dropped: its node takes it back when it learns of the claim); the claim of the seat that
wrote the entries held from that seq on (they are set aside, kept in a file beside the log,
and the claim goes in their place); the two forks a protest leaves (spec/protocol.md, "What a
claim proves": the claimer's end where we protested, dropped; the protest where we wrote our
end, told: protocol/session/protests.py); or a second entry one seat signed for one seq —
proof of equivocation, which halts the game and goes to every peer (so does a `proof` message).
"""
from __future__ import annotations

from typing import Callable

from peerboard.protocol.log import Entry, Ledger, LedgerError, verify
from peerboard.protocol.session.catchup import Fetches
from peerboard.protocol.session.confirmation import Confirmations
from peerboard.protocol.session.effects import Effects, NextStep, Send, SetAside, Store
from peerboard.protocol.session.events import Equivocation
from peerboard.protocol.session.messages import EntryMessage, MessageError, Proof, Want
from peerboard.protocol.session.protests import Protests
from peerboard.protocol.session.surface import Phase
from peerboard.protocol.session.table import Table


class Forks:
    """What one node at `table` does with an entry for a seq it holds: `append` takes an
    entry into the table's log, `stored` acks one that is on disk (`Play`'s)."""

    def __init__(self, table: Table, fetches: Fetches, protests: Protests, append: Callable[[Entry, Ledger], None],
                 stored: Callable[[Entry, Ledger], Effects]):
        self.table = table
        self.fetches = fetches
        self.protests = protests
        self.append = append
        self.stored = stored

    def on_proof(self, sender: bytes, m: Proof, now: float) -> Effects:
        t = self.table
        a, b = m.first, m.second
        keys = t.seat_keys
        if a.seq != b.seq or a.seat != b.seat or a.hash == b.hash or not a.seat < len(keys):
            raise MessageError("proof: not two different entries of one seat for one seq")
        key = t.key_at(a.seq, a.seat)
        if not (verify(key, a.signing_bytes(), a.sig) and verify(key, b.signing_bytes(), b.sig)):
            raise MessageError("proof: a signature does not verify")
        return self.halt_equivocation(m)

    def compare(self, sender: bytes, entry: Entry) -> Effects:
        """An entry for a seq already held: a duplicate, the claim of the seat that wrote
        ours, an entry of a claimed seat that lost to its claim, the claimer's end where we
        protested or the protest where we wrote our end, or proof of equivocation."""
        t = self.table
        mine = t.entries[entry.seq - 1]
        if entry.hash == mine.hash:
            return []
        if mine.kind == "protest" and entry.seat != mine.seat:
            return []  # the claimer's end, written before it heard our protest: nothing follows a protest
        if entry.kind == "protest" and entry.seq >= 2 and t.entries[entry.seq - 2].kind == "claim":
            return self.protests.protested(sender, entry, self.chain_at)
        if mine.kind == "claim" and entry.seat == mine.body["gone"]:
            return []  # written by the claimed seat before it learnt of the claim: it takes it back when it does
        if entry.kind == "claim" and mine.seat == entry.body["gone"]:
            return self.claimed_here(sender, entry)
        start = self.run_start()
        if entry.seat != mine.seat and entry.seq > start and t.entries[-1].seat == mine.seat:
            # ours there may be a run of one seat's entries the others never took (a claimed
            # seat's, come back): compare from where that run began
            return [Send(sender, Want(start).to_bytes())]
        if entry.seat == mine.seat and verify(t.key_at(entry.seq, entry.seat), entry.signing_bytes(), entry.sig):
            return self.halt_equivocation(Proof(mine, entry))
        raise MessageError(f"entry: a different seq {entry.seq} not signed by its author")

    def halt_equivocation(self, proof: Proof) -> Effects:
        t = self.table
        if t.referee.phase() is Phase.HALTED:
            return []
        return t.referee.halt(Equivocation(proof.first.seat, proof.first.seq, proof)) + t.broadcast(proof)

    def run_start(self) -> int:
        """The seq of the first of the last entries held that one seat wrote in a row."""
        t = self.table
        last = t.entries[-1].seat
        start = len(t.entries)
        while start > 1 and t.entries[start - 2].seat == last:
            start -= 1
        return start

    def claimed_here(self, sender: bytes, entry: Entry) -> Effects:
        """A claim of the seat whose entries this node holds from that seq on: the other
        seats never took them (they signed the claim there instead), so they are taken back
        — kept aside in a file beside the log — and the claim goes in their place."""
        t = self.table
        seq, gone = entry.seq, entry.body["gone"]
        replaced = t.entries[seq - 1:]
        if any(e.seat != gone for e in replaced):
            raise MessageError(f"entry: a claim of seat {gone} in place of other seats' entries")
        base = self.chain_at(seq - 1)
        try:
            checked = base.check(entry)
        except LedgerError as exc:
            return t.referee.reject(sender, f"entry seq {exc.seq}: {exc.why}")
        t.entries = t.entries[:seq - 1]
        t.ledger = base
        self.fetches.forget()
        t.ledgers = {s: c for s, c in t.ledgers.items() if s < seq}
        held = min(t.acks.confirmed, seq - 1)
        t.acks = Confirmations(len(t.seat_keys), t.seat, held, t.acks.hashes[:seq - 1])
        if t.acks.confirmed == seq - 1 or held not in t.ledgers:
            t.confirmed_ledger = base
        t.moves.drop_from(seq)
        if t.author is not None:
            t.author.choice = None
        effects: Effects = [SetAside(tuple(replaced))]
        self.protests.displacing(seq, tuple(replaced))
        self.append(entry, checked)
        effects.append(Store(entry))
        relay = [k for k in t.spectators if k != sender]
        if relay:
            data = EntryMessage(entry).to_bytes()
            effects += [Send(k, data) for k in relay]
        return effects + self.stored(entry, checked) + [NextStep()]

    def chain_at(self, seq: int) -> Ledger:
        """The ledger as it stood after entry `seq` (worked out again from the genesis when
        it is no longer kept)."""
        t = self.table
        if seq in t.ledgers:
            return t.ledgers[seq]
        known = {i: s for i, s in enumerate(t.ledger.known) if s is not None}
        ledger = Ledger.start(t.genesis, known)
        for entry in t.entries[:seq]:
            ledger = ledger.check(entry, signatures=False)
        return ledger
