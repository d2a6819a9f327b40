"""A seat's secrets for fair chance and hidden information (spec/protocol.md, "Fair chance").

From one random 32-byte master secret a seat derives
- a **hash chain** x_0 .. x_N with x_{k+1} = SHA-256(x_k): the tip x_N is committed in the
  genesis; the seat's j-th reveal is x_{N-j}, checked by SHA-256(reveal_j) == reveal_{j-1};
- a **private seed**: committed in the genesis as SHA-256("peerboard/seed/v1" || seed), kept
  secret until the audit at the end; it decides the seat's own hidden draws.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

CHAIN_LENGTH = 4096
SEED_DOMAIN = b"peerboard/seed/v1\x00"
CHAIN_DOMAIN = b"peerboard/chain/v1\x00"
PRIVATE_DOMAIN = b"peerboard/private/v1\x00"
ROUND_DOMAIN = b"peerboard/chance/v1\x00"
CHOICE_DOMAIN = b"peerboard/choice/v1\x00"


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def seed_commitment(seed: bytes) -> bytes:
    return sha256(SEED_DOMAIN + seed)


def round_entropy(round_index: int, reveals: tuple[bytes, ...]) -> bytes:
    """E_r: the entropy of reveal round r, from every seat's reveal in seat order."""
    return sha256(ROUND_DOMAIN + round_index.to_bytes(4, "big") + b"".join(reveals))


def node_entropy(run_entropy: bytes, index: int, private_seed: bytes | None = None) -> bytes:
    """The 32 bytes for chance node `index` of a run: public, or private to a seed's owner."""
    data = run_entropy + index.to_bytes(4, "big")
    if private_seed is not None:
        data = PRIVATE_DOMAIN + data + private_seed
    return sha256(data)


def choice_digest(actions: tuple, nonce: bytes) -> bytes:
    """The commitment to a secret choice: SHA-256(domain || canonical(actions) || nonce)."""
    from engines.canonical import encode

    return sha256(CHOICE_DOMAIN + encode(list(actions)) + nonce)


@dataclass(frozen=True)
class SeatSecrets:
    master: bytes
    _chain: tuple[bytes, ...] = field(default=(), repr=False, compare=False)

    @classmethod
    def from_master(cls, master: bytes) -> "SeatSecrets":
        if len(master) != 32:
            raise ValueError("a master secret is 32 bytes")
        x = sha256(CHAIN_DOMAIN + master)
        chain = [x]
        for _ in range(CHAIN_LENGTH):
            x = sha256(x)
            chain.append(x)
        return cls(master, tuple(chain))

    @property
    def seed(self) -> bytes:
        return sha256(SEED_DOMAIN + b"derive" + self.master)

    @property
    def chain_tip(self) -> bytes:
        return self._chain[CHAIN_LENGTH]

    def reveal(self, j: int) -> bytes:
        """The j-th reveal (j = 1, 2, ...): x_{N-j}."""
        if not 1 <= j <= CHAIN_LENGTH:
            raise ValueError(f"a seat has {CHAIN_LENGTH} reveals, not {j}")
        return self._chain[CHAIN_LENGTH - j]

    def commitments(self) -> dict:
        return {"chain": self.chain_tip, "seed": seed_commitment(self.seed)}
