"""A spectator's hellos (spec/transport.md, "Spectators"): once the game starts it says hello
to every seat, so any of them can serve its catch-up and reach it (a seat learns where a
spectator listens only from its hello); then, every `SPECTATOR_HELLO_AGAIN` seconds, again
to each seat it has not heard from for that long — a seat that serves it beats to it every
second, so one that is silent lost the hello or restarted (a resumed seat knows no
spectators), or is down, and then the hello waits in its queue.
"""
from __future__ import annotations

from typing import Callable

from peerboard.protocol.log import Identity
from peerboard.protocol.session import Hello, Session

#: a spectator says hello again to a seat it has not heard from for this long
SPECTATOR_HELLO_AGAIN = 2.0


class SpectatorHellos:
    """The hellos of a node that watches a game (its own `name` and `addr`); `send` sends."""

    def __init__(self, identity: Identity, name: str, addr: str, send: Callable[[bytes, bytes], None]):
        self.identity = identity
        self.name = name
        self.addr = addr
        self.send = send
        self.started = False  # said hello to every seat
        self._next = 0.0  # its next hello to the seats not serving it

    def _hello(self, session: Session) -> bytes:
        return Hello(session.table_id, session.game_name, self.name, self.identity.public_key, "spectator", bytes(32),
                     bytes(32), self.addr, None).to_bytes()

    def introduce(self, session: Session, now: float) -> None:
        """Hello to every seat of `session`'s game, which has just started here."""
        self.started = True
        self._next = now + SPECTATOR_HELLO_AGAIN
        hello = self._hello(session)
        for seat in session.seats:
            self.send(seat.key, hello)

    def again(self, session: Session, now: float) -> None:
        """Hello again to each seat not heard from for `SPECTATOR_HELLO_AGAIN` seconds."""
        if not self.started or now < self._next:
            return
        self._next = now + SPECTATOR_HELLO_AGAIN
        hello = None
        for seat in session.seats:
            if seat.last_heard is None or now - seat.last_heard >= SPECTATOR_HELLO_AGAIN:
                hello = hello or self._hello(session)
                self.send(seat.key, hello)
