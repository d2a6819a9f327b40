"""Every message nodes exchange, as frozen dataclasses, and the one codec for all of them
(spec/protocol.md, "Messages"). On the wire a message is a canonical msgpack map
{"t": type, "v": protocol version, ...fields}; `decode_message` checks size, depth, lengths,
the version and the schema of its type, and says in a sentence what is wrong."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

import msgpack

from engines.canonical import encode
from protocol.codec import DecodeError, Limits, decode
from protocol.identity import KEY_BYTES, SIG_BYTES
from protocol.records import (
    HASH_BYTES, MAX_NAME, PROTOCOL_VERSION, TABLE_BYTES, Entry, Genesis, RecordError, SignedGenesis,
    entry_from_record, genesis_from_record,
)

MESSAGE_LIMITS = Limits(size=256 * 1024, depth=12, length=1024, text=1024)
MAX_ADDR = 200


_ENTRY_HEAD = b"\x83" + msgpack.packb("entry")
_ENTRY_TAIL = msgpack.packb("t") + msgpack.packb("entry") + msgpack.packb("v") + msgpack.packb(PROTOCOL_VERSION)


class MessageError(ValueError):
    """Bytes from a peer that are not a message this node accepts; the text says why."""


class Message:
    """Base of all messages. `kind` is the wire name ("t")."""

    kind: ClassVar[str] = ""

    def body(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]

    def to_bytes(self) -> bytes:
        return encode({"t": self.kind, "v": PROTOCOL_VERSION, **self.body()})


@dataclass(frozen=True)
class Hello(Message):
    """A node asks a table's host for a seat (role "seat") or to watch ("spectator")."""

    kind = "hello"
    table: bytes
    game: str
    name: str
    key: bytes
    role: str
    chain: bytes  # the tip of the node's hash chain (seats)
    seed: bytes  # the commitment to its private seed (seats)
    addr: str  # where the node listens, opaque to the protocol


@dataclass(frozen=True)
class Welcome(Message):
    kind = "welcome"
    seat: int  # -1 for a spectator
    players: int


@dataclass(frozen=True)
class Refuse(Message):
    kind = "refuse"
    reason: str


@dataclass(frozen=True)
class Propose(Message):
    """The host's genesis for every seat to sign, with where each seat listens."""

    kind = "propose"
    genesis: Genesis
    addrs: tuple[str, ...]

    def body(self) -> dict:
        return {"genesis": self.genesis.body(), "addrs": list(self.addrs)}


@dataclass(frozen=True)
class Sign(Message):
    kind = "sign"
    seat: int
    sig: bytes


@dataclass(frozen=True)
class GenesisMessage(Message):
    """The signed genesis, for a seat that missed it or a spectator joining late."""

    kind = "genesis"
    genesis: SignedGenesis
    addrs: tuple[str, ...]

    def body(self) -> dict:
        return {"genesis": self.genesis.record(), "addrs": list(self.addrs)}


@dataclass(frozen=True)
class EntryMessage(Message):
    kind = "entry"
    entry: Entry

    def body(self) -> dict:
        return {"entry": self.entry.record()}

    def to_bytes(self) -> bytes:
        # {"entry": ..., "t": "entry", "v": 1} with the entry's cached canonical bytes spliced
        # in: the same bytes as encoding the whole map, without encoding the entry again
        return _ENTRY_HEAD + self.entry.encoded + _ENTRY_TAIL


@dataclass(frozen=True)
class Ack(Message):
    """A seat stored entry `seq` (hash `entry`) durably and reached state hash `state`.
    Not signed: the transport authenticates its sender, and only the seat's own node may
    send it (spec/protocol.md, "Confirmation")."""

    kind = "ack"
    seat: int
    seq: int
    entry: bytes
    state: bytes

    def to_bytes(self) -> bytes:
        # The keys in canonical (sorted) order and every value an atom: msgpack packs this
        # canonically as it is, without the generic walk (every seat sends one per entry).
        return msgpack.packb({"entry": self.entry, "seat": self.seat, "seq": self.seq, "state": self.state,
                              "t": "ack", "v": PROTOCOL_VERSION}, use_bin_type=True)


@dataclass(frozen=True)
class Beat(Message):
    """Heartbeat and gossip of the sender's head: how many entries it holds, the last hash."""

    kind = "beat"
    seq: int
    head: bytes


@dataclass(frozen=True)
class Want(Message):
    """Send me your entries from `seq` on (at most a batch)."""

    kind = "want"
    seq: int


@dataclass(frozen=True)
class Proof(Message):
    """Two different entries one seat signed for one seq: equivocation."""

    kind = "proof"
    first: Entry
    second: Entry

    def body(self) -> dict:
        return {"first": self.first.record(), "second": self.second.record()}


@dataclass(frozen=True)
class Leave(Message):
    kind = "leave"


# -- decoding ------------------------------------------------------------------------------------


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _bytes(v: Any, n: int) -> bool:
    return isinstance(v, bytes) and len(v) == n


def _text(v: Any, n: int) -> bool:
    return isinstance(v, str) and len(v) <= n


def _need(cond: bool, why: str) -> None:
    if not cond:
        raise MessageError(why)


