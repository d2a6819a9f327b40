"""Every message nodes exchange, as frozen dataclasses, and the one codec for all of them
(spec/protocol.md, "Messages"). On the wire a message is a canonical msgpack map
{"t": type, "v": protocol version, ...fields}; `decode_message` checks size, depth, lengths,
the version and the schema of its type, and says in a sentence what is wrong."""
from __future__ import annotations

from dataclasses import MISSING, Field, dataclass, fields
from typing import TYPE_CHECKING, Any, Callable, ClassVar, TypeVar

import msgpack

from peerboard.engines.canonical import encode, pack
from peerboard.engines.actions import MAX_ACTION_DEPTH
from peerboard.protocol.log import (
    DecodeError, Entry, Genesis, MESSAGES, MESSAGE_LIMITS, PROTOCOL_VERSION, RecordError, SchemaError,
    SignedGenesis, WireMap, entry_from_record, genesis_from_body, genesis_from_record, nested_within, too_deep,
    unpack,
)


# (msgpack ships no types: these are bytes, as `packb` gives them)
_ENTRY_HEAD: bytes = b"\x83" + msgpack.packb("entry")
_ENTRY_KEY: bytes = msgpack.packb("entry")
_CONFIRMED_HEAD: bytes = b"\x84" + msgpack.packb("confirm")
_ENTRY_TAIL: bytes = msgpack.packb("t") + msgpack.packb("entry") + msgpack.packb("v") + msgpack.packb(PROTOCOL_VERSION)


class MessageError(SchemaError):
    """Bytes from a peer that are not a message this node accepts, or a message that makes no
    sense to the session where it stands (from the wrong sender, about another table...);
    the text says why. Always the sender's fault."""


class Message:
    """Base of all messages. `kind` is the wire name ("t")."""

    kind: ClassVar[str] = ""
    if TYPE_CHECKING:  # every message class is a dataclass; this base, without fields, is not
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def body(self) -> WireMap:
        return {f.name: getattr(self, f.name) for f in fields(self)}

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
    #: proof that the node knows a private table's code (protocol/session/tablecode.py); None: none given
    knock: bytes | None = None


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

    def body(self) -> WireMap:
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

    def body(self) -> WireMap:
        return {"genesis": self.genesis.record(), "addrs": list(self.addrs)}


@dataclass(frozen=True)
class EntryMessage(Message):
    kind = "entry"
    entry: Entry
    #: the author's confirm of the entry before this one, when it has not gone out yet: the
    #: gatherer of a reveal round sends both at once (spec/protocol.md, "Confirmation")
    confirm: "Confirm | None" = None

    def body(self) -> WireMap:
        if self.confirm is None:
            return {"entry": self.entry.record()}
        return {"confirm": self.confirm.body(), "entry": self.entry.record()}

    def to_bytes(self) -> bytes:
        # {"entry": ..., "t": "entry", "v": 1} with the entry's cached canonical bytes spliced
        # in: the same bytes as encoding the whole map, without encoding the entry again
        if self.confirm is None:
            return _ENTRY_HEAD + self.entry.encoded + _ENTRY_TAIL
        return _CONFIRMED_HEAD + encode(self.confirm.body()) + _ENTRY_KEY + self.entry.encoded + _ENTRY_TAIL


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
    #: the seat's hash-chain value for the round the next entry gathers, sent to that
    #: entry's writer only (spec/protocol.md, "Reveals that travel together"); else None
    #: (also the seat's seed, for the `audits` entry the next entry gathers)
    reveal: bytes | None = None
    #: the seat's signature of the result statement, for the `results` entry the next
    #: entry gathers (spec/protocol.md, "The end together"); else None
    sig: bytes | None = None

    def body(self) -> WireMap:
        body: WireMap = {"seat": self.seat, "seq": self.seq, "entry": self.entry, "state": self.state}
        if self.reveal is not None:  # (absent otherwise: the field is optional)
            body["reveal"] = self.reveal
        if self.sig is not None:
            body["sig"] = self.sig
        return body

    def to_bytes(self) -> bytes:
        # The keys in canonical (sorted) order and every value an atom: msgpack packs this
        # canonically as it is, without the generic walk (every seat sends one per entry).
        if self.sig is not None:  # (once a game: the generic canonical walk)
            return encode({"t": self.kind, "v": PROTOCOL_VERSION, **self.body()})
        if self.reveal is None:
            return ack_bytes(self.seat, self.seq, self.entry, self.state)
        return pack({"entry": self.entry, "reveal": self.reveal, "seat": self.seat, "seq": self.seq,
                     "state": self.state, "t": "ack", "v": PROTOCOL_VERSION})


