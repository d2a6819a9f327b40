"""The node's sockets: one ROUTER it binds, one DEALER it connects to each peer (the Zyre
shape), CurveZMQ on every one of them, and a ZAP handler that decides which keys may
complete a handshake (spec/transport.md).

Everything here is non-blocking and driven from the node's single event loop: the loop polls
`sockets()` (the ROUTER and the ZAP handler) and calls `receive` and `answer_zap` when they
are ready, and `connection_news` at each tick (the DEALERs' monitors are not polled: each
socket polled costs every wakeup of the loop, and what a monitor says can wait a tick). Outbound messages go
only through DEALERs (one per peer, queued while the peer is away, bounded by the HWM); the
ROUTER only receives, and it is ROUTER_MANDATORY so a send on it could never vanish silently.
The sender of every received message is the key the CURVE handshake authenticated (the ZAP
User-Id), never a claim inside the message. What one key may send, and what the node reads
from everyone, is budgeted before anything is decoded (spec/transport.md, "Budgets").
"""
from __future__ import annotations

import errno
import re
import time
from dataclasses import dataclass, field

import zmq
from zmq.utils import z85
from zmq.utils.monitor import parse_monitor_message

from peerboard.node.keys import curve_keypair, curve_public
from peerboard.protocol.log import Identity

ZAP_ENDPOINT = "inproc://zeromq.zap.01"
ZAP_DOMAIN = b"peerboard"
HWM = 1000  # messages queued per peer before new ones are dropped (the session repairs gaps)
RECEIVE_BATCH = 256  # messages taken per poll, so timers and the ZAP handler are never starved
RECONNECT_MS, RECONNECT_MAX_MS = 100, 1000
# DEALERs (each with its monitor: three descriptors) to keys that only said hello
MAX_STRANGERS = 32
MAX_STRANGERS_PER_HOST = 4
MAX_SOURCES = 1024  # addresses of keys not yet known, the newest kept
#: what one key may send a second (spec/transport.md, "Budgets"): beyond it, dropped unread.
#: An honest seat sends an ack and at most one entry per entry of the game and a beat a second
MESSAGES_PER_SECOND = 2000
BYTES_PER_SECOND = 4 * 1024 * 1024  # (a message is at most 256 KiB)
MAX_ALLOWANCES = 1024  # keys whose budget is kept, the one made longest ago forgotten first
#: messages read from the ROUTER a second, from everyone together: beyond it the node rests
#: from reading (for `REST_FOR` messages' worth of time) and a flood backs up into its
#: sender's own queues, costing its sender's process as little as this one's
MESSAGES_IN_ALL_PER_SECOND = 10000
REST_FOR = 20
ADDRESS = re.compile(r"^tcp://[A-Za-z0-9.\-\[\]:]+:[0-9]{1,5}$")
# pyzmq's constants are enum members: `an int & zmq.POLLIN` runs the enum's own `__and__`
# in Python and makes a new member (2-3 us), for every message read. As plain ints, the
# same test is one C operation
_EVENTS, _POLLIN = int(zmq.EVENTS), int(zmq.POLLIN)


class TransportError(Exception):
    """The node cannot listen where it was asked; the text is the whole explanation."""


@dataclass
class Admission:
    """Which CURVE keys may connect. While a table forms anyone may (a joiner's key is not
    known before its hello); once the genesis is signed, only the seats and the spectators
    this node admits (`spectator_keys`, or any key if `open_to_spectators`)."""

    forming: bool = True
    seats: set[bytes] = field(default_factory=set)  # z85 curve keys
    spectator_keys: set[bytes] = field(default_factory=set)
    open_to_spectators: bool = False

    def allows(self, curve_key: bytes) -> bool:
        return (self.forming or self.open_to_spectators or curve_key in self.seats
                or curve_key in self.spectator_keys)

    def watches(self, key: bytes) -> bool:
        """Whether the spectator with Ed25519 key `key` is admitted (the session asks, so a
        spectator's hello while any key may connect is refused before it is sent anything)."""
        if self.open_to_spectators:
            return True
        try:
            return curve_public(key) in self.spectator_keys
        except ValueError:  # (no CURVE form: no key of a node)
            return False


@dataclass(frozen=True)
class ConnectionEvent:
    """What a DEALER's monitor said about the connection to `peer`."""

    peer: bytes  # Ed25519 key
    addr: str
    what: str  # "connected", "disconnected", "refused" (our key), "wrong-key" (theirs)


