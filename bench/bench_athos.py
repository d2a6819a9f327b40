"""Athos engine figures (printed, never asserted).

1. Random complete games for 2, 3, 4 players and 4 in teams (default options, seeded):
   length in actions and in rounds (median, max), legal actions per decision (median,
   max), games and actions per second. The random player picks uniformly among the legal
   actions (engines.playout). Engine version 1 (one step per action, a tile moved in one
   (source, destination) action, placements in any order), measured by this same loop with
   the same seeds and 40 games per set-up at commit ebac1a6, for comparison:

       set-up      actions median/max   rounds median/max   per decision median/max   games/s
       2 players         6184 / 13631          655 / 1479                  7 / 2872      4.83
       3 players         6734 / 12713          471 /  903                  8 / 2476      3.87
       4 players         8496 / 21995          450 / 1181                  8 / 2408      2.82
       4 teams          15878 / 27861        867.5 / 1633                  6 / 2409      1.75
       all               8323 / 27861                                      7 / 2872      2.88

2. `legal_actions` in the tile-placement phase on random mid-game positions: the engine's
   one-walk path analysis (paths.py) against the plain search per candidate hex
   (oracle.py), on the same positions in one run, and the ratio.

    .venv/bin/python bench/bench_athos.py [--games N] [--positions N]
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time


from peerboard.engines.athos import GAME, oracle, rules  # noqa: E402
from peerboard.engines.athos.state import PLACE  # noqa: E402
from peerboard.engines.playout import random_action  # noqa: E402

SETUPS = [("2 players", 2, {}), ("3 players", 3, {}), ("4 players", 4, {}), ("4 teams", 4, {"teams": True})]


def random_games(label: str, players: int, options: dict, games: int) -> tuple[list[int], list[int], list[int], float]:
    """(actions per game, rounds per game, legal actions at every decision, seconds)."""
    rng = random.Random(f"measure {label}")
    lengths, rounds, branching = [], [], []
    start = time.perf_counter()
    for _ in range(games):
        state = GAME.new_game(players, options)
        n = 0
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            branching.append(len(legal))
            state = GAME.apply(state, legal[rng.randrange(len(legal))])
            n += 1
        lengths.append(n)
        rounds.append(state.round)
    return lengths, rounds, branching, time.perf_counter() - start


def mid_game_positions(count: int, seed: int = 1) -> list:
    """Placement-phase positions from random games while tiles remain, each with this turn's
    placements not yet made (and board order starting from a1)."""
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
            state = dataclasses.replace(state, placed=(0,) * 5, last_placed=-1)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="random games per set-up")
    parser.add_argument("--positions", type=int, default=200)
    args = parser.parse_args()
    if args.games < 1 or args.positions < 1:
        sys.exit("measured nothing: --games and --positions must be at least 1")

    print(f"random complete games, {args.games} per set-up (engine version {GAME.version}):")
    print("  set-up      actions median/max   rounds median/max   per decision median/max   games/s  actions/s")
    every_length, every_branching, seconds = [], [], 0.0
    for label, players, options in SETUPS:
        lengths, rounds, branching, took = random_games(label, players, options, args.games)
        every_length += lengths
        every_branching += branching
        seconds += took
        print(
            f"  {label:<10} {statistics.median(lengths):>9} / {max(lengths):<6}"
            f"{statistics.median(rounds):>11} / {max(rounds):<6}"
            f"{statistics.median(branching):>16} / {max(branching):<6}"
            f"{args.games / took:>11.2f} {sum(lengths) / took:>10.0f}"
        )
    print(
        f"  {'all':<10} {statistics.median(every_length):>9} / {max(every_length):<6}{'':20}"
        f"{statistics.median(every_branching):>16} / {max(every_branching):<6}"
        f"{len(SETUPS) * args.games / seconds:>11.2f} {sum(every_length) / seconds:>10.0f}"
    )

    positions = mid_game_positions(args.positions)
    fast, n_fast = time_legal(positions, rules.cutting_hexes)
    slow, n_slow = time_legal(positions, oracle.cutting_hexes)
    assert n_fast == n_slow, "the analysis and the oracle disagree"  # a sanity check, not timing
    print(f"placement-phase legal_actions on {len(positions)} mid-game positions "
          f"({n_fast / len(positions):.1f} actions each)")
    print(f"  one-walk analysis : {1e6 * fast / len(positions):9.1f} us per position")
    print(f"  plain search      : {1e6 * slow / len(positions):9.1f} us per position")
    print(f"  speed-up          : {slow / fast:9.1f} x")


if __name__ == "__main__":
    main()
