"""Athos engine figures (printed, never asserted).

1. `legal_actions` in the tile-placement phase on random mid-game positions: the engine's
   one-walk path analysis (paths.py) against the plain search per candidate hex
   (oracle.py), on the same positions in one run, and the ratio.
2. Random complete games per second, 2 and 4 players (engines.playout.random_action).

    .venv/bin/python bench/bench_athos.py [--games N] [--positions N]
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engines.athos import GAME, oracle, rules  # noqa: E402
from engines.athos.state import PLACE  # noqa: E402
from engines.playout import random_action, random_game  # noqa: E402


def mid_game_positions(count: int, seed: int = 1) -> list:
    """Placement-phase positions from random games while tiles remain (all 80 are out after
    about five rounds of random play), each with this turn's placements not yet made."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.new_game(rng.choice((2, 3, 4)))
        stop = rng.randrange(2, 6)
        while not GAME.is_terminal(state) and state.round < stop:
            state = GAME.apply(state, random_action(GAME, state, rng))
        while not GAME.is_terminal(state) and state.phase != PLACE:
            state = GAME.apply(state, random_action(GAME, state, rng))
        if state.phase == PLACE:
            state = dataclasses.replace(state, placed=(0,) * 5)
            if len(GAME.legal_actions(state)) > 1:
                found.append(state)
    return found


def time_legal(positions: list, cuts) -> tuple[float, int]:
    fresh = [dataclasses.replace(s) for s in positions]  # no derived tables cached yet
    start = time.perf_counter()
    total = 0
    for state in fresh:
        total += len(rules.legal_actions(state, cuts))
    return time.perf_counter() - start, total


def games_per_second(players: int, games: int) -> tuple[float, float]:
    rng = random.Random(players)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        actions += random_game(GAME, players, rng)[1]
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()

    positions = mid_game_positions(args.positions)
    fast, n_fast = time_legal(positions, rules.cutting_hexes)
    slow, n_slow = time_legal(positions, oracle.cutting_hexes)
    assert n_fast == n_slow, "the analysis and the oracle disagree"  # a sanity check, not timing
    print(f"placement-phase legal_actions on {len(positions)} mid-game positions "
          f"({n_fast / len(positions):.1f} actions each)")
    print(f"  one-walk analysis : {1e6 * fast / len(positions):9.1f} us per position")
    print(f"  plain search      : {1e6 * slow / len(positions):9.1f} us per position")
    print(f"  speed-up          : {slow / fast:9.1f} x")
    for players in (2, 4):
        per_game, per_action = games_per_second(players, args.games)
        print(f"random complete games, {players} players: {per_game:6.2f} games/s "
              f"({per_action:,.0f} actions/s, {args.games} games)")


if __name__ == "__main__":
    main()
