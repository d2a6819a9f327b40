"""The node's own key: an Ed25519 identity kept in the user's config directory, and the
CurveZMQ form of it (and of any peer's key) for the transport.

One key does both jobs (DESIGN.md, "Identity"): it signs log entries and, converted to
Curve25519, authenticates the node's sockets, so the sender a session sees is the key a
CURVE handshake proved.
"""
from __future__ import annotations

import os
from pathlib import Path

from nacl.bindings import crypto_sign_ed25519_pk_to_curve25519, crypto_sign_ed25519_sk_to_curve25519
from nacl.exceptions import CryptoError as NaclError
from nacl.signing import SigningKey
from zmq.utils import z85

from peerboard.node.dirs import config_dir
from peerboard.protocol.log import Identity, KEY_BYTES

IDENTITY_FILE = "identity.key"


class KeyFileError(ValueError):
    """An identity file that cannot be read or made; the text says which and why."""


def write_private(path: Path, data: bytes, *, replace: bool = False) -> None:
    """Write a secret file with mode 0600, fsynced; atomically replacing `path` if `replace`,
    else never overwriting it (FileExistsError)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    target = path.with_name(path.name + ".tmp") if replace else path
    if replace:  # a crash may have left a temporary file behind: start it afresh
        try:
            os.unlink(target)
        except FileNotFoundError:
            pass
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    if replace:
        os.replace(target, path)
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def load_identity(directory: Path | None = None) -> Identity:
    """This user's identity, created (mode 0600) on first use."""
    path = (directory or config_dir()) / IDENTITY_FILE
    if not path.exists():
        try:
            write_private(path, os.urandom(KEY_BYTES))
        except FileExistsError:
            pass  # another node of this user made it a moment ago
        except OSError as exc:
            raise KeyFileError(f"cannot create the identity file {path}: {exc.strerror}") from None
    try:
        seed = path.read_bytes()
    except OSError as exc:
        raise KeyFileError(f"cannot read the identity file {path}: {exc.strerror}") from None
    if len(seed) != KEY_BYTES:
        raise KeyFileError(f"{path} is not a peerboard identity (it must hold {KEY_BYTES} bytes)")
    return Identity.from_seed(seed)


def curve_public(ed_public: bytes) -> bytes:
    """The z85 CurveZMQ public key of an Ed25519 public key; ValueError if it is not one."""
    try:
        return z85.encode(crypto_sign_ed25519_pk_to_curve25519(ed_public))
    except (NaclError, TypeError, ValueError):
        raise ValueError("not an Ed25519 public key") from None


def curve_keypair(identity: Identity) -> tuple[bytes, bytes]:
    """(public, secret), z85-encoded, the CurveZMQ keys of `identity`."""
    secret = crypto_sign_ed25519_sk_to_curve25519(bytes(SigningKey(identity.secret)._signing_key))
    return curve_public(identity.public_key), z85.encode(secret)


def parse_key(text: str) -> bytes:
    """A public key as people pass it: 64 hex digits. ValueError with a sentence otherwise."""
    try:
        key = bytes.fromhex(text.strip())
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise ValueError(f"{text[:70]!r} is not a public key (64 hex digits, as `peerboard key` shows it)")
    try:
        curve_public(key)
    except ValueError:
        raise ValueError(f"{text[:70]!r} is not a valid public key (a typo?)") from None
    return key
