"""The endings a seat asks for and the log does not hold yet (spec/protocol.md, "Resigning",
"Draws and aborts by agreement"): the resignations heard, each kept until the seat entitled
to the next entry carries it in, and the offers that the game ends drawn or aborted at the
next entry, each lapsing as soon as another entry is written there. (A claim, the third way
a game ends otherwise than by its rules, is protocol/session/claims.py's.) The seat entitled
to the next entry writes the `resign` or `agree` entry by itself (`Play.my_turn` asks
`resignation_to_carry` and `agreement_to_carry`).
"""
from __future__ import annotations

from typing import Callable

from peerboard.protocol.log import Ledger, agree_statement, resign_statement, verify
from peerboard.protocol.session.effects import Effects, NextStep, Send
from peerboard.protocol.session.events import Declined, Offered
from peerboard.protocol.session.messages import Decline, MessageError, Offer, Resign
from peerboard.protocol.session.surface import LocalError
from peerboard.protocol.session.table import Table


class Endings:
    """Resignations and offers heard or made at this node, at `table`; `my_turn` is the local
    seat's next step (it carries an ending in when it is entitled to the next entry)."""

    def __init__(self, table: Table, my_turn: Callable[[], Effects]) -> None:
        self.table = table
        self.my_turn = my_turn
        #: resignations heard and not yet in the log: seat -> its signed statement
        self.resignations: dict[int, bytes] = {}
        #: the local seat resigned: its statement is repeated until it is in the log
        self.resigned = False
        #: offers that the game ends drawn or aborted at the next entry: how -> seat -> its
        #: signature, all for (`offers_at`, the head)
        self.offers: dict[str, dict[int, bytes]] = {}
        self.offers_at = 0
        #: the offers the local seat declined at `offers_at`: a repeat of one is answered with
        #: the decline again, never told again (spec/protocol.md, "Draws and aborts by agreement")
        self.declined_here: set[str] = set()

    # -- resignations ----------------------------------------------------------------------------

    def resignation(self, seat: int, sig: bytes) -> bool:
        """Seat `seat`'s signed resignation: whether it is news."""
        if seat in self.resignations:
            return False
        self.resignations[seat] = sig
        return True

    def resignation_to_carry(self, ledger: Ledger, seat: int) -> int | None:
        """The seat whose resignation seat `seat` writes now: it is entitled to the next
        entry, the game may still end, and a resignation is waiting (the lowest seat first)."""
        if not self.resignations or not ledger.may_end() or ledger.pending is not None:
            return None
        if ledger.entitled()[0] != seat:
            return None
        return min(self.resignations)

    # -- offers of a draw or an abort --------------------------------------------------------------

    def here(self, next_seq: int) -> None:
        """Offers of another entry than `next_seq` have lapsed."""
        if self.offers_at != next_seq:
            self.offers = {}
            self.declined_here = set()
            self.offers_at = next_seq

    def offered(self, how: str, seat: int, sig: bytes, next_seq: int) -> bool:
        """Seat `seat` offers (or accepts) `how` at entry `next_seq`: whether it is news."""
        self.here(next_seq)
        sigs = self.offers.setdefault(how, {})
        if seat in sigs:
            return False
        sigs[seat] = sig
        return True

    def declined(self, how: str, next_seq: int) -> dict[int, bytes] | None:
        """The offer of `how` at `next_seq` is declined: its signatures so far, else None."""
        if self.offers_at != next_seq or how not in self.offers:
            return None
        return self.offers.pop(how)

    def standing(self, next_seq: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """(how, the seats that offered or accepted it) of each offer standing at `next_seq`."""
        if self.offers_at != next_seq:
            return ()
        return tuple((how, tuple(sorted(sigs))) for how, sigs in sorted(self.offers.items()))

    def agreement_to_carry(self, ledger: Ledger, seat: int) -> str | None:
        """The agreement seat `seat` writes now: every seat still playing signed it for the
        next entry, and `seat` is entitled to that entry."""
        if self.offers_at != ledger.next_seq or not self.offers or not ledger.may_end() or ledger.pending is not None:
            return None
        if ledger.entitled()[0] != seat:
            return None
        for how in sorted(self.offers):
            if all(s in self.offers[how] for s in ledger.writers):
                return how
        return None

    # -- the local seat's endings ------------------------------------------------------------------

    def resign(self) -> Effects:
        """The local seat resigns: its statement goes to every seat, and into the log at the
        next entry — its own, if it is entitled to it, else the entitled seat's."""
        t = self.table
        if t.author is None or t.seat is None:
            raise LocalError("A spectator has no seat to resign.")
        if not t.ledger.may_end():
            raise LocalError("The game is over already.")
        if self.resigned:
            raise LocalError("You have resigned already; the game ends as soon as the next entry is written.")
        self.resigned = True
        sig = t.identity.sign(resign_statement(t.genesis.hash, t.seat))
        self.resignations[t.seat] = sig
        return t.send_seats(Resign(t.seat, sig)) + self.my_turn()

    def offer(self, how: str) -> Effects:
        """The local seat offers — or, when another seat offered it, accepts — that the game
        ends `how` ("drawn" or "aborted") at the next entry."""
        t = self.table
        ledger = t.ledger
        if t.author is None or t.seat is None:
            raise LocalError("Only a seat still playing can offer or accept a draw or an abort.")
        if not ledger.may_end():
            raise LocalError("The game is over already.")
        self.here(ledger.next_seq)
        self.declined_here.discard(how)  # (a seat may offer what it declined a moment ago)
        if t.seat in self.offers.get(how, {}):
            raise LocalError("You have offered that already; the other seats are asked.")
        sig = t.identity.sign(agree_statement(t.genesis.hash, how, ledger.next_seq, ledger.head))
        self.offered(how, t.seat, sig, ledger.next_seq)
        return t.send_seats(Offer(t.seat, how, ledger.next_seq, ledger.head, sig)) + self.my_turn()

    def decline(self, how: str) -> Effects:
        """The local seat declines another seat's offer that the game ends `how`."""
        t = self.table
        self.here(t.ledger.next_seq)
        sigs = self.offers.get(how, {})
        offerers = [s for s in sigs if s != t.seat]
        if not offerers or t.seat in sigs or t.seat is None:
            raise LocalError(f"There is no offer of {'a draw' if how == 'drawn' else 'an abort'} to decline.")
        del self.offers[how]
        self.declined_here.add(how)
        message = Decline(t.seat, how, t.ledger.next_seq).to_bytes()
        return [Send(t.seat_keys[s], message) for s in offerers]

    def again(self) -> Effects:
        """At a beat: the local seat's resignation and its offers still standing, said again
        (a lost statement is repaired by repetition, as a hello is)."""
        t = self.table
        if t.seat is None:
            return []
        effects: Effects = []
        if self.resigned and t.ledger.may_end():
            effects += t.send_seats(Resign(t.seat, self.resignations[t.seat]))
        if self.offers_at == t.ledger.next_seq:
            for how, sigs in sorted(self.offers.items()):
                if t.seat in sigs:  # our offer (or acceptance) stands: said again, for a lost one
                    effects += t.send_seats(Offer(t.seat, how, self.offers_at, t.ledger.head, sigs[t.seat]))
        return effects

    # -- the other seats' endings -----------------------------------------------------------------------

    def on_resign(self, sender: bytes, m: Resign, now: float) -> Effects:
        """A seat resigns: kept until the seat entitled to the next entry carries it in."""
        t = self.table
        keys = t.seat_keys
        if not m.seat < len(keys) or not verify(keys[m.seat], resign_statement(t.genesis.hash, m.seat), m.sig):
            raise MessageError(f"resign: not signed by seat {m.seat}")
        if not t.ledger.may_end() or not self.resignation(m.seat, m.sig):
            return []
        return [NextStep()]

    def on_offer(self, sender: bytes, m: Offer, now: float) -> Effects:
        """A seat offers (or accepts) a draw or an abort at the next entry."""
        t = self.table
        keys = t.seat_keys
        if not m.seat < len(keys) or keys[m.seat] != sender:
            raise MessageError(f"offer: the sender does not hold seat {m.seat}")
        if not verify(sender, agree_statement(t.genesis.hash, m.how, m.seq, m.prev), m.sig):
            raise MessageError(f"offer: not signed by seat {m.seat}")
        ledger = t.ledger
        if m.seq != ledger.next_seq or m.prev != ledger.head or not ledger.may_end():
            return []  # lapsed (another entry came), or for a head this node has not reached: it is said again
        self.here(ledger.next_seq)
        if m.how in self.declined_here and t.seat is not None:
            # said again before the offerer heard our decline, or the decline was lost
            return [Send(sender, Decline(t.seat, m.how, m.seq).to_bytes())]
        if not self.offered(m.how, m.seat, m.sig, ledger.next_seq):
            return []
        told: Effects = [Offered(m.seat, m.how)] if t.seat is not None and t.seat not in self.offers[m.how] else []
        return told + [NextStep()]

    def on_decline(self, sender: bytes, m: Decline, now: float) -> Effects:
        t = self.table
        keys = t.seat_keys
        if not m.seat < len(keys) or keys[m.seat] != sender:
            raise MessageError(f"decline: the sender does not hold seat {m.seat}")
        sigs = self.declined(m.how, m.seq) if m.seq == t.ledger.next_seq else None
        return [Declined(m.seat, m.how)] if sigs is not None and t.seat in sigs else []
