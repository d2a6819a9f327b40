"""Finding open tables on the LAN with no server: a host sends a small UDP beacon about once
a second to the broadcast address of each interface it listens on; `listen` collects them
(spec/transport.md, "Discovery").

A beacon is b"PBRD" followed by a canonical msgpack map: the protocol version, the game, the
seats and how many are free, the host's name, its full Ed25519 public key (a joiner needs it
for CURVE; the fingerprint people compare is derived from it), the table id, the TCP port
of the host's ROUTER, whether the table is private (its code never travels), and the host
key's signature of all that. The host's address is the beacon's source address, so a host
listening on every interface needs no idea of its own address. A listener (`Heard`) keeps a
bounded list that a flood of forged beacons cannot fill with noise.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import socket
import struct
import time
from array import array
from dataclasses import dataclass, field
from typing import Callable

from peerboard.engines.canonical import encode
from peerboard.protocol.log import (
    DecodeError, Identity, KEY_BYTES, Limits, MAX_NAME, MAX_SEATS, PROTOCOL_VERSION, SIG_BYTES, TABLE_BYTES,
    decode, fingerprint, name_problem, verify,
)

MAGIC = b"PBRD"
DEFAULT_PORT = 47474
LOOPBACK_BROADCAST = "127.255.255.255"
BEACON_LIMITS = Limits(size=1024, depth=2, length=16, text=64)
SIGNED = b"peerboard beacon\x00"  # what a beacon's signature covers: this, then its other fields
_SIOCGIFFLAGS, _SIOCGIFADDR, _SIOCGIFBRDADDR = 0x8913, 0x8915, 0x8919
_IFF_UP, _IFF_BROADCAST = 0x1, 0x2
MAX_TABLES = 64  # tables one listener keeps
MAX_PER_SOURCE = 4  # of them announced from one source address
MOVED_AFTER = 5.0  # seconds a table's address must be silent before another address may update it
GAME_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_BEACON_TYPES = {"v": int, "game": str, "players": int, "free": int, "name": str, "key": bytes, "table": bytes,
                 "port": int, "private": bool}
_BEACON_KEYS = set(_BEACON_TYPES)
_SIGNED_TYPES = {**_BEACON_TYPES, "sig": bytes}
_SIGNED_KEYS = set(_SIGNED_TYPES)


def beacon_port() -> int:
    """The UDP port of beacons: $PEERBOARD_BEACON_PORT, else 47474."""
    text = os.environ.get("PEERBOARD_BEACON_PORT", "")
    return int(text) if text.isdigit() and 0 < int(text) < 65536 else DEFAULT_PORT


@dataclass(frozen=True)
class Table:
    """An open table as a beacon describes it."""

    version: int
    game: str
    players: int
    free: int
    name: str  # the host's display name
    key: bytes  # the host's Ed25519 public key
    table: bytes  # 16 bytes
    endpoint: str  # tcp://<the beacon's source address>:<port>
    private: bool = False  # a joiner needs the table's code (`join --code`)
    #: the signature and the bytes it signs (empty for another version's beacon, which has none)
    proof: bytes = field(default=b"", repr=False, compare=False)

    def authentic(self) -> bool:
        """Whether the host's key is an Ed25519 key that signed this beacon's fields."""
        sig, message = self.proof[:SIG_BYTES], self.proof[SIG_BYTES:]
        return bool(message) and verify(self.key, message, sig)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    @property
    def table_id(self) -> str:
        return self.table.hex()


def beacon_bytes(game: str, players: int, free: int, name: str, host: Identity, table: bytes, port: int,
                 private: bool = False) -> bytes:
    """The beacon of a table `host` announces, signed by the host's key."""
    body = {"v": PROTOCOL_VERSION, "game": game, "players": players, "free": free, "name": name[:MAX_NAME],
            "key": host.public_key, "table": table, "port": port, "private": private}
    return MAGIC + encode({**body, "sig": host.sign(SIGNED + encode(body))})


