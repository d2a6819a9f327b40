"""Who is there (spec/protocol.md, "Liveness"): a seat silent for `AWAY_AFTER` seconds is
shown away (`PeerAway`), one that said `leave` is shown left (`PeerLeft`), and either is
shown back (`PeerBack`) the moment it is heard again. The game waits for an away seat; how
long it has been away is what a claim of it is measured against (protocol/session/claims.py).
A seat taken over is as alive as its runner, which is counted as itself.
"""
from __future__ import annotations

from typing import Iterable

from peerboard.protocol.session.events import PeerAway

AWAY_AFTER = 5.0  # a seat silent this long is shown as away


class Liveness:
    """When each seat was last heard, and which are away or left."""

    def __init__(self, heard: dict[bytes, float]):
        #: the session's: when each key was last heard, since it began
        self.heard = heard
        #: seats never heard: timed from the first tick
        self.silent_since: dict[bytes, float] = {}
        self.away: set[int] = set()
        self.left: set[int] = set()

    def back(self, seat: int) -> bool:
        """Seat `seat` was heard: whether it was away or left, and is back now."""
        if seat not in self.away and seat not in self.left:
            return False
        self.away.discard(seat)
        self.left.discard(seat)
        return True

    def leaves(self, seat: int) -> None:
        """Seat `seat` said it leaves."""
        self.left.add(seat)
        self.away.discard(seat)

    def away_for(self, seat: int, key: bytes, now: float) -> float | None:
        """How long seat `seat` (of key `key`) has been silent, if it is away or left; else None."""
        if seat not in self.away and seat not in self.left:
            return None
        heard = self.heard.get(key, self.silent_since.get(key))
        return None if heard is None else now - heard

    def tick(self, now: float, others: Iterable[tuple[bytes, int]], taken: Iterable[int]) -> list[PeerAway]:
        """The seats among `others` ((key, seat) of every other seat) silent too long now;
        a seat `taken` over is never away (its runner is counted as itself)."""
        told = []
        taken = set(taken)
        for key, seat in others:
            if seat in self.away or seat in self.left or seat in taken:
                continue
            heard = self.heard.get(key)
            if heard is None:
                heard = self.silent_since.setdefault(key, now)
            if now - heard > AWAY_AFTER:
                self.away.add(seat)
                told.append(PeerAway(seat))
        return told

    def connection(self, seat: int) -> str:
        return "left" if seat in self.left else "away" if seat in self.away else "connected"
