"""The invalid conformance vectors (spec/log-format.md, "Conformance vectors").

Each is a log built from a valid vector of spec/vectors/ — its records, signed again where
that is the point with its seats' own keys (tests/support/vectors.py) — and broken in one way, with
the verdict every verifier must reach: the seq of the first bad record (None: the header)
and the failure class. `python tests/support/invalid_vectors.py` writes them to
spec/vectors/invalid/ and their index to spec/vectors/invalid.json, the same bytes every
time; tests/spec/test_conformance_vectors.py checks the reference verifier against the index.

Where a change would leave the rest of the log pointing at the old record, the entries
after it are linked and signed again, so that a verifier that missed the broken rule would
find nothing else wrong (and call the log valid): the verdict is about that one rule.
Keys and signatures that break the rules of spec/log-format.md, "Signatures" are written
with tests/support/ed25519_point.py.
"""
from __future__ import annotations

import copy
import hashlib
import json
import random
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run as a script: `support` is found from tests/

import msgpack  # noqa: E402

from support import ed25519_point as ed  # noqa: E402
from peerboard import engines  # noqa: E402
from peerboard.engines.canonical import encode  # noqa: E402
from peerboard.protocol.log import failures as F  # noqa: E402
from peerboard.protocol.log.builder import LogBuilder  # noqa: E402
from peerboard.protocol.log.ledger import Ledger  # noqa: E402
from peerboard.protocol.log.identity import Identity  # noqa: E402
from peerboard.protocol.log.logfile import frame, header_frame, read_log  # noqa: E402
from peerboard.protocol.log.ledger import LedgerError  # noqa: E402
from peerboard.protocol.log.records import (  # noqa: E402
    ENTRY_DOMAIN, GENESIS_DOMAIN, agree_statement, claim_statement, resign_statement,
)
from peerboard.protocol.log.secrets import SeatSecrets, choice_digest  # noqa: E402
from peerboard.protocol.log.takeover import takeover_body, takeover_secrets  # noqa: E402
from peerboard.protocol.log.ends import result_statement  # noqa: E402
from peerboard.protocol.log.schema import ENDS_TOGETHER, REVEALS_TOGETHER  # noqa: E402
from support.vectors import CASES, DISPUTES, ENDINGS, ENDS, SETTLED, TOGETHER, VECTORS, seats  # noqa: E402

INVALID = VECTORS / "invalid"
INDEX = VECTORS / "invalid.json"

Signer = Callable[[bytes], bytes]


@dataclass(frozen=True)
class Vector:
    name: str
    game: str
    seq: int | None
    failure: str
    what: str
    data: bytes


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class Log:
    """A log as plain records to change — the genesis record and each entry's — with a
    signer per seat (its Ed25519 key, or a crafted one)."""

    def __init__(self, game: str, genesis: dict, entries: list[dict], signers: list[Signer], seeds: list[bytes]):
        self.game = game
        self.genesis = genesis
        self.entries = entries
        self.signers = signers
        self.seeds = seeds  # each seat's Ed25519 seed
        self.taken: dict[int, tuple[int, Signer]] = {}  # a seat taken over -> (its takeover's seq, its new signer)

    @classmethod
    def of(cls, game: str) -> "Log":
        """The valid vector of `game`, with its seats' keys."""
        players = next(p for name, p, _ in CASES if name == game)
        _, _, keys = seats(game, players)
        contents = read_log((VECTORS / f"{game}.pblog").read_bytes())
        return cls.built(game, contents.genesis.record(), [e.record() for e in contents.entries], keys)

    @classmethod
    def built(cls, game: str, genesis: dict, entries: list[dict], keys: list[bytes]) -> "Log":
        identities = [Identity.from_seed(k) for k in keys]
        return cls(game, _plain(genesis), [_plain(e) for e in entries], [i.sign for i in identities], list(keys))

    def copy(self) -> "Log":
        log = Log(self.game, copy.deepcopy(self.genesis), copy.deepcopy(self.entries), list(self.signers), list(self.seeds))
        log.taken = dict(self.taken)
        return log

    def entry(self, seq: int) -> dict:
        return self.entries[seq - 1]

    def find(self, test: Callable[[dict], bool], after: int = 0) -> int:
        """The seq of the first entry after `after` that passes `test`."""
        return next(e["seq"] for e in self.entries if e["seq"] > after and test(e))

    # -- signing -----------------------------------------------------------------------------

    def sign_genesis(self) -> None:
        message = GENESIS_DOMAIN + encode(self.genesis["genesis"])
        self.genesis["sigs"] = [signer(message) for signer in self.signers]

    def sign(self, seq: int, signer: Signer | None = None) -> None:
        e = self.entry(seq)
        unsigned = {k: v for k, v in e.items() if k != "sig"}
        if signer is None:
            taken = self.taken.get(e["seat"])  # (a taken-over seat signs with its new key after its takeover)
            signer = taken[1] if taken is not None and seq > taken[0] else self.signers[e["seat"]]
        e["sig"] = signer(ENTRY_DOMAIN + encode(unsigned))

    def relink(self, start: int = 1) -> None:
        """Link and sign every entry from seq `start` on again."""
        for e in self.entries[start - 1 :]:
            before = self.genesis if e["seq"] == 1 else self.entry(e["seq"] - 1)
            e["prev"] = sha256(encode(before))
            self.sign(e["seq"])

    def changed(self, seq: int, **fields) -> "Log":
        """A copy with entry `seq`'s fields changed, signed again by the seat that wrote it,
        the entries after it relinked."""
        log = self.copy()
        seat = log.entry(seq)["seat"]
        log.entry(seq).update(fields)
        taken = self.taken.get(seat)
        log.sign(seq, taken[1] if taken is not None and seq > taken[0] else self.signers[seat])
        log.relink(seq + 1)
        return log

    def written_by(self, seq: int, seat: int) -> "Log":
        """A copy with entry `seq` written and signed by `seat` in place of its writer, the
        entries after it relinked (an entry by a seat not entitled to it)."""
        log = self.copy()
        log.entry(seq)["seat"] = seat
        log.sign(seq)
        log.relink(seq + 1)
        return log

    # -- the file ----------------------------------------------------------------------------

    def frames(self, upto: int | None = None) -> list[bytes]:
        entries = self.entries if upto is None else self.entries[:upto]
        return [header_frame(), frame(encode(self.genesis))] + [frame(encode(e)) for e in entries]

    def data(self, upto: int | None = None) -> bytes:
        """The file, through entry `upto` (None: all of it)."""
        return b"".join(self.frames(upto))

    def chain_at(self, seq: int) -> Ledger:
        """The reference ledger just before entry `seq` (to pick an action it refuses)."""
        contents = read_log(self.data(seq - 1))
        ledger = Ledger.start(contents.genesis)
        for e in contents.entries:
            ledger = ledger.check(e)
        return ledger


def _plain(record: dict) -> dict:
    """A record as mutable plain values (lists for arrays, dicts for maps)."""
    def walk(v):
        if isinstance(v, (list, tuple)):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        return v
    return walk(record)


def _frame_of(raw: bytes) -> bytes:
    return len(raw).to_bytes(4, "big") + raw


def _depth(value) -> int:
    """How deep arrays and maps nest in `value` (an array or map itself is 1)."""
    if isinstance(value, dict):
        value = list(value.values())
    if not isinstance(value, list):
        return 0
    return 1 + max((_depth(v) for v in value), default=0)


# -- the vectors ------------------------------------------------------------------------------


def header_vectors(aton: Log, asterix: Log) -> list[Vector]:
    other = frame(encode({"format": "peerboard-log", "version": 2}))
    return [
        Vector("aton-header-version-2", "aton", None, F.HEADER,
               "the header says version 2", other + b"".join(aton.frames()[1:])),
        Vector("asterix-header-missing", "asterix", None, F.HEADER,
               "the file begins with the genesis frame: no header", b"".join(asterix.frames()[1:])),
        Vector("athos-header-cut", "athos", None, F.HEADER,
               "the file holds the first 20 of the header's 35 bytes", header_frame()[:20]),
    ]


def frame_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    fa, ft, fs = aton.frames(), athos.frames(12), asterix.frames()
    return [
        Vector("asterix-frame-too-long-at-the-end", "asterix", len(asterix.entries) + 1, F.FRAME,
               "after the last entry, 4 bytes ff ff ff ff: a frame length over the limit", b"".join(fs) + b"\xff" * 4),
        Vector("aton-frame-too-long", "aton", 10, F.FRAME,
               "the frame of entry 10 says 1,048,577 bytes (the file ends before them)",
               b"".join(fa[:11]) + (1 << 20 | 1).to_bytes(4, "big") + b"".join(fa[11:])),
        Vector("athos-frame-length-zero", "athos", 5, F.FRAME,
               "a frame of length 0 where entry 5 should be", b"".join(ft[:6]) + bytes(4) + b"".join(ft[6:])),
    ]


def truncated_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    whole = asterix.data()
    return [
        Vector("asterix-truncated-last-frame", "asterix", len(asterix.entries), F.TRUNCATED,
               "the file ends 10 bytes before the end of its last entry", whole[:-10]),
        Vector("athos-truncated-no-genesis", "athos", 0, F.TRUNCATED,
               "the file holds the header only", header_frame()),
        Vector("aton-truncated-partial-length", "aton", 21, F.TRUNCATED,
               "the file ends 2 bytes into the length of entry 21's frame", aton.data(20) + aton.frames()[22][:2]),
    ]


