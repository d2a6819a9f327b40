"""Strict decoding of canonical msgpack from files and the network (spec/log-format.md).

Everything that arrives is treated as hostile: size, nesting depth and every length are
bounded before and while decoding, and the bytes must be the *canonical* encoding of what
they decode to, so a signature covers exactly one value.
"""
from __future__ import annotations

from typing import Any

import msgpack

from peerboard.engines.canonical import digest, encode
from peerboard.protocol.log.schema import RECORD_LIMITS, Limits

__all__ = ["DecodeError", "Limits", "decode", "digest", "encode", "nested_within", "too_deep", "unpack"]


class DecodeError(ValueError):
    """Bytes that are not one acceptable canonical msgpack value; the message says why."""


def nested_within(value: Any, limit: int) -> bool:
    """Whether arrays and maps nest at most `limit` deep in `value` (a decoded value: tuples
    and dicts only, use_list=False; an array or map itself is 1 deep)."""
    # Iterative, so hostile nesting cannot exhaust the Python stack: one nesting level at a
    # time, only containers kept.
    level = [value] if type(value) is tuple or type(value) is dict else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return False
        inner = []
        for item in level:
            for child in (item.values() if type(item) is dict else item):
                if type(child) is tuple or type(child) is dict:
                    inner.append(child)
        level = inner
    return True


def too_deep(limits: Limits) -> DecodeError:
    """The refusal of a value nested deeper than `limits` allow."""
    return DecodeError(f"nested deeper than {limits.depth}")


def unpack(data: bytes, limits: Limits) -> Any:
    """The value `data` encodes within `limits` but for its depth, arrays as tuples and maps
    as dicts; DecodeError otherwise. Whoever takes it checks its depth (`nested_within`)
    before anything looks into it — or knows that what it accepts nests less deep than
    the limit, and checks it before any refusal, so that a value too deep is refused as
    that, first, as `decode` refuses it (protocol/session/messages.py)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise DecodeError("not bytes")
    if len(data) > limits.size:
        raise DecodeError(f"{len(data)} bytes is over the limit of {limits.size}")
    try:
        return msgpack.unpackb(
            bytes(data),
            raw=False,
            use_list=False,
            strict_map_key=True,
            max_str_len=limits.text,
            max_bin_len=limits.size,
            max_array_len=limits.length,
            max_map_len=limits.length,
            max_ext_len=0,
        )
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
        raise DecodeError(f"garbled msgpack ({type(exc).__name__})") from None
    except Exception as exc:  # the C unpacker raises a few odd types on hostile input
        raise DecodeError(f"garbled msgpack ({type(exc).__name__})") from None


def decode(data: bytes, limits: Limits = RECORD_LIMITS, canonical: bool = True) -> Any:
    """The value `data` encodes, arrays as tuples and maps as dicts; DecodeError otherwise.
    `canonical`: the bytes must also be the canonical encoding (log files, where the bytes
    themselves are hashed); network messages skip that check because whatever they carry
    that is signed or hashed is encoded again canonically before it is."""
    value = unpack(data, limits)
    if not nested_within(value, limits.depth):
        raise too_deep(limits)
    if not canonical:
        return value
    try:
        encoded = encode(value)
    except TypeError as exc:
        raise DecodeError(f"not a canonical value: {exc}") from None
    if encoded != bytes(data):
        raise DecodeError("not in canonical form")
    return value
