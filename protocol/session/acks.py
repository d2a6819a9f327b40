"""Who an ack goes to, and the author's gathered `confirm` (spec/protocol.md, "Confirmation").

At two seats each seat acks an entry to the other (and to the spectators it serves): the
other seat then holds both acks, and nothing needs relaying. At three seats or more an ack
to every peer would cost n(n−1) messages an entry, so each seat acks an entry to its
author alone, and the author, once it holds every seat's ack, sends one `confirm` with
every seat's state hash to every peer: 3(n−1) messages an entry, entry included.

`Acking` is one node's side of that over the table it plays: its acks out (a seat's part of
an entry gathered next rides on its ack of the entry before: protocol/session/authors.py),
the acks and confirms in, counted by `Confirmations` (protocol/session/confirmation.py), its
confirms as an author, and the repairs of lost ones.
"""
from __future__ import annotations

from typing import Callable

from peerboard.protocol.log import Entry
from peerboard.protocol.session.authors import valued_ack
from peerboard.protocol.session.catchup import AHEAD_WINDOW, Fetches
from peerboard.protocol.session.effects import Effects, NextStep, Send
from peerboard.protocol.session.messages import Ack, Confirm, MessageError, Want, ack_bytes
from peerboard.protocol.session.table import Table

GATHER_FROM = 3  # seats from which acks are gathered by each entry's author


def gathers(players: int) -> bool:
    """Whether a table of `players` seats gathers its acks at each entry's author."""
    return players >= GATHER_FROM


def confirm_of(seq: int, entry_hash: bytes, states: dict[int, bytes], players: int) -> Confirm:
    """The author's confirm of its entry `seq`: each seat's state hash acked there, None for
    a seat that vouched for it with the ack of a later entry (acks are cumulative)."""
    return Confirm(seq, entry_hash, tuple(states.get(i) for i in range(players)))


