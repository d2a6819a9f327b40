"""A joiner's side of a forming table (spec/protocol.md, "Forming a table"): a seat or a
spectator asking the host, told its seat by the `welcome`, checking and signing the
proposal, repeating what it said until the game starts; a refusal for now (the table full,
codes not checked now) is asked again for a while before it is taken as final. What it
shares with the host's side is protocol/session/forming.py's `Forming`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from peerboard.protocol.session.effects import Effects, Send
from peerboard.protocol.session.events import Refused, Seated, SeatTaken
from peerboard.protocol.log import Genesis, Identity, fingerprint
from peerboard.protocol.session.forming import FOR_NOW, REPEAT_EVERY, Forming
from peerboard.protocol.session.phases import Milestone
from peerboard.protocol.session.refusals import CLOSED
from peerboard.protocol.session.messages import Hello, Leave, MessageError, Refuse, Sign, Welcome
from peerboard.protocol.session.surface import LocalError, SeatInfo


@dataclass
class Joining(Forming):
    """A joiner's side: a seat or a spectator asking the host, told its seat by the
    `welcome`, signing the proposal; it repeats what it said until the game starts."""

    @classmethod
    def ask(cls, identity: Identity, local: Hello, host: bytes, now: float,
            reached: Callable[[Milestone], None]) -> "Joining":
        """It has said hello to `host` and waits for the answer."""
        return cls(identity, local, host, 0, {}, reached, repeat_at=now)

    #: while the host refuses this node for now, this node asks again until then
    asking_until: float | None = None

    def _dealing_with(self) -> list[bytes]:
        return super()._dealing_with() if self.proposal is not None else [self.host]

    def remove(self, index: int) -> Effects:
        raise LocalError("Only the host of a table can remove a seat.")

    def on_hello(self, sender: bytes, m: Hello, now: float) -> Effects:
        if m.key != sender:
            raise MessageError("hello: the key is not the sender's")
        raise MessageError("hello: this node is not hosting a table")

    def on_welcome(self, sender: bytes, m: Welcome, now: float) -> Effects:
        if sender != self.host:
            raise MessageError("welcome: not from the host")
        if self.proposal is not None:
            # the host withdrew its proposal (a seat was freed): forming again
            self.proposal, self.addrs, self.sigs = None, (), {}
            self.repeat_at = now
            self.reached(Milestone.WITHDRAWN)
        self.seat = None if m.seat < 0 else m.seat
        self.players = m.players
        self.refused_for_now = self.asking_until = None
        return [Seated(m.seat, m.players)]

    def on_refuse(self, sender: bytes, m: Refuse, now: float) -> Effects:
        """A refusal; one for now (the table full, codes not checked now) is said once and
        the hello repeated until a welcome, or until its patience runs out (`tick`)."""
        if sender != self.host:
            raise MessageError("refuse: not from the host")
        patience = next((p for reason, p in FOR_NOW if m.reason == reason or m.reason.startswith(reason + " ")), None)
        if patience is None:
            return [Refused(m.reason)]
        self.refused_for_now = m.reason
        if self.asking_until is None:
            self.asking_until = now + patience
            return [Refused(m.reason, again=patience)]
        return []

    def _signed(self, g: Genesis, addrs: tuple[str, ...], sign: Sign) -> Effects:
        # what this joiner learns of the table: every seat, from the proposal
        taken: Effects = [SeatTaken(SeatInfo(i, x.name, fingerprint(x.key), x.key,
                                             "you" if x.key == self.key else "connected", None, a))
                          for i, (x, a) in enumerate(zip(g.seats, addrs))]
        # the host alone completes the genesis (so a withdrawn proposal never becomes a game)
        return taken + [Send(self.host, sign.to_bytes())]

    def tick(self, now: float) -> Effects:
        """It says again what it said, in case it was lost: its hello to the host and, once
        proposed, its signature."""
        if self.asking_until is not None and now >= self.asking_until:
            # refused for now for as long as it was worth asking: refused
            reason, self.refused_for_now, self.asking_until = self.refused_for_now, None, None
            assert reason is not None  # (it asks again only while refused for now: `on_refuse`)
            return [Refused(reason)]
        if now < self.repeat_at:
            return []
        self.repeat_at = now + REPEAT_EVERY
        # the hello, even once proposed: a host that withdrew its proposal answers it with
        # a welcome, so a seat that missed the withdrawal learns of it
        effects: Effects = [Send(self.host, self.local.to_bytes())]
        if self.proposal is not None and self.seat in self.sigs:
            effects.append(Send(self.host, Sign(self.seat, self.sigs[self.seat]).to_bytes()))
        return effects

    def on_leave(self, sender: bytes, m: Leave, now: float) -> Effects:
        """The host leaving closes the table; a spectator is served no more."""
        self.spectators.pop(sender, None)
        return [Refused(CLOSED)] if sender == self.host else []
