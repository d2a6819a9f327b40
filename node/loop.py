"""The node: one consensus session on real sockets, driven by one event loop.

`Node` owns the transport, the game's files and the session. Its loop polls the ROUTER and
the ZAP handler (and any file descriptor the client watches, such as stdin) with a timeout,
feeds what arrives to the session, calls `tick` about every 0.2 s (and reads the DEALERs'
connection news then), and has the session's effects carried
out by the one effect runner (protocol/session/effects.py), strictly in order: a `Store` is appended
and fsynced before the next effect (an ack, typically) leaves; an author's own entry is
appended, sent, then fsynced by a `Sync`. Nothing in the loop blocks except the poll itself.

Our own faults are ours: when the session halts with an `InternalFault`, or the node's own
code (or a client callback it runs) raises, the node writes the traceback beside the game's
log (`<log>.errors.txt`; before there is a log, in the data directory), tells the client in
one line where, and stops; everything stored stays, and `peerboard resume` goes on from it.
A full disk is no bug: the node says so in one line (node/storage.py), writes no details
file, and stops the same way.
"""
from __future__ import annotations

import heapq
import itertools
import math
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import zmq

from peerboard.node.chatfile import ChatFile, chat_path
from peerboard.node.discovery import Beacon, beacon_bytes
from peerboard.node import faults
from peerboard.node.gamefiles import GameFiles, SeatFile, new_log_path, secrets_of
from peerboard.node.keys import curve_public
from peerboard.node.storage import disk_full_text, is_disk_full
from peerboard.node.transport import BYTES_PER_SECOND, MESSAGES_PER_SECOND, ConnectionEvent, Transport, valid_address
from peerboard.protocol.session import (
    Chatted, EffectRunner, Event, GameOver, GameStarted, Hello, InternalFault, LocalError, MessageError,
    PeerMoved, PeersKnown, Phase, REMATCH_WAIT, Refused, RematchAnswer, SeatTaken, Session, TakeoverTurn,
    YourTurn, decode_message, next_order,
)
from peerboard.protocol.log import Entry, Identity, LogContents, SeatSecrets, SignedGenesis, fingerprint

TICK = 0.2  # seconds between session ticks (heartbeats, away peers, retries)
BEACON_EVERY = 1.0
FLOOD_SAID_EVERY = 10.0  # seconds between two lines about the keys flooding this node
SPECTATOR_GRACE = 3.0  # a finished seat stays this long for spectators still catching up
#: a finished seat waits at most this long after the end (or after it last heard them) for
#: the seats whose acknowledgement of the last entries it misses, unless they left
FINISHED_GRACE = 10.0
MAX_HELLO_ADDRS = 1024  # where hellos said their nodes listen, newest kept
#: a spectator says hello again to a seat it has not heard from for this long (spec/transport.md)
SPECTATOR_HELLO_AGAIN = 2.0


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


#: the node's own events besides the session's
NODE_EVENTS: tuple[type[Event], ...] = (Notice, LogOpened, Connection)


