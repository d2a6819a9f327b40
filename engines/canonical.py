"""The one canonical encoding and hash of engine values (spec/engine-contract.md).

msgpack with tuples and lists as arrays, the smallest integer forms, UTF-8 str, no maps:
the same value gives the same bytes in every process and on every machine.
"""
from __future__ import annotations

import hashlib
from typing import Any

import msgpack


def _check(value: Any) -> None:
    # Maps and floats are refused: a map's order and a float's form are not canonical.
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return
    if isinstance(value, (tuple, list)):
        for item in value:
            _check(item)
        return
    raise TypeError(f"{type(value).__name__} is not a canonical engine value")


def encode(value: Any) -> bytes:
    """Canonical bytes of a nested tuple of int/str/bytes/bool/None."""
    _check(value)
    return msgpack.packb(value, use_bin_type=True)


def digest(value: Any) -> bytes:
    """SHA-256 of `encode(value)`: 32 bytes."""
    return hashlib.sha256(encode(value)).digest()
