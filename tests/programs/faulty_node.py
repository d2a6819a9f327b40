"""Test only (tests/node/test_node_faults.py): `peerboard` with a bug planted in one engine.

    python tests/programs/faulty_node.py GAME AFTER PEERBOARD-ARGS...

runs `peerboard PEERBOARD-ARGS...` in this process with GAME's engine raising RuntimeError
from `apply` once it has applied AFTER actions — our own fault, as a real engine bug would
be. Nothing in peerboard itself knows of this file.
"""
from __future__ import annotations

import sys

from peerboard import engines
from peerboard.client.cli import main


def plant(game_name: str, after: int) -> None:
    game = engines.get(game_name)
    real = game.apply
    applied = 0

    def apply(state, action):
        nonlocal applied
        applied += 1
        if applied > after:
            raise RuntimeError("a fault planted by tests/programs/faulty_node.py")
        return real(state, action)

    game.apply = apply


if __name__ == "__main__":
    plant(sys.argv[1], int(sys.argv[2]))
    sys.exit(main(sys.argv[3:]))
