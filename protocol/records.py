"""The signed records of a game log: the genesis (entry 0) and the entries after it
(spec/log-format.md). Each has one canonical msgpack form; `from_record` checks a decoded
record against its schema and says what is wrong in a sentence.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import msgpack

from engines.canonical import digest, encode
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
    "move": frozenset({"actions"}),
    "chance": frozenset({"outcome", "entropy"}),
    "result": frozenset({"winners", "scores", "state"}),
}


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


@dataclass(frozen=True)
class Genesis:
    """What a game is: the game, its engine version and options, the seats and their keys."""

    game: str
    engine: str
    options: Mapping[str, Any]
    seats: tuple[Seat, ...]
    table: bytes  # 16 random bytes: two games with the same seats never share a genesis
    protocol: int = PROTOCOL_VERSION
    commitments: tuple = ()

    def body(self) -> dict:
        return {
            "protocol": self.protocol,
            "game": self.game,
            "engine": self.engine,
            "options": dict(self.options),
            "seats": [{"name": s.name, "key": s.key} for s in self.seats],
            "table": self.table,
            "commitments": list(self.commitments),
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
    keys = {"protocol", "game", "engine", "options", "seats", "table", "commitments"}
    _expect(isinstance(body, dict) and set(body) == keys, f"a genesis has exactly: {', '.join(sorted(keys))}")
    _expect(_is_int(body["protocol"]), "protocol must be an integer")
    _expect(body["protocol"] == PROTOCOL_VERSION, f"protocol version {body['protocol']} is not {PROTOCOL_VERSION}, the version this peerboard speaks")
    _expect(isinstance(body["game"], str) and 0 < len(body["game"]) <= 32, "game must be a short name")
    _expect(isinstance(body["engine"], str) and 0 < len(body["engine"]) <= 32, "engine must be a short version")
    _expect(isinstance(body["options"], dict), "options must be a map")
    _expect(isinstance(body["table"], bytes) and len(body["table"]) == TABLE_BYTES, "table must be 16 bytes")
    _expect(isinstance(body["commitments"], tuple), "commitments must be a list")
    seats = body["seats"]
    _expect(isinstance(seats, tuple) and 1 <= len(seats) <= MAX_SEATS, f"seats must be a list of 1 to {MAX_SEATS}")
    parsed = []
    for s in seats:
        _expect(isinstance(s, dict) and set(s) == {"name", "key"}, "a seat has exactly 'name' and 'key'")
        _expect(isinstance(s["name"], str) and len(s["name"]) <= MAX_NAME, f"a seat name is text of at most {MAX_NAME} characters")
        _expect(isinstance(s["key"], bytes) and len(s["key"]) == KEY_BYTES, "a seat key is 32 bytes")
        parsed.append(Seat(s["name"], s["key"]))
    _expect(len({s.key for s in parsed}) == len(parsed), "two seats share one key")
    _expect(isinstance(sigs, tuple) and len(sigs) == len(parsed), "sigs must hold one signature per seat")
    _expect(all(isinstance(x, bytes) and len(x) == SIG_BYTES for x in sigs), "a signature is 64 bytes")
    genesis = Genesis(
        game=body["game"], engine=body["engine"], options=body["options"], seats=tuple(parsed),
        table=body["table"], protocol=body["protocol"], commitments=body["commitments"],
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

    def signing_bytes(self) -> bytes:
        return ENTRY_DOMAIN + encode(self.unsigned())

    def record(self) -> dict:
        return {**self.unsigned(), "sig": self.sig}

    @property
    def hash(self) -> bytes:
        return digest(self.record())


def make_entry(identity: Identity, seq: int, prev: bytes, seat: int, kind: str, body: Mapping[str, Any]) -> Entry:
    """A new entry signed by `identity`; its body in the form it decodes to (tuples)."""
    body = msgpack.unpackb(encode(body), raw=False, use_list=False)
    unsigned = Entry(seq, prev, seat, kind, body)
    return Entry(seq, prev, seat, kind, body, identity.sign(unsigned.signing_bytes()))


def entry_from_record(obj: Any) -> Entry:
    keys = {"seq", "prev", "seat", "kind", "body", "sig"}
    _expect(isinstance(obj, dict) and set(obj) == keys, f"an entry has exactly: {', '.join(sorted(keys))}")
    _expect(_is_int(obj["seq"]) and obj["seq"] >= 1, "seq must be a positive integer")
    _expect(isinstance(obj["prev"], bytes) and len(obj["prev"]) == HASH_BYTES, "prev must be a 32-byte hash")
    _expect(_is_int(obj["seat"]) and 0 <= obj["seat"] < MAX_SEATS, "seat must be a seat number")
    kind, body = obj["kind"], obj["body"]
    _expect(kind in ENTRY_KINDS, f"unknown entry kind {kind!r}")
    _expect(isinstance(body, dict) and set(body) == ENTRY_KINDS[kind], f"a {kind} body has exactly: {', '.join(sorted(ENTRY_KINDS[kind]))}")
    _expect(isinstance(obj["sig"], bytes) and len(obj["sig"]) == SIG_BYTES, "sig must be 64 bytes")
    if kind == "move":
        actions = body["actions"]
        _expect(isinstance(actions, tuple) and 1 <= len(actions) <= MAX_ACTIONS_PER_ENTRY, f"a move carries 1 to {MAX_ACTIONS_PER_ENTRY} actions")
        _expect(all(is_action(a) for a in actions), "an action is a list of text, numbers, booleans or nil")
    elif kind == "chance":
        _expect(is_action(body["outcome"]), "a chance outcome is an action")
        e = body["entropy"]
        _expect(isinstance(e, bytes) and len(e) == 32, "entropy is 32 bytes")
    elif kind == "result":
        _expect(isinstance(body["winners"], tuple) and all(_is_int(w) for w in body["winners"]), "winners is a list of seats")
        _expect(isinstance(body["scores"], tuple) and all(_is_int(s) for s in body["scores"]), "scores is a list of integers")
        _expect(isinstance(body["state"], bytes) and len(body["state"]) == HASH_BYTES, "state is a 32-byte hash")
    return Entry(obj["seq"], obj["prev"], obj["seat"], kind, body, obj["sig"])