def _hello(m: dict) -> Hello:
    _need(_bytes(m["table"], TABLE_BYTES), "hello: table must be 16 bytes")
    _need(_text(m["game"], 32), "hello: game must be a short name")
    _need(_text(m["name"], MAX_NAME), f"hello: name must be at most {MAX_NAME} characters")
    _need(_bytes(m["key"], KEY_BYTES), "hello: key must be 32 bytes")
    _need(m["role"] in ("seat", "spectator"), "hello: role must be 'seat' or 'spectator'")
    _need(_bytes(m["chain"], HASH_BYTES) and _bytes(m["seed"], HASH_BYTES), "hello: commitments must be 32 bytes")
    _need(_text(m["addr"], MAX_ADDR), "hello: addr too long")
    return Hello(m["table"], m["game"], m["name"], m["key"], m["role"], m["chain"], m["seed"], m["addr"])


def _addrs(v: Any) -> tuple[str, ...]:
    _need(isinstance(v, tuple) and len(v) <= 8 and all(_text(a, MAX_ADDR) for a in v), "addrs must be a short list of text")
    return v


def _propose(m: dict) -> Propose:
    signed = genesis_from_record({"genesis": m["genesis"], "sigs": tuple(bytes(SIG_BYTES) for _ in m["genesis"].get("seats", ()))})
    return Propose(signed.genesis, _addrs(m["addrs"]))


def _ack(m: dict) -> Ack:
    _need(_int(m["seat"]) and 0 <= m["seat"] < 8 and _int(m["seq"]) and m["seq"] >= 1, "ack: bad seat or seq")
    _need(_bytes(m["entry"], HASH_BYTES) and _bytes(m["state"], HASH_BYTES), "ack: hashes must be 32 bytes")
    return Ack(m["seat"], m["seq"], m["entry"], m["state"])


def _welcome(m: dict) -> Welcome:
    _need(_int(m["seat"]) and -1 <= m["seat"] < 8, "welcome: bad seat")
    _need(_int(m["players"]) and 1 <= m["players"] <= 8, "welcome: bad player count")
    return Welcome(m["seat"], m["players"])


def _refuse(m: dict) -> Refuse:
    _need(_text(m["reason"], 300), "refuse: reason must be short text")
    return Refuse(m["reason"])


def _sign(m: dict) -> Sign:
    _need(_int(m["seat"]) and 0 <= m["seat"] < 8 and _bytes(m["sig"], SIG_BYTES), "sign: bad seat or sig")
    return Sign(m["seat"], m["sig"])


def _genesis(m: dict) -> GenesisMessage:
    return GenesisMessage(genesis_from_record(m["genesis"]), _addrs(m["addrs"]))


def _entry(m: dict) -> EntryMessage:
    return EntryMessage(entry_from_record(m["entry"]))


def _beat(m: dict) -> Beat:
    _need(_int(m["seq"]) and m["seq"] >= 0 and _bytes(m["head"], HASH_BYTES), "beat: bad seq or head")
    return Beat(m["seq"], m["head"])


def _want(m: dict) -> Want:
    _need(_int(m["seq"]) and m["seq"] >= 1, "want: bad seq")
    return Want(m["seq"])


def _proof(m: dict) -> Proof:
    return Proof(entry_from_record(m["first"]), entry_from_record(m["second"]))


_SCHEMAS = {
    "hello": ({"table", "game", "name", "key", "role", "chain", "seed", "addr"}, _hello),
    "welcome": ({"seat", "players"}, _welcome),
    "refuse": ({"reason"}, _refuse),
    "propose": ({"genesis", "addrs"}, _propose),
    "sign": ({"seat", "sig"}, _sign),
    "genesis": ({"genesis", "addrs"}, _genesis),
    "entry": ({"entry"}, _entry),
    "ack": ({"seat", "seq", "entry", "state"}, _ack),
    "beat": ({"seq", "head"}, _beat),
    "want": ({"seq"}, _want),
    "proof": ({"first", "second"}, _proof),
    "leave": (set(), lambda m: Leave()),
}


def decode_message(data: bytes) -> Message:
    """The message `data` holds; MessageError with the reason otherwise. Never anything else."""
    try:
        m = decode(data, MESSAGE_LIMITS, canonical=False)
    except DecodeError as exc:
        raise MessageError(f"garbled message: {exc}") from None
    _need(isinstance(m, dict) and isinstance(m.get("t"), str) and "v" in m, "not a peerboard message")
    _need(_int(m["v"]), "not a peerboard message")
    if m["v"] != PROTOCOL_VERSION:
        raise MessageError(f"protocol version {m['v']}; this node speaks version {PROTOCOL_VERSION}")
    kind = m["t"]
    if kind not in _SCHEMAS:
        raise MessageError(f"unknown message type {kind[:20]!r}")
    keys, build = _SCHEMAS[kind]
    fields_ = {k: v for k, v in m.items() if k != "t" and k != "v"}
    if fields_.keys() != keys:  # (the reason is built only then: this runs for every message)
        raise MessageError(f"{kind}: fields must be exactly {', '.join(sorted(keys)) or 'none'}")
    try:
        return build(fields_)
    except RecordError as exc:
        raise MessageError(f"{kind}: {exc}") from None
