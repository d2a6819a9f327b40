"""Just enough Ed25519 arithmetic, in pure Python, to write keys and signatures that break
the rules of spec/log-format.md, "Signatures" — a signature with S + L, a small-order or
non-canonical R, a small-order or mixed-order key — for the conformance vectors and the
tests. Slow and not constant-time: never for real keys.

Points are affine (x, y) on -x^2 + y^2 = 1 + d x^2 y^2 over GF(p).
"""
from __future__ import annotations

import hashlib

P = 2**255 - 19
#: the order of the base point
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
_SQRT_M1 = pow(2, (P - 1) // 4, P)

Point = tuple[int, int]
IDENTITY: Point = (0, 1)


def _inv(x: int) -> int:
    return pow(x, P - 2, P)


def _add3(a: tuple, b: tuple) -> tuple:
    """Addition in extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z (RFC 8032 5.1.4)."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = 2 * D * t1 * t2 % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return e * f % P, g * h % P, f * g % P, e * h % P


def _extended(a: Point) -> tuple:
    return a[0], a[1], 1, a[0] * a[1] % P


def _affine(a: tuple) -> Point:
    zi = _inv(a[2])
    return a[0] * zi % P, a[1] * zi % P


def add(a: Point, b: Point) -> Point:
    return _affine(_add3(_extended(a), _extended(b)))


def neg(a: Point) -> Point:
    return (-a[0]) % P, a[1]


def mul(k: int, point: Point) -> Point:
    result, q = _extended(IDENTITY), _extended(point)
    while k:
        if k & 1:
            result = _add3(result, q)
        q = _add3(q, q)
        k >>= 1
    return _affine(result)


def x_of(y: int, sign: int) -> int | None:
    """The x with that sign bit for which (x, y) is on the curve, or None."""
    xx = (y * y - 1) * _inv(D * y * y + 1) % P
    x = pow(xx, (P + 3) // 8, P)
    if (x * x - xx) % P:
        x = x * _SQRT_M1 % P
    if (x * x - xx) % P:
        return None
    if x & 1 != sign:
        x = (P - x) % P
    return x


BASE: Point = (x_of(4 * _inv(5) % P, 0), 4 * _inv(5) % P)  # type: ignore[assignment]


def encode(point: Point) -> bytes:
    """The canonical 32-byte encoding: y little-endian, the sign of x in the top bit."""
    x, y = point
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def decode(data: bytes) -> Point | None:
    """The point 32 bytes name (y taken mod p, as a lax library would), or None."""
    value = int.from_bytes(data, "little")
    y = (value & ((1 << 255) - 1)) % P
    x = x_of(y, value >> 255)
    return None if x is None else (x, y)


def torsion8() -> Point:
    """A point of order 8 (the one whose encoding is c7176a70…037a)."""
    y = int.from_bytes(bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"), "little")
    point = (x_of(y, 0), y)
    assert mul(8, point) == IDENTITY and mul(4, point) != IDENTITY  # type: ignore[arg-type]
    return point  # type: ignore[return-value]


def challenge(r: bytes, key: bytes, message: bytes) -> int:
    """h = SHA-512(R || A || message) mod L."""
    return int.from_bytes(hashlib.sha512(r + key + message).digest(), "little") % L


def scalar(seed: bytes) -> tuple[int, bytes]:
    """An Ed25519 seed's secret scalar a (clamped) and its nonce prefix (RFC 8032 5.1.5)."""
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:]


def sign_with(a: int, key: bytes, r_bytes: bytes, r: int, message: bytes) -> bytes:
    """R || S with S = r + h a mod L, for an R (given as bytes) that need not be [r]B."""
    return r_bytes + ((r + challenge(r_bytes, key, message) * a) % L).to_bytes(32, "little")
