"""The node: one consensus session on real sockets, driven by one event loop.

`Node` owns the transport, the game's files and the session. Its loop polls the sockets
(and any file descriptor the client watches, such as stdin) with a timeout, feeds what
arrives to the session, calls `tick` about every 0.2 s, and carries out the effects the
session returns strictly in order: a `Store` is appended and fsynced before the next effect
(an ack, typically) leaves; an author's own entry is appended, sent, then fsynced by a
`Sync`. Nothing in the loop blocks except the poll itself.
"""
from __future__ import annotations

import heapq
import itertools
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import zmq

from node.discovery import Beacon, beacon_bytes
from node.gamefiles import GameFiles, SeatFile, new_log_path, secrets_of
from node.transport import ConnectionEvent, Transport, valid_address
from protocol.identity import Identity
from protocol.logfile import LogContents
from protocol.messages import Hello, MessageError, decode_message
from protocol.secrets import SeatSecrets
from protocol.session import (
    Event, GameStarted, PeersKnown, Send, Session, Store, StoreChoice, StoreGenesis, Sync, Then, Unstore,
)
from node.keys import curve_public

TICK = 0.2  # seconds between session ticks (heartbeats, away peers, retries)
BEACON_EVERY = 1.0
SPECTATOR_GRACE = 3.0  # a finished seat stays this long for spectators still catching up
IDLE_AFTER_POLLS = 4  # the session's next step waits for at most this many busy polls


@dataclass(frozen=True)
class Notice(Event):
    """Something the node (not the session) wants the person to know."""

    text: str


@dataclass(frozen=True)
class LogOpened(Event):
    path: Path


@dataclass(frozen=True)
class Connection(Event):
    change: ConnectionEvent


