"""The wire's shapes and limits, in one place (spec/protocol.md, "Messages"; spec/log-format.md).

Every bound a peer's bytes are held to is named here, and every map that crosses the wire —
each message, the genesis, an entry and each kind of entry body — is a `Shape`: its exact
keys and, for each, a `Check` with the words that say what is allowed. protocol/log/codec.py
decodes within `Limits`; protocol/log/records.py and protocol/session/messages.py build their values
only from what a shape let through. So whatever reaches the session or an engine from a peer
has its schema's type and range, and a value that breaks the schema is the peer's fault,
said in one sentence (`SchemaError`), before anything else looks at it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, TypeAlias

from peerboard.engines.actions import MAX_ACTION_DEPTH, is_action
from peerboard.protocol.log.names import name_problem

PROTOCOL_VERSION = 1

#: A map as decoded from the wire or a log record (a message, a genesis, an entry or its
#: body): text keys, and values of the types its `Shape` lets through.
WireMap: TypeAlias = dict[str, Any]

KEY_BYTES = 32  # an Ed25519 public key
SIG_BYTES = 64  # an Ed25519 signature
HASH_BYTES = 32  # SHA-256: entry and state hashes, hash-chain values, seeds and their commitments
TABLE_BYTES = 16  # a table id
NONCE_BYTES = 16  # the nonce of a committed secret choice
MAX_SEATS = 8
MAX_NAME = 40  # characters of a player's name
MAX_GAME = 32  # characters of a game's name or an engine's version
MAX_ADDR = 200  # characters of the address a node listens at
MAX_REASON = 300  # characters of a host's reason for refusing a node
MAX_ACTIONS_PER_ENTRY = 64
MAX_CHAT = 200  # characters of one line said to the table (spec/protocol.md, "Chat")


@dataclass(frozen=True)
class Limits:
    """Bounds on one decoded value: bytes in all, nesting depth, items per array or map,
    bytes per str or bin. The defaults are a log record's."""

    size: int = 1 << 20
    depth: int = 16
    length: int = 4096
    text: int = 4096


#: one record of a log file (a frame holds at most `size` bytes)
RECORD_LIMITS = Limits()
#: one message from the network
MESSAGE_LIMITS = Limits(size=256 * 1024, depth=12, length=1024, text=1024)


class SchemaError(ValueError):
    """A decoded value that does not fit its shape; the text says what is allowed."""


@dataclass(frozen=True)
class Check:
    """One field's rule: `ok(value)` holds for the values allowed, which `rule` names
    ("must be 32 bytes"). `test`: the same test as a Python expression of `v`, when it has
    one (`ok` is then made from it), for a shape to test the field inline."""

    ok: Callable[[Any], bool]
    rule: str
    test: str | None = None


# Every message and every entry is held to a shape, field by field. A field's test written
# inline in one function per shape costs a fraction of calling a function per field, so the
# plain tests are written once, as expressions, and both `ok` and the shapes are made of them.
_TEST_NAMES: dict[str, Any] = {"name_problem": name_problem}  # the globals the tests run in


def _tested(test: str, rule: str) -> Check:
    return Check(eval(f"lambda v: {test}", dict(_TEST_NAMES)), rule, test)


def whole(least: int, most: int | None = None) -> Check:
    if most is None:
        return _tested(f"type(v) is int and v >= {least}", f"must be a whole number of at least {least}")
    return _tested(f"type(v) is int and {least} <= v <= {most}", f"must be a whole number from {least} to {most}")


def octets(n: int) -> Check:
    return _tested(f"type(v) is bytes and len(v) == {n}", f"must be {n} bytes")


def text(most: int, least: int = 0) -> Check:
    rule = f"must be text of at most {most} characters" if least == 0 else f"must be text of {least} to {most} characters"
    return _tested(f"type(v) is str and {least} <= len(v) <= {most}", rule)


def name(most: int) -> Check:
    """A player's name: printable text (protocol/log/names.py; spec/log-format.md, "Names")."""
    return _tested(f"type(v) is str and name_problem(v, {most}) is None",
                   f"must be printable text of at most {most} characters (no control, escape or "
                   f"bidirectional characters)")


def one_of(*values: str) -> Check:
    assert all(type(x) is str for x in values)
    return _tested(f"type(v) is str and v in {values!r}", "must be " + " or ".join(repr(x) for x in values))


