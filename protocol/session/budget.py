"""How much catch-up a node serves each peer (spec/protocol.md, "Budgets").

A `want` costs its sender a dozen bytes and the node that answers it up to 64 entries, so
catch-up is paced: `want`s are answered from one peer at most `WANTS_PER_SECOND` a second,
and from spectators at most `SPECTATOR_WANTS_PER_SECOND` in all, so one admitted spectator
— or a thousand — cannot make a node spend its time sending the log again and again. An
honest node stays far inside: it asks each peer at most twice a second. What is beyond is
not answered, counted, and said now and then (a `Rejected` that strikes nobody: a flood is
no proof of malice, and a peer shut out for good could never catch up). Each budget is a
token bucket that holds a second's worth. (What a peer may send at all — messages and
bytes a second — is bounded by the node's transport, before anything is decoded:
spec/transport.md, "Budgets".) Sans-IO: time is an argument.
"""
from __future__ import annotations

from dataclasses import dataclass

WANTS_PER_SECOND = 4  # `want`s answered from one peer (an honest node asks twice a second at most)
SPECTATOR_WANTS_PER_SECOND = 16  # `want`s answered from all spectators together
PEERS_KEPT = 1024  # budgets kept (the one made longest ago is forgotten first: it starts full again)
SAY_EVERY = 10.0  # seconds between two lines about one peer's flood
SAY_AFTER = 16  # requests beyond the budget before the first line (an honest node never gets there)


@dataclass
class Bucket:
    """A token bucket: `rate` a second, holding at most `rate` (a second's worth); full
    when made."""

    rate: float
    level: float = -1.0
    at: float = 0.0

    def take(self, now: float) -> bool:
        """Spend one if there is one (True); else spend nothing (False)."""
        if self.level < 0:
            self.level, self.at = self.rate, now
        elif now > self.at:
            self.level = min(self.rate, self.level + (now - self.at) * self.rate)
            self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


@dataclass
class Unanswered:
    """The `want`s of one peer beyond its budget, and when that was last said."""

    count: int = 0
    said_at: float = -1e18
    said_count: int = 0

    def say(self, now: float) -> str | None:
        """The line to say about it now, or None (one every `SAY_EVERY` seconds)."""
        if self.count < SAY_AFTER or self.count == self.said_count or now - self.said_at < SAY_EVERY:
            return None
        self.said_at, self.said_count = now, self.count
        return (f"flooding: {self.count} requests for entries beyond {WANTS_PER_SECOND} a second were not "
                f"answered so far")


class CatchUp:
    """Every peer's catch-up budget, and what was beyond it."""

    def __init__(self) -> None:
        self.wants: dict[bytes, Bucket] = {}
        self.spectator_wants = Bucket(SPECTATOR_WANTS_PER_SECOND)
        self.unanswered: dict[bytes, Unanswered] = {}

    def answers(self, sender: bytes, spectator: bool, now: float) -> bool:
        """Whether a `want` from `sender` is answered now (if not, and `sender` went beyond
        its own budget, it is counted)."""
        bucket = self.wants.get(sender)
        if bucket is None:
            bucket = self.wants[sender] = Bucket(WANTS_PER_SECOND)
            if len(self.wants) > PEERS_KEPT:
                del self.wants[next(iter(self.wants))]
        if bucket.take(now):
            # (spectators over the budget of all of them are many, not one flooding: not counted)
            return not spectator or self.spectator_wants.take(now)
        beyond = self.unanswered.get(sender)
        if beyond is None:
            beyond = self.unanswered[sender] = Unanswered()
            if len(self.unanswered) > PEERS_KEPT:
                del self.unanswered[next(iter(self.unanswered))]
        beyond.count += 1
        return False

    def said(self, sender: bytes, now: float) -> str | None:
        """The line about `sender`'s unanswered `want`s to say now, if any."""
        beyond = self.unanswered.get(sender)
        return None if beyond is None else beyond.say(now)
