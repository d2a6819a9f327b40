"""The signed records of a game log: the genesis (entry 0) and the entries after it
(spec/log-format.md). Each has one canonical msgpack form; `entry_from_record` and
`genesis_from_record` check a decoded record against its shape (protocol/log/schema.py) and say
what is wrong in a sentence.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import hashlib

import msgpack

from peerboard.engines.canonical import digest, encode, pack
from peerboard.engines.values import cached
from peerboard.protocol.log.failures import GENESIS as GENESIS_FAILURE, SCHEMA as SCHEMA_FAILURE
from peerboard.protocol.log.identity import Identity, verify
from peerboard.protocol.log.names import name_problem
from peerboard.protocol.log.schema import (
    BODIES, ENTRY, GENESIS, MAX_NAME, PROTOCOL_VERSION, SEAT, SIG_BYTES, SIGNED_GENESIS, SchemaError, WireMap,
)

GENESIS_DOMAIN = b"peerboard/genesis/v1\x00"
ENTRY_DOMAIN = b"peerboard/entry/v1\x00"
RESIGN_DOMAIN = b"peerboard/resign/v1\x00"
CLAIM_DOMAIN = b"peerboard/claim/v1\x00"
AGREE_DOMAIN = b"peerboard/agree/v1\x00"

_pack = pack
_KEY_BODY, _KEY_KIND, _KEY_PREV, _KEY_SEAT, _KEY_SEQ, _KEY_SIG = (_pack(k) for k in ("body", "kind", "prev", "seat", "seq", "sig"))


# An entry's small fields in msgpack's smallest forms, as `_pack` gives them, without a
# packer made for each: every entry's signing bytes and hash are built from them.
_FIXINTS = tuple(_pack(i) for i in range(0x80))
_BIN32 = _pack(bytes(32))[:2]
_KINDS = {kind: _pack(kind) for kind in BODIES}


def _pack_uint(n: int) -> bytes:
    if type(n) is not int:
        return _pack(n)
    if 0 <= n < 0x80:
        return _FIXINTS[n]
    if 0x80 <= n < 0x10000:
        return (b"\xcc" + bytes((n,))) if n < 0x100 else (b"\xcd" + n.to_bytes(2, "big"))
    return _pack(n)


def _pack_hash(value: bytes) -> bytes:
    return _BIN32 + value if type(value) is bytes and len(value) == 32 else _pack(value)


class RecordError(SchemaError):
    """A record that does not fit its schema (`failure` "schema"), or a genesis that says
    something no game can start from (`failure` "genesis": protocol/log/failures.py)."""

    def __init__(self, why: str, failure: str = SCHEMA_FAILURE):
        super().__init__(why)
        self.failure = failure


# -- genesis -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatRecord:
    """A seat as the genesis states it: its player's name and key, and the commitments of
    its hash chain and private seed. (A seat itself is an index, 0 to 7.)"""

    name: str
    key: bytes  # Ed25519 public key
    chain: bytes = bytes(32)  # the tip of the seat's hash chain (protocol/log/secrets.py)
    seed: bytes = bytes(32)  # the commitment to the seat's private seed


@dataclass(frozen=True)
class Genesis:
    """What a game is: the game, its engine version and options, the seats and their keys."""

    game: str
    engine: str
    options: Mapping[str, Any]
    seats: tuple[SeatRecord, ...]
    table: bytes  # 16 random bytes: two games with the same seats never share a genesis
    protocol: int = PROTOCOL_VERSION
    #: seconds a seat may be away before the others may claim it; None: not written, the
    #: default (spec/protocol.md, "Endings")
    patience: int | None = None
    #: the bot strategy that plays a claimed seat at three or more seats (spec/protocol.md,
    #: "Takeover"); None: not written — a claim ends the game, as with "none"
    takeover: str | None = None
    #: how reveal rounds are written: REVEALS_TOGETHER (one `reveals` entry a round), or
    #: None, not written: one `reveal` entry per seat (logs from before; spec/log-format.md)
    reveals: str | None = None
    #: how the end is written: ENDS_TOGETHER (one `audits` and one `results` entry), or None,
    #: not written: one `audit` and one `result` entry per seat (logs from before)
    ends: str | None = None

    def body(self) -> WireMap:
        body: WireMap = {
            "protocol": self.protocol,
            "game": self.game,
            "engine": self.engine,
            "options": dict(self.options),
            "seats": [{"name": s.name, "key": s.key, "chain": s.chain, "seed": s.seed} for s in self.seats],
            "table": self.table,
        }
        if self.patience is not None:
            body["patience"] = self.patience
        if self.takeover is not None:
            body["takeover"] = self.takeover
        if self.reveals is not None:
            body["reveals"] = self.reveals
        if self.ends is not None:
            body["ends"] = self.ends
        return body

    def signing_bytes(self) -> bytes:
        return GENESIS_DOMAIN + encode(self.body())


@dataclass(frozen=True)
class SignedGenesis:
    """The genesis record of a log: its terms (what every seat signs) and the signatures."""

    terms: Genesis
    sigs: tuple[bytes, ...]  # one per seat, in seat order

    def record(self) -> WireMap:
        return {"genesis": self.terms.body(), "sigs": list(self.sigs)}

    @cached
    def hash(self) -> bytes:
        return digest(self.record())

    def bad_signers(self) -> list[int]:
        """The seats whose signature is missing or does not verify."""
        return list(self._bad_signers)

    @cached
    def _bad_signers(self) -> tuple[int, ...]:
        # (kept: a joining seat verifies the genesis it is handed, then its ledger starts
        # from that same genesis and asks again)
        message = self.terms.signing_bytes()
        return tuple(
            i for i, seat in enumerate(self.terms.seats)
            if i >= len(self.sigs) or not verify(seat.key, message, self.sigs[i])
        )


def sign_genesis(genesis: Genesis, identities: Sequence[Identity]) -> SignedGenesis:
    """Every seat signs (in-process play; over the network each seat sends its signature)."""
    message = genesis.signing_bytes()
    return SignedGenesis(genesis, tuple(i.sign(message) for i in identities))


def genesis_from_body(body: Any) -> Genesis:
    """The genesis a decoded GENESIS map holds (RecordError if it is not one); its seats'
    signatures are another matter (`genesis_from_record`, or a `propose` still to sign)."""
    return _genesis_meaning(_genesis_shape(body))


def _genesis_shape(body: Any) -> Genesis:
    """The genesis, if `body` has the shape of one (RecordError "schema" otherwise)."""
    try:
        GENESIS.check(body)
        seats = tuple(SeatRecord(**SEAT.check(s)) for s in body["seats"])
    except SchemaError as exc:
        raise RecordError(str(exc)) from None
    for i, seat in enumerate(seats):  # (spec/log-format.md, "Names")
        problem = name_problem(seat.name, MAX_NAME)
        if problem is not None:
            raise RecordError(f"the name of seat {i} is not a valid name: {problem}")
    return Genesis(game=body["game"], engine=body["engine"], options=body["options"], seats=seats,
                   table=body["table"], protocol=body["protocol"], patience=body.get("patience"),
                   takeover=body.get("takeover"), reveals=body.get("reveals"),
                   ends=body.get("ends"))


def _genesis_meaning(genesis: Genesis) -> Genesis:
    """`genesis`, if this protocol version can start it (RecordError "genesis" otherwise);
    the game, its engine version and its options are the ledger's to check."""
    if genesis.protocol != PROTOCOL_VERSION:
        raise RecordError(f"protocol version {genesis.protocol} is not {PROTOCOL_VERSION}, the version this peerboard speaks",
                          GENESIS_FAILURE)
    if len({s.key for s in genesis.seats}) != len(genesis.seats):
        raise RecordError("two seats share one key", GENESIS_FAILURE)
    return genesis