def valid_address(addr: str) -> bool:
    return bool(ADDRESS.match(addr))


class Transport:
    def __init__(self, identity: Identity, bind: str, admission: Admission, hwm: int = HWM):
        self.identity = identity
        self.admission = admission
        self.hwm = hwm
        self.public, self._secret = curve_keypair(identity)
        self.context = zmq.Context()
        self.zap = self.context.socket(zmq.REP)
        self.zap.linger = 0
        self.zap.bind(ZAP_ENDPOINT)
        self.router = self.context.socket(zmq.ROUTER)
        self.router.linger = 0
        self.router.curve_server = True
        self.router.curve_publickey, self.router.curve_secretkey = self.public, self._secret
        self.router.zap_domain = ZAP_DOMAIN
        self.router.setsockopt(zmq.ROUTER_MANDATORY, 1)
        self.router.rcvhwm = hwm * 8
        self.router.sndhwm = hwm
        try:
            self.router.bind(bind)
        except zmq.ZMQError as exc:
            self.close()
            raise TransportError(_bind_problem(bind, exc)) from None
        self.endpoint = self.router.getsockopt(zmq.LAST_ENDPOINT).decode()
        self.names: dict[bytes, bytes] = {}  # z85 curve key -> Ed25519 key
        self.dealers: dict[bytes, tuple[str, zmq.Socket, zmq.Socket]] = {}  # key -> (addr, dealer, monitor)
        self.dropped = 0  # sends refused by a full queue
        #: the DEALERs to strangers (keys only a hello named: no seat, no spectator this node
        #: admits), oldest first: bounded, so hellos from fresh keys cannot use up this
        #: process's sockets and files
        self.strangers: dict[bytes, None] = {}
        self.strangers_dropped = 0
        #: the network address each key not yet known sent from (z85 curve key -> address),
        #: the newest kept: a private table's host backs off wrong codes by it
        self.sources: dict[bytes, str] = {}
        #: each key's budget left: [messages, bytes, when it was last filled]
        self.allowances: dict[bytes, list] = {}
        #: messages dropped unread because their key was beyond its budget, by key
        self.beyond: dict[bytes, int] = {}
        #: messages that may be read now from everyone together, and since when
        self.inbound: list[float] = [MESSAGES_IN_ALL_PER_SECOND, time.monotonic()]
        #: the node reads the ROUTER again from then (its loop leaves it unpolled till then)
        self.resting_until = 0.0

    # -- who is who -------------------------------------------------------------------------

    def know(self, key: bytes) -> bytes:
        """Remember that `key`'s CURVE form belongs to it; returns that CURVE form."""
        curve = curve_public(key)
        self.names[curve] = key
        return curve

    def admit_seats(self, keys) -> None:
        """The table is formed: from now on only these seats (and admitted spectators)."""
        self.admission.seats = {self.know(k) for k in keys}
        self.admission.forming = False

    # -- outbound ---------------------------------------------------------------------------

    def connect(self, key: bytes, addr: str, stranger: bool = False) -> None:
        """Have a DEALER to `key` at `addr` (a new one if the address changed). A `stranger`
        is a key that only said hello: at most MAX_STRANGERS of those have a DEALER, at most
        MAX_STRANGERS_PER_HOST at one host address, the oldest closed first to make room.
        A key connected as no stranger is one from then on."""
        if key == self.identity.public_key or not valid_address(addr):
            return
        if not stranger:
            self.strangers.pop(key, None)
        current = self.dealers.get(key)
        if current is not None:
            if current[0] == addr:
                return
            self._drop_dealer(key, linger=0)
        if stranger and key not in self.strangers:
            self._make_room_for_stranger(addr)
            self.strangers[key] = None
        self.know(key)
        dealer = self.context.socket(zmq.DEALER)
        dealer.linger = 0
        dealer.sndhwm = self.hwm
        dealer.reconnect_ivl, dealer.reconnect_ivl_max = RECONNECT_MS, RECONNECT_MAX_MS
        dealer.curve_publickey, dealer.curve_secretkey = self.public, self._secret
        dealer.curve_serverkey = curve_public(key)
        monitor = dealer.get_monitor_socket(
            zmq.EVENT_HANDSHAKE_SUCCEEDED | zmq.EVENT_HANDSHAKE_FAILED_AUTH
            | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.EVENT_DISCONNECTED
        )
        dealer.connect(addr)
        self.dealers[key] = (addr, dealer, monitor)

    def _make_room_for_stranger(self, addr: str) -> None:
        host = addr.rsplit(":", 1)[0]
        same_host = [k for k in self.strangers if self.dealers[k][0].rsplit(":", 1)[0] == host]
        for victims in (same_host[:max(0, len(same_host) - MAX_STRANGERS_PER_HOST + 1)],
                        list(self.strangers)[:max(0, len(self.strangers) - MAX_STRANGERS + 1)]):
            for victim in victims:
                if victim in self.strangers:
                    self.forget(victim)
                    self.strangers_dropped += 1

    def forget(self, key: bytes) -> None:
        """Close the DEALER to `key` (a stranger refused, or one pushed out by newer ones);
        a message to it later opens a new one."""
        self.strangers.pop(key, None)
        if key in self.dealers:
            self._drop_dealer(key, linger=0)

    def has_route(self, key: bytes) -> bool:
        return key in self.dealers

    def send(self, key: bytes, data: bytes) -> bool:
        """Queue `data` for `key`; False when there is no route or the queue is full."""
        route = self.dealers.get(key)
        if route is None:
            return False
        try:
            route[1].send(data, zmq.NOBLOCK)
            return True
        except zmq.Again:
            self.dropped += 1
            return False

    # -- inbound ----------------------------------------------------------------------------

    def sockets(self) -> list[zmq.Socket]:
        """What the loop polls: the ROUTER and the ZAP handler (see `connection_news`)."""
        return [self.router, self.zap]

    def receive(self, now: float | None = None) -> list[tuple[bytes | None, bytes, bytes]]:
        """Waiting messages as (sender's Ed25519 key or None if not yet known, its
        authenticated CURVE key, data); those beyond their key's budget (at time `now`) are
        dropped unread and counted in `beyond`."""
        out = []
        router = self.router
        now = time.monotonic() if now is None else now
        allowances = self.allowances
        inbound = self.inbound
        if inbound[1] < now:
            inbound[0] = min(MESSAGES_IN_ALL_PER_SECOND, inbound[0] + (now - inbound[1]) * MESSAGES_IN_ALL_PER_SECOND)
            inbound[1] = now
        most = min(RECEIVE_BATCH, int(inbound[0]))
        read = 0
        # This runs for every message, a flood's too. After each message the socket's EVENTS
        # say whether another waits: a batch ended by a zmq.Again cost 30-35 us of CPU in a
        # node woken from its poll (pyzmq builds the exception in Python), one EVENTS 5-8 us,
        # and most batches are one message (spec/transport.md, "Latency"). Only the data
        # frame is taken as a Frame (for its User-Id).
        events = router.getsockopt
        for _ in range(most):
            try:
                router.recv(zmq.NOBLOCK)  # the routing id ZeroMQ gave the connection
            except zmq.Again:
                break
            read += 1
            frame = router.recv(copy=False)
            if frame.more:  # a DEALER of ours sends exactly one frame: drop the whole message
                while router.recv(copy=False).more:
                    pass
                continue
            curve = frame.get("User-Id").encode()
            # the budget, inline: a flood's every message comes through here
            left = allowances.get(curve)
            if left is None:
                left = allowances[curve] = [MESSAGES_PER_SECOND, BYTES_PER_SECOND, now]
                if len(allowances) > MAX_ALLOWANCES:
                    del allowances[next(iter(allowances))]
            elif left[2] < now:
                passed, left[2] = now - left[2], now
                left[0] = min(MESSAGES_PER_SECOND, left[0] + passed * MESSAGES_PER_SECOND)
                left[1] = min(BYTES_PER_SECOND, left[1] + passed * BYTES_PER_SECOND)
            size = len(frame)
            if left[0] < 1 or left[1] < size:
                self.beyond[curve] = self.beyond.get(curve, 0) + 1
                if len(self.beyond) > MAX_ALLOWANCES:
                    del self.beyond[next(iter(self.beyond))]
                continue
            left[0] -= 1
            left[1] -= size
            key = self.names.get(curve)
            if key is None:  # (a hello, most likely: only then is the address wanted)
                self.sources.pop(curve, None)
                self.sources[curve] = frame.get("Peer-Address")
                if len(self.sources) > MAX_SOURCES:
                    del self.sources[next(iter(self.sources))]
            out.append((key, curve, frame.bytes))
            if not events(_EVENTS) & _POLLIN:
                break
        inbound[0] -= read
        if inbound[0] < REST_FOR:
            self.resting_until = now + (REST_FOR - inbound[0]) / MESSAGES_IN_ALL_PER_SECOND
        return out

    def waiting(self) -> bool:
        """Whether a message waits to be read now (one the node rests from reading, too)."""
        return bool(self.router.getsockopt(_EVENTS) & _POLLIN)

    def flooding(self) -> dict[bytes, int]:
        """Messages dropped unread so far, by the Ed25519 key (or, not yet known, the z85
        CURVE key) of their sender: every key that went beyond its budget."""
        return {self.names.get(curve, curve): n for curve, n in self.beyond.items()}

    def source(self, curve: bytes) -> str:
        """The network address the key `curve` (z85) first sent from, "" if not known."""
        return self.sources.get(curve, "")

    def answer_zap(self) -> None:
        """Answer waiting ZAP requests (RFC 27): CURVE keys the admission allows, nothing else."""
        for _ in range(RECEIVE_BATCH):
            try:
                request = self.zap.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            if len(request) < 6:
                continue  # malformed: libzmq never sends this; nothing to answer
            version, request_id, mechanism = request[0], request[1], request[5]
            curve = z85.encode(request[6]) if mechanism == b"CURVE" and len(request) == 7 else b""
            if version == b"1.0" and curve and self.admission.allows(curve):
                self.zap.send_multipart([b"1.0", request_id, b"200", b"OK", curve, b""])
            else:
                self.zap.send_multipart([b"1.0", request_id, b"400", b"key not admitted", b"", b""])

    def connection_news(self) -> list[ConnectionEvent]:
        """What every DEALER's monitor said since this was last asked."""
        out = []
        for key, (addr, _, monitor) in self.dealers.items():
            out += _monitor_news(key, addr, monitor)
        return out

    def connection_events(self, sock: zmq.Socket) -> list[ConnectionEvent]:
        """What the monitor `sock` (of one of the DEALERs) said since it was last read."""
        for key, (addr, _, monitor) in self.dealers.items():
            if monitor is sock:
                return _monitor_news(key, addr, monitor)
        return []

    # -- the end ----------------------------------------------------------------------------

    def _drop_dealer(self, key: bytes, linger: int) -> None:
        addr, dealer, monitor = self.dealers.pop(key)
        dealer.disable_monitor()
        monitor.close(linger=0)
        dealer.close(linger=linger)

    def close(self, linger_ms: int = 0) -> None:
        """Close every socket; queued messages get up to `linger_ms` to leave."""
        for key in list(getattr(self, "dealers", {})):
            self._drop_dealer(key, linger_ms)
        for sock in (getattr(self, "router", None), self.zap):
            if sock is not None:
                sock.close(linger=0)
        self.context.term()