def ack_bytes(seat: int, seq: int, entry: bytes, state: bytes) -> bytes:
    """The bytes of `Ack(seat, seq, entry, state)` without making the message: the ack every
    seat sends of every entry (keys in canonical order, every value an atom, as `to_bytes`)."""
    return pack({"entry": entry, "seat": seat, "seq": seq, "state": state, "t": "ack", "v": PROTOCOL_VERSION})


@dataclass(frozen=True)
class Confirm(Message):
    """The author of entry `seq` holds every seat's ack of it: each seat's state hash after
    it, by seat (None: that seat vouched for it with an ack of a later entry). Sent by the
    author alone, at three seats or more, in place of every seat's ack to every peer
    (spec/protocol.md, "Confirmation")."""

    kind = "confirm"
    seq: int
    entry: bytes
    states: tuple[bytes | None, ...]

    def body(self) -> WireMap:
        return {"seq": self.seq, "entry": self.entry, "states": list(self.states)}

    def to_bytes(self) -> bytes:
        # (as an ack's: the keys in canonical order, the states a flat list of atoms)
        return pack({"entry": self.entry, "seq": self.seq, "states": self.states, "t": "confirm", "v": PROTOCOL_VERSION})


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

    def body(self) -> WireMap:
        return {"first": self.first.record(), "second": self.second.record()}


@dataclass(frozen=True)
class Leave(Message):
    kind = "leave"


@dataclass(frozen=True)
class Say(Message):
    """A line said to the table (spec/protocol.md, "Chat"): beside the game, never in its
    log. Signed by its author `by` (protocol/session/chat.py), so a seat can pass a spectator's
    line on and the chat file beside a log can be checked offline; `after` is how many
    entries the author held when it said it."""

    kind = "say"
    table: bytes
    after: int
    text: str
    by: bytes
    sig: bytes


@dataclass(frozen=True)
class Rematch(Message):
    """About playing the game over at table `table` again (spec/protocol.md, "Rematch"):
    "ask" — a person sits at the sender's seat, so at the end the others wait a while for
    its answer; "yes" — the sender would play again (the first "yes" is the offer); "no" —
    it will not. From seat 0's node, "yes" with `next` set: the new table is open, with this
    id, at seat 0's address; the others join it."""

    kind = "rematch"
    table: bytes
    answer: str
    next: bytes | None = None


@dataclass(frozen=True)
class Resign(Message):
    """Seat `seat` resigns: its signature of `resign_statement` (protocol/log/records.py), for
    the seat entitled to the next entry to carry into the log."""

    kind = "resign"
    seat: int
    sig: bytes


# -- decoding ------------------------------------------------------------------------------------


def _entry(m: WireMap) -> EntryMessage:
    if "confirm" not in m:
        # (as `_built`: without the frozen dataclass's __init__, for every entry from a peer)
        message = object.__new__(EntryMessage)
        message.__dict__.update(entry=entry_from_record(m["entry"]), confirm=None)
        return message
    try:
        c = MESSAGES["confirm"].check(m["confirm"])
    except SchemaError as exc:
        raise MessageError(f"entry: its {exc}") from None
    return EntryMessage(entry_from_record(m["entry"]), Confirm(c["seq"], c["entry"], tuple(c["states"])))


@dataclass(frozen=True)
class Offer(Message):
    """Seat `seat` offers (or accepts) that the game ends `how` ("drawn", "aborted") at
    entry `seq` after `prev`: its signature of `agree_statement` (protocol/log/records.py)."""

    kind = "offer"
    seat: int
    how: str
    seq: int
    prev: bytes
    sig: bytes


@dataclass(frozen=True)
class Decline(Message):
    """Seat `seat` declines the offer that the game ends `how` at entry `seq`."""

    kind = "decline"
    seat: int
    how: str
    seq: int


@dataclass(frozen=True)
class Chosen(Message):
    """Seat `seat` has made its secret choice ahead of its commit, at the head where entry
    `seq` is next: its node holds it (a sign for the others, never a commitment)."""

    kind = "chosen"
    seat: int
    seq: int


@dataclass(frozen=True)
class Claim(Message):
    """Seat `seat` claims seat `gone` (away longer than the table's patience) at entry `seq`
    after `prev`: its signature of `claim_statement` (protocol/log/records.py), for the claim's
    writer to collect (spec/protocol.md, "Patience and claims")."""

    kind = "claim"
    seat: int
    gone: int
    seq: int
    prev: bytes
    sig: bytes


M = TypeVar("M", bound=Message)


def _built(cls: type[M]) -> Callable[[WireMap], M]:
    """What builds a `cls` from its fields as its shape checked them (exactly some of the
    class's fields, the others taking their defaults) without the frozen dataclass's
    `__init__`, which sets each field through `object.__setattr__`: for the acks, confirms
    and beats every node decodes for every entry, most of what building one cost."""
    defaults = {f.name: f.default for f in fields(cls) if f.default is not MISSING}

    def build(m: WireMap) -> M:
        message = object.__new__(cls)
        values = message.__dict__
        values.update(defaults)
        values.update(m)
        return message

    return build


