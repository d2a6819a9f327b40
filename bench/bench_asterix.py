"""Asterix: The Hunt engine speed. Prints figures; asserts nothing about time.

    .venv/bin/python bench/bench_asterix.py [--games N] [--corner N] [--positions N] [--only-reference]

0. Against a fixed reference workload, in the same run: random complete games (2, 4 and 8
   players) and MCTS playouts (2 players, the bench_bots positions), each as work done per
   second of the reference workload (a frozen piece of pure Python of the engine's kind:
   frozen dataclass copies, tuple replaces, dict lookups, bit masks; never to be changed),
   so that a figure measured on a busy machine or another one compares with the figure of
   the engine before the speed-up (BEFORE: engine 2 at commit 08ecd36, measured the same
   way on this project's machine): the ratio is the speed-up. CPU time of this process
   (a busy machine disturbs it less than wall time), the two measured in turns.
   The random games go by the engine's `random_step` (engines/playout.py) when it has one;
   "by apply" plays the same 4-player games through `legal_actions` and `apply`, the path
   every other caller takes (990cd82 has no `random_step`: there both rows take it).
1. Random complete games per second for 2, 4 and 8 players (default options).
2. legal_actions for a die move: the layered bitmask walk (the engine) against the
   walk-by-walk oracle of the tests, on the same positions in the same run.
3. The endless corner: of N random 2-player games (seeds 0 … N-1) with `max_rounds` 2000,
   how many run to the limit. Engine version 1 (no "nothing can change any more" end):
   3 of 3000 (seeds 763, 2406, 2517); version 2: 2 of 3000 (2406, 2517: two carriers
   walled in together, who could still steal from each other, spec/games/asterix.md
   ruling 13).

Part 0 also measures the engine at START (990cd82, the start of issue 25's second speed-up
session) in the same run: that commit's package is taken out of git into a temporary
folder, put first on the path of a child process that runs this bench's part 0, and its
figures are printed beside this tree's, with the ratio (`--start ''` skips it).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from dataclasses import dataclass, replace  # noqa: E402

from peerboard import engines  # noqa: E402
from peerboard.engines.asterix.board import SQUARE_NAMES  # noqa: E402
from peerboard.engines.asterix.rules import move_actions  # noqa: E402
from peerboard.engines.asterix.state import MOVE  # noqa: E402
from peerboard.engines.asterix.walks import blocked_squares  # noqa: E402
from peerboard.engines.playout import random_action, random_game  # noqa: E402
from support.asterix_positions import oracle_landings  # noqa: E402

GAME = engines.get("asterix")

#: work per reference-second of the engine at 08ecd36 (before the speed-up of issue 25),
#: measured with this very bench (the old package first on the path) on this project's
#: 2-core machine, the median of three runs
BEFORE = {"random 2": 2.588, "random 4": 1.839, "random 8": 1.500, "mcts": 5.873}


@dataclass(frozen=True)
class _Piece:
    square: int
    marks: tuple[int, ...]
    mask: int


def reference(rounds: int = 20_000) -> float:
    """The fixed reference workload: CPU seconds for `rounds` rounds of it. Never change it
    (BEFORE's figures are counted in it)."""
    started = time.process_time()
    piece = _Piece(0, (0,) * 8, 0)
    table = {i: (i * 7) % 64 for i in range(64)}
    for i in range(rounds):
        square = table[(piece.square + i) % 64]
        marks = piece.marks[:i % 8] + (square,) + piece.marks[i % 8 + 1:]
        mask = (piece.mask | (1 << square)) & ((1 << 64) - 1)
        piece = replace(piece, square=square, marks=marks, mask=mask ^ (mask >> 1))
    return time.process_time() - started


def in_turns(work, pieces: int) -> tuple[float, float, int]:
    """(CPU seconds of `work`, of the reference, units of work): `pieces` pieces of work,
    each followed by one reference, so that a busy moment hits both alike."""
    spent = ref = 0.0
    units = 0
    for n in range(pieces):
        started = time.process_time()
        units += work(n)
        spent += time.process_time() - started
        ref += reference()
    return spent, ref, units


def mcts_playouts(n: int, budget: int = 100) -> int:
    """The playouts of one MCTS decision at the n-th position of seeded random 2-player games."""
    from peerboard.client.bots.mcts import MctsBot
    from peerboard.client.bots.sdk import Budget, Decision, notation_of

    rng = random.Random(f"positions:{n}")
    state = GAME.new_game(2)
    while True:
        if GAME.is_terminal(state):
            state = GAME.new_game(2)
        seat = GAME.current(state)
        if seat >= 0:
            legal = tuple(GAME.legal_actions(state))
            if len(legal) > 1 and rng.random() < 0.2:
                break
        state = GAME.apply(state, random_action(GAME, state, rng))
    bot = MctsBot(seed=n, budget=Budget(playouts=budget))
    view = GAME.view(state, seat)
    bot.decide(Decision("asterix", GAME, seat, view, legal, notation_of(GAME, view, legal)))
    return bot.playouts


def one_game(players: int):
    def work(n: int) -> int:
        random_game(GAME, players, random.Random(f"reference:{players}:{n}"))
        return 1

    return work


def one_game_by_apply(players: int):
    """The same games as `one_game`, every action through `legal_actions` and `apply` (what
    `random_game` does for a game without `random_step`): the engine's own path, as a
    bot's or a node's actions take it."""
    def work(n: int) -> int:
        rng = random.Random(f"reference:{players}:{n}")
        state = GAME.new_game(players)
        while not GAME.is_terminal(state):
            state = GAME.apply(state, random_action(GAME, state, rng))
        return 1

    return work


#: the engine at the start of the second speed-up session of issue 25, measured in the same run
START = "990cd82"


def start_figures(commit: str, games: int, positions: int) -> dict[str, float]:
    """Part 0's figures (work per reference-second) of the package at `commit`, measured
    now in a child process with that package first on its path; {} when it cannot be had."""
    if not commit:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        package = os.path.join(tmp, "peerboard")
        os.mkdir(package)
        archive = subprocess.run(["git", "-C", ROOT, "archive", commit], capture_output=True)
        if archive.returncode:
            print(f"  (no START figures: git archive {commit}: {archive.stderr.decode().strip()})")
            return {}
        subprocess.run(["tar", "-x", "-C", package], input=archive.stdout, check=True)
        env = dict(os.environ, PYTHONPATH=tmp, ASTERIX_BENCH_CHILD=commit)
        child = subprocess.run([sys.executable, os.path.abspath(__file__), "--only-reference", "--start", "",
                                "--games", str(games), "--positions", str(positions)],
                               capture_output=True, text=True, env=env)
    found = {}
    for line in child.stdout.splitlines():
        m = re.match(r"\s*@ (.+?) ([0-9.]+)$", line)
        if m:
            found[m.group(1)] = float(m.group(2))
    if not found:
        print(f"  (no START figures: the child said {child.stderr.strip()[-300:]!r})")
    return found


def against_reference(games: int, positions: int, start: str) -> bool:
    child = os.environ.get("ASTERIX_BENCH_CHILD")
    if child:
        import peerboard
        assert os.path.dirname(peerboard.__file__) != ROOT, "the child must run the old package"
    else:
        print("Against the fixed reference workload (work per reference-second, CPU time; BEFORE: the engine at "
              f"08ecd36; START: the engine at {start or '-'}, measured now in a child process):")
    started = {} if child else start_figures(start, games, positions)
    measured = False
    rows = [(f"random {p}", f"random {p}-player games", one_game(p)) for p in (2, 4, 8)]
    rows.append(("apply 4", "the same 4-player games by apply", one_game_by_apply(4)))
    rows.append(("mcts", "MCTS playouts (2 players, budget 100)", mcts_playouts))
    for key, what, work in rows:
        pieces = games if key != "mcts" else positions
        spent, ref, units = in_turns(work, pieces)
        if not units or spent <= 0:
            continue
        measured = True
        per_ref = units / spent * (ref / pieces)  # units per second, times one reference's seconds
        if child:
            print(f"  @ {key} {per_ref:.6f}")  # read by start_figures
            continue
        before = BEFORE.get(key)
        ratio = f"before {before:8.3f}  {per_ref / before:5.2f} x before" if before else f"{'(no BEFORE figure)':<31}"
        at_start = started.get(key)
        versus = f"start {at_start:8.3f}  {per_ref / at_start:5.2f} x start" if at_start else "(no START figure)"
        print(f"  {what:<40} {units / spent:9.1f} /s CPU   {per_ref:8.3f} per reference  "
              f"{ratio}   {versus}")
    return measured


def random_games(players: int, games: int) -> None:
    rng = random.Random(players)
    actions = rounds = 0
    start = time.perf_counter()
    for _ in range(games):
        state, n = random_game(GAME, players, rng)
        actions += n
        rounds += state.round
    took = time.perf_counter() - start
    print(
        f"  {players} players: {games / took:7.1f} games/s  {actions / took:9.0f} actions/s"
        f"  ({actions / games:.0f} actions, {rounds / games:.0f} rounds a game)"
    )


def die_moves(count: int) -> list:
    """States where a seat chooses a landing, from seeded random 4-player games."""
    rng = random.Random(1)
    found = []
    while len(found) < count:
        state = GAME.new_game(4)
        while not GAME.is_terminal(state) and len(found) < count:
            if state.phase == MOVE:
                found.append(state)
            state = GAME.apply(state, random_action(GAME, state, rng))
    return found


def engine_legal(state) -> list:
    """legal_actions for a die move without the memo: one layered walk, then the list."""
    seat = state.actor
    blocked = blocked_squares(state.tiles, state.potions[seat])
    from peerboard.engines.asterix.walks import walked  # (here: 990cd82, measured in part 0, has none)

    mask = walked(state.pawns[seat], state.dice[0], blocked)
    return move_actions(mask) if mask else [("skip",)]


def oracle_legal(state) -> list:
    seat = state.actor
    ends = oracle_landings(state.tiles, state.pawns[seat], state.dice[0], state.potions[seat])
    return [("move", name) for name in SQUARE_NAMES if name in ends] or [("skip",)]


def per_call(fn, states, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for state in states:
            fn(state)
    return (time.perf_counter() - start) / (repeat * len(states))


def endless_corner(games: int, limit: int = 2000) -> None:
    hits = []
    rounds = []
    start = time.perf_counter()
    for seed in range(games):
        state, _ = random_game(GAME, 2, random.Random(seed), {"max_rounds": limit})
        rounds.append(state.round)
        if state.round >= limit:
            hits.append(seed)
    took = time.perf_counter() - start
    rounds.sort()
    print(f"random 2-player games with max_rounds {limit}: {len(hits)} of {games} ran to the limit"
          f" (seeds {hits or '-'}); rounds median {rounds[len(rounds) // 2]}, {took:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per player count")
    parser.add_argument("--corner", type=int, default=300, help="games for the endless-corner count")
    parser.add_argument("--positions", type=int, default=10, help="MCTS decisions against the reference")
    parser.add_argument("--only-reference", action="store_true", help="part 0 alone")
    parser.add_argument("--start", default=START, help="the commit measured beside this tree ('' for none)")
    args = parser.parse_args()
    if not against_reference(args.games, args.positions, args.start):
        print("measured nothing", file=sys.stderr)
        sys.exit(1)
    if args.only_reference:
        return
    print(f"Random complete games ({args.games} a player count, seeded):")
    for players in (2, 4, 8):
        random_games(players, args.games)

    states = die_moves(300)
    assert all(GAME.legal_actions(s) == oracle_legal(s) == engine_legal(s) for s in states)
    fast = per_call(engine_legal, states, 20)
    warm = per_call(GAME.legal_actions, states, 20)
    slow = per_call(oracle_legal, states, 1)
    by_die: dict[int, list] = {}
    for s in states:
        by_die.setdefault(s.dice[0], []).append(s)
    print(f"legal_actions for a die move ({len(states)} positions from random 4-player games):")
    print(f"  layered walk (engine, no memo): {fast * 1e6:9.1f} us a call")
    print(f"  legal_actions, memo warm:       {warm * 1e6:9.1f} us a call")
    print(f"  walk-by-walk oracle:            {slow * 1e6:9.1f} us a call")
    print(f"  oracle / engine (no memo):      {slow / fast:9.1f} x")
    for die in sorted(by_die):
        group = by_die[die]
        f, o = per_call(engine_legal, group, 20), per_call(oracle_legal, group, 1)
        print(f"    die {die}: engine {f * 1e6:6.1f} us, oracle {o * 1e6:9.1f} us"
              f" ({o / f:7.1f} x, {len(group)} positions)")
    endless_corner(args.corner)

if __name__ == "__main__":
    main()