class Node:
    def __init__(self, identity: Identity, name: str, transport: Transport, addr: str,
                 on_event: Callable[[Event], None], games: Path | None = None):
        self.identity = identity
        self.name = name
        self.transport = transport
        self.addr = addr  # where peers reach this node (the bound endpoint, made reachable)
        self.on_event = on_event
        self.games = games
        self.session: Session | None = None
        self.secrets: SeatSecrets | None = None
        self.files: GameFiles | None = None
        self.seat_extra: dict = {}
        self.overrides: dict[bytes, str] = {}  # key -> address used instead of the announced one
        self.hello_addrs: dict[bytes, str] = {}
        self.beacon: Beacon | None = None
        self.beacon_port = 0
        self.stopped = False
        self._timers: list = []
        self._count = itertools.count()
        self._fds: dict[int, Callable[[], None]] = {}
        self._poller: zmq.Poller | None = None
        self._poll_sockets: tuple = ()
        self._next_beacon = 0.0
        self._spectator_intro = False
        self._unknown_noted: set[bytes] = set()
        self._idle: list[Callable[[], list]] = []  # the session's next steps, after waiting messages

    # -- starting a session ---------------------------------------------------------------------

    def host(self, secrets: SeatSecrets, game: str, players: int, options: dict, beacon: Beacon | None) -> bytes:
        table = os.urandom(16)
        self.secrets = secrets
        self.session = Session.host(self.identity, secrets, self.name, self.addr, game, players, options,
                                    table, os.urandom, time.monotonic())
        self.beacon = beacon
        return table

    def join(self, secrets: SeatSecrets | None, host_key: bytes, host_addr: str, table: bytes, game: str) -> None:
        self.secrets = secrets
        self.overrides[host_key] = host_addr
        self.transport.connect(host_key, host_addr)
        self.session, effects = Session.join(self.identity, secrets, self.name, self.addr, host_key, table, game,
                                             os.urandom, time.monotonic())
        self.execute(effects)

    def resume(self, files: GameFiles, contents: LogContents) -> None:
        seat = files.seat
        self.files, self.secrets, self.seat_extra = files, secrets_of(seat), dict(seat.extra)
        self.session, effects = Session.resume(
            self.identity, self.secrets, self.name, self.addr, contents.genesis, seat.addrs,
            list(contents.entries), seat.choice, os.urandom, time.monotonic())
        self.on_event(LogOpened(files.path))
        self.execute(effects)

    # -- the person's side ------------------------------------------------------------------------

    def submit(self, actions: list, now: float | None = None) -> None:
        """The local decision (LocalError from the session if it is not allowed)."""
        self.execute(self.session.submit(actions, time.monotonic() if now is None else now))

    def leave(self) -> None:
        if self.session is not None:
            self.execute(self.session.leave())

    def call_later(self, delay: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._timers, (time.monotonic() + delay, next(self._count), fn))

    def watch_fd(self, fd: int, callback: Callable[[], None]) -> None:
        self._fds[fd] = callback
        self._poller = None

    def unwatch_fd(self, fd: int) -> None:
        self._fds.pop(fd, None)
        self._poller = None

    # -- carrying out effects ------------------------------------------------------------------

    def execute(self, effects: list) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                self._send(effect.to, effect.data)
            elif isinstance(effect, Store):
                self.files.append(effect.entry, effect.sync)  # fsynced before anything after it
            elif isinstance(effect, Sync):
                self.files.sync()
            elif isinstance(effect, Unstore):
                self.files.remove_last(effect.entry)
            elif isinstance(effect, StoreGenesis):
                self._store_genesis(effect)
            elif isinstance(effect, StoreChoice):
                self.files.store_choice(effect.actions, effect.nonce)
            elif isinstance(effect, Then):
                if not effect.idle:
                    self.execute(effect.work())
                elif effect.work not in self._idle:  # once is enough: it looks at the state then
                    self._idle.append(effect.work)
            else:
                self._event(effect)

    def _send(self, key: bytes, data: bytes) -> None:
        if not self.transport.has_route(key):
            addr = self.overrides.get(key) or self.hello_addrs.get(key)
            if addr is None:
                return  # nobody told us where it listens (a spectator of another seat)
            self.transport.connect(key, addr)
        self.transport.send(key, data)

    def _store_genesis(self, effect: StoreGenesis) -> None:
        seat = SeatFile(self.identity.secret, None if self.secrets is None else self.secrets.master, self.name,
                        self.addr, tuple(effect.addrs), None, self.seat_extra)
        path = new_log_path(effect.genesis, self.identity, self.games)
        self.files = GameFiles.create(path, effect.genesis, seat)
        self.on_event(LogOpened(path))

    def _event(self, event: Event) -> None:
        if isinstance(event, PeersKnown):
            for key, addr in event.peers:
                self.transport.connect(key, self.overrides.get(key, addr))
        elif isinstance(event, GameStarted):
            seats = [s.key for s in event.genesis.genesis.seats]
            self.transport.admit_seats(seats)
            if self.beacon is not None:
                self.beacon.close()
                self.beacon = None
            if self.session.seat is None and not self._spectator_intro:
                self._introduce_spectator(event)
        self.on_event(event)

    def _introduce_spectator(self, event: GameStarted) -> None:
        """A spectator says hello to every seat, so any of them can serve its catch-up and
        reach it (a seat learns where a spectator listens only from its hello)."""
        self._spectator_intro = True
        g = event.genesis.genesis
        hello = Hello(g.table, g.game, self.name, self.identity.public_key, "spectator", bytes(32), bytes(32), self.addr)
        for s in g.seats:
            self._send(s.key, hello.to_bytes())

    # -- the loop ------------------------------------------------------------------------------

    def finished(self) -> bool:
        """The game is over here and, for a seat, every seat has stored every entry."""
        s = self.session
        if s is None or not s.over:
            return False
        return s.seat is None or s.confirmed >= len(s.entries)

    def run(self, done: Callable[[], bool], max_seconds: float | None = None) -> bool:
        """Run until `done()` (True), `stop()` or `max_seconds` (False)."""
        start = time.monotonic()
        next_tick = start
        deferred = 0
        while not self.stopped:
            if done():
                return True
            now = time.monotonic()
            if max_seconds is not None and now - start > max_seconds:
                return False
            if now >= next_tick:
                next_tick = now + TICK
                self.execute(self.session.tick(now))
                self._announce(now)
            while self._timers and self._timers[0][0] <= now:
                _, _, fn = heapq.heappop(self._timers)
                fn()
            wake = min(next_tick, self._timers[0][0]) if self._timers else next_tick
            timeout = 0.0 if self._idle else max(0.0, wake - time.monotonic())
            busy = self._poll(timeout)
            if self._idle:
                deferred += 1
                if not busy or deferred > IDLE_AFTER_POLLS:
                    # nothing is waiting (or it has waited enough): the session's own next steps
                    work, self._idle, deferred = self._idle, [], 0
                    for step in work:
                        self.execute(step())
        return done()

    def stop(self) -> None:
        self.stopped = True

    def _poll(self, timeout: float) -> bool:
        """Wait up to `timeout` for input and handle it; False if there was none."""
        sockets = tuple(self.transport.sockets())
        if self._poller is None or sockets != self._poll_sockets:
            self._poller = zmq.Poller()
            for sock in sockets:
                self._poller.register(sock, zmq.POLLIN)
            for fd in self._fds:
                self._poller.register(fd, zmq.POLLIN)
            self._poll_sockets = sockets
        ready = self._poller.poll(timeout * 1000)
        for sock, _ in ready:
            if sock is self.transport.router:
                self._receive()
            elif sock is self.transport.zap:
                self.transport.answer_zap()
            elif isinstance(sock, int):
                callback = self._fds.get(sock)
                if callback is not None:
                    callback()
            else:
                for change in self.transport.connection_events(sock):
                    self.on_event(Connection(change))
        return bool(ready)

    def _receive(self) -> None:
        for key, curve, data in self.transport.receive():
            if key is None or not self.transport.has_route(key):
                key = self._from_hello(key, curve, data)
                if key is None:
                    continue
            self.execute(self.session.receive(key, data, time.monotonic()))

    def _from_hello(self, key: bytes | None, curve: bytes, data: bytes) -> bytes | None:
        """A message from a node this one has no route to: a hello says who it is and where
        it listens (believed only if the hello's key is the key the handshake proved)."""
        try:
            message = decode_message(data)
        except MessageError as exc:
            if key is None and curve not in self._unknown_noted:  # once per key: no flood
                self._unknown_noted.add(curve)
                self.on_event(Notice(f"rejected a message from an unknown node (CURVE key {curve[:8].decode()}…): {exc}"))
            return key
        if isinstance(message, Hello) and _curve_or_none(message.key) == curve:
            self.transport.know(message.key)
            if valid_address(message.addr):
                self.hello_addrs[message.key] = message.addr
            return message.key
        return key

    def _announce(self, now: float) -> None:
        s = self.session
        if self.beacon is None or s.forming is None or s.genesis is not None or now < self._next_beacon:
            return
        self._next_beacon = now + BEACON_EVERY
        f = s.forming
        port = int(self.transport.endpoint.rsplit(":", 1)[1])
        data = beacon_bytes(f.game, f.players, f.players - len(f.hellos), self.name, self.identity.public_key,
                            f.table, port)
        for target in self.beacon.send(data):
            self.on_event(Notice(f"cannot announce the table to {target} (no network there?); "
                                 f"others can still join by address"))

    def close(self, linger: float = 1.0) -> None:
        if self.beacon is not None:
            self.beacon.close()
        self.transport.close(int(linger * 1000))
        if self.files is not None:
            self.files.close()


def _curve_or_none(key: bytes) -> bytes | None:
    try:
        return curve_public(key)
    except ValueError:
        return None
