"""A claim one seat alone signed, disputed (spec/protocol.md, "What a claim proves").

At two seats a claim is one seat's word. A node whose seat such a claim names, when it knows
it was there — it has run with no freeze and no restart since it took the entry the claim
follows (it was sending all along: protocol/session/liveness.py, `Presence`), or it holds
entries of its own the claim displaced — never takes the claim as the truth: it writes its
`protest` right after it, carrying those entries of its own (at most `MAX_CARRIED`), and is
told plainly (`Disputed`, never `Ended`). The game ends disputed there, with no winner, and
nothing follows a protest. The claimer's node, which wrote its end at once, keeps its log as
it is and is told too: its copy and the other fork at the protest (compared by
protocol/log/copies.py). A node that cannot tell whether it was away (restarted or frozen
since) lets the claim stand and watches.
"""
from __future__ import annotations

from typing import Any, Callable

from peerboard.protocol.log import MAX_CARRIED, Entry, Ledger, LedgerError
from peerboard.protocol.session.catchup import BEAT_EVERY, Fetches
from peerboard.protocol.session.effects import Effects, Send
from peerboard.protocol.session.events import Disputed
from peerboard.protocol.session.liveness import Presence
from peerboard.protocol.session.messages import Beat, EntryMessage
from peerboard.protocol.session.table import Table


class Protests:
    """The local seat's protest of a claim of it, and the news of a protest of ours, at
    `table`; `presence` is this node's own, `write` writes an entry of the local seat."""

    def __init__(self, table: Table, presence: Presence, fetches: Fetches,
                 write: Callable[[str, dict[str, Any]], Effects]):
        self.table = table
        self.presence = presence
        self.fetches = fetches
        self.write = write
        #: a claim of the local seat, one seat's alone: whether this node has been here all
        #: along since it took the entry the claim follows (or wrote its own the claim
        #: displaced), and those entries of its own
        self.present_at_claim = False
        self.displaced: tuple[Entry, ...] = ()
        self.protesting = False  # our protest is written and on its way into the ledger
        #: the protest of our claim a peer holds (seq, hash), once told (our log keeps our end)
        self.told: tuple[int, bytes] | None = None

    @property
    def closed(self) -> bool:
        """Our protest is written: nothing follows it (a longer log is the claimer's end,
        written before it heard the protest)."""
        return self.table.ledger.protest is not None or self.protesting

    # -- a claim of the local seat ----------------------------------------------------------------

    def claimed(self, entry: Entry) -> None:
        """`entry`, a claim of the local seat, is taken at the head: were we here all along
        since we took the entry it follows? (Unless it displaced entries of ours: `displaced`.)"""
        if not self.displaced:
            self.present_at_claim = self.presence.here_since(entry.seq - 1)

    def displacing(self, seq: int, replaced: tuple[Entry, ...]) -> None:
        """A claim at `seq` sets our own entries `replaced` aside: our evidence, if we protest
        it — were we here all along since we wrote them?"""
        self.present_at_claim = self.presence.here_since(seq)
        self.displaced = replaced
        self.presence.drop_from(seq)

    def due(self, entry: Entry, ledger: Ledger) -> Effects:
        """The local seat's protest of `entry`, a claim of it that one seat alone signed, when
        this node knows it was there: it holds entries of its own the claim displaced, or it
        has run with no freeze since it took the entry the claim follows (it was sending all
        along). [] otherwise: the claim stands, and the seat watches as a spectator."""
        t = self.table
        if entry.kind != "claim" or t.seat is None or entry.body["gone"] != t.seat or ledger.disputable != t.seat:
            return []
        displaced, self.displaced = self.displaced, ()
        if not self.present_at_claim:
            return []  # (restarted or frozen since: it cannot tell whether it was away, nor whether its entries left)
        self.protesting = True
        return self.write("protest", {"entries": [e.record() for e in displaced[:MAX_CARRIED]]})

    def disputed(self, protest: Entry) -> Disputed:
        """The news of `protest`, taken into our log."""
        t = self.table
        claim = t.entries[protest.seq - 2]
        you = "claimed" if protest.seat == t.seat else "claimer" if claim.seat == t.seat else ""
        return Disputed(claim.seat, protest.seat, claim.seq, protest.seq, len(protest.body["entries"]), you)

    # -- the two forks at a protest ------------------------------------------------------------------

    def protested(self, sender: bytes, entry: Entry, chain_at: Callable[[int], Ledger]) -> Effects:
        """The claimed seat's protest of a claim we hold, where we hold more after the claim:
        the claimer's end, written at once. Our log stays as it is (nothing in it is taken
        back); the protest is checked (against `chain_at`, the ledger after a seq) and its
        news told, once."""
        t = self.table
        if self.told == (entry.seq, entry.hash):
            return []
        try:
            chain_at(entry.seq - 1).check(entry)
        except LedgerError as exc:
            return t.referee.reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self.told = (entry.seq, entry.hash)
        claim = t.entries[entry.seq - 2]
        you = "claimer" if claim.seat == t.seat else ""
        return [Disputed(claim.seat, entry.seat, claim.seq, entry.seq, len(entry.body["entries"]), you)]

    def on_beat(self, sender: bytes, m: Beat, now: float) -> Effects | None:
        """A peer's head, where a protest parts our log from its: what to answer, or None
        (catch-up answers it: protocol/session/catchup.py)."""
        t = self.table
        if m.seq > len(t.entries):
            if t.ledger.protest is None:
                return None
            # nothing follows our protest: the longer log is the claimer's end, written before
            # it heard the protest — it is told the protest instead (at most twice a second)
            asked = self.fetches.asked
            if now - asked.get(sender, -1e9) < BEAT_EVERY / 2:
                return []
            asked[sender] = now
            return [Send(sender, EntryMessage(t.entries[t.ledger.protest - 1]).to_bytes())]
        if self.told is not None and m.seq >= self.told[0] and sender in t.seats:
            return []  # (the claimed seat's copy forks at its protest: we know, and said so)
        return None