def parse_beacon(data: bytes, source: str) -> Table | None:
    """The table a datagram announces, or None for anything else (never raises).

    Beacons are untrusted: every field is checked before a table is listed — a known
    shape of game name, a seat count a table can have, a printable host name, a real port.
    These checks are cheap, so a flood costs little; the costly one — that the key is an
    Ed25519 point and signed these very fields (`Table.authentic`) — is left to `Heard`,
    which makes it once for each table it keeps, never for each datagram."""
    if not data.startswith(MAGIC):
        return None
    try:
        m = decode(data[len(MAGIC):], BEACON_LIMITS)
    except DecodeError:
        return None
    if not isinstance(m, dict) or type(m.get("v")) is not int:
        return None
    # another version's beacon is listed (as not joinable) if it has this version's fields
    # but for `private` and `sig`, so that joining it can say which version it speaks
    current = m["v"] == PROTOCOL_VERSION
    needed = _SIGNED_KEYS if current else _BEACON_KEYS - {"private"}
    if not needed <= m.keys() or (current and m.keys() != _SIGNED_KEYS):
        return None
    if any(type(m[k]) is not t for k, t in _SIGNED_TYPES.items() if k in needed):
        return None
    if not (0 <= m["v"] < 1 << 16 and GAME_NAME.match(m["game"]) and 1 <= m["players"] <= MAX_SEATS
            and 0 <= m["free"] <= m["players"] and 0 < m["port"] < 65536):
        return None
    if len(m["key"]) != KEY_BYTES or len(m["table"]) != TABLE_BYTES or name_problem(m["name"], MAX_NAME):
        return None
    proof = b""
    if current:  # (another version's key is shown, never used: it is not checked)
        if len(m["sig"]) != SIG_BYTES:
            return None
        proof = m["sig"] + SIGNED + encode({k: m[k] for k in _BEACON_KEYS})
    return Table(m["v"], m["game"], m["players"], m["free"], m["name"], m["key"], m["table"],
                 f"tcp://{source}:{m['port']}", m.get("private") is True, proof)


class Recurrence:
    """How many distinct seconds of the last minute or so something was heard in, for any
    number of things in fixed memory (a count-min sketch whose cells count seconds, not
    datagrams, kept in two windows that take turns).

    A host beacons about once a second, so its table recurs; a flood of forged beacons
    from fresh keys and addresses makes each of its tables once. Counting seconds rather
    than datagrams means repeating one beacon fast earns nothing over a real host's pace.
    A count can only be too high (cells are shared), never too low."""

    ROWS = 4
    WIDTH = 1 << 16
    WINDOW = 30.0  # seconds; a count covers the last one to two windows

    def __init__(self) -> None:
        self._windows = [self._fresh(), self._fresh()]
        self._window_start: float | None = None

    def _fresh(self) -> tuple[list[array], list[array]]:
        return ([array("I", bytes(4 * self.WIDTH)) for _ in range(self.ROWS)],
                [array("I", bytes(4 * self.WIDTH)) for _ in range(self.ROWS)])

    def _cells(self, thing: bytes) -> list[int]:
        digest = hashlib.blake2b(thing, digest_size=2 * self.ROWS).digest()
        return [int.from_bytes(digest[2 * r:2 * r + 2], "little") for r in range(self.ROWS)]

    def _turn(self, now: float) -> None:
        if self._window_start is None:
            self._window_start = now
        elif now - self._window_start >= self.WINDOW:
            # the older window is forgotten; two windows unheard forget everything
            self._windows = [self._windows[1] if now - self._window_start < 2 * self.WINDOW else self._fresh(),
                             self._fresh()]
            self._window_start = now

    def hear(self, thing: bytes, now: float) -> int:
        """Count `thing` heard at `now` (seconds); its count afterwards."""
        self._turn(now)
        second = int(now) + 1  # (0 stands for "never" in the cells)
        counts, seconds = self._windows[1]
        cells = self._cells(thing)
        for row, cell in enumerate(cells):
            if seconds[row][cell] != second:
                seconds[row][cell] = second
                counts[row][cell] += 1
        return self._count(cells)

    def count(self, thing: bytes) -> int:
        return self._count(self._cells(thing))

    def _count(self, cells: list[int]) -> int:
        (old, _), (new, _) = self._windows
        return min(old[row][cell] + new[row][cell] for row, cell in enumerate(cells))


