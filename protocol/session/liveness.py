"""Who is there (spec/protocol.md, "Liveness"): a seat silent for `AWAY_AFTER` seconds is
shown away (`PeerAway`), one that said `leave` is shown left (`PeerLeft`), and either is
shown back (`PeerBack`) the moment it is heard again. The game waits for an away seat; how
long it has been away is what a claim of it is measured against (protocol/session/claims.py).
A seat taken over is as alive as its runner, which is counted as itself.

This node's own presence is counted too (`Presence`; spec/protocol.md, "What a claim
proves"): a node that did not run for `FROZEN_AFTER` seconds was the silent one (`Woke`),
and counts the others' silence only from when it runs again; when it took each entry, and
whether it has run with no freeze and no restart since, is its evidence when a claim of its
seat comes (protocol/session/protests.py); a resumed seat that hears no other seat's head is
told so after `UNANSWERED_AFTER` seconds (`Unanswered`).
"""
from __future__ import annotations

from typing import Iterable

from peerboard.protocol.session.events import PeerAway, Unanswered, Woke

AWAY_AFTER = 5.0  # a seat silent this long is shown as away
#: this node did not tick for this long: it was frozen (its process stopped, its computer
#: asleep), and the others' silence meanwhile is not theirs (spec/protocol.md, "Patience and claims")
FROZEN_AFTER = AWAY_AFTER
#: a resumed seat that has heard no head of another seat this long is told what that may mean
UNANSWERED_AFTER = 10.0


class Presence:
    """This node's own presence: its last tick, since when it has run with no freeze, and
    when it took each entry it holds (None: taken before it was last started — a resumed
    node cannot tell how long it was down — or while catching up)."""

    def __init__(self) -> None:
        self.last_tick: float | None = None
        #: since when this node has run with no freeze (its first tick, or its last waking)
        self.since: float | None = None
        self.taken_at: list[float | None] = []  # by seq - 1
        self.heads_heard = 0  # the longest log a peer's beat has told of
        self.genesis_at: float | None = None  # (its first tick, for a game it started: not resumed)
        self.resumed = False
        self.unanswered_told = False  # (a resumed seat told that nobody answered yet)

    def tick(self, now: float) -> list[Woke]:
        """Time passed: `Woke` if this node did not run for `FROZEN_AFTER` seconds."""
        woke = []
        if self.last_tick is not None and now - self.last_tick >= FROZEN_AFTER:
            # this node was frozen: the others heard nothing from it, and what it did not hear
            # from them meanwhile says nothing of them — their silence counts from now
            self.since = now
            woke.append(Woke(now - self.last_tick))
        elif self.since is None:
            self.since = now
            self.genesis_at = None if self.resumed else now
        self.last_tick = now
        return woke

    def unanswered(self, now: float, seats: tuple[int, ...]) -> list[Unanswered]:
        """A resumed seat has not heard the head of `seats` yet: told once, `UNANSWERED_AFTER`
        seconds after it came back."""
        if (not self.resumed or not seats or self.unanswered_told or self.since is None
                or now - self.since < UNANSWERED_AFTER):
            return []
        self.unanswered_told = True
        return [Unanswered(seats, now - self.since)]

    def counted_from(self, heard: float) -> float:
        """When a peer last `heard` counts its silence from: not before this node last woke
        (its own silence is not the peer's)."""
        return heard if self.since is None else max(heard, self.since)

    def heard_head(self, seq: int) -> None:
        """A peer's beat told of a log of `seq` entries."""
        self.heads_heard = max(self.heads_heard, seq)

    def took(self, seq: int, in_step: bool) -> None:
        """Entry `seq` is taken now; `in_step`: this node had heard every seat's head. It is
        taken live if it is at the head too (not a catch-up after a restart)."""
        live = in_step and seq >= self.heads_heard
        self.taken_at.append(self.last_tick if live else None)

    def drop_from(self, seq: int) -> None:
        """The entries from `seq` on are set aside (a claim replaced them)."""
        del self.taken_at[seq - 1:]

    def here_since(self, seq: int) -> bool:
        """Whether this node has run with no freeze and no restart since it was last in step
        with the table at or before entry `seq`: since the last of those entries it took live
        (at the head, not catching up) — or since the genesis it started from. It was sending
        its beats and acks all along since then, heard or not."""
        if self.since is None:
            return False
        for i in range(min(seq, len(self.taken_at)) - 1, -1, -1):
            taken = self.taken_at[i]
            if taken is not None:
                return self.since <= taken
        return self.genesis_at is not None and self.since <= self.genesis_at


class Liveness:
    """When each seat was last heard, and which are away or left (silence counted only
    while this node ran: `presence`)."""

    def __init__(self, heard: dict[bytes, float], presence: Presence):
        #: the session's: when each key was last heard, since it began
        self.heard = heard
        self.presence = presence
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
        """How long seat `seat` (of key `key`) has been silent, if it is away or left; else
        None. (Counted from when this node was last frozen, if later: its own silence is not
        the seat's.)"""
        if seat not in self.away and seat not in self.left:
            return None
        heard = self.heard.get(key, self.silent_since.get(key))
        return None if heard is None else now - self.presence.counted_from(heard)

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
            if now - self.presence.counted_from(heard) > AWAY_AFTER:
                self.away.add(seat)
                told.append(PeerAway(seat))
        return told

    def connection(self, seat: int) -> str:
        return "left" if seat in self.left else "away" if seat in self.away else "connected"