#: what a DEALER's monitor events mean to the node
_MONITOR_EVENTS = {
    zmq.EVENT_HANDSHAKE_SUCCEEDED: "connected",
    zmq.EVENT_DISCONNECTED: "disconnected",
    zmq.EVENT_HANDSHAKE_FAILED_AUTH: "refused",
    # a server that cannot open our HELLO (we used the wrong key for it) drops the
    # connection: the client sees a failure without detail
    zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL: "wrong-key",
    zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL: "wrong-key",
}


def _monitor_news(key: bytes, addr: str, monitor: zmq.Socket) -> list[ConnectionEvent]:
    out = []
    # (asked at every tick of every monitor, which almost always has nothing: its EVENTS
    # cost a fifth of the zmq.Again an empty read raises, see `receive`)
    while monitor.getsockopt(_EVENTS) & _POLLIN:
        try:
            event = parse_monitor_message(monitor.recv_multipart(zmq.NOBLOCK))
        except zmq.Again:
            return out
        what = _MONITOR_EVENTS.get(event["event"])
        if what is not None:
            out.append(ConnectionEvent(key, addr, what))
    return out


def _bind_problem(bind: str, exc: zmq.ZMQError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return f"{bind} is already in use by another program; choose another port with --bind"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot listen on {bind}: no network interface of this machine has that address"
    if exc.errno == errno.EINVAL or exc.errno == errno.EPROTONOSUPPORT:
        return f"cannot listen on {bind!r}: give an address like tcp://0.0.0.0:0 or tcp://192.168.1.5:7000"
    if exc.errno == errno.ENODEV:
        return f"cannot listen on {bind}: there is no such network interface (no network?)"
    return f"cannot listen on {bind}: {exc.strerror}"