def optional(check: Check) -> Check:
    if check.test is not None:
        return _tested(f"v is None or ({check.test})", check.rule + " or nil")
    return Check(lambda v: v is None or check.ok(v), check.rule + " or nil")


def listing(item: Check, least: int, most: int, what: str) -> Check:
    """A list (a tuple once decoded) of `least` to `most` items that each pass `item`."""
    test = "ok(v)" if item.test is None else item.test
    # (a loop, not all() over a generator: this runs for every confirm's state hashes)
    source = (f"def fits(items):\n"
              f"    if type(items) is not tuple or not {least} <= len(items) <= {most}:\n"
              f"        return False\n"
              f"    for v in items:\n"
              f"        if not ({test}):\n"
              f"            return False\n"
              f"    return True\n")
    names = dict(_TEST_NAMES, ok=item.ok)
    exec(compile(source, f"<a list of {what}>", "exec"), names)
    return Check(names["fits"], f"must be a list of {least} to {most} {what}")


ACTION = Check(is_action, f"must be an action: a list of text, numbers, booleans or nil (or such lists, "
                          f"nested at most {MAX_ACTION_DEPTH} deep)")


def _plain(value: Any, depth: int = 0) -> bool:
    # what an option may hold: the canonical values of spec/log-format.md (no floats),
    # so a genesis carrying it can always be encoded and signed
    if value is None or type(value) in (bool, int, str, bytes):
        return True
    if depth >= RECORD_LIMITS.depth:
        return False
    if type(value) is tuple:
        return all(_plain(v, depth + 1) for v in value)
    if type(value) is dict:
        return all(type(k) is str and _plain(v, depth + 1) for k, v in value.items())
    return False


OPTIONS = Check(lambda v: type(v) is dict and _plain(v), "must be a map of names to values (no floats)")


class Shape:
    """A map with exactly these keys, each value passing its check; the `extra` keys may
    also be there, or not (a field a later version added: older records still fit)."""

    def __init__(self, name: str, fields: Mapping[str, Check], extra: Mapping[str, Check] | None = None):
        self.name = name
        self.keys = frozenset(fields)
        self.fields = tuple((key, check.ok) for key, check in fields.items())
        self.extra = tuple((key, check.ok) for key, check in (extra or {}).items())
        self.rules = {key: check.rule for key, check in {**fields, **(extra or {})}.items()}
        self._all = self.keys | frozenset(extra or {})
        self._first_wrong = _first_wrong(name, fields, extra or {})

    def check(self, value: Any) -> WireMap:
        """`value`, if it fits; SchemaError saying what is wrong otherwise. (The reason is
        built only when a check fails: this runs for every message and entry.)"""
        if type(value) is not dict or (value.keys() != self.keys and not self._fits_with_extra(value)):
            also = f" (and may hold {', '.join(k for k, _ in self.extra)})" if self.extra else ""
            raise SchemaError(f"{self.name}: the fields must be exactly {', '.join(sorted(self.keys)) or 'none'}{also}")
        wrong = self._first_wrong(value)
        if wrong is not None:
            raise SchemaError(f"{self.name}: {wrong} {self.rules[wrong]}")
        return value

    def _fits_with_extra(self, value: WireMap) -> bool:
        keys = value.keys()
        return bool(self.extra) and self.keys <= keys and keys <= self._all


def _first_wrong(name: str, fields: Mapping[str, Check], extra: Mapping[str, Check]) -> Callable[[WireMap], str | None]:
    """The function that names the first field of a map (its keys checked) whose value
    fails its check — the fields in order, then the extra fields it holds — or None: each
    test inline, where the check has one."""
    names: dict[str, Any] = dict(_TEST_NAMES)
    lines = ["def first_wrong(value):"]
    for i, (key, check) in enumerate([*fields.items(), *extra.items()]):
        test = check.test
        if test is None:
            names[f"ok{i}"] = check.ok
            test = f"ok{i}(v)"
        indent = "    "
        if i >= len(fields):
            lines.append(f"    if {key!r} in value:")
            indent = "        "
        lines += [f"{indent}v = value[{key!r}]", f"{indent}if not ({test}):", f"{indent}    return {key!r}"]
    lines.append("    return None")
    exec(compile("\n".join(lines) + "\n", f"<the shape of {name}>", "exec"), names)
    first_wrong: Callable[[WireMap], str | None] = names["first_wrong"]
    return first_wrong