def genesis_from_record(obj: Any) -> SignedGenesis:
    """The signed genesis a decoded record holds; RecordError if it is not one. Its shape
    is checked whole (one signature per seat included) before what it says."""
    try:
        SIGNED_GENESIS.check(obj)
    except SchemaError as exc:
        raise RecordError(str(exc)) from None
    genesis = _genesis_shape(obj["genesis"])
    if len(obj["sigs"]) != len(genesis.seats):
        raise RecordError("a genesis record holds one signature per seat")
    return SignedGenesis(_genesis_meaning(genesis), obj["sigs"])


# -- entries ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One signed, chained step of the game: entry `seq` written by `seat`."""

    seq: int
    prev: bytes  # hash of entry seq-1 (the genesis hash for seq 1)
    seat: int
    kind: str
    body: Mapping[str, Any] = field(hash=False)
    sig: bytes = b""

    def unsigned(self) -> WireMap:
        return {"seq": self.seq, "prev": self.prev, "seat": self.seat, "kind": self.kind, "body": dict(self.body)}

    def record(self) -> WireMap:
        return {**self.unsigned(), "sig": self.sig}

    # The encodings are built by hand (the keys in canonical order) and kept: replaying
    # a log needs each of them once per entry, and the generic encoder is the slow part.
    @cached
    def _body(self) -> bytes:
        return encode(self.body)

    @cached
    def _fields(self) -> bytes:
        kind = _KINDS.get(self.kind) or _pack(self.kind)
        return b"".join((
            _KEY_BODY, self._body, _KEY_KIND, kind, _KEY_PREV, _pack_hash(self.prev),
            _KEY_SEAT, _pack_uint(self.seat), _KEY_SEQ, _pack_uint(self.seq),
        ))

    @cached
    def _signing(self) -> bytes:
        return ENTRY_DOMAIN + b"\x85" + self._fields

    def signing_bytes(self) -> bytes:
        """What the seat signs: the domain, then the record without its signature."""
        return self._signing

    @cached
    def encoded(self) -> bytes:
        """The canonical bytes of the whole record (what a log frame holds)."""
        return b"\x86" + self._fields + _KEY_SIG + _pack(self.sig)

    @cached
    def hash(self) -> bytes:
        return hashlib.sha256(self.encoded).digest()


