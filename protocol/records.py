"""The signed records of a game log: the genesis (entry 0) and the entries after it
(spec/log-format.md). Each has one canonical msgpack form; `from_record` checks a decoded
record against its schema and says what is wrong in a sentence.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import hashlib
from functools import partial

import msgpack

from engines.canonical import digest, encode
from engines.values import cached
from protocol.identity import KEY_BYTES, SIG_BYTES, Identity, verify

PROTOCOL_VERSION = 1
GENESIS_DOMAIN = b"peerboard/genesis/v1\x00"
ENTRY_DOMAIN = b"peerboard/entry/v1\x00"
HASH_BYTES = 32
TABLE_BYTES = 16
MAX_SEATS = 8
MAX_NAME = 40
MAX_ACTIONS_PER_ENTRY = 64

#: entry kinds of protocol version 1 and the body keys each one has
ENTRY_KINDS: dict[str, frozenset[str]] = {
    "move": frozenset({"actions", "nonce"}),
    "commit": frozenset({"digest"}),
    "reveal": frozenset({"value"}),
    "chance": frozenset({"outcome"}),
    "audit": frozenset({"seed"}),
    "result": frozenset({"winners", "scores", "state", "cheats"}),
}
NONCE_BYTES = 16
_ENTRY_FIELDS = frozenset({"seq", "prev", "seat", "kind", "body", "sig"})


_pack = partial(msgpack.packb, use_bin_type=True)
_KEY_BODY, _KEY_KIND, _KEY_PREV, _KEY_SEAT, _KEY_SEQ, _KEY_SIG = (_pack(k) for k in ("body", "kind", "prev", "seat", "seq", "sig"))


class RecordError(ValueError):
    """A record that does not fit its schema."""


def _expect(cond: bool, why: str) -> None:
    if not cond:
        raise RecordError(why)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_action(value: Any, depth: int = 0) -> bool:
    """An action as the engines define it: a tuple of str/int/bool/None (or such tuples)."""
    return isinstance(value, tuple) and depth < 4 and all(
        v is None or isinstance(v, (str, int, bool)) or is_action(v, depth + 1) for v in value
    )


# -- genesis -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    name: str
    key: bytes  # Ed25519 public key
    chain: bytes = bytes(32)  # the tip of the seat's hash chain (protocol/secrets.py)
    seed: bytes = bytes(32)  # the commitment to the seat's private seed


@dataclass(frozen=True)
class Genesis:
    """What a game is: the game, its engine version and options, the seats and their keys."""

    game: str
    engine: str
    options: Mapping[str, Any]
    seats: tuple[Seat, ...]
    table: bytes  # 16 random bytes: two games with the same seats never share a genesis
    protocol: int = PROTOCOL_VERSION

    def body(self) -> dict:
        return {
            "protocol": self.protocol,
            "game": self.game,
            "engine": self.engine,
            "options": dict(self.options),
            "seats": [{"name": s.name, "key": s.key, "chain": s.chain, "seed": s.seed} for s in self.seats],
            "table": self.table,
        }

    def signing_bytes(self) -> bytes:
        return GENESIS_DOMAIN + encode(self.body())


@dataclass(frozen=True)
class SignedGenesis:
    genesis: Genesis
    sigs: tuple[bytes, ...]  # one per seat, in seat order

    def record(self) -> dict:
        return {"genesis": self.genesis.body(), "sigs": list(self.sigs)}

    @property
    def hash(self) -> bytes:
        return digest(self.record())

    def bad_signers(self) -> list[int]:
        message = self.genesis.signing_bytes()
        return [
            i for i, seat in enumerate(self.genesis.seats)
            if i >= len(self.sigs) or not verify(seat.key, message, self.sigs[i])
        ]


def sign_genesis(genesis: Genesis, identities: Sequence[Identity]) -> SignedGenesis:
    """Every seat signs (in-process play; over the network each seat sends its signature)."""
    message = genesis.signing_bytes()
    return SignedGenesis(genesis, tuple(i.sign(message) for i in identities))


def genesis_from_record(obj: Any) -> SignedGenesis:
    _expect(isinstance(obj, dict) and set(obj) == {"genesis", "sigs"}, "a genesis record has exactly 'genesis' and 'sigs'")
    body, sigs = obj["genesis"], obj["sigs"]
    keys = {"protocol", "game", "engine", "options", "seats", "table"}
    _expect(isinstance(body, dict) and set(body) == keys, f"a genesis has exactly: {', '.join(sorted(keys))}")
    _expect(_is_int(body["protocol"]), "protocol must be an integer")
    _expect(body["protocol"] == PROTOCOL_VERSION, f"protocol version {body['protocol']} is not {PROTOCOL_VERSION}, the version this peerboard speaks")
    _expect(isinstance(body["game"], str) and 0 < len(body["game"]) <= 32, "game must be a short name")
    _expect(isinstance(body["engine"], str) and 0 < len(body["engine"]) <= 32, "engine must be a short version")
    _expect(isinstance(body["options"], dict), "options must be a map")
    _expect(isinstance(body["table"], bytes) and len(body["table"]) == TABLE_BYTES, "table must be 16 bytes")
    seats = body["seats"]
    _expect(isinstance(seats, tuple) and 1 <= len(seats) <= MAX_SEATS, f"seats must be a list of 1 to {MAX_SEATS}")
    parsed = []
    for s in seats:
        _expect(isinstance(s, dict) and set(s) == {"name", "key", "chain", "seed"}, "a seat has exactly 'name', 'key', 'chain' and 'seed'")
        _expect(isinstance(s["name"], str) and len(s["name"]) <= MAX_NAME, f"a seat name is text of at most {MAX_NAME} characters")
        _expect(isinstance(s["key"], bytes) and len(s["key"]) == KEY_BYTES, "a seat key is 32 bytes")
        _expect(isinstance(s["chain"], bytes) and len(s["chain"]) == HASH_BYTES, "a seat's chain tip is 32 bytes")
        _expect(isinstance(s["seed"], bytes) and len(s["seed"]) == HASH_BYTES, "a seat's seed commitment is 32 bytes")
        parsed.append(Seat(s["name"], s["key"], s["chain"], s["seed"]))
    _expect(len({s.key for s in parsed}) == len(parsed), "two seats share one key")
    _expect(isinstance(sigs, tuple) and len(sigs) == len(parsed), "sigs must hold one signature per seat")
    _expect(all(isinstance(x, bytes) and len(x) == SIG_BYTES for x in sigs), "a signature is 64 bytes")
    genesis = Genesis(
        game=body["game"], engine=body["engine"], options=body["options"], seats=tuple(parsed),
        table=body["table"], protocol=body["protocol"],
    )
    return SignedGenesis(genesis, sigs)


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

    def unsigned(self) -> dict:
        return {"seq": self.seq, "prev": self.prev, "seat": self.seat, "kind": self.kind, "body": dict(self.body)}

    def record(self) -> dict:
        return {**self.unsigned(), "sig": self.sig}

    # The encodings are built by hand (the keys in canonical order) and kept: replaying
    # a log needs each of them once per entry, and the generic encoder is the slow part.
    @cached
    def _body(self) -> bytes:
        return encode(self.body)

    @cached
    def _fields(self) -> bytes:
        return b"".join((
            _KEY_BODY, self._body, _KEY_KIND, _pack(self.kind), _KEY_PREV, _pack(self.prev),
            _KEY_SEAT, _pack(self.seat), _KEY_SEQ, _pack(self.seq),
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


_ACTIONS_WHY = f"a move carries 1 to {MAX_ACTIONS_PER_ENTRY} actions"


def entry_from_record(obj: Any, encoded: bytes | None = None) -> Entry:
    """The entry a decoded record holds (SchemaError if it is not one). `encoded`: the
    record's canonical bytes when the caller has them (a log frame), so they are kept
    rather than built again."""
    # (the reasons are built only when a check fails: this runs for every entry received)
    if not (isinstance(obj, dict) and obj.keys() == _ENTRY_FIELDS):
        raise RecordError(f"an entry has exactly: {', '.join(sorted(_ENTRY_FIELDS))}")
    _expect(_is_int(obj["seq"]) and obj["seq"] >= 1, "seq must be a positive integer")
    _expect(isinstance(obj["prev"], bytes) and len(obj["prev"]) == HASH_BYTES, "prev must be a 32-byte hash")
    _expect(_is_int(obj["seat"]) and 0 <= obj["seat"] < MAX_SEATS, "seat must be a seat number")
    kind, body = obj["kind"], obj["body"]
    if kind not in ENTRY_KINDS:
        raise RecordError(f"unknown entry kind {kind!r}")
    if not (isinstance(body, dict) and body.keys() == ENTRY_KINDS[kind]):
        raise RecordError(f"a {kind} body has exactly: {', '.join(sorted(ENTRY_KINDS[kind]))}")
    _expect(isinstance(obj["sig"], bytes) and len(obj["sig"]) == SIG_BYTES, "sig must be 64 bytes")
    if kind == "move":
        actions = body["actions"]
        _expect(isinstance(actions, tuple) and 1 <= len(actions) <= MAX_ACTIONS_PER_ENTRY, _ACTIONS_WHY)
        _expect(all(is_action(a) for a in actions), "an action is a list of text, numbers, booleans or nil")
        n = body["nonce"]
        _expect(n is None or (isinstance(n, bytes) and len(n) == NONCE_BYTES), "a nonce is 16 bytes or nil")
    elif kind == "chance":
        _expect(is_action(body["outcome"]), "a chance outcome is an action")
    elif kind in ("commit", "reveal", "audit"):
        (name,) = ENTRY_KINDS[kind]
        if not (isinstance(body[name], bytes) and len(body[name]) == HASH_BYTES):
            raise RecordError(f"{name} is 32 bytes")
    elif kind == "result":
        for name in ("winners", "scores", "cheats"):
            if not (isinstance(body[name], tuple) and all(_is_int(w) for w in body[name])):
                raise RecordError(f"{name} is a list of integers")
        _expect(isinstance(body["state"], bytes) and len(body["state"]) == HASH_BYTES, "state is a 32-byte hash")
    entry = Entry(obj["seq"], obj["prev"], obj["seat"], kind, body, obj["sig"])
    if encoded is not None:
        # {"body".."seq", "sig": bin 64} with "sig" last: the fields sit between the map
        # header and the 70 bytes of the signature's key and value.
        entry.__dict__["encoded"] = encoded
        entry.__dict__["_fields"] = encoded[1 : -len(_KEY_SIG) - 2 - SIG_BYTES]
    return entry