class Node:
    """One node: a session, its transport and its files. The client reads the game through
    `node.session`'s read-only surface and acts through `submit`, `leave` and `stop`."""

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
        #: a secret choice the player made before its seat may commit to it (a seat ahead of
        #: it in the group commits first): committed the moment the session asks for it
        self.held_choice: tuple | None = None
        self._runner: EffectRunner | None = None
        self._stopped = False
        self._timers: list = []
        self._count = itertools.count()
        self._fds: dict[int, Callable[[], None]] = {}
        self._poller: zmq.Poller | None = None
        self._poll_sockets: tuple = ()
        self._next_beacon = 0.0
        self._spectator_intro = False
        self._next_hello = 0.0  # a spectator's next hello to the seats not serving it
        self._unknown_noted: set[bytes] = set()
        self._over_at: float | None = None  # when the game was over here
        self._left = False
        self._resting = False  # the ROUTER is left unpolled for now
        #: by key: the messages dropped unread when it was last said, and when
        self._flood_said: dict[bytes, tuple[int, float]] = {}
        self._chat: ChatFile | None = None  # beside the log, opened with the first line said
        self._chat_failed = False
        #: who answers a rematch here (spec/protocol.md, "Rematch"): "accept" (a bot or the
        #: built-in random player: it accepts any offer at once) or "person" (a person, who
        #: answers with `again` or leaves; the others wait a while for them at the end)
        self.rematch_policy = "accept"
        #: ("accept") rematches this node offers and accepts, then declines; None: it accepts
        #: every rematch offered and offers none
        self.rematches: int | None = None
        #: decides for a seat this node plays taken over (spec/protocol.md, "Takeover"): given
        #: the `TakeoverTurn` and the session, the actions — the client's bot strategy
        #: (client/takeover.py); None, or a strategy that fails: the first legal action
        self.takeover_player: Callable[[TakeoverTurn, Session], list] | None = None

    # -- starting a session ---------------------------------------------------------------------

    def _begin(self, session: Session) -> None:
        self.session = session
        self._runner = EffectRunner(session, self)

    def host(self, secrets: SeatSecrets, game: str, players: int, options: dict, beacon: Beacon | None,
             code: str | None = None, patience: int | None = None, takeover: str | None = None) -> bytes:
        """Open a table (a private one if `code` is given; with this `patience`, the seconds
        a seat may be away before the others may claim it); returns its id."""
        table = os.urandom(16)
        self.secrets = secrets
        self._begin(Session.host(self.identity, secrets, self.name, self.addr, game, players, options,
                                 table, os.urandom, time.monotonic(), code=code, patience=patience, takeover=takeover,
                                 may_watch=self.transport.admission.watches))
        self.beacon = beacon
        return table

    def join(self, secrets: SeatSecrets | None, host_key: bytes, host_addr: str, table: bytes, game: str,
             code: str | None = None) -> None:
        self.secrets = secrets
        self.overrides[host_key] = host_addr
        self.transport.connect(host_key, host_addr)
        session, effects = Session.join(self.identity, secrets, self.name, self.addr, host_key, table, game,
                                        os.urandom, time.monotonic(), code=code,
                                        may_watch=self.transport.admission.watches)
        self._begin(session)
        self.execute(effects)

    def resume(self, files: GameFiles, contents: LogContents) -> None:
        """Go on with a stored game (LedgerError if its log does not check out)."""
        seat = files.seat
        self.files, self.secrets, self.seat_extra = files, secrets_of(seat), dict(seat.extra)
        session, effects = Session.resume(
            self.identity, self.secrets, self.name, self.addr, contents.genesis, seat.addrs,
            list(contents.entries), seat.choice, os.urandom, time.monotonic(),
            may_watch=self.transport.admission.watches, claim=seat.claim)
        self._begin(session)
        self.on_event(LogOpened(files.path))
        self.execute(effects)

    # -- the person's side ------------------------------------------------------------------------

    @property
    def log_path(self) -> Path | None:
        """The game's log file, once the game has one."""
        return None if self.files is None else self.files.path

    def submit(self, actions: list, now: float | None = None) -> None:
        """The local decision (LocalError from the session if it is not allowed). A secret
        choice made while a seat ahead in the group still commits (`Session.choice_ahead`)
        is held here and committed the moment the session asks for it: nothing on the wire
        or in the log differs from a choice made then."""
        s = self.session
        if s is not None and s.decision_kind() is None:
            ahead = s.choice_ahead()
            if ahead:
                self._hold(actions, ahead)
                return
        self.execute(s.submit(actions, time.monotonic() if now is None else now))

    def _hold(self, actions: list, ahead: tuple) -> None:
        chosen = tuple(tuple(a) for a in actions) if isinstance(actions, (list, tuple)) else ()
        if len(chosen) != 1 or chosen[0] not in ahead:
            raise LocalError("That is not one of your secret choices here.")
        self.held_choice = chosen[0]

    def _commit_held(self, turn: YourTurn) -> None:
        """The session asks for the secret choice the player made already: it is committed
        now; if the session no longer takes it, the player is asked after all."""
        held, self.held_choice = self.held_choice, None
        try:
            self.execute(self.session.submit([held], time.monotonic()))
        except LocalError:
            self.on_event(turn)

    def say(self, text: str) -> None:
        """Say `text` to the table (LocalError from the session if it cannot be said now)."""
        if self.session is None:
            raise LocalError("There is no table here yet.")
        self.execute(self.session.say(text, time.monotonic()))

    @property
    def chat_path(self) -> Path | None:
        """Where this game's chat is kept, once the game has a log."""
        return None if self.files is None else chat_path(self.files.path)

    def rematch(self, answer: str) -> None:
        """This seat's answer about playing again: "yes" (an offer, or accepting one) or "no"
        (LocalError from the session if it cannot be said now)."""
        if self.session is None:
            raise LocalError("There is no game here.")
        gone = [i for i in self.session.seats if i.connection == "left"]
        if answer == "yes" and gone and self.session.phase is Phase.OVER:
            raise LocalError(f"Seat {gone[0].index} has left the table: there can be no rematch.")
        self.execute(self.session.rematch(answer))

    def _rematch_pending(self) -> bool:
        """The game is over here and a rematch may still come: the node waits for it."""
        s = self.session
        if s is None or s.phase is not Phase.OVER or self._over_at is None:
            return False
        left = [i.index for i in s.seats if i.connection == "left"]
        return s.rematch_state.pending(s.local_seat, time.monotonic() - self._over_at, left)

    def _rematch_news(self, event: Event) -> None:
        """What follows from the game's end or an answer about a rematch: a bot accepts an
        offer; once every seat said yes, seat 0's node opens the new table, and the others
        join it once it says its id. (Later, on the loop: never inside the effects.)"""
        s = self.session
        if s.local_seat is None or s.phase is not Phase.OVER:
            return
        state = s.rematch_state
        mine = state.answers.get(s.local_seat)
        if self.rematch_policy == "accept" and mine is None and state.declined() is None:
            if self.rematches == 0 and state.offered:
                self.call_later(0, lambda: self._answer_rematch("no"))
            elif self.rematches or (self.rematches is None and state.offered):
                self.call_later(0, lambda: self._answer_rematch("yes"))
        if state.agreed and state.next is None and s.local_seat == 0:
            self.call_later(0, self._open_rematch)
        if isinstance(event, RematchAnswer) and event.next is not None and mine == "yes":
            self.call_later(0, self._join_rematch)

    def _answer_rematch(self, answer: str) -> None:
        s = self.session
        if s.phase is Phase.OVER and s.local_seat is not None and s.rematch_state.answers.get(s.local_seat) is None:
            self.execute(s.rematch(answer))

    def _open_rematch(self) -> None:
        """Seat 0's node, every seat having said yes: the new table, its seats the old ones
        with the first seat moved on, a fresh genesis of its own; the others are told its id."""
        s = self.session
        state = s.rematch_state
        if s.phase is not Phase.OVER or s.local_seat != 0 or not state.agreed or state.next is not None:
            return
        order = next_order(i.key for i in s.seats)
        game, players, options = s.game_name, s.players, dict(s.options)
        table = os.urandom(16)
        self.execute(s.rematch("yes", table))
        self._next_game()
        self.secrets = SeatSecrets.from_master(os.urandom(32))
        self._begin(Session.host(self.identity, self.secrets, self.name, self.addr, game, players, options, table,
                                 os.urandom, time.monotonic(), may_watch=self.transport.admission.watches,
                                 order=order, patience=s.patience, takeover=s.takeover))
        self.on_event(Notice(f"A rematch: table {table.hex()[:8]} is open; you are seat "
                             f"{order.index(self.identity.public_key)} (the first seat moved on)."))
        self.call_later(REMATCH_WAIT, lambda: self._rematch_started(table))

    def _join_rematch(self) -> None:
        """Every seat said yes and seat 0's node has opened the new table: join it."""
        s = self.session
        state = s.rematch_state
        if s.phase is not Phase.OVER or state.next is None or state.answers.get(s.local_seat) != "yes":
            return
        host = next(i for i in s.seats if i.index == 0)
        addr = self.overrides.get(host.key, host.address)
        game, table = s.game_name, state.next
        self._next_game()
        self.on_event(Notice(f"A rematch: joining table {table.hex()[:8]} at seat 0's node ({host.fingerprint})."))
        self.join(SeatSecrets.from_master(os.urandom(32)), host.key, addr, table, game)
        self.call_later(REMATCH_WAIT, lambda: self._rematch_started(table))

    def _rematch_started(self, table: bytes) -> None:
        """Nobody waits for ever: a rematch's table that has not started its game within
        REMATCH_WAIT seconds (a seat never came) is left, and said to be refused."""
        s = self.session
        if s is not None and s.table_id == table and s.phase in (Phase.FORMING, Phase.SIGNING):
            self.leave()
            self.on_event(Refused(f"the rematch did not start within {REMATCH_WAIT:g} s (a seat never came)"))

    def _next_game(self) -> None:
        """The game here is over and another begins on this node: its files are closed
        (they stay as they are), and what the node kept of the old game is forgotten."""
        if self.rematches:
            self.rematches -= 1
        if self.files is not None:
            self.files.close()
            self.files = None
        if self._chat is not None:
            self._chat.close()
            self._chat = None
        self._chat_failed = False
        self._over_at = None
        self._left = False
        self._spectator_intro = False

    def _keep_chat(self, event: Chatted) -> None:
        """Append a line said at the table to the chat file beside the log; a file that cannot
        be written is said once, and the game goes on without keeping its chat."""
        if self.files is None or self._chat_failed:
            return
        try:
            if self._chat is None:
                self._chat = ChatFile(chat_path(self.files.path))
            self._chat.append(event.line)
        except OSError as exc:
            self._chat_failed = True
            self.on_event(Notice(f"cannot keep the table's chat in {self._chat.path if self._chat else '?'}: "
                                 f"{exc.strerror or exc}; the game goes on, its chat is not kept here"))

    def offer(self, how: str) -> None:
        """The local seat offers (or accepts) that the game ends `how` ("drawn", "aborted")."""
        if self.session is None:
            raise LocalError("There is no game here.")
        self.execute(self.session.offer(how, time.monotonic()))

    def decline(self, how: str) -> None:
        """The local seat declines another seat's offer that the game ends `how`."""
        if self.session is None:
            raise LocalError("There is no game here.")
        self.execute(self.session.decline(how, time.monotonic()))

    def claim(self, seat: int) -> None:
        """The local seat claims seat `seat`, away longer than the table's patience
        (protocol.session.LocalError with a sentence if it cannot)."""
        if self.session is None:
            raise LocalError("There is no game here.")
        self.execute(self.session.claim(seat, time.monotonic()))

    def resign(self) -> None:
        """The local seat resigns the game (protocol.session.LocalError with a sentence if it cannot)."""
        if self.session is None:
            raise LocalError("There is no game here.")
        self.execute(self.session.resign(time.monotonic()))

    def leave(self) -> None:
        """Tell the peers this node leaves (once: a second call does nothing)."""
        if self.session is not None and not self._left:
            self._left = True
            self.execute(self.session.leave())

    def remove_seat(self, index: int) -> None:
        """The host removes seat `index` before the game starts (protocol.session.LocalError
        with a sentence if it cannot)."""
        if self.session is None:
            raise LocalError("There is no table here.")
        self.execute(self.session.remove_seat(index, time.monotonic()))

    def stop(self) -> None:
        """End `run` (after what it is doing now)."""
        self._stopped = True

    def call_later(self, delay: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._timers, (time.monotonic() + delay, next(self._count), fn))

    def watch_fd(self, fd: int, callback: Callable[[], None]) -> None:
        self._fds[fd] = callback
        self._poller = None

    def unwatch_fd(self, fd: int) -> None:
        self._fds.pop(fd, None)
        self._poller = None

    # -- carrying out effects (the runner's I/O: protocol.effects.EffectIO) ---------------------

    def execute(self, effects: list) -> None:
        self._runner.carry_out(effects)

    def send(self, key: bytes, data: bytes) -> None:
        if not self.transport.has_route(key):
            addr = self.overrides.get(key)
            stranger = addr is None  # (only its own hello said where it listens)
            addr = addr or self.hello_addrs.get(key)
            if addr is None:
                return  # nobody told us where it listens (a spectator of another seat)
            self.transport.connect(key, addr, stranger=stranger)
        self.transport.send(key, data)

    def store(self, entry: Entry, sync: bool) -> None:
        self.files.append(entry, sync)  # fsynced before anything after it, unless not `sync`

    def sync(self) -> None:
        self.files.sync()

    def unstore(self, entry: Entry) -> None:
        self.files.remove_last(entry)

    def set_aside(self, entries: tuple[Entry, ...]) -> None:
        aside = self.files.set_aside_last(entries)
        self.event(Notice(f"This seat's own last {len(entries)} entr{'y' if len(entries) == 1 else 'ies'}, "
                          f"which no other seat took, are kept aside in {aside}: the claim of this seat replaces them."))

    def store_genesis(self, genesis: SignedGenesis, addrs: tuple[str, ...]) -> None:
        seat = SeatFile(self.identity.secret, None if self.secrets is None else self.secrets.master, self.name,
                        self.addr, tuple(addrs), None, self.seat_extra)
        path = new_log_path(genesis, self.identity, self.games)
        self.files = GameFiles.create(path, genesis, seat)
        self.on_event(LogOpened(path))

    def store_choice(self, actions: tuple, nonce: bytes) -> None:
        self.files.store_choice(actions, nonce)

    def store_claim(self, gone: int, seq: int, prev: bytes) -> None:
        self.files.update_seat(claim=(gone, seq, prev))

    def event(self, event: Event) -> None:
        if isinstance(event, PeersKnown):
            for key, addr in event.peers:
                self.transport.connect(key, self.overrides.get(key, addr))
        elif isinstance(event, SeatTaken):
            # (taken again by a node that restarted: it may listen elsewhere now)
            seat = event.seat
            if seat.connection != "you" and valid_address(seat.address):
                self.transport.connect(seat.key, self.overrides.get(seat.key, seat.address))
        elif isinstance(event, PeerMoved):
            # the seat itself said where it listens now (over its authenticated connection)
            self.overrides.pop(event.key, None)
            self.transport.connect(event.key, event.address)
            if self.files is not None:
                self.files.update_seat(addrs=tuple(s.address for s in self.session.seats))
        elif isinstance(event, GameOver):
            self._over_at = time.monotonic()
            if self.rematch_policy == "person" or self.rematches:
                self.call_later(0, lambda: self._guarded_answer("ask"))
            self._rematch_news(event)
        elif isinstance(event, RematchAnswer):
            self._rematch_news(event)
        elif isinstance(event, GameStarted):
            self.transport.admit_seats([s.key for s in self.session.seats])
            if self.beacon is not None:
                self.beacon.close()
                self.beacon = None
            if self.session.local_seat is None and not self._spectator_intro:
                self._introduce_spectator()
            if (self.rematch_policy == "person" or self.rematches) and self.session.local_seat is not None:
                self.call_later(0, lambda: self._guarded_answer("ask"))
        elif isinstance(event, Chatted):
            self._keep_chat(event)
        elif isinstance(event, InternalFault):
            event = self._keep_details(event)
            self._stopped = True
        elif (isinstance(event, YourTurn) and event.kind == "commit" and self.held_choice is not None
              and self.held_choice in event.legal):
            # (the player chose already: nobody is asked again; committed on the next turn
            # of the loop, outside the effects being carried out now)
            self.call_later(0, lambda: self._commit_held(event))
            return
        elif isinstance(event, YourTurn) and event.kind == "commit":
            self.held_choice = None  # (none, or one the game no longer offers: the player chooses)
        elif isinstance(event, TakeoverTurn):
            # (decided on the next turn of the loop, outside the effects being carried out now)
            self.call_later(0, lambda: self._play_taken_over(event))
        self.on_event(event)

    def _play_taken_over(self, turn: TakeoverTurn) -> None:
        """A seat this node plays taken over must decide: its bot decides, at once."""
        s = self.session
        if s is None:
            return
        actions = None
        if self.takeover_player is not None:
            actions = self.takeover_player(turn, s)
        if not actions:
            actions = [turn.legal[0]]
        for tried in (actions, [turn.legal[0]]):
            try:
                self.execute(s.submit_takeover(turn.seat, tried, time.monotonic()))
                return
            except LocalError:
                continue  # a bot's illegal choice: the first legal action instead (or the moment passed)

    def _spectator_hello(self) -> bytes:
        s = self.session
        return Hello(s.table_id, s.game_name, self.name, self.identity.public_key, "spectator", bytes(32),
                     bytes(32), self.addr, None).to_bytes()

    def _introduce_spectator(self) -> None:
        """A spectator says hello to every seat, so any of them can serve its catch-up and
        reach it (a seat learns where a spectator listens only from its hello)."""
        self._spectator_intro = True
        self._next_hello = time.monotonic() + SPECTATOR_HELLO_AGAIN
        hello = self._spectator_hello()
        for seat in self.session.seats:
            self.send(seat.key, hello)

    def _hello_again(self, now: float) -> None:
        """A spectator says hello again, every 2 s, to each seat it has not heard from for
        2 s: a seat that serves it beats to it every second, so one that is silent lost the
        hello or restarted (a resumed seat knows no spectators) — or is down, and then the
        hello waits in its queue (spec/transport.md, "Spectators")."""
        if not self._spectator_intro or now < self._next_hello:
            return
        self._next_hello = now + SPECTATOR_HELLO_AGAIN
        hello = None
        for seat in self.session.seats:
            if seat.last_heard is None or now - seat.last_heard >= SPECTATOR_HELLO_AGAIN:
                hello = hello or self._spectator_hello()
                self.send(seat.key, hello)

    # -- our own faults ----------------------------------------------------------------------------

    def _keep_details(self, fault: InternalFault) -> InternalFault:
        """Write the fault's traceback to the errors file; the event says where."""
        kept = faults.keep(fault.text, fault.details, self.log_path, self.games)
        if kept.problem is not None:
            return replace(fault, text=f"{fault.text}; {kept.where}")
        return replace(fault, log_path=str(kept.path))

    def _guarded(self, doing: str, work: Callable[[], None]) -> None:
        """Run the node's own work; a fault in it (or in a client callback) is ours: kept,
        shown in a line, and the node stops."""
        try:
            work()
        except Exception as exc:
            if is_disk_full(exc):
                # (the entry being stored was taken back or is a torn tail: nothing acked is
                # lost, and writing the details would only fail again)
                self._stopped = True
                self.on_event(InternalFault(disk_full_text(self.log_path)))
                return
            self.event(faults.fault_of(doing, exc))

    # -- the loop ------------------------------------------------------------------------------

    def _guarded_answer(self, answer: str) -> None:
        try:
            self.execute(self.session.rematch(answer))
        except LocalError:
            pass  # (halted since)

    def finished(self) -> bool:
        """The game is over here and this node need not wait any longer: for the last
        acknowledgements (`settled`), nor for a rematch that may still come (spec/protocol.md,
        "Rematch": at most REMATCH_WAIT seconds after the end)."""
        return self.settled() and not self._rematch_pending()

    def settled(self) -> bool:
        """The game is over here (so this node holds the whole log, every seat's result
        included) and, for a seat, every other seat has acknowledged every entry — or has
        left, or has been silent for `FINISHED_GRACE` seconds since the end or since it was
        last heard: a peer that exited right after the end can never send a lost last ack
        (spec/transport.md, "The loop")."""
        s = self.session
        if s is None or s.phase is not Phase.OVER:
            return False
        if s.local_seat is None or s.confirmed_seq >= s.log_length:
            return True
        now = time.monotonic()
        if self._over_at is None:  # (a game resumed after its end: from now)
            self._over_at = now
        over = self._over_at
        for seat in s.seats:
            if seat.connection in ("you", "left") or s.acked(seat.index) >= s.log_length:
                continue
            if now - max(over, seat.last_heard or over) < FINISHED_GRACE:
                return False
        return True

    def run(self, done: Callable[[], bool], max_seconds: float | None = None) -> bool:
        """Run until `done()` (True), `stop()` or `max_seconds` (False)."""
        start = time.monotonic()
        next_tick = start
        while not self._stopped:
            if done():
                return True
            now = time.monotonic()
            if max_seconds is not None and now - start > max_seconds:
                return False
            if now >= next_tick:
                next_tick = now + TICK
                self._guarded("keeping time", lambda: self._tick(now))
            while self._timers and self._timers[0][0] <= now and not self._stopped:
                _, _, fn = heapq.heappop(self._timers)
                self._guarded("running a timer", fn)
            wake = min(next_tick, self._timers[0][0]) if self._timers else next_tick
            timeout = 0.0 if self._runner.pending else max(0.0, wake - time.monotonic())
            self._guarded("taking input", lambda: self._runner.polled(self._poll(timeout)))
        return done()

    def linger(self, seconds: float, hold: bool = False) -> None:
        """Keep serving for `seconds` after the game ended here, whatever stopped the run,
        if spectators may still be catching up from this node; and, when the game ended by
        a claim, up to `FINISHED_GRACE` seconds for the claimed seat to come back and learn
        it (it watches then, told why: spec/protocol.md, "Endings") — or, `hold`, until the
        node is stopped (a person still looking at the end: the full-screen client)."""
        s = self.session
        if s is None or s.halt is not None:
            return
        ending = s.ending
        gone = ending.seats if ending is not None and ending.how == "claimed" else ()
        if gone and s.local_seat not in gone:
            self._stopped = False
            self.run(lambda: all(s.acked(g) >= s.log_length for g in gone),
                     max_seconds=None if hold else max(seconds, FINISHED_GRACE))
        elif s.spectators:
            self._stopped = False
            self.run(lambda: False, max_seconds=seconds)

    def _tick(self, now: float) -> None:
        for change in self.transport.connection_news():
            self.on_event(Connection(change))
        if self.transport.beyond:
            self._say_floods(now)
        self.execute(self.session.tick(now))
        self._announce(now)
        if self.session.local_seat is None and self.session.phase in (Phase.PLAYING, Phase.OVER):
            self._hello_again(now)

    def _say_floods(self, now: float) -> None:
        """Who sent beyond its budget since it was said: at once, then at most every
        `FLOOD_SAID_EVERY` seconds for each key (spec/transport.md, "Budgets")."""
        for key, dropped in self.transport.flooding().items():
            said, at = self._flood_said.get(key, (0, -FLOOD_SAID_EVERY))
            if dropped > said and now - at >= FLOOD_SAID_EVERY:
                self._flood_said[key] = (dropped, now)
                who = fingerprint(key) if len(key) == 32 else f"CURVE key {key[:8].decode()}…"
                self.on_event(Notice(f"{who} is flooding this node: {dropped} messages beyond its budget of "
                                     f"{MESSAGES_PER_SECOND} messages and {BYTES_PER_SECOND >> 20} MiB a second "
                                     f"dropped unread so far"))

    def _poll(self, timeout: float) -> bool:
        """Wait up to `timeout` for input and handle it; False if there was none, or the
        messages that were waiting are all taken and no more has come."""
        sockets = tuple(self.transport.sockets())
        if self._poller is None or sockets != self._poll_sockets:
            self._poller = zmq.Poller()
            for sock in sockets:
                self._poller.register(sock, zmq.POLLIN)
            for fd in self._fds:
                self._poller.register(fd, zmq.POLLIN)
            self._poll_sockets = sockets
            self._resting = False
        # a node that read as much as it reads in all for now rests from the ROUTER
        # (spec/transport.md, "Budgets"): it polls everything else meanwhile
        rest = self.transport.resting_until - time.monotonic()
        resting = rest > 0
        if resting != self._resting:
            self._resting = resting
            self._poller.modify(self.transport.router, 0 if resting else zmq.POLLIN)
        # (in whole milliseconds, rounded up: ZeroMQ's poll would take a timeout under 1 ms as
        # 0 and the loop would spin until a timer is due)
        ready = self._poller.poll(math.ceil((min(timeout, rest) if resting else timeout) * 1000))
        busy = False
        for sock, _ in ready:
            if sock is self.transport.router:
                self._receive()
                # a step waiting for the input to be taken (`NextStep`) runs at once if no
                # message came meanwhile: asking the ROUTER costs a fifth of the turn of the
                # loop and the empty poll it would take to find that out (spec/transport.md,
                # "The loop")
                busy = busy or (self._runner.pending and self.transport.waiting())
            else:
                busy = True
                if sock is self.transport.zap:
                    self.transport.answer_zap()
                else:
                    callback = self._fds.get(sock)
                    if callback is not None:
                        callback()
        return busy

    def _receive(self) -> None:
        for key, curve, data in self.transport.receive(time.monotonic()):
            if key is None or not self.transport.has_route(key):
                key = self._from_hello(key, curve, data)
                if key is None:
                    continue
            effects = self.session.receive(key, data, time.monotonic(), self.transport.source(curve))
            if effects:  # (most often none: a flood's message dropped unread)
                self.execute(effects)

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
                self.hello_addrs.pop(message.key, None)
                self.hello_addrs[message.key] = message.addr
                if len(self.hello_addrs) > MAX_HELLO_ADDRS:  # the oldest first: fresh keys cannot grow it
                    del self.hello_addrs[next(iter(self.hello_addrs))]
            return message.key
        return key

    def _announce(self, now: float) -> None:
        s = self.session
        if self.beacon is None or s.phase not in (Phase.FORMING, Phase.SIGNING) or now < self._next_beacon:
            return
        self._next_beacon = now + BEACON_EVERY
        port = int(self.transport.endpoint.rsplit(":", 1)[1])
        data = beacon_bytes(s.game_name, s.players, s.players - len(s.seats), self.name, self.identity,
                            s.table_id, port, s.private)
        for target in self.beacon.send(data):
            self.on_event(Notice(f"cannot announce the table to {target} (no network there?); "
                                 f"others can still join by address"))

    def close(self, linger: float = 1.0) -> None:
        if self.beacon is not None:
            self.beacon.close()
        self.transport.close(int(linger * 1000))
        if self.files is not None:
            self.files.close()
        if self._chat is not None:
            self._chat.close()


def _curve_or_none(key: bytes) -> bytes | None:
    try:
        return curve_public(key)
    except ValueError:
        return None
