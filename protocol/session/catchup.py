"""Catch-up (spec/protocol.md, "Catch-up"): what a node is missing and asks its peers for.

Beats carry each node's head; a node that sees a peer ahead asks it (`want`) and gets up to
`BATCH` entries, then a `beat` with the peer's head. Entries that come early wait, up to
`AHEAD_WINDOW` beyond the next one expected; the one missing before them is asked for only
if it has not come `GAP_WAIT` seconds later (entries of different authors overtake each
other, and the one missing is most often on its way). A confirm that comes before its entry
waits for it too. A peer is asked at most twice a second. (What a node answers is paced by
protocol/session/budget.py.)
"""
from __future__ import annotations

from peerboard.protocol.log import Entry
from peerboard.protocol.session.effects import Effects, NextStep, Send
from peerboard.protocol.session.messages import Beat, Confirm, EntryMessage, Want
from peerboard.protocol.session.table import Table

BEAT_EVERY = 1.0  # seconds between heartbeats (each carries the head)
BATCH = 64  # entries served per request
AHEAD_WINDOW = 256  # entries buffered beyond the next expected one
#: seconds an entry that came early waits for the one before it before this node asks for
#: it: entries of different authors overtake each other, and the one missing is most often
#: on its way (asking at once would fetch it twice)
GAP_WAIT = 0.1


class Fetches:
    """What one node at `table` is missing: the entries that came ahead of its log, the gap
    before them, the confirms ahead of their entry, and when it last asked each peer."""

    def __init__(self, table: Table):
        self.table = table
        self.ahead: dict[int, Entry] = {}
        #: an entry came early: (the seq missing before it, since when, who sent the early one)
        self.gap: tuple[int, float, bytes] | None = None
        #: confirms that came before their entry: seq -> (sender, confirm), taken once it is held
        self.early_confirms: dict[int, tuple[bytes, Confirm]] = {}
        self.asked: dict[bytes, float] = {}  # peer -> when we last asked it (for entries, or the genesis)

    def ask(self, peer: bytes, seq: int, now: float) -> Effects:
        """Ask `peer` for the entries from `seq` on (not twice within half a beat)."""
        if now - self.asked.get(peer, -1e9) < BEAT_EVERY / 2:
            return []
        self.asked[peer] = now
        return [Send(peer, Want(seq).to_bytes())]

    def early(self, sender: bytes, entry: Entry, now: float) -> Effects:
        """`entry` came ahead of the next one expected: kept (within the window), and the one
        missing asked for once it has been missing `GAP_WAIT` seconds."""
        have = len(self.table.entries)
        if entry.seq <= have + AHEAD_WINDOW and entry.seq not in self.ahead:
            self.ahead[entry.seq] = entry
        if self.gap is None or self.gap[0] != have + 1:
            self.gap = (have + 1, now, sender)
        if now - self.gap[1] < GAP_WAIT:
            return []  # (`tick` asks if it is still missing then)
        return self.ask(sender, have + 1, now)

    def next_held(self) -> Entry | None:
        """The entry kept ahead that comes next now, taken out of those kept; else None."""
        return self.ahead.pop(len(self.table.entries) + 1, None)

    def forget(self) -> None:
        """The log was cut back (a claim replaced entries): what came ahead of it is stale."""
        self.ahead.clear()
        self.early_confirms.clear()

    def tick(self, now: float) -> Effects:
        """The entry missing before those kept ahead, asked for once it has waited."""
        gap = self.gap
        if gap is not None and gap[0] == len(self.table.entries) + 1 and self.ahead and now - gap[1] >= GAP_WAIT:
            return self.ask(gap[2], gap[0], now)
        return []

    def on_beat(self, sender: bytes, m: Beat, now: float) -> Effects:
        t = self.table
        if m.seq > len(t.entries):
            return self.ask(sender, len(t.entries) + 1, now)
        if m.seq and m.head != t.entries[m.seq - 1].hash and sender in t.seats:
            # a fork: fetch its entry (a proof, if one seat signed both). Where acks go to
            # each entry's author alone, the seats' heads are how two halves of a table an
            # author split find each other (spec/protocol.md, "Equivocation")
            return self.ask(sender, m.seq, now)
        author = t.author
        if author is not None and sender in author.unheard:
            author.unheard.discard(sender)
            if not author.unheard:
                return [NextStep()]
        return []

    def on_want(self, sender: bytes, m: Want, last_confirm: Confirm | None) -> Effects:
        """Up to `BATCH` entries from `m.seq` on, then our head; with them our `last_confirm`
        (as an author) if it is of one of them."""
        t = self.table
        batch = t.entries[m.seq - 1 : m.seq - 1 + BATCH]
        # the head last, so a node catching up knows at once whether it has it all
        effects: Effects = [Send(sender, EntryMessage(e).to_bytes()) for e in batch]
        effects.append(Send(sender, t.beat()))
        if last_confirm is not None and batch and m.seq <= last_confirm.seq <= batch[-1].seq:
            # our confirm of an entry it fetched goes with it: a spectator (which acks nothing)
            # asks again this way for the confirm it lost, and anyone catching up confirms sooner
            effects.append(Send(sender, last_confirm.to_bytes()))
        return effects
