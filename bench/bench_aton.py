"""Aton engine speed: random complete games per second (state hash at the end, as a
replay would) and the cost of one apply, printed; never asserted. Exits 1 if it
measured nothing."""
from __future__ import annotations

import random
import sys
import time


from peerboard import engines  # noqa: E402
from peerboard.engines.playout import random_game  # noqa: E402


def main(seconds: float = 3.0) -> None:
    game = engines.get("aton")
    rng = random.Random(1)
    games = actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state, n = random_game(game, 2, rng)
        actions += n
        game.state_hash(state)
        games += 1
    elapsed = time.perf_counter() - t0
    if games == 0:
        sys.exit("measured nothing: no game finished in the time given")
    print(f"aton random games: {games / elapsed:.1f} games/s, {actions / elapsed:.0f} actions/s "
          f"({actions / games:.0f} actions per game, legal_actions + apply per action)")


if __name__ == "__main__":
    main()