# -- the records of a log (spec/log-format.md) ----------------------------------------------

SEAT_NUMBER = whole(0, MAX_SEATS - 1)
SEAT = Shape("a seat", {"name": text(MAX_NAME), "key": octets(KEY_BYTES), "chain": octets(HASH_BYTES),
                        "seed": octets(HASH_BYTES)})
MAX_PATIENCE = 86400  # seconds: a day
MAX_STRATEGY = 100  # characters of a takeover's strategy name (a bot's name or import path)
#: entries of its own a `protest` carries: those the claim displaced (spec/log-format.md, "Endings")
MAX_CARRIED = 16
#: the genesis's `takeover` that means none: a claim ends the game (as when it is absent)
NO_TAKEOVER = "none"
DEFAULT_PATIENCE = 300  # seconds, when the genesis does not say
#: the genesis's `reveals` of a log whose reveal rounds are each one `reveals` entry, every
#: seat's value in it (spec/log-format.md, "Who writes the next entry"); a genesis without
#: it (every log written before it existed) has one `reveal` entry per seat and round
REVEALS_TOGETHER = "together"
#: the genesis's `ends` of a log whose end is one `audits` and one `results` entry, each
#: gathered from every seat still playing (spec/log-format.md, "Who writes the next entry",
#: case 1); a genesis without it has one `audit` and one `result` entry per seat
ENDS_TOGETHER = "together"
GENESIS = Shape("the genesis", {
    # any whole number: which one is the genesis check's ("genesis": protocol version 1 only),
    # so -1 and 2 are refused alike, as another protocol (spec/log-format.md, "The genesis")
    "protocol": _tested("type(v) is int", "must be a whole number"),
    "game": text(MAX_GAME, 1),
    "engine": text(MAX_GAME, 1),
    "options": OPTIONS,
    # each seat is checked by SEAT, their signatures against their number (records.py)
    "seats": _tested(f"type(v) is tuple and 1 <= len(v) <= {MAX_SEATS}", f"must be a list of 1 to {MAX_SEATS} seats"),
    "table": octets(TABLE_BYTES),
}, extra={"patience": whole(1, MAX_PATIENCE), "takeover": text(MAX_STRATEGY, 1),
         "reveals": one_of(REVEALS_TOGETHER), "ends": one_of(ENDS_TOGETHER)})
