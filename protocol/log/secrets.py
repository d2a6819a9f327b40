"""A seat's secrets for fair chance and hidden information (spec/protocol.md, "Fair chance";
every formula once, with a worked example: spec/log-format.md, "Hashes").

From one random 32-byte master secret a seat derives
- **hash chains** of CHAIN_LENGTH values each: chain g is x_0 .. x_N with
  x_{k+1} = SHA-256(x_k); chain 0's tip x_N is committed in the genesis, a later chain's in
  the seat's `chain` entry when the one before is spent. The seat's j-th reveal (j = 1, 2,
  ..., counted over all its chains) is x_{N-1-i} of chain g, where (g, i) = divmod(j - 1, N):
  checked by SHA-256(reveal) == the value (or the tip) before it;
- a **private seed**: committed in the genesis as SHA-256("peerboard/seed/v1" || 0x00 ||
  seed), kept secret until the audit at the end; it decides the seat's own hidden draws.

How x_0 comes from the master secret is this implementation's own business (nobody else
can check it): SHA-256("peerboard/chain/v1" || 0x00 || master) for chain 0, and
SHA-256("peerboard/chain/v1" || 0x00 || master || g as 4-byte big-endian) for chain g ≥ 1.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from peerboard.engines import Action

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


def choice_digest(actions: tuple[Action, ...], nonce: bytes) -> bytes:
    """The commitment to a secret choice: SHA-256(domain || canonical(actions) || nonce)."""
    from peerboard.engines.canonical import encode

    return sha256(CHOICE_DOMAIN + encode(list(actions)) + nonce)


@dataclass(frozen=True)
class SeatSecrets:
    master: bytes
    #: chain g's values x_0 .. x_N, worked out the first time they are needed
    _chains: dict[int, tuple[bytes, ...]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_master(cls, master: bytes) -> "SeatSecrets":
        if len(master) != 32:
            raise ValueError("a master secret is 32 bytes")
        secrets = cls(master)
        secrets._values(0)  # the genesis needs its tip at once
        return secrets

    def _values(self, generation: int) -> tuple[bytes, ...]:
        chain = self._chains.get(generation)
        if chain is None:
            x = sha256(CHAIN_DOMAIN + self.master + (generation.to_bytes(4, "big") if generation else b""))
            values = [x]
            for _ in range(CHAIN_LENGTH):
                x = sha256(x)
                values.append(x)
            chain = self._chains[generation] = tuple(values)
        return chain

    @property
    def seed(self) -> bytes:
        return sha256(SEED_DOMAIN + b"derive" + self.master)

    @property
    def chain_tip(self) -> bytes:
        """The tip of chain 0, committed in the genesis."""
        return self.tip(0)

    def tip(self, generation: int) -> bytes:
        """The tip x_N of chain `generation` (0: the genesis's; g: the seat's g-th `chain` entry's)."""
        return self._values(generation)[CHAIN_LENGTH]

    def next_tip(self, used: int) -> bytes:
        """The tip of the chain after the one that `used` reveals in all have just spent."""
        return self.tip(used // CHAIN_LENGTH)

    def reveal(self, j: int) -> bytes:
        """The j-th reveal (j = 1, 2, ...), counted over all the seat's chains."""
        if j < 1:
            raise ValueError(f"reveals count from 1, not {j}")
        generation, i = divmod(j - 1, CHAIN_LENGTH)
        return self._values(generation)[CHAIN_LENGTH - 1 - i]

    def commitments(self) -> dict[str, bytes]:
        return {"chain": self.chain_tip, "seed": seed_commitment(self.seed)}