def decode_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    out = []
    # entry 3 of aton with its seq as uint16 (cd 0003) instead of a fixint: the same value
    raw = encode(aton.entry(3))
    bad = raw.replace(b"\xa3seq\x03", b"\xa3seq\xcd\x00\x03")
    assert bad != raw
    out.append(Vector("aton-decode-int-not-smallest", "aton", 3, F.DECODE,
                      "entry 3's seq is written as a uint16, not in its smallest form",
                      b"".join(aton.frames(2)) + _frame_of(bad) + b"".join(aton.frames()[5:])))
    # a float where athos entry 2's seat should be
    raw = encode(athos.entry(2))
    seat = athos.entry(2)["seat"]
    bad = raw.replace(b"\xa4seat" + bytes([seat]), b"\xa4seat\xcb" + struct.pack(">d", seat))
    assert bad != raw
    out.append(Vector("athos-decode-float", "athos", 2, F.DECODE,
                      f"entry 2's seat is the float {float(seat)}", athos.data(1) + _frame_of(bad) + athos.frames(4)[4]))
    # asterix entry 4 with its map keys out of order
    e = asterix.entry(4)
    bad = msgpack.packb({k: e[k] for k in ("seq", "body", "kind", "prev", "seat", "sig")}, use_bin_type=True)
    out.append(Vector("asterix-decode-keys-unsorted", "asterix", 4, F.DECODE,
                      "entry 4's map keys are not in ascending order",
                      asterix.data(3) + _frame_of(bad) + b"".join(asterix.frames()[6:])))
    # invalid UTF-8 in aton entry 3's kind ("mov\xff" for "move")
    raw = encode(aton.entry(3))
    bad = raw.replace(b"\xa4move", b"\xa4mov\xff")
    assert bad != raw
    out.append(Vector("aton-decode-bad-utf8", "aton", 3, F.DECODE,
                      "entry 3's kind is not valid UTF-8", aton.data(2) + _frame_of(bad)))
    # athos entry 1 with an action nested 17 deep in the record (the limit is 16)
    deep: list = ["go"]
    while _depth(deep) < 14:  # entry, body, actions, then the action: 3 + 14 = 17
        deep = ["go", deep]
    log = athos.changed(1, body={"actions": [deep], "nonce": None})
    assert _depth(log.entry(1)) == 17
    out.append(Vector("athos-decode-too-deep", "athos", 1, F.DECODE,
                      "entry 1's action nests arrays 17 deep in the record (at most 16)", log.data(3)))
    return out


def schema_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    out = []
    log = athos.changed(1, body={"actions": [["go", ["a", ["b", ["c", ["d"]]]]]], "nonce": None})
    out.append(Vector("athos-schema-action-too-deep", "athos", 1, F.SCHEMA,
                      "entry 1's action is nested 5 deep (at most 4: arrays at most 3 deep inside it)", log.data(3)))
    seq = aton.find(lambda e: e["kind"] == "move")
    log = aton.changed(seq, kind="pass", body={})
    out.append(Vector("aton-schema-unknown-kind", "aton", seq, F.SCHEMA,
                      f"entry {seq} is of kind 'pass', which protocol version 1 does not have", log.data(seq + 2)))
    log = aton.changed(seq, body={"actions": [["keep"]] * 65, "nonce": None})
    out.append(Vector("aton-schema-65-actions", "aton", seq, F.SCHEMA,
                      f"entry {seq} holds 65 actions (at most 64)", log.data(seq + 2)))
    log = asterix.changed(2, seat=8)
    out.append(Vector("asterix-schema-seat-8", "asterix", 2, F.SCHEMA,
                      "entry 2 names seat 8 (a seat is 0 to 7)", log.data(4)))
    log = _regenesis(aton, lambda g: g.update(protocol="1"))
    out.append(Vector("aton-schema-protocol-text", "aton", 0, F.SCHEMA,
                      "the genesis says protocol \"1\", text where a whole number goes", log.data(4)))
    log = _regenesis(asterix, lambda g: g.update(protocol=True))
    out.append(Vector("asterix-schema-protocol-true", "asterix", 0, F.SCHEMA,
                      "the genesis says protocol true, a boolean where a whole number goes", log.data(4)))
    log = athos.copy()
    log.genesis["sigs"] = log.genesis["sigs"][:1]
    out.append(Vector("athos-schema-one-signature-missing", "athos", 0, F.SCHEMA,
                      "the genesis holds one signature for two seats", log.data(3)))
    return out


def _regenesis(log: Log, change: Callable[[dict], None], upto: int | None = None) -> Log:
    """A copy with its GENESIS changed, signed by every seat, every entry (through `upto`)
    relinked."""
    log = log.copy()
    log.entries = log.entries[:upto]
    change(log.genesis["genesis"])
    log.sign_genesis()
    log.relink()
    return log