SIGNED_GENESIS = Shape("a genesis record", {
    "genesis": _tested("type(v) is dict", "must be a map"),
    "sigs": listing(octets(SIG_BYTES), 1, MAX_SEATS, f"signatures of {SIG_BYTES} bytes"),
})
ENTRY = Shape("an entry", {
    "seq": whole(1),
    "prev": octets(HASH_BYTES),
    "seat": SEAT_NUMBER,
    "kind": _tested("type(v) is str", "must be text"),  # which kinds: BODIES
    "body": _tested("type(v) is dict", "must be a map"),
    "sig": octets(SIG_BYTES),
})
#: the body of each kind of entry of protocol version 1
BODIES: dict[str, Shape] = {
    "move": Shape("a move body", {
        "actions": listing(ACTION, 1, MAX_ACTIONS_PER_ENTRY,
                           f"actions (each a list of text, numbers, booleans or nil, or of such lists, "
                           f"nested at most {MAX_ACTION_DEPTH} deep)"),
        "nonce": optional(octets(NONCE_BYTES)),
    }),
    "commit": Shape("a commit body", {"digest": octets(HASH_BYTES)}),
    "reveal": Shape("a reveal body", {"value": octets(HASH_BYTES)}),
    # a whole reveal round, every seat's value in seat order (a genesis with `reveals`)
    "reveals": Shape("a reveals body", {"values": listing(octets(HASH_BYTES), 1, MAX_SEATS,
                                                          f"hash-chain values of {HASH_BYTES} bytes")}),
    "chain": Shape("a chain body", {"tip": octets(HASH_BYTES)}),
    "chance": Shape("a chance body", {"outcome": ACTION}),
    "audit": Shape("an audit body", {"seed": octets(HASH_BYTES)}),
    "result": Shape("a result body", {
        "winners": listing(SEAT_NUMBER, 0, MAX_SEATS, "seat numbers"),
        "scores": listing(_tested("type(v) is int", "must be a whole number"), 0, MAX_SEATS, "whole numbers"),
        "state": octets(HASH_BYTES),
        "cheats": listing(SEAT_NUMBER, 0, MAX_SEATS, "seat numbers"),
    }, extra={"ending": Check(lambda v: _ending_ok(v), "must be a map of how (text), seats, seq and unchecked"),
              "takeovers": Check(lambda v: _takeovers_ok(v), "must be a list of maps of seat, seq and runner")}),
    # the whole audit, every seat still playing's seed in seat order (a genesis with `ends`)
    "audits": Shape("an audits body", {"seeds": listing(octets(HASH_BYTES), 1, MAX_SEATS,
                                                        f"seeds of {HASH_BYTES} bytes")}),
    # the result and every seat still playing's signature of it, in seat order (a genesis with `ends`)
    "results": Shape("a results body", {
        "winners": listing(SEAT_NUMBER, 0, MAX_SEATS, "seat numbers"),
        "scores": listing(_tested("type(v) is int", "must be a whole number"), 0, MAX_SEATS, "whole numbers"),
        "state": octets(HASH_BYTES),
        "cheats": listing(SEAT_NUMBER, 0, MAX_SEATS, "seat numbers"),
        "sigs": listing(octets(SIG_BYTES), 1, MAX_SEATS, f"signatures of {SIG_BYTES} bytes"),
    }, extra={"ending": Check(lambda v: _ending_ok(v), "must be a map of how (text), seats, seq and unchecked"),
              "takeovers": Check(lambda v: _takeovers_ok(v), "must be a list of maps of seat, seq and runner")}),
    # a seat's resignation, carried by the seat entitled to the next entry (spec/protocol.md, "Endings")
    "resign": Shape("a resign body", {"seat": SEAT_NUMBER, "sig": octets(SIG_BYTES)}),
    # a draw or an abort every seat still playing agreed to (spec/protocol.md, "Endings")
    "agree": Shape("an agree body", {
        "how": one_of("drawn", "aborted"),
        "sigs": listing(octets(SIG_BYTES), 1, MAX_SEATS, f"signatures of {SIG_BYTES} bytes"),
    }),
    # a seat gone for good, claimed by every other seat still playing (spec/protocol.md, "Endings")
    "claim": Shape("a claim body", {
        "gone": SEAT_NUMBER, "sigs": listing(octets(SIG_BYTES), 1, MAX_SEATS - 1, f"signatures of {SIG_BYTES} bytes"),
    }),
    # a claimed seat taken over by a bot that the claim's writer runs (spec/protocol.md, "Takeover")
    "takeover": Shape("a takeover body", {
        "gone": SEAT_NUMBER, "key": octets(KEY_BYTES), "chain": octets(HASH_BYTES), "seed": octets(HASH_BYTES),
    }),
}

def _carried_ok(value: Any) -> bool:
    """A protest's `entries`: 0 to MAX_CARRIED entry records, each of its kind's shape (a
    protest carries none: it stands only after a claim)."""
    if type(value) is not tuple or len(value) > MAX_CARRIED:
        return False
    try:
        for record in value:
            ENTRY.check(record)
            shape = BODIES.get(record["kind"])
            if shape is None or record["kind"] == "protest":
                return False
            shape.check(record["body"])
    except SchemaError:
        return False
    return True


# the claimed seat's protest of a claim signed by one seat alone: the entries of its own the
# claim displaced, its evidence that it was there (spec/protocol.md, "What a claim proves")
BODIES["protest"] = Shape("a protest body", {
    "entries": Check(_carried_ok, f"must be a list of at most {MAX_CARRIED} entry records (entries of its own, "
                                  f"none of them a protest)"),
})

#: how a game ended otherwise than by its rules, as a result's `ending` says
ENDINGS = ("resigned", "claimed", "drawn", "aborted")
ENDING = Shape("an ending", {
    "how": one_of(*ENDINGS),
    "seats": listing(SEAT_NUMBER, 1, MAX_SEATS, "seat numbers"),
    "seq": whole(1),
    "unchecked": listing(SEAT_NUMBER, 0, MAX_SEATS, "seat numbers"),
})


TAKEOVER_RECORD = Shape("a takeover of a result", {"seat": SEAT_NUMBER, "seq": whole(1), "runner": SEAT_NUMBER})