#: every message class by its wire name, with what builds it from its checked fields
_BUILD: dict[str, tuple[type[Message], Callable[[WireMap], Message]]] = {
    "hello": (Hello, lambda m: Hello(**m)),
    "welcome": (Welcome, lambda m: Welcome(**m)),
    "refuse": (Refuse, lambda m: Refuse(**m)),
    "propose": (Propose, lambda m: Propose(genesis_from_body(m["genesis"]), m["addrs"])),
    "sign": (Sign, lambda m: Sign(**m)),
    "genesis": (GenesisMessage, lambda m: GenesisMessage(genesis_from_record(m["genesis"]), m["addrs"])),
    "entry": (EntryMessage, _entry),
    "ack": (Ack, _built(Ack)),
    "confirm": (Confirm, _built(Confirm)),  # (its states decode as a tuple: use_list=False)
    "beat": (Beat, _built(Beat)),
    "want": (Want, _built(Want)),
    "proof": (Proof, lambda m: Proof(entry_from_record(m["first"]), entry_from_record(m["second"]))),
    "leave": (Leave, lambda m: Leave()),
    "rematch": (Rematch, lambda m: Rematch(**m)),
    "say": (Say, lambda m: Say(**m)),
    "resign": (Resign, lambda m: Resign(**m)),
    "offer": (Offer, lambda m: Offer(**m)),
    "decline": (Decline, lambda m: Decline(**m)),
    "claim": (Claim, lambda m: Claim(**m)),
    "chosen": (Chosen, lambda m: Chosen(**m)),
}
#: the message classes of protocol version 1
MESSAGE_CLASSES: tuple[type[Message], ...] = tuple(cls for cls, _ in _BUILD.values())
# a message class, its wire name and its shape (protocol/log/schema.py) go together
assert all(cls.kind == kind for kind, (cls, _) in _BUILD.items()) and _BUILD.keys() == MESSAGES.keys()


#: the kinds of message whose shapes let nothing through that nests deeper than
#: `_SHALLOW_DEPTH`: the deepest is an entry's action (MAX_ACTION_DEPTH deep itself) inside
#: its list of actions, its body, its entry and the message's map (a proof's entries alike);
#: every other field is an atom, a list of atoms or (a result's ending and takeovers) maps of
#: those. A genesis's options (`propose`, `genesis`) may nest as deep as a record may.
_SHALLOW_DEPTH = 4 + MAX_ACTION_DEPTH
_SHALLOW = frozenset(_BUILD) - {"propose", "genesis"}
assert _SHALLOW_DEPTH <= MESSAGE_LIMITS.depth


#: each kind's shape check and builder, by its wire name (one lookup a message)
_TAKE: dict[str, tuple[Callable[[Any], WireMap], Callable[[WireMap], Message]]] = {
    kind: (MESSAGES[kind].check, build) for kind, (_, build) in _BUILD.items()}


def decode_message(data: bytes) -> Message:
    """The message `data` holds; MessageError with the reason otherwise. Never anything else."""
    try:
        m = unpack(data, MESSAGE_LIMITS)
    except DecodeError as exc:
        raise MessageError(f"garbled message: {exc}") from None
    # Nesting too deep is refused before anything else, as the decoder refuses it. A message
    # of a kind that cannot nest that deep once its shape let it through is measured only if
    # it is refused (most messages, every ack, confirm and beat, are not measured at all).
    kind = m.get("t") if type(m) is dict else None
    shallow = type(kind) is str and kind in _SHALLOW
    if not shallow and not nested_within(m, MESSAGE_LIMITS.depth):
        raise MessageError(f"garbled message: {too_deep(MESSAGE_LIMITS)}")
    try:
        return _message(m, kind)
    except Exception:
        if not shallow or nested_within(m, MESSAGE_LIMITS.depth):
            raise
    raise MessageError(f"garbled message: {too_deep(MESSAGE_LIMITS)}")


def _message(m: Any, kind: object) -> Message:
    """The message the decoded value `m` holds (`kind`: its "t", if a map — so `m` is a map
    wherever `kind` is text), its depth measured already, or of a shallow kind."""
    if type(kind) is not str or type(m.get("v")) is not int:
        raise MessageError("not a peerboard message")
    if m["v"] != PROTOCOL_VERSION:
        raise MessageError(f"protocol version {m['v']}; this node speaks version {PROTOCOL_VERSION}")
    take = _TAKE.get(kind)
    if take is None:
        raise MessageError(f"unknown message type {kind[:20]!r}")
    del m["t"], m["v"]
    try:
        fields = take[0](m)
    except SchemaError as exc:
        raise MessageError(str(exc)) from None  # (it names the message)
    try:
        return take[1](fields)
    except RecordError as exc:
        raise MessageError(f"{kind}: {exc}") from None
