"""Secret choices made ahead, and the sign that one was (spec/protocol.md, "Simultaneous
secret choices").

The seats of a secret group commit in seat order, so a seat behind another may choose before
its commit is due; its node holds the choice (`Author.held`) and commits it when the turn
comes. Nothing of that is in the log or on the wire — except this sign: the node tells the
other seats and its spectators `chosen` (its seat, the next entry's seq) when the choice is
held, and again with each beat while it is, so a seat still thinking learns that the other is
waiting for it. A sign is a courtesy, never a commitment: it proves nothing and changes no
state of the game; a seat may change its mind until its commit is written.
"""
from __future__ import annotations

from peerboard.protocol.session.effects import Effects
from peerboard.protocol.session.events import ChoseAhead
from peerboard.protocol.session.messages import Chosen, MessageError
from peerboard.protocol.session.table import Table


class ChoicesAhead:
    """The signs of choices made ahead at `table`: the local seat's to send, the others' heard."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: the seats whose sign was heard, all for the entry `_at` (the head then)
        self._signed: set[int] = set()
        self._at = 0

    def sign(self, held: bool) -> Effects:
        """The local seat's sign, to every peer, while it holds a choice made ahead (`held`)."""
        t = self.table
        if not held or t.seat is None:
            return []
        return t.broadcast(Chosen(t.seat, t.ledger.next_seq))

    def signed(self) -> tuple[int, ...]:
        """The seats that said they have chosen, for the secret choice due at the head now."""
        return tuple(sorted(self._signed)) if self._at == self.table.ledger.next_seq else ()

    def on_chosen(self, sender: bytes, m: Chosen, now: float) -> Effects:
        """A seat's sign: told once for each seat and entry. One about another entry (a node
        ahead or behind this one: said again with its beats) or a seat the group does not wait
        for is dropped; only one from a node that does not hold the seat is a fault."""
        t = self.table
        if not m.seat < len(t.seat_keys) or t.node_of(m.seat) != sender:
            raise MessageError(f"chosen: the sender does not hold seat {m.seat}")
        ledger = t.ledger
        if m.seq != ledger.next_seq or ledger.ending is not None or m.seat == t.seat:
            return []
        if m.seat not in ledger.game.secret_choice(ledger.state) or m.seat in {s for s, _ in ledger.commits}:
            return []
        if self._at != m.seq:
            self._signed, self._at = set(), m.seq
        if m.seat in self._signed:
            return []
        self._signed.add(m.seat)
        return [ChoseAhead(m.seat, m.seq)]
