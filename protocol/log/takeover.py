"""A claimed seat taken over by a bot (spec/protocol.md, "Takeover"): the new seat's key,
hash chain and private seed, and the body of the `takeover` entry that commits to them.

They are derived from the runner's own master secret, the genesis hash and the seat, so a
runner that restarts takes the seat up again with nothing new stored, and nobody else can
compute them (so nobody else can predict the seat's reveals, as for any seat's chain). The
runner cannot choose them to its advantage either: they are fixed by its master secret,
which its genesis commitments bind, and committed before any value of a later round is known.
"""
from __future__ import annotations

from peerboard.protocol.log.identity import Identity
from peerboard.protocol.log.schema import WireMap
from peerboard.protocol.log.secrets import SeatSecrets, sha256

TAKEOVER_DOMAIN = b"peerboard/takeover/v1\x00"
TAKEOVER_KEY_DOMAIN = b"peerboard/takeover-key/v1\x00"


def takeover_secrets(runner_master: bytes, genesis_hash: bytes, seat: int) -> tuple[Identity, SeatSecrets]:
    """The identity (signing key) and the secrets (chain, seed) of seat `seat` taken over by
    the seat whose master secret is `runner_master`, in the game of `genesis_hash`."""
    master = sha256(TAKEOVER_DOMAIN + runner_master + genesis_hash + seat.to_bytes(1, "big"))
    return Identity.from_seed(sha256(TAKEOVER_KEY_DOMAIN + master)), SeatSecrets.from_master(master)


def takeover_body(seat: int, identity: Identity, secrets: SeatSecrets) -> WireMap:
    """The body of the `takeover` entry of seat `seat`: its new key, chain tip and seed commitment."""
    return {"gone": seat, "key": identity.public_key, "chain": secrets.chain_tip,
            "seed": secrets.commitments()["seed"]}