class Acking:
    """The acks and confirms of one node at `table`; `fetches` asks for what an ack or a
    confirm shows it is missing; `my_turn` is the local seat's next step (a round this seat
    gathers leaves the moment its last value is in)."""

    def __init__(self, table: Table, fetches: Fetches, my_turn: Callable[[], Effects]):
        self.table = table
        self.fetches = fetches
        self.my_turn = my_turn
        #: the last `confirm` this seat sent as an entry's author (three seats or more), and
        #: the acks repeated for an entry of ours confirmed before a restart: seq -> seat -> state
        self.last_confirm: Confirm | None = None
        self.regathered: dict[int, dict[int, bytes]] = {}
        #: the head this node found still waiting at its last beat (unconfirmed, or a round
        #: waiting for our value): our ack of it is said again only if it still waits at the next
        self.waiting_at_beat = 0

    # -- our acks -----------------------------------------------------------------------------------------

    def ack(self, entry: Entry, state_hash: bytes) -> Effects:
        """Our ack of `entry`: at two seats to every peer; at more to its author alone, whose
        confirm carries it on (the author's own state hash travels in that confirm)."""
        t = self.table
        seat = t.seat
        if seat is None:
            return []
        authors = t.authors
        value = authors.round_value(t.ledger, entry.seq)
        # (our value goes to the round's gatherer alone: nobody else learns it before the
        # round's entry is written)
        if not gathers(t.players):
            plain = ack_bytes(seat, entry.seq, entry.hash, state_hash)
            if value is None:
                return [Send(k, plain) for k in t.peers()]
            gatherer = t.seat_keys[value[0]]
            valued = valued_ack(seat, entry.seq, entry.hash, state_hash, value[1], value[2]).to_bytes()
            return [Send(k, valued if k == gatherer else plain) for k in t.peers()]
        taken = authors.taken_values(t.ledger, entry.seq, state_hash, t.seat_keys) if authors.taken else []
        if authors.mine(entry.seat):
            return taken
        if value is not None and value[0] == entry.seat:
            data = valued_ack(seat, entry.seq, entry.hash, state_hash, value[1], value[2]).to_bytes()
        else:
            data = ack_bytes(seat, entry.seq, entry.hash, state_hash)
        return [Send(t.node_of(entry.seat), data)] + taken

    def again(self, now: float) -> Effects:
        """At a beat: acks are sent once; repeating the latest now and then repairs lost ones
        (where an author gathers them, only while the last entry is not confirmed here: the
        author answers a repeat with its confirm)."""
        t = self.table
        if not t.entries:
            return []
        last = t.entries[-1]
        if t.seat is not None:
            if not gathers(t.players):
                return self.ack(last, t.acks.hashes[-1][1])
            # (a confirm takes a round trip: an ack is said again only when its entry has
            # waited a whole beat; a round waiting for our value is waiting too)
            waiting = ((t.acks.confirmed < len(t.entries) and not t.authors.mine(last.seat))
                       or t.authors.round_value(t.ledger, last.seq) is not None)
            effects = self.ack(last, t.acks.hashes[-1][1]) if waiting and self.waiting_at_beat == last.seq else []
            self.waiting_at_beat = last.seq if waiting else 0
            return effects
        if not gathers(t.players):
            return []
        # a spectator acks nothing, so a lost confirm is not repaired by a repeated ack: when
        # the last entry has waited a whole beat unconfirmed here, it asks that entry's author
        # for it again, and the author's answer carries its confirm (`Fetches.on_want`)
        waiting = t.acks.confirmed < len(t.entries)
        effects = self.fetches.ask(t.node_of(last.seat), last.seq, now) if waiting and self.waiting_at_beat == last.seq else []
        self.waiting_at_beat = last.seq if waiting else 0
        return effects

    # -- the acks and confirms of others ---------------------------------------------------------------------

    def on_ack(self, sender: bytes, m: Ack, now: float) -> Effects:
        """Seat `m.seat`'s ack (the sender checked to hold it, the seat not silent, the seq
        not the genesis's): counted, and its part of an entry we gather taken."""
        t = self.table
        held = len(t.entries)
        if m.seq > held:
            if m.seq > held + AHEAD_WINDOW:
                raise MessageError("ack: far beyond this node's log")
            t.acks.wait(m.seat, m.seq, m.entry, m.state)
            return self.fetches.ask(sender, held + 1, now)
        confirmed = t.acks.confirmed
        news = (m.reveal is not None or m.sig is not None) and t.authors.gather(t.ledger, m)
        desync = t.acks.take(m.seat, m.seq, m.entry, m.state)
        if desync is not None:
            return self.told_desync(m.seq) + t.referee.halt(desync)
        effects: Effects = []
        if m.entry != t.entries[m.seq - 1].hash:
            effects.append(Send(sender, Want(m.seq).to_bytes()))  # a fork: fetch its entry (proof)
        elif m.seq <= confirmed and gathers(t.players) and t.authors.mine(t.entries[m.seq - 1].seat):
            effects += self.confirm_again(sender, m)
        effects += self.advance()  # (at three seats or more it writes the round, once whole)
        if news and not gathers(t.players):
            # a value of the round we gather: the round leaves the moment it is whole
            return effects + self.my_turn()
        return effects + ([NextStep()] if news else [])

    def on_confirm(self, sender: bytes, m: Confirm, now: float) -> Effects:
        """The author of entry `seq` holds every seat's ack of it: each state hash counts as
        that seat's ack (three seats or more: spec/protocol.md, "Confirmation")."""
        t = self.table
        if len(m.states) != t.players:
            raise MessageError(f"confirm: it must carry one state hash (or nil) per seat, {t.players}")
        held = len(t.entries)
        if m.seq > held:
            if m.seq > held + AHEAD_WINDOW:
                raise MessageError("confirm: far beyond this node's log")
            # (kept until that entry is held: only then is it known whose entry it confirms)
            self.fetches.early_confirms[m.seq] = (sender, m)
            return self.fetches.ask(sender, held + 1, now)
        mine = t.entries[m.seq - 1]
        if t.node_of(mine.seat) != sender:
            raise MessageError(f"confirm: entry {m.seq} is seat {mine.seat}'s; only its author confirms it")
        if m.entry != mine.hash:
            return [Send(sender, Want(m.seq).to_bytes())]  # a fork: fetch its entry (proof)
        desync = t.acks.take_confirm(m.seq, m.entry, m.states, t.seat)
        if desync is not None:
            return t.referee.halt(desync)
        # (an entry of ours it confirmed with it needs no confirm of ours: every seat has this one)
        return self.advance(announce=False)

    # -- our confirms, as an entry's author ---------------------------------------------------------------

    def advance(self, announce: bool = True) -> Effects:
        """What the acks now confirm; where acks are gathered, our confirm of the newest
        entry of ours among them, unless another author's confirm (`announce` false) did it."""
        t = self.table
        confirmed = t.acks.advance()
        for event in confirmed:
            t.confirmed_ledger = t.ledgers.pop(event.seq)
        if not confirmed or not announce or t.seat is None or not gathers(t.players):
            return list(confirmed)
        # the newest of our own entries this confirmed: its confirm vouches for all before it
        own = [seq for seq in t.acks.just_confirmed if t.authors.mine(t.entries[seq - 1].seat)]
        if not own:
            return list(confirmed)
        seq = max(own)
        self.last_confirm = confirm_of(seq, t.entries[seq - 1].hash, t.acks.just_confirmed[seq], t.players)
        ledger = t.ledger
        due = t.authors.due_gathered(ledger)
        if seq == ledger.next_seq - 1 and due is not None and t.authors.mine(due[0]):
            # every ack of the head is in, and with them every value of the round we gather:
            # the confirm leaves first, alone, then the round's entry (nothing waiting can
            # change it: the round is whole). Carried by the round, the confirm would wait at
            # every node for the round's check; and the round is signed and checked by our
            # next step, once the confirm has left: written here, the confirm would wait
            # for that too (spec/transport.md, "Latency")
            return t.broadcast(self.last_confirm) + confirmed + [NextStep()]
        return t.broadcast(self.last_confirm) + confirmed

    def confirm_again(self, sender: bytes, m: Ack) -> Effects:
        """A seat repeats its ack of our entry confirmed here: it missed our confirm. After a
        restart there is none to repeat: one is gathered again from the repeated acks."""
        t = self.table
        last = self.last_confirm
        if last is not None and last.seq >= m.seq:
            # (an ack that arrives after a later one of the same seat — reordered — needs no
            # answer: our confirm of that later entry went to it already)
            return [Send(sender, last.to_bytes())] if last.seq == m.seq else []
        assert t.seat is not None  # (the author of an entry: a seat)
        states = self.regathered.setdefault(m.seq, {})
        states[m.seat] = m.state
        states[t.seat] = t.acks.hashes[m.seq - 1][1]
        if any(i not in states for i in range(t.players) if i not in t.acks.gone):
            return []
        self.last_confirm = confirm_of(m.seq, m.entry, states, t.players)
        self.regathered.clear()
        return t.broadcast(self.last_confirm)

    def told_desync(self, seq: int) -> Effects:
        """Our entry's acks disagree: the author's confirm carries every state hash it holds,
        so every node sees the desync, not only the author (three seats or more)."""
        t = self.table
        if t.seat is None or not gathers(t.players) or t.entries[seq - 1].seat != t.seat:
            return []
        states = t.acks.states_at(seq)
        states[t.seat] = t.acks.hashes[seq - 1][1]
        return t.broadcast(confirm_of(seq, t.entries[seq - 1].hash, states, t.players))
