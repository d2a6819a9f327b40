"""Turning 32 random bytes into a chance outcome with exactly the rules' odds.

Rejection sampling over a SHA-256 counter stream seeded by the entropy: outcome weights
w_1..w_n sum to W; draw k-bit integers (2^k >= W) until one is below W, then pick the
outcome whose cumulative range holds it. Exact, deterministic, and easy to reimplement
(spec/chance.md gives the byte-level recipe).
"""
from __future__ import annotations

import hashlib
from typing import Sequence, TypeVar

T = TypeVar("T")

# A run of 64 rejections has probability below 2^-64; stopping there keeps a bad
# caller from looping forever, and the fallback (the first outcome) is documented.
MAX_ROUNDS = 64


#: the counter of each round as 4 big-endian bytes (a playout draws thousands of outcomes)
_COUNTERS: tuple[bytes, ...] = tuple(counter.to_bytes(4, "big") for counter in range(MAX_ROUNDS))
#: total -> (bytes read, bit mask) of its draws, for the small totals games use
_DRAWS: dict[int, tuple[int, int]] = {}
_sha256 = hashlib.sha256
_from_bytes = int.from_bytes


def _draw(total: int) -> tuple[int, int]:
    bits = (total - 1).bit_length()
    found = (max(1, (bits + 7) // 8), (1 << bits) - 1)
    if total < 1 << 16:  # bounded: a memo of a pure function
        _DRAWS[total] = found
    return found


def uniform_below(total: int, entropy: bytes) -> int:
    """An integer in [0, total) drawn uniformly from `entropy` (32 bytes)."""
    if len(entropy) != 32:
        raise ValueError("chance entropy must be exactly 32 bytes")
    if total <= 0:
        raise ValueError("no outcome has positive weight")
    nbytes, mask = _DRAWS.get(total) or _draw(total)
    if nbytes == 1:  # a die, a small bag: the first byte of each block (the same value)
        for suffix in _COUNTERS:
            value = _sha256(entropy + suffix).digest()[0] & mask
            if value < total:
                return value
        return 0
    for suffix in _COUNTERS:
        value = _from_bytes(_sha256(entropy + suffix).digest()[:nbytes], "big") & mask
        if value < total:
            return value
    return 0


def pick_weighted(weighted: Sequence[tuple[T, int]], entropy: bytes) -> T:
    """The outcome of `weighted` ((outcome, positive int weight) in the engine's order)."""
    total = sum(w for _, w in weighted)
    value = uniform_below(total, entropy)
    for outcome, weight in weighted:
        if value < weight:
            return outcome
        value -= weight
    raise AssertionError("unreachable: value < total")
