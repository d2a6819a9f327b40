"""The one canonical encoding and hash of peerboard values (spec/log-format.md, "Canonical
msgpack"): engine states, actions, log entries and messages all use it.

msgpack with tuples and lists as arrays, the smallest integer forms, UTF-8 str, bytes as
bin, maps with str keys in ascending code-point order, and no floats: one value, one
byte string, in every process and on every machine.
"""
from __future__ import annotations

import hashlib
import threading
from typing import Any, Protocol, TypeAlias

import msgpack

#: an engine's public record (spec/engine-contract.md, "State hash"): nested tuples of
#: int, str, bytes, bool and None, no maps, no floats, which msgpack encodes canonically
Record: TypeAlias = tuple["int | str | bytes | None | Record", ...]


_ATOMS = frozenset({type(None), bool, int, str, bytes})


def _canonical(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is tuple or kind is list:
        # A flat array of atoms is already canonical: msgpack packs it as it is.
        for item in value:
            if type(item) not in _ATOMS:
                return [_canonical(item) for item in value]
        return value
    if kind is dict:
        if not all(type(k) is str for k in value):
            raise TypeError("canonical maps have str keys only")
        return {k: _canonical(value[k]) for k in sorted(value)}
    raise TypeError(f"{kind.__name__} is not a canonical value")


class _Packer(Protocol):
    """What is used of a `msgpack.Packer` (msgpack ships no types)."""

    def pack(self, value: Any) -> bytes: ...


class _Packers(threading.local):
    """One msgpack Packer per thread, made once: `msgpack.packb` builds a new Packer (and
    its buffer) on every call, which cost about as much as packing a small value. A thread
    of its own, since a Packer holds its output between the calls it makes inside `pack`."""

    packer: _Packer

    def __init__(self) -> None:
        self.packer = msgpack.Packer(use_bin_type=True)


_packers = _Packers()


def pack(value: Any) -> bytes:
    """msgpack bytes of `value` as it is (`msgpack.packb(value, use_bin_type=True)`, no map
    sorting): for values canonical already, as `encode` and `record_digest` hand it."""
    return _packers.packer.pack(value)


def encode(value: Any) -> bytes:
    """Canonical bytes of a nested value of int/str/bytes/bool/None, tuples and str-keyed maps."""
    return _packers.packer.pack(_canonical(value))


def digest(value: Any) -> bytes:
    """SHA-256 of `encode(value)`: 32 bytes."""
    return hashlib.sha256(encode(value)).digest()


def record_digest(record: Record) -> bytes:
    """`digest` of a nested tuple of int/str/bytes/bool/None with no maps and no floats —
    an engine's public record — without the walk that sorts maps: msgpack encodes such a
    value canonically as it is. (The conformance kit checks every engine's records are
    of that kind: engines/testing.py.)"""
    return hashlib.sha256(_packers.packer.pack(record)).digest()