def _athos_with_handicap(athos: Log) -> Log:
    """A valid start of an Athos game with the option handicap {"0": 1}: the vector's seats."""
    rng, masters, keys = seats("athos", 2)
    rng = random.Random("peerboard invalid vector athos handicap")
    builder = LogBuilder.table(engines.get("athos"), {"handicap": {"0": 1}}, ["seat-0", "seat-1"], masters, keys,
                               rng.randbytes(16), lambda: rng.randbytes(16))
    for _ in range(10):
        builder.step(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    return Log.built("athos", builder.ledger.genesis.record(), [e.record() for e in builder.entries], keys)


def genesis_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    out = []
    handicap = _athos_with_handicap(athos)
    for key, name, said in (
        (" 0", "space", "a space before it"), ("0 ", "trailing-space", "a space after it"),
        ("+0", "plus", "a plus sign"), ("00", "leading-zero", "a leading zero"),
        ("\u0660", "arabic-indic-zero", "the Arabic-Indic digit zero"),
    ):
        log = _regenesis(handicap, lambda g: g["options"].update(handicap={key: 1}))
        out.append(Vector(f"athos-genesis-handicap-{name}", "athos", 0, F.GENESIS,
                          f"the handicap option names seat {key!r}: seat 0 written with {said} "
                          "(a lax int() reads it as 0, and the log then checks out)", log.data()))

    def third_seat(g: dict) -> None:
        s = SeatSecrets.from_master(bytes(32))
        g["seats"].append({"name": "seat-2", "key": Identity.from_seed(bytes([7]) * 32).public_key,
                           "chain": s.chain_tip, "seed": s.commitments()["seed"]})

    log = aton.copy()
    log.signers.append(Identity.from_seed(bytes([7]) * 32).sign)
    log = _regenesis(log, third_seat, 4)
    out.append(Vector("aton-genesis-three-players", "aton", 0, F.GENESIS,
                      "the genesis seats three players; Aton is played by two", log.data()))
    log = _regenesis(aton, lambda g: g.update(protocol=2))
    out.append(Vector("aton-genesis-protocol-2", "aton", 0, F.GENESIS, "the genesis says protocol version 2", log.data(4)))
    log = _regenesis(aton, lambda g: g.update(protocol=-1))
    out.append(Vector("aton-genesis-protocol-minus-1", "aton", 0, F.GENESIS,
                      "the genesis says protocol version -1 (a whole number, so its shape is sound; not 1)",
                      log.data(4)))
    log = _regenesis(aton, lambda g: g["options"].update(colour="red"))
    out.append(Vector("aton-genesis-unknown-option", "aton", 0, F.GENESIS,
                      "the genesis gives Aton an option 'colour' it does not have", log.data(4)))
    log = _regenesis(asterix, lambda g: g.update(engine="1"))
    out.append(Vector("asterix-genesis-engine-1", "asterix", 0, F.GENESIS,
                      "the genesis says asterix engine version 1 (this standard is version 2)", log.data(4)))
    log = _regenesis(asterix, lambda g: g["options"].update(max_rounds=0))
    out.append(Vector("asterix-genesis-max-rounds-0", "asterix", 0, F.GENESIS,
                      "the genesis sets max_rounds 0 (1 to 10000)", log.data(4)))
    log = _regenesis(asterix, lambda g: g.update(game="chess"))
    out.append(Vector("asterix-genesis-unknown-game", "asterix", 0, F.GENESIS,
                      "the genesis names the game 'chess'", log.data(4)))
    log = athos.copy()
    log.signers[1] = log.signers[0]
    log = _regenesis(log, lambda g: g["seats"][1].update(key=g["seats"][0]["key"]), 4)
    out.append(Vector("athos-genesis-shared-key", "athos", 0, F.GENESIS,
                      "both seats have seat 0's key (each signs with it)", log.data()))
    return out


def seq_prev_seat_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    out = []
    fs = asterix.frames()
    out.append(Vector("asterix-seq-entry-dropped", "asterix", 7, F.SEQ,
                      "entry 7 is missing: seq 8 follows seq 6", b"".join(fs[:8]) + b"".join(fs[9:])))
    ft = athos.frames(6)
    out.append(Vector("athos-seq-entry-twice", "athos", 5, F.SEQ,
                      "entry 4 is written twice", b"".join(ft[:6]) + ft[5] + ft[6]))
    log = aton.copy()
    log.entry(1)["seq"] = 2
    log.sign(1)
    log.relink(2)
    out.append(Vector("aton-seq-starts-at-2", "aton", 1, F.SEQ, "the first entry says seq 2 (re-signed)", log.data(3)))
    log = aton.changed(12, prev=bytes(32))
    out.append(Vector("aton-prev-zero", "aton", 12, F.PREV, "entry 12's prev is 32 zero bytes (re-signed)", log.data(14)))
    log = athos.changed(3, prev=athos.entry(1)["prev"])
    out.append(Vector("athos-prev-genesis-hash", "athos", 3, F.PREV,
                      "entry 3's prev is the genesis hash (re-signed)", log.data(5)))
    log = asterix.changed(9, prev=sha256(b"peerboard"))
    out.append(Vector("asterix-prev-other-hash", "asterix", 9, F.PREV,
                      "entry 9's prev is another hash (re-signed)", log.data(11)))
    log = aton.copy()
    log.entry(5)["seat"] = 2
    log.sign(5, aton.signers[0])
    log.relink(6)
    out.append(Vector("aton-seat-not-at-table", "aton", 5, F.SEAT,
                      "entry 5 names seat 2 at a two-seat table (signed by seat 0)", log.data(7)))
    log = asterix.copy()
    log.entry(2)["seat"] = 6
    log.sign(2, asterix.signers[0])
    log.relink(3)
    out.append(Vector("asterix-seat-not-at-table", "asterix", 2, F.SEAT,
                      "entry 2 names seat 6 at a three-seat table", log.data(4)))
    log = athos.copy()
    log.entry(2)["seat"] = 3
    log.sign(2, athos.signers[0])
    log.relink(3)
    out.append(Vector("athos-seat-not-at-table", "athos", 2, F.SEAT,
                      "entry 2 names seat 3 at a two-seat table", log.data(4)))
    return out


# -- signatures --------------------------------------------------------------------------------

IDENTITY_ENCODING = ed.encode(ed.IDENTITY)  # 01 00 … 00
IDENTITY_P_PLUS_1 = (ed.P + 1).to_bytes(32, "little")  # y = p + 1 ≡ 1: the identity, not canonical
IDENTITY_NEGATIVE_ZERO = b"\x01" + bytes(30) + b"\x80"  # y = 1 with the sign bit of x = 0 set


def _universal(message: bytes) -> bytes:
    """R = the identity, S = 0: for a key of small order, a lax cofactored check accepts it
    for every message."""
    return IDENTITY_ENCODING + bytes(32)


def _with_r(seed: bytes, r_bytes: bytes, r: int = 0) -> Signer:
    """Signatures by `seed`'s key whose R is `r_bytes` (the point [r]B plus something of
    small order, or a strange encoding of it), S = r + h a."""
    a, _ = ed.scalar(seed)
    key = Identity.from_seed(seed).public_key
    return lambda message: ed.sign_with(a, key, r_bytes, r, message)


def _s_plus_l(signer: Signer) -> Signer:
    def sign(message: bytes) -> bytes:
        sig = signer(message)
        return sig[:32] + (int.from_bytes(sig[32:], "little") + ed.L).to_bytes(32, "little")
    return sign


def _mixed_order_r(seed: bytes) -> Signer:
    """R = [r]B + T (T of order 8), S = r + h a: [S]B − [h]A is [r]B, not R; a cofactored
    check ([8][S]B = [8]R + [8][h]A) accepts it."""
    a, prefix = ed.scalar(seed)
    key = Identity.from_seed(seed).public_key
    t = ed.torsion8()

    def sign(message: bytes) -> bytes:
        r = int.from_bytes(hashlib.sha512(prefix + message).digest(), "little") % ed.L
        r_bytes = ed.encode(ed.add(ed.mul(r, ed.BASE), t))
        return ed.sign_with(a, key, r_bytes, r, message)
    return sign


def _mixed_order_key(seed: bytes) -> tuple[bytes, Signer]:
    """The key A + T (T of order 8) and signatures that only a cofactored check accepts:
    R = [r]B, S = r + h a, with h not a multiple of 8 (so [h]T is not the identity)."""
    a, prefix = ed.scalar(seed)
    key = ed.encode(ed.add(ed.mul(a, ed.BASE), ed.torsion8()))

    def sign(message: bytes) -> bytes:
        for n in range(64):
            r = int.from_bytes(hashlib.sha512(prefix + message + bytes([n])).digest(), "little") % ed.L
            r_bytes = ed.encode(ed.mul(r, ed.BASE))
            if ed.challenge(r_bytes, key, message) % 8:
                return ed.sign_with(a, key, r_bytes, r, message)
        raise AssertionError("no nonce gave h not a multiple of 8")
    return key, sign


def _order8_key() -> tuple[bytes, Signer]:
    """A key T of order 8 and, per message, R = one of the 8 points of order dividing 8 with
    R + [h]T the identity and S = 0: a lax cofactorless check accepts it (when one exists)."""
    t = ed.torsion8()
    key = ed.encode(t)

    def sign(message: bytes) -> bytes:
        for i in range(8):
            r_bytes = ed.encode(ed.mul(i, t))
            if (i + ed.challenge(r_bytes, key, message)) % 8 == 0:
                return r_bytes + bytes(32)
        return IDENTITY_ENCODING + bytes(32)  # no such R for this message: still a forgery
    return key, sign


def signature_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    out = []
    fa = athos.frames(6)
    sig_at = athos.entry(3)
    raw = bytearray(encode(sig_at))
    raw[-1] ^= 0x01
    out.append(Vector("athos-signature-bit-flipped", "athos", 3, F.SIGNATURE,
                      "the last bit of entry 3's signature is flipped",
                      b"".join(fa[:4]) + _frame_of(bytes(raw)) + b"".join(fa[5:])))
    log = asterix.copy()
    log.genesis["sigs"] = [log.genesis["sigs"][1], log.genesis["sigs"][0], log.genesis["sigs"][2]]
    out.append(Vector("asterix-signature-genesis-swapped", "asterix", 0, F.SIGNATURE,
                      "the genesis signatures of seats 0 and 1 are swapped", log.data(3)))

    def key_swap(log: Log, seat: int, key: bytes, signer: Signer, upto: int | None = None) -> Log:
        log = log.copy()
        log.signers[seat] = signer
        return _regenesis(log, lambda g: g["seats"][seat].update(key=key), upto)

    log = key_swap(aton, 1, IDENTITY_ENCODING, _universal)
    out.append(Vector("aton-signature-identity-key", "aton", 0, F.SIGNATURE,
                      "seat 1's key is the identity point (01 00…00, small order) and every signature of "
                      "seat 1 is R = identity, S = 0, which a lax check accepts for any message", log.data()))
    log = key_swap(asterix, 2, IDENTITY_P_PLUS_1, _universal)
    out.append(Vector("asterix-signature-key-not-canonical", "asterix", 0, F.SIGNATURE,
                      "seat 2's key is the identity written with y = p + 1 (ee ff…ff 7f: not canonical, "
                      "small order); its signatures are R = identity, S = 0", log.data()))
    key, signer = _order8_key()
    log = key_swap(aton, 0, key, signer)
    out.append(Vector("aton-signature-order-8-key", "aton", 0, F.SIGNATURE,
                      "seat 0's key is a point of order 8; its signatures are a point of order dividing 8 "
                      "and S = 0, chosen so that [S]B = R + [h]A holds", log.data()))
    key, signer = _mixed_order_key(athos.seeds[0])
    log = key_swap(athos, 0, key, signer, 6)
    out.append(Vector("athos-signature-mixed-order-key-cofactored", "athos", 0, F.SIGNATURE,
                      "seat 0's key is its own key plus a point of order 8 (allowed as such); its genesis "
                      "signature holds only with the cofactor ([8][S]B = [8]R + [8][h]A)", log.data()))

    def entry_sig(log: Log, seq: int, signer: Signer, upto: int | None) -> bytes:
        log = log.copy()
        log.sign(seq, signer)
        log.relink(seq + 1)
        return log.data(upto)

    seq = asterix.find(lambda e: e["seat"] == 1 and e["kind"] == "move")
    out.append(Vector("asterix-signature-s-plus-l", "asterix", seq, F.SIGNATURE,
                      f"entry {seq}'s signature has S + L for its S (S ≥ L: a lax check reduces it mod L)",
                      entry_sig(asterix, seq, _s_plus_l(asterix.signers[1]), None)))
    seq = aton.find(lambda e: e["seat"] == 0 and e["kind"] == "move")
    out.append(Vector("aton-signature-small-order-r", "aton", seq, F.SIGNATURE,
                      f"entry {seq}'s signature has R = the identity (small order) and S = h a, so the "
                      "equation holds", entry_sig(aton, seq, _with_r(aton.seeds[0], IDENTITY_ENCODING), None)))
    seq = athos.find(lambda e: e["seat"] == 1)
    out.append(Vector("athos-signature-r-not-canonical", "athos", seq, F.SIGNATURE,
                      f"entry {seq}'s signature has R = the identity written with y = p + 1 and S = h a",
                      entry_sig(athos, seq, _with_r(athos.seeds[1], IDENTITY_P_PLUS_1), seq + 2)))
    seq = asterix.find(lambda e: e["seat"] == 0 and e["kind"] == "move")
    out.append(Vector("asterix-signature-r-negative-zero", "asterix", seq, F.SIGNATURE,
                      f"entry {seq}'s signature has R = the identity with the sign bit set (x = −0) and S = h a",
                      entry_sig(asterix, seq, _with_r(asterix.seeds[0], IDENTITY_NEGATIVE_ZERO), None)))
    seq = aton.find(lambda e: e["seat"] == 1 and e["kind"] == "reveal")
    out.append(Vector("aton-signature-mixed-order-r", "aton", seq, F.SIGNATURE,
                      f"entry {seq}'s signature has R = [r]B + T (T of order 8), S = r + h a: it holds only "
                      "with the cofactor", entry_sig(aton, seq, _mixed_order_r(aton.seeds[1]), None)))
    return out


# -- the game's own rules ----------------------------------------------------------------------


def _appended(log: Log, seat: int, kind: str, body: dict, signer: Signer | None = None) -> Log:
    log = log.copy()
    last = log.entries[-1] if log.entries else log.genesis
    seq = len(log.entries) + 1
    log.entries.append({"body": body, "kind": kind, "prev": sha256(encode(last)), "seat": seat, "seq": seq, "sig": b""})
    log.sign(seq, signer)
    return log


def _cut_after(log: Log, seq: int) -> Log:
    log = log.copy()
    log.entries = log.entries[:seq]
    return log


def over_turn_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    out = []
    n = len(asterix.entries)
    log = _appended(asterix, 0, "audit", {"seed": bytes(32)})
    out.append(Vector("asterix-over-entry-after-result", "asterix", n + 1, F.OVER,
                      "a signed audit entry of seat 0 after the last result", log.data()))
    n = len(aton.entries)
    log = _appended(aton, 1, "move", {"actions": [["keep"]], "nonce": None})
    out.append(Vector("aton-over-move-after-result", "aton", n + 1, F.OVER,
                      "a signed move of seat 1 after the last result", log.data()))
    n = len(athos.entries)
    log = _appended(athos, 0, "result", athos.entries[-1]["body"])
    out.append(Vector("athos-over-third-result", "athos", n + 1, F.OVER,
                      "a third result entry after both seats signed the result", log.data()))
    seq = aton.find(lambda e: e["kind"] == "move" and e["seat"] == 1)
    log = aton.written_by(seq, 0)
    out.append(Vector("aton-turn-wrong-seat", "aton", seq, F.TURN,
                      f"entry {seq} is seat 1's move, written and signed as seat 0's", log.data(seq + 2)))
    seq = asterix.find(lambda e: e["kind"] == "move")
    log = asterix.changed(seq, kind="reveal", body={"value": bytes(32)})
    out.append(Vector("asterix-turn-reveal-for-move", "asterix", seq, F.TURN,
                      f"entry {seq} is a reveal where a move is due", log.data(seq + 2)))
    log = athos.changed(4, kind="audit", body={"seed": bytes(32)})
    out.append(Vector("athos-turn-audit-mid-game", "athos", 4, F.TURN,
                      "entry 4 is an audit in the middle of the game", log.data(6)))
    seq = aton.find(lambda e: e["kind"] == "reveal" and e["seat"] == 0, after=2)
    log = aton.changed(seq, kind="chain", body={"tip": bytes(32)})
    out.append(Vector("aton-turn-chain-not-spent", "aton", seq, F.TURN,
                      f"entry {seq} is a chain entry of seat 0, whose hash chain is far from spent", log.data(seq + 2)))
    return out


def commitment_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    out = []
    seq = aton.find(lambda e: e["kind"] == "move" and e["body"]["nonce"] is not None)
    real = aton.entry(seq)["body"]["actions"][0]
    other = ["assign", 4, 3, 2, 1] if real != ["assign", 4, 3, 2, 1] else ["assign", 1, 2, 3, 4]
    log = aton.changed(seq, body={"actions": [other], "nonce": aton.entry(seq)["body"]["nonce"]})
    out.append(Vector("aton-commitment-other-choice", "aton", seq, F.COMMITMENT,
                      f"entry {seq} reveals {other} with the nonce of a commitment to {real}", log.data(seq + 2)))
    log = aton.changed(seq, body={"actions": [real], "nonce": None})
    out.append(Vector("aton-commitment-no-nonce", "aton", seq, F.COMMITMENT,
                      f"entry {seq} reveals its committed choice without the nonce", log.data(seq + 2)))
    # a commitment to two actions, revealed as those two: the digest holds, the count does not
    commit = aton.find(lambda e: e["kind"] == "commit" and e["seat"] == 0)
    reveal = aton.find(lambda e: e["kind"] == "move" and e["seat"] == 0 and e["body"]["nonce"] is not None, after=commit)
    nonce = aton.entry(reveal)["body"]["nonce"]
    pair = [aton.entry(reveal)["body"]["actions"][0]] * 2
    log = aton.copy()
    log.entry(commit)["body"] = {"digest": choice_digest(tuple(tuple(a) for a in pair), nonce)}
    log.entry(reveal)["body"] = {"actions": pair, "nonce": nonce}
    log.relink(commit)
    out.append(Vector("aton-commitment-two-actions", "aton", reveal, F.COMMITMENT,
                      f"entry {commit} commits to two actions, and entry {reveal} reveals them: a secret choice "
                      "is one action", log.data(reveal + 2)))
    log = athos.changed(1, body={"actions": athos.entry(1)["body"]["actions"], "nonce": bytes(16)})
    out.append(Vector("athos-commitment-nonce-on-a-move", "athos", 1, F.COMMITMENT,
                      "entry 1 is an ordinary move carrying a nonce", log.data(3)))
    seq = asterix.find(lambda e: e["kind"] == "move")
    log = asterix.changed(seq, body={"actions": asterix.entry(seq)["body"]["actions"], "nonce": bytes(16)})
    out.append(Vector("asterix-commitment-nonce-on-a-move", "asterix", seq, F.COMMITMENT,
                      f"entry {seq} is an ordinary move carrying a nonce", log.data(seq + 2)))
    return out


def _refused_action(log: Log, seq: int, candidates: list[list]) -> list:
    ledger = log.chain_at(seq)
    legal = set(ledger.game.legal_actions(ledger.state))
    return next(c for c in candidates if _tupled(c) not in legal)


def _tupled(value):
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def _aton_tie_break(aton: Log, more: int = 0) -> Log:
    """A start of an Aton game, the vector's seats, played until the first tie-break card
    is announced (a chance entry), and `more` entries after it."""
    _, masters, keys = seats("aton", 2)
    for attempt in range(100):
        rng = random.Random(f"peerboard invalid vector aton tie-break {attempt}")
        builder = LogBuilder.table(engines.get("aton"), {"win_points": 15}, ["seat-0", "seat-1"], masters, keys,
                                   rng.randbytes(16), lambda: rng.randbytes(16))
        while not builder.ledger.finished:
            entry = builder.step(lambda state, seat, legal: legal[rng.randrange(len(legal))])
            if entry.kind == "chance":
                for _ in range(more):
                    builder.step(lambda state, seat, legal: legal[rng.randrange(len(legal))])
                return Log.built("aton", builder.ledger.genesis.record(), [e.record() for e in builder.entries], keys)
    raise AssertionError("no Aton game of 100 came to a tie-break")


def illegal_vectors(aton: Log, athos: Log, asterix: Log) -> list[Vector]:
    out = []
    bad = _refused_action(athos, 1, [["go", "B", "k1"], ["go", "B", "summit"]])
    log = athos.changed(1, body={"actions": [bad], "nonce": None})
    out.append(Vector("athos-illegal-go-too-far", "athos", 1, F.ILLEGAL,
                      f"entry 1 is {bad}: far more than the 6 points a turn has", log.data(3)))
    seq = athos.find(lambda e: e["kind"] == "move" and e["body"]["actions"] == [["end_turn"]])
    log = athos.changed(seq, body={"actions": [["end_turn"], ["end_turn"]], "nonce": None})
    out.append(Vector("athos-illegal-turn-runs-on", "athos", seq, F.ILLEGAL,
                      f"entry {seq} ends its seat's turn twice: the second end_turn is no longer that seat's",
                      log.data(seq + 2)))
    seq = aton.find(lambda e: e["kind"] == "move" and e["body"]["actions"][0][0] == "place")
    bad = _refused_action(aton, seq, [["retrieve", sq] for sq in range(48)])
    log = aton.changed(seq, body={"actions": [bad], "nonce": None})
    out.append(Vector("aton-illegal-retrieve-while-placing", "aton", seq, F.ILLEGAL,
                      f"entry {seq} is {bad} where a counter must be placed", log.data(seq + 2)))
    seq = asterix.find(lambda e: e["kind"] == "move" and e["body"]["actions"][0][0] == "move")
    bad = _refused_action(asterix, seq, [["move", f"{f}{r}"] for r in "8172" for f in "ahbg"])
    log = asterix.changed(seq, body={"actions": [bad], "nonce": None})
    out.append(Vector("asterix-illegal-move-out-of-reach", "asterix", seq, F.ILLEGAL,
                      f"entry {seq} is {bad}, which the die cannot reach", log.data(seq + 2)))
    tie = _aton_tie_break(aton)
    seq = len(tie.entries)
    log = tie.changed(seq, body={"outcome": ["turn", 9]})
    out.append(Vector("aton-illegal-chance-outcome", "aton", seq, F.ILLEGAL,
                      f"entry {seq} announces the tie-break card 9 (cards are 1 to 4)", log.data()))
    return out


def reveal_vectors(aton: Log, asterix: Log) -> list[Vector]:
    out = []
    seq = asterix.find(lambda e: e["kind"] == "reveal" and e["seat"] == 1, after=5)
    log = asterix.changed(seq, body={"value": bytes(32)})
    out.append(Vector("asterix-reveal-forged", "asterix", seq, F.REVEAL,
                      f"entry {seq} reveals 32 zero bytes, not the next value of seat 1's hash chain", log.data(seq + 2)))
    first = aton.find(lambda e: e["kind"] == "reveal" and e["seat"] == 0)
    seq = aton.find(lambda e: e["kind"] == "reveal" and e["seat"] == 0, after=first)
    log = aton.changed(seq, body={"value": aton.entry(first)["body"]["value"]})
    out.append(Vector("aton-reveal-replayed", "aton", seq, F.REVEAL,
                      f"entry {seq} reveals again seat 0's value of entry {first}", log.data(seq + 2)))
    return out


def _together_log(name: str) -> Log:
    """A valid vector whose reveal rounds are `reveals` entries (tests/support/vectors.py, TOGETHER)."""
    _, game, players, _ = next(c for c in TOGETHER if c[0] == name)
    _, _, keys = seats(name, players)
    contents = read_log((VECTORS / f"{name}.pblog").read_bytes())
    return Log.built(game, contents.genesis.record(), [e.record() for e in contents.entries], keys)


def together_vectors(aton: Log) -> list[Vector]:
    """Reveal rounds written together (spec/log-format.md, "Who writes the next entry"): a
    `reveals` entry short of a seat, with a value not of its seat's chain, replayed from an
    earlier round, written by another seat than the round's gatherer, and each form of
    round where the genesis says the other."""
    out = []
    asterix, aton2 = _together_log("asterix-together"), _together_log("aton-together")
    seq = asterix.find(lambda e: e["kind"] == "reveals", after=1)
    values = asterix.entry(seq)["body"]["values"]
    log = asterix.changed(seq, body={"values": values[:2]})
    out.append(Vector("asterix-together-reveals-missing-a-seat", "asterix", seq, F.REVEAL,
                      f"entry {seq} is a reveals entry with the values of seats 0 and 1 only (it takes one per seat)",
                      log.data(seq + 2)))
    log = asterix.changed(seq, body={"values": [values[0], bytes(32), values[2]]})
    out.append(Vector("asterix-together-reveals-forged", "asterix", seq, F.REVEAL,
                      f"entry {seq}'s value of seat 1 is 32 zero bytes, not the next value of its hash chain",
                      log.data(seq + 2)))
    log = asterix.changed(seq, body={"values": [values[1], values[0], values[2]]})
    out.append(Vector("asterix-together-reveals-swapped", "asterix", seq, F.REVEAL,
                      f"entry {seq} holds seats 0's and 1's values in each other's places", log.data(seq + 2)))
    first = aton2.find(lambda e: e["kind"] == "reveals")
    seq = aton2.find(lambda e: e["kind"] == "reveals", after=first)
    log = aton2.changed(seq, body={"values": aton2.entry(first)["body"]["values"]})
    out.append(Vector("aton-together-reveals-replayed", "aton", seq, F.REVEAL,
                      f"entry {seq} holds again the values of entry {first}'s round", log.data(seq + 2)))
    gatherer = aton2.entry(seq)["seat"]
    log = aton2.written_by(seq, 1 - gatherer)
    out.append(Vector("aton-together-reveals-wrong-seat", "aton", seq, F.TURN,
                      f"entry {seq}, a reveals entry, is written by seat {1 - gatherer}; the round's gatherer is seat "
                      f"{gatherer}, the writer of entry {seq - 1}", log.data(seq + 2)))
    log = aton2.changed(seq, kind="reveal", body={"value": aton2.entry(seq)["body"]["values"][gatherer]})
    out.append(Vector("aton-together-reveal-one-seat", "aton", seq, F.TURN,
                      f"entry {seq} is one seat's reveal where the genesis says rounds are written together",
                      log.data(seq + 2)))
    seq = aton.find(lambda e: e["kind"] == "reveal" and e["seat"] == 0, after=2)
    values = [aton.entry(seq)["body"]["value"], aton.entry(seq + 1)["body"]["value"]]
    log = aton.changed(seq, kind="reveals", body={"values": values})
    out.append(Vector("aton-reveals-in-a-log-of-one-seat-reveals", "aton", seq, F.TURN,
                      f"entry {seq} is a reveals entry in a log whose genesis has no `reveals`: a round is one "
                      f"reveal entry per seat there", log.data(seq + 2)))
    log = _regenesis(asterix, lambda g: g.update(reveals="each"))
    out.append(Vector("asterix-together-schema-reveals-each", "asterix", 0, F.SCHEMA,
                      "the genesis says reveals \"each\": the only value is \"together\"", log.data(4)))
    return out


def _results(log: Log) -> list[int]:
    return [e["seq"] for e in log.entries if e["kind"] == "result"]


def result_vectors(aton: Log, asterix: Log) -> list[Vector]:
    out = []
    first, second = _results(aton)
    body = copy.deepcopy(aton.entry(second)["body"])
    body["scores"] = [s + 1 for s in body["scores"]]
    log = aton.changed(second, body=body)
    out.append(Vector("aton-result-seats-disagree", "aton", second, F.RESULT,
                      f"seat 1's result (entry {second}) gives other scores than seat 0's", log.data()))
    first = _results(asterix)[0]
    log = asterix.copy()
    for seq in _results(asterix):
        log.entry(seq)["body"]["cheats"] = [1]
    log.relink(first)
    out.append(Vector("asterix-result-invented-cheat", "asterix", first, F.RESULT,
                      "every result names seat 1 a cheat; the audit names nobody", log.data()))
    return out


def audit_vectors(aton: Log, asterix: Log) -> list[Vector]:
    out = []
    seq = aton.find(lambda e: e["kind"] == "audit" and e["seat"] == 0)
    for name, cheats, said in (("names-it", [0], "the results name seat 0"), ("silent", [], "the results name nobody")):
        log = aton.copy()
        log.entry(seq)["body"] = {"seed": bytes(32)}
        for r in _results(log):
            log.entry(r)["body"]["cheats"] = cheats
        log.relink(seq)
        out.append(Vector(f"aton-audit-false-seed-{name}", "aton", seq, F.AUDIT,
                          f"seat 0's audit (entry {seq}) reveals a seed its genesis does not commit to; {said} "
                          "(the verdict is the same)", log.data()))
    seq = asterix.find(lambda e: e["kind"] == "audit" and e["seat"] == 2)
    log = asterix.copy()
    log.entry(seq)["body"] = {"seed": sha256(b"not the seed")}
    for r in _results(log):
        log.entry(r)["body"]["cheats"] = [2]
    log.relink(seq)
    out.append(Vector("asterix-audit-false-seed", "asterix", seq, F.AUDIT,
                      f"seat 2's audit (entry {seq}), the last, reveals a seed its genesis does not commit to",
                      log.data()))
    # seats that play from the public view claim cards they may not hold: only the audit tells
    _, masters, keys = seats("aton", 2)
    rng = random.Random("peerboard invalid vector aton false claim")
    builder = LogBuilder.table(engines.get("aton"), {"win_points": 15}, ["seat-0", "seat-1"], masters, keys,
                               rng.randbytes(16), lambda: rng.randbytes(16), knows_hidden=False)
    builder.play(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    assert builder.ledger.cheats, "the seats happened to claim only cards they held"
    log = Log.built("aton", builder.ledger.genesis.record(), [e.record() for e in builder.entries], keys)
    seq = [e["seq"] for e in log.entries if e["kind"] == "audit"][-1]
    out.append(Vector("aton-audit-false-claim", "aton", seq, F.AUDIT,
                      "a seat assigns or exchanges cards its hidden hand does not hold (plausible to the "
                      f"public view); proven at the last audit (entry {seq}), when every seed is known",
                      log.data()))
    return out


def _ending_log(name: str) -> Log:
    """A valid vector of a game that ended by a resignation (tests/support/vectors.py, ENDINGS)."""
    _, game, players, *_ = next(c for c in ENDINGS if c[0] == name)  # (name, game, players, ...)
    _, _, keys = seats(name, players)
    contents = read_log((VECTORS / f"{name}.pblog").read_bytes())
    return Log.built(game, contents.genesis.record(), [e.record() for e in contents.entries], keys)


def ending_vectors() -> list[Vector]:
    """Resignations that do not hold (spec/protocol.md, "Endings")."""
    out = []
    athos, aton = _ending_log("athos-resigned"), _ending_log("aton-resigned")
    seq = athos.find(lambda e: e["kind"] == "resign")
    genesis_hash = sha256(encode(athos.genesis))
    forged = Identity.from_seed(athos.seeds[1]).sign(resign_statement(genesis_hash, 0))
    log = athos.changed(seq, body={"seat": 0, "sig": forged})
    out.append(Vector("athos-consent-resign-not-signed", "athos", seq, F.CONSENT,
                      f"entry {seq} carries a resignation of seat 0 signed by seat 1, who writes it", log.data()))
    seq = aton.find(lambda e: e["kind"] == "resign")
    other_game = Identity.from_seed(aton.seeds[1]).sign(resign_statement(bytes(32), 1))
    log = aton.changed(seq, body={"seat": 1, "sig": other_game})
    out.append(Vector("aton-consent-resign-of-another-game", "aton", seq, F.CONSENT,
                      f"entry {seq} carries seat 1's resignation of another game (its statement names another genesis)",
                      log.data()))
    seq = athos.find(lambda e: e["kind"] == "resign")
    log = athos.written_by(seq, 0)
    out.append(Vector("athos-turn-resign-by-a-seat-not-entitled", "athos", seq, F.TURN,
                      f"entry {seq}, seat 0's resignation, written by seat 0 where seat 1 is entitled to the entry",
                      log.data()))
    after = aton.find(lambda e: e["kind"] == "audit")
    sig = Identity.from_seed(aton.seeds[0]).sign(resign_statement(sha256(encode(aton.genesis)), 0))
    log = aton.changed(after, kind="resign", body={"seat": 0, "sig": sig})
    out.append(Vector("aton-turn-resign-after-the-end", "aton", after, F.TURN,
                      f"entry {after} is seat 0's resignation of a game that seat 1's resignation ended already",
                      log.data(after + 1)))
    first = _results(athos)[0]
    log = athos.copy()
    for r in _results(log):
        del log.entry(r)["body"]["ending"]
    log.relink(first)
    out.append(Vector("athos-result-ending-missing", "athos", first, F.RESULT,
                      "the results of a resigned game do not say how it ended (no ending)", log.data()))
    # claims (a seat gone for good: every other seat signs, bound to the claim's seq and prev)
    claimed2, claimed3 = _ending_log("aton-claimed"), _ending_log("asterix-claimed")

    def claim_sig(log: Log, signer: int, gone: int, seq: int, prev: bytes) -> bytes:
        return Identity.from_seed(log.seeds[signer]).sign(claim_statement(sha256(encode(log.genesis)), gone, seq, prev))

    seq = claimed2.find(lambda e: e["kind"] == "claim")
    e = claimed2.entry(seq)
    log = claimed2.changed(seq, body={"gone": 0, "sigs": [claim_sig(claimed2, 0, 0, seq, e["prev"])]})
    out.append(Vector("aton-consent-claim-signed-by-the-claimed-seat", "aton", seq, F.CONSENT,
                      f"entry {seq}, seat 1's claim of seat 0, carries seat 0's signature instead of seat 1's",
                      log.data()))
    log = claimed2.changed(seq, body={"gone": 0, "sigs": [claim_sig(claimed2, 1, 0, seq - 1, e["prev"])]})
    out.append(Vector("aton-consent-claim-signed-for-another-entry", "aton", seq, F.CONSENT,
                      f"entry {seq}'s claim signature is seat 1's claim of seat 0 at entry {seq - 1}, not here",
                      log.data()))
    seq = claimed3.find(lambda e: e["kind"] == "claim")
    e = claimed3.entry(seq)
    log = claimed3.changed(seq, body={"gone": 0, "sigs": [e["body"]["sigs"][0]]})
    out.append(Vector("asterix-consent-claim-missing-a-signature", "asterix", seq, F.CONSENT,
                      f"entry {seq} claims seat 0 with seat 1's signature only; seat 2 did not sign", log.data()))
    log = claimed3.written_by(seq, 2)
    out.append(Vector("asterix-turn-claim-by-a-seat-not-its-writer", "asterix", seq, F.TURN,
                      f"entry {seq}, the claim of seat 0 signed by seats 1 and 2, written by seat 2; its writer "
                      "is the lowest seat still playing, seat 1", log.data()))
    last = _results(aton)[-1]
    before = aton.entry(last - 1)
    log = aton.changed(last, kind="claim", body={"gone": 0, "sigs": [claim_sig(aton, 1, 0, last, sha256(encode(before)))]})
    out.append(Vector("aton-turn-claim-while-the-result-is-signed", "aton", last, F.TURN,
                      f"entry {last} claims seat 0 after seat 0 signed the result", log.data()))
    # agreements (a draw or an abort: every seat signs, bound to the entry's seq and prev)
    drawn, aborted = _ending_log("athos-drawn"), _ending_log("asterix-aborted")
    seq = drawn.find(lambda e: e["kind"] == "agree")
    e = drawn.entry(seq)
    log = drawn.changed(seq, body={"how": "drawn", "sigs": [e["body"]["sigs"][0], e["body"]["sigs"][0]]})
    out.append(Vector("athos-consent-draw-seat-1-did-not-sign", "athos", seq, F.CONSENT,
                      f"entry {seq}, a draw, carries seat 0's signature twice: seat 1 did not sign", log.data()))
    log = drawn.changed(seq, body={"how": "aborted", "sigs": list(e["body"]["sigs"])})
    out.append(Vector("athos-consent-abort-signed-as-a-draw", "athos", seq, F.CONSENT,
                      f"entry {seq} says the seats agreed to abort; they signed a draw", log.data()))
    seq = aborted.find(lambda e: e["kind"] == "agree")
    entitled = aborted.entry(seq)["seat"]
    log = aborted.written_by(seq, (entitled + 1) % 3)
    out.append(Vector("asterix-turn-abort-by-a-seat-not-entitled", "asterix", seq, F.TURN,
                      f"entry {seq}, an abort every seat signed, written by seat {(entitled + 1) % 3}, not by seat "
                      f"{entitled}, entitled to it", log.data()))
    first = _results(aton)[0]
    log = aton.copy()
    log.entry(first)["body"]["ending"]["how"] = "abandoned"
    log.relink(first)
    out.append(Vector("aton-schema-ending-unknown-how", "aton", first, F.SCHEMA,
                      f"the result (entry {first}) says the game ended in a way the protocol has no word for",
                      log.data(first + 1)))
    return out


def _takeover_log(name: str) -> Log:
    """A valid vector of a game where a seat was taken over (tests/support/vectors.py, ENDINGS), its
    taken-over seat's entries signed with the takeover's key."""
    log = _ending_log(name)
    _, _, players, *_ = next(c for c in ENDINGS if c[0] == name)
    _, masters, _ = seats(name, players)
    seq = log.find(lambda e: e["kind"] == "takeover")
    e = log.entry(seq)
    gone, runner = e["body"]["gone"], e["seat"]
    identity, _ = takeover_secrets(masters[runner], sha256(encode(log.genesis)), gone)
    log.taken[gone] = (seq, identity.sign)
    return log


def takeover_vectors() -> list[Vector]:
    """Takeovers that do not hold (spec/log-format.md, "Takeover")."""
    out = []
    athos, asterix = _takeover_log("athos-takenover"), _takeover_log("asterix-takenover")
    seq = athos.find(lambda e: e["kind"] == "takeover")
    claim, take = athos.entry(seq - 1), athos.entry(seq)
    log = athos.changed(seq - 1, kind="takeover", body=dict(take["body"]))
    out.append(Vector("athos-turn-takeover-of-a-seat-not-claimed", "athos", seq - 1, F.TURN,
                      f"entry {seq - 1}, seat 0's takeover of seat 2, with no claim of seat 2 before it",
                      log.data(seq - 1)))
    log = athos.written_by(seq, 1)
    out.append(Vector("athos-turn-takeover-by-the-wrong-seat", "athos", seq, F.TURN,
                      f"entry {seq}, the takeover of seat 2, written by seat 1; the claim's writer, seat 0, takes it "
                      "over", log.data(seq)))
    log = athos.changed(seq, body={"gone": 1, **{k: v for k, v in take["body"].items() if k != "gone"}})
    out.append(Vector("athos-consent-takeover-of-another-seat", "athos", seq, F.CONSENT,
                      f"entry {seq} takes seat 1 over; the claim before it (entry {seq - 1}) is of seat 2",
                      log.data(seq)))
    log = athos.changed(seq, body={k: v for k, v in take["body"].items() if k != "chain"})
    out.append(Vector("athos-schema-takeover-without-a-chain-tip", "athos", seq, F.SCHEMA,
                      f"entry {seq}, a takeover of seat 2, gives no tip for the seat's new hash chain",
                      log.data(seq)))
    log = athos.copy()
    nxt = log.find(lambda e: e["seat"] == 2, after=seq)
    log.sign(nxt, log.signers[2])
    log.relink(nxt + 1)
    out.append(Vector("athos-signature-taken-over-seat-signs-with-its-old-key", "athos", nxt, F.SIGNATURE,
                      f"entry {nxt}, a move of seat 2 after its takeover at entry {seq}, is signed by seat 2's genesis "
                      "key, not the takeover's", log.data(nxt)))
    assert claim["kind"] == "claim"
    seq = asterix.find(lambda e: e["kind"] == "takeover")
    gone = asterix.entry(seq)["body"]["gone"]
    reveal = asterix.find(lambda e: e["kind"] == "reveal" and e["seat"] == gone, after=seq)
    _, masters, _ = seats("asterix-takenover", 3)
    before = sum(1 for e in asterix.entries[:seq] if e["kind"] == "reveal" and e["seat"] == gone)
    old = SeatSecrets.from_master(masters[gone]).reveal(before + 1)
    log = asterix.changed(reveal, body={"value": old})
    out.append(Vector("asterix-reveal-taken-over-seat-reveals-from-its-old-chain", "asterix", reveal, F.REVEAL,
                      f"entry {reveal}, seat {gone}'s reveal after its takeover at entry {seq}, is the next value of "
                      "its genesis chain, not of the chain its takeover committed to", log.data(reveal)))
    return out


def _ends_log(name: str) -> Log:
    """A valid vector whose end is one `audits` and one `results` entry (tests/support/vectors.py, ENDS)."""
    _, game, players, _ = next(c for c in ENDS if c[0] == name)
    _, _, keys = seats(name, players)
    contents = read_log((VECTORS / f"{name}.pblog").read_bytes())
    return Log.built(game, contents.genesis.record(), [e.record() for e in contents.entries], keys)


def _signed_results(log: Log, seq: int, body: dict, signers: list[int] | None = None) -> dict:
    """`body` (a result) with the signatures of `signers` (every seat) of its statement at `seq`."""
    result = {k: v for k, v in body.items() if k != "sigs"}
    statement = result_statement(sha256(encode(log.genesis)), seq, log.entry(seq)["prev"], result)
    signers = range(len(log.signers)) if signers is None else signers
    return {**result, "sigs": [log.signers[i](statement) for i in signers]}


def ends_vectors(aton: Log) -> list[Vector]:
    """The end together (spec/log-format.md, "Who writes the next entry", case 1): an
    `audits` entry short of a seed, with a seed its commitment does not name, written by
    another seat than its gatherer; a `results` entry short of a signature, with one not of
    its seat, signed for another entry, or stating another result than the game's; each
    form of the end where the genesis says the other; a bad genesis word; a lie that only
    the re-run at the `audits` entry finds."""
    out = []
    asterix, aton2 = _ends_log("asterix-ends"), _ends_log("aton-ends")
    audits = asterix.find(lambda e: e["kind"] == "audits")
    results = audits + 1
    seeds = asterix.entry(audits)["body"]["seeds"]
    log = asterix.changed(audits, body={"seeds": seeds[:2]})
    out.append(Vector("asterix-ends-audits-missing-a-seed", "asterix", audits, F.AUDIT,
                      f"entry {audits} is an audits entry with the seeds of seats 0 and 1 only (it takes one per seat "
                      "still playing)", log.data()))
    log = asterix.changed(audits, body={"seeds": [seeds[0], sha256(b"not the seed"), seeds[2]]})
    out.append(Vector("asterix-ends-audits-forged-seed", "asterix", audits, F.AUDIT,
                      f"entry {audits}'s seed of seat 1 is not the one its genesis commits to", log.data()))
    log = asterix.changed(audits, body={"seeds": [seeds[1], seeds[0], seeds[2]]})
    out.append(Vector("asterix-ends-audits-swapped", "asterix", audits, F.AUDIT,
                      f"entry {audits} holds seats 0's and 1's seeds in each other's places", log.data()))
    gatherer = asterix.entry(audits)["seat"]
    log = asterix.written_by(audits, (gatherer + 1) % 3)
    out.append(Vector("asterix-ends-audits-wrong-seat", "asterix", audits, F.TURN,
                      f"entry {audits}, the audits, is written by seat {(gatherer + 1) % 3}; their gatherer is seat "
                      f"{gatherer}, the writer of entry {audits - 1}, the move that ended the game", log.data()))
    log = asterix.copy()
    log.entry(results)["seat"] = (gatherer + 2) % 3
    log.sign(results)
    out.append(Vector("asterix-ends-results-wrong-seat", "asterix", results, F.TURN,
                      f"entry {results}, the results, is written by seat {(gatherer + 2) % 3}; their gatherer is seat "
                      f"{gatherer}, the writer of entry {audits}, the audits", log.data()))
    body = dict(asterix.entry(results)["body"])
    log = asterix.changed(results, body={**body, "sigs": body["sigs"][:2]})
    out.append(Vector("asterix-ends-results-missing-a-signature", "asterix", results, F.CONSENT,
                      f"entry {results}, the results, carries the signatures of seats 0 and 1 only; seat 2 did not sign",
                      log.data()))
    forged = _signed_results(asterix, results, body, [0, 0, 2])
    log = asterix.changed(results, body=forged)
    out.append(Vector("asterix-ends-results-forged-signature", "asterix", results, F.CONSENT,
                      f"entry {results}'s signature in seat 1's place is seat 0's", log.data()))
    log = asterix.copy()
    log.entry(results)["seq"] = results - 1  # (signed as if the results were entry results - 1)
    elsewhere = _signed_results(log, results - 1, body)
    log = asterix.changed(results, body=elsewhere)
    out.append(Vector("asterix-ends-results-signed-for-another-entry", "asterix", results, F.CONSENT,
                      f"entry {results}'s signatures are of the result statement for entry {results - 1}, not here",
                      log.data()))
    invented = _signed_results(asterix, results, {**body, "cheats": [1]})
    log = asterix.changed(results, body=invented)
    out.append(Vector("asterix-ends-results-invented-cheat", "asterix", results, F.RESULT,
                      f"entry {results} names seat 1 a cheat, signed by every seat; the audit names nobody", log.data()))
    audits2 = aton2.find(lambda e: e["kind"] == "audits")
    gatherer = aton2.entry(audits2)["seat"]
    seed = aton2.entry(audits2)["body"]["seeds"][gatherer]
    log = aton2.changed(audits2, kind="audit", body={"seed": seed})
    out.append(Vector("aton-ends-audit-one-seat", "aton", audits2, F.TURN,
                      f"entry {audits2} is one seat's audit where the genesis says the end is written together",
                      log.data(audits2)))
    first = aton.find(lambda e: e["kind"] == "audit")
    log = aton.changed(first, kind="audits", body={"seeds": [aton.entry(first)["body"]["seed"],
                                                             aton.entry(first + 1)["body"]["seed"]]})
    out.append(Vector("aton-audits-in-a-log-of-one-seat-audits", "aton", first, F.TURN,
                      f"entry {first} is an audits entry in a log whose genesis has no `ends`: the audit is one "
                      "audit entry per seat there", log.data(first)))
    log = _regenesis(asterix, lambda g: g.update(ends="each"))
    out.append(Vector("asterix-ends-schema-ends-each", "asterix", 0, F.SCHEMA,
                      "the genesis says ends \"each\": the only value is \"together\"", log.data(4)))
    log = _appended(asterix, 0, "audits", {"seeds": seeds})
    out.append(Vector("asterix-ends-over-entry-after-results", "asterix", results + 1, F.OVER,
                      f"entry {results + 1}, the audits again, after the results every seat signed", log.data()))
    # seats that play from the public view claim cards they may not hold: the re-run at the audits tells
    _, masters, keys = seats("aton", 2)
    rng = random.Random("peerboard invalid vector aton false claim, the end together")
    builder = LogBuilder.table(engines.get("aton"), {"win_points": 15}, ["seat-0", "seat-1"], masters, keys,
                               rng.randbytes(16), lambda: rng.randbytes(16), knows_hidden=False,
                               reveals=REVEALS_TOGETHER, ends=ENDS_TOGETHER)
    builder.play(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    assert builder.ledger.cheats, "the seats happened to claim only cards they held"
    log = Log.built("aton", builder.ledger.genesis.record(), [e.record() for e in builder.entries], keys)
    seq = log.find(lambda e: e["kind"] == "audits")
    out.append(Vector("aton-ends-audits-false-claim", "aton", seq, F.AUDIT,
                      "a seat assigns or exchanges cards its hidden hand does not hold (plausible to the public "
                      f"view); proven at the audits entry (entry {seq}), when every seed is known", log.data()))
    return out


def _settled_log(name: str) -> Log:
    """A valid vector of the corners the spec settles (tests/support/vectors.py, SETTLED), its
    taken-over seat's entries signed with the takeover's key."""
    _, game, players, *_ = next(c for c in SETTLED if c[0] == name)
    _, masters, keys = seats(name, players)
    contents = read_log((VECTORS / f"{name}.pblog").read_bytes())
    log = Log.built(game, contents.genesis.record(), [e.record() for e in contents.entries], keys)
    for e in log.entries:
        if e["kind"] == "takeover":
            identity, _ = takeover_secrets(masters[e["seat"]], sha256(encode(log.genesis)), e["body"]["gone"])
            log.taken[e["body"]["gone"]] = (e["seq"], identity.sign)
    return log


def agreement_vectors() -> list[Vector]:
    """An agreement short of a seat's signature, each way (a draw, an abort) at two and at
    three seats (class `consent`); and one with no signature at all (class `schema`: "Limits").
    Each log ends at the agreement, so that a verifier that missed the rule finds nothing
    after it to refuse."""
    out = []
    drawn, aborted = _ending_log("athos-drawn"), _ending_log("asterix-aborted")
    for log, game, players in ((drawn, "athos", 2), (aborted, "asterix", 3)):
        seq = log.find(lambda e: e["kind"] == "agree")
        prev = log.entry(seq)["prev"]
        genesis = sha256(encode(log.genesis))
        for how in ("drawn", "aborted"):
            sigs = [Identity.from_seed(log.seeds[i]).sign(agree_statement(genesis, how, seq, prev))
                    for i in range(players)]
            word = "draw" if how == "drawn" else "abort"
            short = log.changed(seq, body={"how": how, "sigs": sigs[:-1]})
            signers = " and ".join(f"seat {i}" for i in range(players - 1))
            out.append(Vector(f"{game}-consent-{word}-short-of-a-signature", game, seq, F.CONSENT,
                              f"entry {seq}, an agreement to {word} at {players} seats, carries the signatures of "
                              f"{signers} only; seat {players - 1}, still playing, did not sign", short.data(seq)))
    seq = drawn.find(lambda e: e["kind"] == "agree")
    log = drawn.changed(seq, body={"how": "drawn", "sigs": []})
    out.append(Vector("athos-schema-agree-without-signatures", "athos", seq, F.SCHEMA,
                      f"entry {seq}, an agreement to draw, carries no signature at all", log.data(seq)))
    return out


def gatherer_vectors() -> list[Vector]:
    """A `reveals` entry with a wrong value in each seat's place in turn, the gatherer's own
    among them (class `reveal`): a value that is the seat's value of the round before."""
    out = []
    for name, game in (("asterix-together", "asterix"), ("aton-together", "aton")):
        log = _together_log(name)
        rounds = [e["seq"] for e in log.entries if e["kind"] == "reveals"]
        first, seq = rounds[0], rounds[1]
        gatherer = log.entry(seq)["seat"]
        for seat in range(len(log.signers)):
            values = list(log.entry(seq)["body"]["values"])
            values[seat] = log.entry(first)["body"]["values"][seat]
            changed = log.changed(seq, body={"values": values})
            whose = "the gatherer's own" if seat == gatherer else f"the gatherer is seat {gatherer}"
            out.append(Vector(f"{game}-together-reveals-seat-{seat}-value-spent", game, seq, F.REVEAL,
                              f"entry {seq}, a reveals entry written by seat {gatherer}, holds in seat {seat}'s place "
                              f"its value of the round before (entry {first}), not its next one ({whose})",
                              changed.data(seq + 2)))
    return out


def _lying_table(name: str, liar: int, ends: str | None):
    """An Aton table of the vector's seats whose seats play from the public view (so they
    may assign cards they do not hold), played until seat `liar` has lied; with a ledger that
    knows every hand beside it, to tell. Returns (builder, keys, rng)."""
    _, masters, keys = seats("aton", 2)
    for attempt in range(200):
        rng = random.Random(f"peerboard invalid vector {name} {attempt}")
        builder = LogBuilder.table(engines.get("aton"), {"win_points": 15}, ["seat-0", "seat-1"], masters, keys,
                                   rng.randbytes(16), lambda: rng.randbytes(16), knows_hidden=False,
                                   reveals=REVEALS_TOGETHER, ends=ends)
        full = Ledger.start(builder.ledger.genesis, {i: s.seed for i, s in enumerate(builder.secrets)})
        while not builder.ledger.over:
            entry = builder.step(lambda state, seat, legal: legal[rng.randrange(len(legal))])
            try:
                full = full.check(entry)
            except LedgerError:
                if entry.seat == liar:
                    return builder, keys, rng
                break
    raise AssertionError(f"no table of 200 had seat {liar} lie first")


def settled_vectors() -> list[Vector]:
    """The corners spec/log-format.md settles (issue 39), where they must be refused."""
    out = []
    # a two-seat genesis that names a takeover strategy: a claim there ends the game
    aton = Log.of("aton")
    log = _regenesis(aton, lambda g: g.update(takeover="greedy"), upto=4)
    out.append(Vector("aton-genesis-takeover-at-two-seats", "aton", 0, F.GENESIS,
                      "a two-seat genesis names a takeover strategy (\"greedy\"): a bot takes a claimed seat over only "
                      "at three or more", log.data()))
    # a takeover after a two-seat claim: the game is over at the claim
    claimed = _ending_log("aton-claimed")
    seq = claimed.find(lambda e: e["kind"] == "claim")
    log = _cut_after(claimed, seq)
    _, masters, _ = seats("aton-claimed", 2)
    identity, secrets = takeover_secrets(masters[1], sha256(encode(log.genesis)), 0)
    log = _appended(log, 1, "takeover", dict(takeover_body(0, identity, secrets)))
    out.append(Vector("aton-turn-takeover-after-a-two-seat-claim", "aton", seq + 1, F.TURN,
                      f"entry {seq + 1}, seat 1's takeover of seat 0 right after its claim of seat 0 (entry {seq}): "
                      "at two seats the claim ends the game, and the claimer's audit is due", log.data()))
    # an ending whose seats are none ("Limits": an ending names at least one seat)
    first = _results(claimed)[0]
    log = claimed.copy()
    log.entry(first)["body"]["ending"]["seats"] = []
    log.relink(first)
    out.append(Vector("aton-schema-ending-without-seats", "aton", first, F.SCHEMA,
                      f"the result (entry {first}) says the game was claimed, naming no seat", log.data()))
    # a taken-over seat resigns with its genesis key: its key is the takeover's now
    resigned = _settled_log("athos-takenover-resigned")
    seq = resigned.find(lambda e: e["kind"] == "resign")
    old = Identity.from_seed(resigned.seeds[2]).sign(resign_statement(sha256(encode(resigned.genesis)), 2))
    log = resigned.changed(seq, body={"seat": 2, "sig": old})
    out.append(Vector("athos-consent-taken-over-seat-resigns-with-its-genesis-key", "athos", seq, F.CONSENT,
                      f"entry {seq} carries seat 2's resignation signed by its genesis key; seat 2 was taken over at "
                      "entry 32, and its statements are its takeover key's since", log.data(seq)))
    # the claimer lied (cards it did not hold), then claimed the other seat: its own audit, the
    # only one, re-runs the game with its seed and finds the lie
    builder, keys, _ = _lying_table("claimer lies", 1, ENDS_TOGETHER)
    builder.claim(0)
    builder.play(lambda state, seat, legal: legal[0])
    log = Log.built("aton", builder.ledger.genesis.record(), [e.record() for e in builder.entries], keys)
    seq = log.find(lambda e: e["kind"] == "audits")
    claim = log.find(lambda e: e["kind"] == "claim")
    out.append(Vector("aton-audit-claimer-lied-before-its-claim", "aton", seq, F.AUDIT,
                      f"seat 1 assigns cards its hidden hand does not hold, then claims seat 0 (entry {claim}); the "
                      f"audits (entry {seq}, seat 1's seed alone) re-run the game and find the lie", log.data()))
    # a lie found when a claim completes the audit: seat 0 lied, the game ended, seat 0
    # audited, and seat 0's claim of seat 1 is the entry after which every seat still
    # playing has audited — the lie is proven at the claim
    builder, keys, rng = _lying_table("lie found at a claim", 0, None)
    while builder.ledger.entitled() != (1, "audit"):  # (the game to its end, and seat 0's audit)
        builder.step(lambda state, seat, legal: legal[rng.randrange(len(legal))])
    builder.claim(1)
    builder.play(lambda state, seat, legal: legal[0])
    log = Log.built("aton", builder.ledger.genesis.record(), [e.record() for e in builder.entries], keys)
    claim = log.find(lambda e: e["kind"] == "claim")
    out.append(Vector("aton-audit-lie-found-when-a-claim-completes-the-audit", "aton", claim, F.AUDIT,
                      f"seat 0 assigns cards its hidden hand does not hold; the game ends, seat 0 audits, and its "
                      f"claim of seat 1 (entry {claim}) completes the audit: the re-run finds the lie there",
                      log.data()))
    return out


def _disputed_log(name: str) -> Log:
    """A valid vector of a disputed claim (tests/support/vectors.py, DISPUTES)."""
    _, _, keys = seats(name, 2)
    contents = read_log((VECTORS / f"{name}.pblog").read_bytes())
    return Log.built("aton", contents.genesis.record(), [e.record() for e in contents.entries], keys)


def _record(log: Log, seq: int, prev: bytes, seat: int, kind: str, body: dict, signer: Signer) -> dict:
    """An entry record signed by `signer`, kept out of the log (a protest carries it)."""
    unsigned = {"body": body, "kind": kind, "prev": prev, "seat": seat, "seq": seq}
    return {**unsigned, "sig": signer(ENTRY_DOMAIN + encode(unsigned))}


def protest_vectors() -> list[Vector]:
    """Protests that do not hold (spec/log-format.md, "Endings"): by another seat than the
    one claimed, where no claim one seat alone signed comes just before, carrying an entry
    not the protester's own, not signed by it, or not chained to the entry the claim follows,
    carrying a protest; and an entry after a protest."""
    out = []
    disputed = _disputed_log("aton-disputed")
    protest = disputed.find(lambda e: e["kind"] == "protest")
    claim = protest - 1
    carried = disputed.entry(protest)["body"]["entries"][0]
    log = disputed.written_by(protest, 1)
    out.append(Vector("aton-turn-protest-by-the-claimer", "aton", protest, F.TURN,
                      f"entry {protest}, the protest of seat 1's claim of seat 0, written by seat 1", log.data()))
    log = _appended(_cut_after(disputed, claim - 1), 0, "protest", {"entries": []})
    out.append(Vector("aton-turn-protest-where-no-claim-came", "aton", claim, F.TURN,
                      f"entry {claim}, seat 0's protest, where no claim came before it", log.data()))
    claimed = _ending_log("aton-claimed")
    seq = claimed.find(lambda e: e["kind"] == "claim")
    log = _appended(_cut_after(claimed, seq + 1), 0, "protest", {"entries": []})
    out.append(Vector("aton-turn-protest-after-the-claimers-audit", "aton", seq + 2, F.TURN,
                      f"entry {seq + 2}, seat 0's protest of seat 1's claim (entry {seq}), after seat 1's audit "
                      f"(entry {seq + 1}): a protest stands only right after the claim", log.data()))
    three = _ending_log("asterix-claimed")
    seq = three.find(lambda e: e["kind"] == "claim")
    log = _appended(_cut_after(three, seq), 0, "protest", {"entries": []})
    out.append(Vector("asterix-turn-protest-of-a-claim-every-other-seat-signed", "asterix", seq + 1, F.TURN,
                      f"entry {seq + 1}, seat 0's protest of the claim of entry {seq}, which seats 1 and 2 both "
                      "signed: a protest answers only a claim one seat alone signed", log.data()))
    body = dict(carried)
    for name, record, what in (
        ("another-seats-entry", _record(disputed, carried["seq"], carried["prev"], 1, "move", carried["body"],
                                        disputed.signers[1]),
         "seat 1's move there, signed by seat 1"),
        ("an-entry-it-did-not-sign", {**body, "sig": _record(disputed, body["seq"], body["prev"], 0, "move",
                                                             body["body"], disputed.signers[1])["sig"]},
         "seat 0's move there signed by seat 1's key"),
        ("an-entry-after-another-prev", _record(disputed, body["seq"], bytes(32), 0, "move", body["body"],
                                                disputed.signers[0]),
         "seat 0's move after another entry than the one the claim follows"),
        ("an-entry-at-another-seq", _record(disputed, body["seq"] + 1, body["prev"], 0, "move", body["body"],
                                            disputed.signers[0]),
         f"seat 0's move numbered {body['seq'] + 1}, not the claim's seq {body['seq']}"),
    ):
        log = disputed.changed(protest, body={"entries": [record]})
        out.append(Vector(f"aton-consent-protest-carrying-{name}", "aton", protest, F.CONSENT,
                          f"entry {protest}, seat 0's protest, carries {what}", log.data()))
    nested = {"entries": [_record(disputed, body["seq"], body["prev"], 0, "protest", {"entries": []},
                                  disputed.signers[0])]}
    log = disputed.changed(protest, body=nested)
    out.append(Vector("aton-schema-protest-carrying-a-protest", "aton", protest, F.SCHEMA,
                      f"entry {protest}, seat 0's protest, carries a protest", log.data()))
    _, masters, _ = seats("aton-disputed", 2)
    log = _appended(disputed, 1, "audits", {"seeds": [SeatSecrets.from_master(masters[1]).seed]})
    out.append(Vector("aton-over-entry-after-a-protest", "aton", protest + 1, F.OVER,
                      f"entry {protest + 1}, seat 1's audits, after seat 0's protest (entry {protest}): nothing "
                      "follows a protest", log.data()))
    return out


def build_all() -> list[Vector]:
    aton, athos, asterix = Log.of("aton"), Log.of("athos"), Log.of("asterix")
    return [
        *header_vectors(aton, asterix), *frame_vectors(aton, athos, asterix), *truncated_vectors(aton, athos, asterix),
        *decode_vectors(aton, athos, asterix), *schema_vectors(aton, athos, asterix),
        *genesis_vectors(aton, athos, asterix), *seq_prev_seat_vectors(aton, athos, asterix),
        *signature_vectors(aton, athos, asterix), *over_turn_vectors(aton, athos, asterix),
        *commitment_vectors(aton, athos, asterix), *illegal_vectors(aton, athos, asterix),
        *reveal_vectors(aton, asterix), *result_vectors(aton, asterix), *audit_vectors(aton, asterix),
        *ending_vectors(), *takeover_vectors(), *together_vectors(aton), *ends_vectors(aton),
        *agreement_vectors(), *gatherer_vectors(), *settled_vectors(), *protest_vectors(),
    ]


#: vectors kept elsewhere in spec/vectors/ that belong in the index too
OTHERS = [
    {"file": "athos-engine-1.pblog", "game": "athos", "seq": 0, "class": F.GENESIS,
     "what": "a log of Athos engine version 1, whose actions mean something else in version 2"},
]


def index(vectors: list[Vector]) -> dict:
    items = [{"file": f"invalid/{v.name}.pblog", "game": v.game, "seq": v.seq, "class": v.failure, "what": v.what}
             for v in vectors]
    return {"format": "peerboard-invalid-vectors", "version": 1, "classes": list(F.ORDER), "vectors": items + OTHERS}


def index_text(vectors: list[Vector]) -> str:
    return json.dumps(index(vectors), indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    vectors = build_all()
    INVALID.mkdir(parents=True, exist_ok=True)
    for old in INVALID.glob("*.pblog"):
        old.unlink()
    for v in vectors:
        (INVALID / f"{v.name}.pblog").write_bytes(v.data)
    INDEX.write_text(index_text(vectors))
    size = sum(len(v.data) for v in vectors)
    print(f"{len(vectors)} invalid vectors, {size} bytes, index {INDEX.relative_to(HERE.parents[1])}")


if __name__ == "__main__":
    main()