def make_entry(identity: Identity, seq: int, prev: bytes, seat: int, kind: str, body: Mapping[str, Any]) -> Entry:
    """A new entry signed by `identity`; its body in the form it decodes to (tuples)."""
    packed = encode(body)
    body = msgpack.unpackb(packed, raw=False, use_list=False)
    unsigned = Entry(seq, prev, seat, kind, body)
    unsigned.__dict__["_body"] = packed  # encoded once (it is canonical: encode made it)
    entry = Entry(seq, prev, seat, kind, body, identity.sign(unsigned.signing_bytes()))
    entry.__dict__["_fields"] = unsigned._fields
    return entry


def resign_statement(genesis_hash: bytes, seat: int) -> bytes:
    """What a seat signs to resign the game of `genesis_hash`: its resignation stands
    whoever carries it into the log, and whenever (spec/protocol.md, "Endings")."""
    return RESIGN_DOMAIN + encode({"genesis": genesis_hash, "seat": seat})


def claim_statement(genesis_hash: bytes, gone: int, seq: int, prev: bytes) -> bytes:
    """What a seat signs to claim seat `gone`, away longer than the table's patience: bound
    to the entry it stands at (`seq`, and `prev`, the hash of the entry before), so that a
    seat that signed it can promise to take no entry of `gone` there (spec/protocol.md, "Endings")."""
    return CLAIM_DOMAIN + encode({"genesis": genesis_hash, "gone": gone, "prev": prev, "seq": seq})


def agree_statement(genesis_hash: bytes, how: str, seq: int, prev: bytes) -> bytes:
    """What a seat signs to offer, or accept, that the game ends `how` ("drawn" or "aborted")
    at entry `seq` (after `prev`): bound to that entry, so an offer lapses as soon as any
    other entry is written there (spec/protocol.md, "Endings")."""
    return AGREE_DOMAIN + encode({"genesis": genesis_hash, "how": how, "prev": prev, "seq": seq})


#: an entry record's keys in canonical order
_RECORD_KEYS = tuple(sorted(ENTRY.keys))
#: the kinds of entry whose bodies hold no map but their own (and no optional field): each
#: with its body's keys in canonical order. (A result's `ending` and `takeovers` are maps, and
#: so are the entry records a protest carries.)
_NO_MAPS = {kind: tuple(sorted(shape.keys)) for kind, shape in BODIES.items()
            if kind not in ("result", "results", "protest")}
assert not any(BODIES[kind].extra for kind in _NO_MAPS)


def entry_from_record(obj: Any, encoded: bytes | None = None) -> Entry:
    """The entry a decoded record holds (RecordError if it is not one). `encoded`: the
    record's canonical bytes when the caller has them (a log frame), so they are kept
    rather than built again."""
    try:
        ENTRY.check(obj)
        kind = obj["kind"]
        shape = BODIES.get(kind)
        if shape is None:
            raise RecordError(f"an entry: unknown kind {kind[:20]!r}")
        body = shape.check(obj["body"])
    except SchemaError as exc:
        raise RecordError(str(exc)) from None
    # (built without the frozen dataclass's __init__, which sets each field through
    # object.__setattr__: every entry of every log read and every entry message takes this)
    entry = object.__new__(Entry)
    entry.__dict__.update(seq=obj["seq"], prev=obj["prev"], seat=obj["seat"], kind=kind, body=body, sig=obj["sig"])
    if encoded is None and kind in _NO_MAPS and tuple(obj) == _RECORD_KEYS and tuple(body) == _NO_MAPS[kind]:
        # Its keys in canonical order, and its body (its shape checked) holds no other map
        # and nothing but canonical atoms: msgpack packs it canonically as it is, without
        # the generic walk over its body (every entry message from a peer is such a record).
        encoded = _pack(obj)
    if encoded is not None:
        # {"body".."seq", "sig": bin 64} with "sig" last: the fields sit between the map
        # header and the 70 bytes of the signature's key and value.
        entry.__dict__["encoded"] = encoded
        entry.__dict__["_fields"] = encoded[1 : -len(_KEY_SIG) - 2 - SIG_BYTES]
    return entry