class Heard:
    """The tables heard so far, bounded against floods, from one machine or many.

    At most `MAX_TABLES` tables are kept, at most `MAX_PER_SOURCE` announced from one
    source address. When a bound is reached a new table takes the place of the weakest
    kept one only if it recurs more (`Recurrence`: a real host's beacon comes back every
    second, a forged one mostly never), or is signed by its key where the weakest is not:
    a flood of one-off forgeries cannot push out a table heard a few times, nor forgeries
    of another version repeated from a host's own address hide it. A table is one
    (table id, host key) pair, so a second host claiming a real table's id is a second
    entry, never a replacement; a kept table is updated only by beacons from the address
    it was heard at (another address takes over once that one has been silent for
    `MOVED_AFTER` seconds), whose fields its key signed. Signatures are checked once per
    table kept and once per change of what it says, never once per datagram."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.tables: dict[tuple[bytes, bytes], Table] = {}
        self.ignored = 0  # beacons of new tables dropped because a bound was reached
        #: beacons of a kept table heard from another address while it is still heard at its
        #: own (a host heard on two interfaces, or a replay): not "further tables"
        self.echoes = 0
        self.malformed = 0  # datagrams on the beacon port that were no valid beacon
        self.forged = 0  # beacons whose signature did not check out
        self._clock = clock
        self._recurrence = Recurrence()
        # of each table kept: the address it is heard at, when it was last heard, in how
        # many seconds (Recurrence) as of then, and whether its beacon checked out (once known)
        self._source: dict[tuple[bytes, bytes], str] = {}
        self._by_source: dict[str, set[tuple[bytes, bytes]]] = {}
        self._last: dict[tuple[bytes, bytes], float] = {}
        self._strength: dict[tuple[bytes, bytes], int] = {}
        self._authentic: dict[tuple[bytes, bytes], bool] = {}
        self._weakest: tuple[bytes, bytes] | None = None  # of all kept, while nothing changed

    def add(self, table: Table, source: str) -> bool:
        """Take one table; False if it was dropped (a bound, a forgery, another address)."""
        now = self._clock()
        ident = (table.table, table.key)
        strength = self._recurrence.hear(ident[0] + ident[1] + source.encode(), now)
        kept = self.tables.get(ident)
        if kept is not None:
            if self._source[ident] != source:
                if now - self._last[ident] < MOVED_AFTER:
                    self.echoes += 1  # a replay from elsewhere while the host is still heard where it was
                    return False
                self.forget(ident)  # the host moved: heard afresh at its new address
                return self.add(table, source)
            if kept.proof != table.proof:
                if table.version == PROTOCOL_VERSION and not table.authentic():
                    self.forged += 1
                    return False
                self._authentic[ident] = table.version == PROTOCOL_VERSION
            self.tables[ident] = table
            self._last[ident], self._strength[ident] = now, strength
            self._weakest = None
            return True
        for scope, bound in ((self._by_source.get(source, ()), MAX_PER_SOURCE), (self.tables, MAX_TABLES)):
            if len(scope) >= bound and not self._displace(scope, table, strength):
                self.ignored += 1
                return False
        self._weakest = None
        self.tables[ident] = table
        self._source[ident] = source
        self._by_source.setdefault(source, set()).add(ident)
        self._last[ident], self._strength[ident] = now, strength
        return True

    def _standing(self, ident: tuple[bytes, bytes]) -> tuple[bool, int, float]:
        return self._is_authentic(ident), self._strength[ident], self._last[ident]

    def _displace(self, scope, table: Table, strength: int) -> bool:
        """Make room in `scope` for `table` (heard in `strength` seconds), if it deserves it:
        by recurring clearly more than the weakest kept table (a kept table's count is as of
        its last beacon, up to a second ago, so one more is no more), or, against a table
        whose beacon was never signed by its key, by being signed and heard twice (so a
        one-off costs no signature check, and a host's own beacons beat forgeries that came
        first)."""
        if scope is self.tables:  # (a flood asks this for every datagram: it is worked out once per change)
            if self._weakest is None:
                self._weakest = min(scope, key=self._standing)
            weakest = self._weakest
        else:
            weakest = min(scope, key=self._standing)
        authentic, recurs, _ = self._standing(weakest)
        if strength > recurs + 1 or (not authentic and strength >= 2 and table.version == PROTOCOL_VERSION
                                     and table.authentic()):
            self.forget(weakest)
            return True
        return False

    def _is_authentic(self, ident: tuple[bytes, bytes]) -> bool:
        if ident not in self._authentic:
            table = self.tables[ident]
            self._authentic[ident] = table.version == PROTOCOL_VERSION and table.authentic()
        return self._authentic[ident]

    def forget(self, ident: tuple[bytes, bytes]) -> None:
        """Drop a table (one gone silent, or the weakest making room)."""
        if self.tables.pop(ident, None) is None:
            return
        self._weakest = None
        source = self._source.pop(ident)
        self._by_source[source].discard(ident)
        if not self._by_source[source]:
            del self._by_source[source]
        for known in (self._last, self._strength, self._authentic):
            known.pop(ident, None)

    def listed(self) -> list[Table]:
        """The tables kept, sorted, without the ones whose beacon is not signed by its key
        (those are forgotten and counted as forged). Another version's tables are listed,
        unchecked: they are shown as not joinable."""
        for ident in [i for i, t in self.tables.items() if t.version == PROTOCOL_VERSION]:
            if not self._is_authentic(ident):
                self.forged += 1
                self.forget(ident)
        return sorted(self.tables.values(), key=lambda t: (t.game, t.name, t.table, t.key))


def _ifreq(sock: socket.socket, request: int, name: str) -> bytes:
    return fcntl.ioctl(sock.fileno(), request, struct.pack("256s", name.encode()[:15]))


def broadcast_addresses(listen_host: str) -> list[str]:
    """Where to send beacons for a node listening on `listen_host`: loopback's broadcast for
    a loopback address, the broadcast address of the interface holding that address, or of
    every interface (and loopback) for 0.0.0.0. Linux ioctls; elsewhere 255.255.255.255."""
    if listen_host.startswith("127.") or listen_host == "localhost":
        return [LOOPBACK_BROADCAST]
    everywhere = listen_host in ("0.0.0.0", "*", "")
    found = [LOOPBACK_BROADCAST] if everywhere else []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        return found + ["255.255.255.255"]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in interfaces:
            try:
                flags = struct.unpack("H", _ifreq(sock, _SIOCGIFFLAGS, name)[16:18])[0]
                if not (flags & _IFF_UP and flags & _IFF_BROADCAST):
                    continue
                address = socket.inet_ntoa(_ifreq(sock, _SIOCGIFADDR, name)[20:24])
                broadcast = socket.inet_ntoa(_ifreq(sock, _SIOCGIFBRDADDR, name)[20:24])
            except OSError:
                continue  # no IPv4 address on it, or not Linux
            if everywhere or address == listen_host:
                found.append(broadcast)
    return list(dict.fromkeys(found))


class Beacon:
    """Announces one table; `send` is called from the node's loop and never blocks."""

    def __init__(self, listen_host: str, port: int | None = None):
        self.port = port or beacon_port()
        self.targets = broadcast_addresses(listen_host)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        self.sock.setblocking(False)
        self.failures: set[str] = set()

    def send(self, data: bytes) -> list[str]:
        """Send to every target; returns the targets that failed for the first time."""
        new = []
        for target in self.targets:
            try:
                self.sock.sendto(data, (target, self.port))
            except OSError:
                if target not in self.failures:
                    self.failures.add(target)
                    new.append(target)
        return new

    def close(self) -> None:
        self.sock.close()


def listen(seconds: float, port: int | None = None, until=None, heard: Heard | None = None) -> list[Table]:
    """The tables heard within `seconds` (the latest beacon of each), or sooner once `until`
    (a predicate on the tables heard so far) holds. Pass a `Heard` to learn how many
    announcements a bound dropped."""
    port = port or beacon_port()
    heard = heard if heard is not None else Heard()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # a flood's datagrams queue while one is being looked at: room for a burst of them (the
    # kernel caps it at net.core.rmem_max), so a real host's beacon is less likely the one dropped
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    if hasattr(socket, "SO_REUSEPORT"):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind(("", port))
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(min(left, 0.2))
            try:
                data, (source, _) = sock.recvfrom(2048)
            except socket.timeout:
                continue
            table = parse_beacon(data, source)
            if table is None:
                heard.malformed += 1
            elif heard.add(table, source):
                if until is not None and until(heard.listed()):
                    break
    finally:
        sock.close()
    return heard.listed()
