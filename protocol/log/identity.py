"""A player is an Ed25519 key (PyNaCl): it signs log entries; its Curve25519 form is the
CurveZMQ key of the player's node. People see it as a short fingerprint."""
from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from peerboard.engines.values import cached
from peerboard.protocol.log.schema import KEY_BYTES, SIG_BYTES


def fingerprint(public_key: bytes) -> str:
    """Eight base32 letters of SHA-256(key), as 'abcd-efgh': enough to tell players apart."""
    letters = base64.b32encode(hashlib.sha256(public_key).digest()[:5]).decode().lower()
    return f"{letters[:4]}-{letters[4:8]}"


@dataclass(frozen=True)
class Identity:
    """A private signing key with its public half."""

    secret: bytes = field(repr=False)  # the 32-byte Ed25519 seed

    @classmethod
    def from_seed(cls, seed: bytes) -> "Identity":
        if len(seed) != KEY_BYTES:
            raise ValueError("an Ed25519 seed is 32 bytes")
        return cls(bytes(seed))

    @cached
    def _key(self) -> SigningKey:
        return SigningKey(self.secret)

    @cached
    def public_key(self) -> bytes:
        return bytes(self._key.verify_key)

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message).signature

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)


def verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """True when `signature` is `public_key`'s signature of `message`."""
    if len(public_key) != KEY_BYTES or len(signature) != SIG_BYTES:
        return False
    try:
        VerifyKey(public_key).verify(message, signature)
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True
