"""Finding open tables on the LAN with no server: a host sends a small UDP beacon about once
a second to the broadcast address of each interface it listens on; `listen` collects them
(spec/transport.md, "Discovery").

A beacon is b"PBRD" followed by a canonical msgpack map: the protocol version, the game, the
seats and how many are free, the host's name, its full Ed25519 public key (a joiner needs it
for CURVE; the fingerprint people compare is derived from it), the table id, the TCP port
of the host's ROUTER and whether the table is private (its code never travels). The host's address is the beacon's source address, so a host listening
on every interface needs no idea of its own address.
"""
from __future__ import annotations

import fcntl
import os
import socket
import struct
import time
import re
from dataclasses import dataclass

from peerboard.engines.canonical import encode
from peerboard.node.keys import curve_public
from peerboard.protocol.codec import DecodeError, Limits, decode
from peerboard.protocol.identity import fingerprint
from peerboard.protocol.names import name_problem
from peerboard.protocol.schema import KEY_BYTES, MAX_NAME, MAX_SEATS, PROTOCOL_VERSION, TABLE_BYTES

MAGIC = b"PBRD"
DEFAULT_PORT = 47474
LOOPBACK_BROADCAST = "127.255.255.255"
BEACON_LIMITS = Limits(size=1024, depth=2, length=16, text=64)
_SIOCGIFFLAGS, _SIOCGIFADDR, _SIOCGIFBRDADDR = 0x8913, 0x8915, 0x8919
_IFF_UP, _IFF_BROADCAST = 0x1, 0x2
MAX_TABLES = 64  # tables one listener keeps
MAX_PER_SOURCE = 4  # of them announced from one source address
GAME_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_BEACON_TYPES = {"v": int, "game": str, "players": int, "free": int, "name": str, "key": bytes, "table": bytes,
                 "port": int, "private": bool}
_BEACON_KEYS = set(_BEACON_TYPES)


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

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    @property
    def table_id(self) -> str:
        return self.table.hex()


def beacon_bytes(game: str, players: int, free: int, name: str, key: bytes, table: bytes, port: int,
                 private: bool = False) -> bytes:
    return MAGIC + encode({
        "v": PROTOCOL_VERSION, "game": game, "players": players, "free": free, "name": name[:MAX_NAME],
        "key": key, "table": table, "port": port, "private": private,
    })


def parse_beacon(data: bytes, source: str) -> Table | None:
    """The table a datagram announces, or None for anything else (never raises).

    Beacons are untrusted: every field is checked before a table is listed — a known
    shape of game name, a seat count a table can have, a printable host name, a key that
    is an Ed25519 point (a joiner converts it to the host's CURVE key), a real port."""
    if not data.startswith(MAGIC):
        return None
    try:
        m = decode(data[len(MAGIC):], BEACON_LIMITS)
    except DecodeError:
        return None
    if not isinstance(m, dict) or type(m.get("v")) is not int:
        return None
    # another version's beacon is listed (as not joinable) if it has this version's fields
    # but for `private`, so that joining it can say which version it speaks
    needed = _BEACON_KEYS if m["v"] == PROTOCOL_VERSION else _BEACON_KEYS - {"private"}
    if not needed <= m.keys() or (m["v"] == PROTOCOL_VERSION and m.keys() != _BEACON_KEYS):
        return None
    if any(type(m[k]) is not t for k, t in _BEACON_TYPES.items() if k in needed):
        return None
    if not (0 <= m["v"] < 1 << 16 and GAME_NAME.match(m["game"]) and 1 <= m["players"] <= MAX_SEATS
            and 0 <= m["free"] <= m["players"] and 0 < m["port"] < 65536):
        return None
    if len(m["key"]) != KEY_BYTES or len(m["table"]) != TABLE_BYTES or name_problem(m["name"], MAX_NAME):
        return None
    if m["v"] == PROTOCOL_VERSION:  # (another version's key is shown, never used)
        try:
            curve_public(m["key"])
        except ValueError:
            return None
    return Table(m["v"], m["game"], m["players"], m["free"], m["name"], m["key"], m["table"],
                 f"tcp://{source}:{m['port']}", m.get("private") is True)


class Heard:
    """The tables heard so far, bounded: a flood of beacons (from one machine or many)
    cannot grow the list past `MAX_TABLES`, nor one source address fill it past
    `MAX_PER_SOURCE`. A table is one (table id, host key) pair, so a second host claiming a
    real table's id is a second entry, never a replacement; a table already listed is
    updated by its own beacons."""

    def __init__(self) -> None:
        self.tables: dict[tuple[bytes, bytes], Table] = {}
        self.ignored = 0  # beacons of new tables dropped because a bound was reached
        self.malformed = 0  # datagrams on the beacon port that were no valid beacon

    def add(self, table: Table, source: str) -> bool:
        """Take one table; False if it was dropped by a bound."""
        ident = (table.table, table.key)
        if ident not in self.tables:
            same_source = sum(1 for t in self.tables.values() if t.endpoint.rsplit(":", 1)[0] == f"tcp://{source}")
            if len(self.tables) >= MAX_TABLES or same_source >= MAX_PER_SOURCE:
                self.ignored += 1
                return False
        self.tables[ident] = table
        return True

    def listed(self) -> list[Table]:
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