def _takeovers_ok(value: Any) -> bool:
    if type(value) is not tuple or not 1 <= len(value) <= MAX_SEATS:
        return False
    try:
        for item in value:
            TAKEOVER_RECORD.check(item)
    except SchemaError:
        return False
    return True


def _ending_ok(value: Any) -> bool:
    try:
        ENDING.check(value)
    except SchemaError:
        return False
    return True


# -- the messages (spec/protocol.md, "Messages") ----------------------------------------------

_MAP = _tested("type(v) is dict", "must be a map")
_ADDRS = listing(text(MAX_ADDR), 0, MAX_SEATS, f"addresses of at most {MAX_ADDR} characters")

#: each message's fields, by its wire name ("t"); a map field is checked by its record's shape
MESSAGES: dict[str, Shape] = {
    "hello": Shape("hello", {
        "table": octets(TABLE_BYTES), "game": text(MAX_GAME), "name": name(MAX_NAME), "key": octets(KEY_BYTES),
        "role": one_of("seat", "spectator"), "chain": octets(HASH_BYTES), "seed": octets(HASH_BYTES),
        "addr": text(MAX_ADDR), "knock": optional(octets(HASH_BYTES)),
    }),
    "welcome": Shape("welcome", {"seat": whole(-1, MAX_SEATS - 1), "players": whole(1, MAX_SEATS)}),
    "refuse": Shape("refuse", {"reason": text(MAX_REASON)}),
    "propose": Shape("propose", {"genesis": _MAP, "addrs": _ADDRS}),
    "sign": Shape("sign", {"seat": SEAT_NUMBER, "sig": octets(SIG_BYTES)}),
    "genesis": Shape("genesis", {"genesis": _MAP, "addrs": _ADDRS}),
    # `confirm`: the author's gathered acks of the entry before, riding along ("Confirmation")
    "entry": Shape("entry", {"entry": _MAP}, extra={"confirm": _MAP}),
    # `reveal`: the seat's hash-chain value for the round the next entry gathers, to its
    # collector only (spec/protocol.md, "Reveals that travel together"), or its seed for the
    # `audits` entry gathered next; `sig`: its signature of the result statement for the
    # `results` entry gathered next (spec/protocol.md, "The end together")
    "ack": Shape("ack", {"seat": SEAT_NUMBER, "seq": whole(0), "entry": octets(HASH_BYTES), "state": octets(HASH_BYTES)},
                 extra={"reveal": octets(HASH_BYTES), "sig": octets(SIG_BYTES)}),
    # the author's gathered acks of its entry `seq`: each seat's state hash, nil for a seat
    # that vouched for it with a later ack (spec/protocol.md, "Confirmation")
    "confirm": Shape("confirm", {"seq": whole(1), "entry": octets(HASH_BYTES),
                                 "states": listing(optional(octets(HASH_BYTES)), 1, MAX_SEATS,
                                                   f"state hashes of {HASH_BYTES} bytes or nil")}),
    "beat": Shape("beat", {"seq": whole(0), "head": octets(HASH_BYTES)}),
    "want": Shape("want", {"seq": whole(1)}),
    "proof": Shape("proof", {"first": _MAP, "second": _MAP}),
    "leave": Shape("leave", {}),
    "rematch": Shape("rematch", {"table": octets(TABLE_BYTES), "answer": one_of("ask", "yes", "no"),
                                 "next": optional(octets(TABLE_BYTES))}),
    "say": Shape("say", {"table": octets(TABLE_BYTES), "after": whole(0), "text": text(MAX_CHAT, 1),
                         "by": octets(KEY_BYTES), "sig": octets(SIG_BYTES)}),
    "resign": Shape("resign", {"seat": SEAT_NUMBER, "sig": octets(SIG_BYTES)}),
    "offer": Shape("offer", {"seat": SEAT_NUMBER, "how": one_of("drawn", "aborted"), "seq": whole(1),
                             "prev": octets(HASH_BYTES), "sig": octets(SIG_BYTES)}),
    "decline": Shape("decline", {"seat": SEAT_NUMBER, "how": one_of("drawn", "aborted"), "seq": whole(1)}),
    "claim": Shape("claim", {"seat": SEAT_NUMBER, "gone": SEAT_NUMBER, "seq": whole(1), "prev": octets(HASH_BYTES),
                             "sig": octets(SIG_BYTES)}),
    "chosen": Shape("chosen", {"seat": SEAT_NUMBER, "seq": whole(1)}),
}
