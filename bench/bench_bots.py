"""How strong and how fast the built-in bots are (issue 14's figures).

    python bench/bench_bots.py                       # every game, the default sizes
    python bench/bench_bots.py --games 40 --athos-games 4 --only aton asterix --jobs 2

Per game, two seats, seats rotated: mcts vs random, greedy vs random, mcts vs greedy, each
with the first player's win rate and its 95% (Wilson) interval; both sides get the same
budget per decision (`--budget`, default 100 playouts: only mcts spends it). Then MCTS
playouts per second per game, and a tournament's games per second with --jobs 1 and
--jobs 2 (random players, so the figure is the table's own cost). Goals: mcts vs random
>= 90%, greedy vs random >= 70%, mcts vs greedy >= 60%.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


from peerboard import engines  # noqa: E402
from peerboard.client.bots import tournament  # noqa: E402
from peerboard.client.bots.mcts import MctsBot  # noqa: E402
from peerboard.client.bots.sdk import Budget, Decision, notation_of  # noqa: E402
from peerboard.client.bots.stats import wilson  # noqa: E402
from peerboard.engines.playout import random_action  # noqa: E402

PAIRINGS = (("mcts", "random", 0.90), ("greedy", "random", 0.70), ("mcts", "greedy", 0.60))


def pairing(game: str, a: str, b: str, games: int, budget: Budget, jobs: int, seed: int) -> str:
    players = tournament.parse_players(f"{a},{b}", 2, budget=budget)
    matches = tournament.schedule(game, {}, players, games, seed)
    executor = tournament.InProcess() if jobs == 1 else ProcessPoolExecutor(max_workers=jobs)
    started = time.perf_counter()
    try:
        outcomes = tournament.run(matches, executor, progress=False)
    finally:
        executor.shutdown()
    seconds = time.perf_counter() - started
    results = tournament.results_of(players, 2, outcomes)
    first = results.standings[0]
    low, high = wilson(first.wins, first.games)
    return (f"  {a:>6} vs {b:<6} {first.wins:>4}/{first.games:<4} wins {first.wins / first.games:>6.1%} "
            f"[{low:.1%}, {high:.1%}]  draws {first.draws:<3} {results.moves / results.games:6.1f} moves/game  "
            f"{seconds / games:6.2f} s/game" + (f"  ({results.unfinished} stopped unfinished)" if results.unfinished else ""))


def playouts_per_second(game_name: str, budget: int, positions: int, seed: int) -> str:
    """MCTS playouts per second over positions from seeded random games."""
    game = engines.get(game_name)
    rng = random.Random(seed)
    bot = MctsBot(seed=seed, budget=Budget(playouts=budget))
    found = 0
    state = game.new_game(2)
    while found < positions:
        if game.is_terminal(state):
            state = game.new_game(2)
        seat = game.current(state)
        if seat >= 0 and not game.secret_choice(state):
            legal = tuple(game.legal_actions(state))
            if len(legal) > 1 and rng.random() < 0.2:
                view = game.view(state, seat)
                bot.decide(Decision(game_name, game, seat, view, legal, notation_of(game, view, legal)))
                found += 1
        state = game.apply(state, random_action(game, state, rng))
    return f"  {game_name:<8} {bot.playouts / bot.seconds:8.0f} playouts/s ({bot.playouts} playouts over {positions} positions)"


def throughput(game: str, games: int, jobs: int, seed: int) -> float:
    players = tournament.parse_players(None, engines.get(game).min_players)
    matches = tournament.schedule(game, {}, players, games, seed)
    executor = tournament.InProcess() if jobs == 1 else ProcessPoolExecutor(max_workers=jobs)
    started = time.perf_counter()
    try:
        tournament.run(matches, executor, progress=False)
    finally:
        executor.shutdown()
    return games / (time.perf_counter() - started)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games per pairing (Aton, Asterix)")
    ap.add_argument("--athos-games", type=int, default=40, help="games per pairing for Athos")
    ap.add_argument("--budget", default="100", help="playouts (or seconds: 0.2s) per decision, both sides")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--only", nargs="*", default=["aton", "asterix", "athos"])
    ap.add_argument("--pairings", nargs="*", default=[f"{a},{b}" for a, b, _ in PAIRINGS])
    args = ap.parse_args()
    budget = Budget.parse(args.budget)
    print(f"bots: the same budget per decision for both sides: {budget} (only mcts spends it); "
          f"--jobs {args.jobs}; seed {args.seed}")
    for game in args.only:
        n = args.athos_games if game == "athos" else args.games
        print(f"{game}: {n} games per pairing, seats rotated")
        for text in args.pairings:
            a, b = text.split(",")
            print(pairing(game, a, b, n, budget, args.jobs, args.seed), flush=True)
    print("MCTS playouts per second (one process; budget 200 per position):")
    for game in args.only:
        print(playouts_per_second(game, 200, 10 if game != "athos" else 3, args.seed), flush=True)
    one, two = throughput("aton", 40, 1, args.seed), throughput("aton", 40, 2, args.seed)
    print(f"tournament, aton, random players, 40 games: --jobs 1 {one:.1f} games/s, --jobs 2 {two:.1f} games/s "
          f"(ratio {two / one:.2f})")


if __name__ == "__main__":
    main()
