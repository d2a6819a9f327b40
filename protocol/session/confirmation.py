"""Acks in, confirmed entries (or a desync) out (spec/protocol.md, "Confirmation").

Acks are cumulative: a seat's ack of seq s with our entry hash there vouches for the whole
chain up to s (the hash chain), so `acked[seat]` is the highest such seq per seat, and seq s
is confirmed once every seat's is at least s. An ack with our entry hash but another state
hash is a desync. Acks for entries not held yet wait until they are.
"""
from __future__ import annotations

from peerboard.protocol.session.events import Confirmed, Desync


class Confirmations:
    """One node's record of who vouched for what, over the entries it holds."""

    def __init__(self, seats: int, local: int | None, held: int = 0, hashes: list[tuple[bytes, bytes]] | None = None):
        #: the local seat (None: a spectator, whose acks do not count)
        self.local = local
        #: (entry hash, state hash here after it) of every entry held, by seq - 1
        self.hashes: list[tuple[bytes, bytes]] = hashes or []
        self.acked = [held] * seats
        self.confirmed = held
        #: seats gone for good (claimed): their acks no longer count
        self.gone: set[int] = set()
        self._early: dict[int, dict[int, tuple[bytes, bytes]]] = {}  # seq -> seat -> (entry, state)
        self._states: dict[int, dict[int, bytes]] = {}  # for the desync report, until confirmed
        #: seq -> each seat's state hash acked at exactly that seq, for the seqs the last
        #: `advance` confirmed (what an author's gathered `confirm` carries)
        self.just_confirmed: dict[int, dict[int, bytes]] = {}

    def stored(self, entry_hash: bytes, state_hash: bytes) -> Desync | None:
        """The next entry is held (on disk here): the acks that waited for it count now."""
        self.hashes.append((entry_hash, state_hash))
        seq = len(self.hashes)
        if self.local is not None:
            self.acked[self.local] = max(self.acked[self.local], seq)
            self._states.setdefault(seq, {})[self.local] = state_hash
        early = self._early.pop(seq, None) if self._early else None
        for seat, (entry, state) in sorted(early.items()) if early else ():
            desync = self.take(seat, seq, entry, state)
            if desync is not None:
                return desync
        return None

    def wait(self, seat: int, seq: int, entry_hash: bytes, state: bytes) -> None:
        """An ack for an entry not held yet: it counts once the entry is."""
        self._early.setdefault(seq, {})[seat] = (entry_hash, state)

    def take(self, seat: int, seq: int, entry_hash: bytes, state: bytes) -> Desync | None:
        """Seat `seat` acked entry `seq` (held here); a Desync if its state differs from ours."""
        mine_entry, mine_state = self.hashes[seq - 1]
        if entry_hash != mine_entry:
            return None  # a fork, not an ack of our log: the session fetches its entry
        if seq > self.confirmed:
            self._states.setdefault(seq, {})[seat] = state
        if state != mine_state:
            hashes = dict(self._states.get(seq, {}))
            hashes[seat] = state
            if self.local is not None:
                hashes[self.local] = mine_state
            return Desync(seq, tuple(sorted(hashes.items())))
        self.acked[seat] = max(self.acked[seat], seq)
        return None

    def take_confirm(self, seq: int, entry_hash: bytes, states: tuple[bytes | None, ...],
                     skip: int | None) -> Desync | None:
        """An author's confirm of entry `seq` (held here): each seat's state hash there, as
        `take` of each (None: none given), but seat `skip`'s (ours); the first Desync."""
        mine_entry, mine_state = self.hashes[seq - 1]
        if entry_hash != mine_entry:
            return None  # (as `take`: a fork)
        acked, open_, here = self.acked, seq > self.confirmed, None
        for seat, state in enumerate(states):
            if state is None or seat == skip:
                continue
            if state != mine_state:
                return self.take(seat, seq, entry_hash, state)  # (it reports the desync)
            if open_:
                if here is None:
                    here = self._states.setdefault(seq, {})
                here[seat] = state
            if acked[seat] < seq:
                acked[seat] = seq
        return None

    def states_at(self, seq: int) -> dict[int, bytes]:
        """The state hashes acked at exactly `seq` so far (not yet confirmed), by seat."""
        return dict(self._states.get(seq, {}))

    def advance(self) -> list[Confirmed]:
        """What the acks now confirm."""
        self.just_confirmed = {}
        held = len(self.hashes)
        if self.confirmed >= held:
            return []  # (every entry held is confirmed already: a repeated ack, a late confirm)
        gone = self.gone
        upto = min(min(self.acked) if not gone else min(a for i, a in enumerate(self.acked) if i not in gone), held)
        confirmed = []
        while self.confirmed < upto:
            self.confirmed += 1
            self.just_confirmed[self.confirmed] = self._states.pop(self.confirmed, {})
            confirmed.append(Confirmed(self.confirmed, self.hashes[self.confirmed - 1][1]))
        return confirmed
