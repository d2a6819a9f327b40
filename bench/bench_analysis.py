"""How long `peerboard analyse` takes, and how stable its preferred move is (issue 26).

    python bench/bench_analysis.py                          # every game, the default budget
    python bench/bench_analysis.py --only aton --sample 20 --budget 300

Per game: one game between two greedy players (seed 26) saved as a signed log, then

* the seconds to analyse the whole game at the budget with --jobs 2 (a process pool of
  two), side by side with the baseline measured in the same run: the mcts player deciding
  the same number of positions of that log at the same budget in this process — the
  ratio says what the analysis adds to the bot's own search (the judging, the extra
  playouts of the played and the preferred action) less what two processes save;
* how often the preferred move at the budget is the one a search at 10 times the budget
  prefers, over `--sample` decisions spread evenly over the game (each with its own
  seed), with its 95% (Wilson) interval; and, as the 10x search values them, what the
  preferred move at the budget gives up against its own (the mean regret, in points of
  the mover's chance: a differing preference between two near-equal moves costs ~0),
  and how often the played move's mark (none, mistake, blunder) is the same at both.

Exits 1 if it measured nothing.
"""
from __future__ import annotations

import argparse
import io
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from peerboard import engines
from peerboard.client.analysis.command import analyse, rng_for
from peerboard.client.analysis.judge import mark_of, search_position
from peerboard.client.analysis.positions import positions
from peerboard.client.bots.mcts import MctsBot
from peerboard.client.bots.players import GreedyBot
from peerboard.client.bots.sdk import Budget, Decision, notation_of
from peerboard.client.bots.stats import wilson
from peerboard.client.bots.table import play_game
from peerboard.client.selfplay import write_log
from peerboard.logs import read_log


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="*", default=["aton", "athos", "asterix"])
    p.add_argument("--budget", type=int, default=300, help="playouts per decision (default 300, the analysis's)")
    p.add_argument("--sample", type=int, default=12, help="decisions per game compared with 10x the budget")
    p.add_argument("--seed", type=int, default=26)
    args = p.parse_args()
    budget, deep = Budget(playouts=args.budget), Budget(playouts=10 * args.budget)
    measured = 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only:
            game = engines.get(name)
            played = play_game(game, {}, [GreedyBot(seed=1), GreedyBot(seed=2)], ["ann", "bob"],
                               random.Random(args.seed))
            log = Path(tmp) / f"{name}.pblog"
            write_log(log, played.genesis, played.entries)
            _, found = positions(read_log(log.read_bytes()))
            judged = [p for p in found if not p.forced]
            started = time.perf_counter()
            with ProcessPoolExecutor(max_workers=2) as pool:
                code = analyse([log], budget, 0, pool, io.StringIO(), io.StringIO())
            seconds = time.perf_counter() - started
            if code != 0:
                print(f"{name}: the analysis failed", file=sys.stderr)
                continue
            # the baseline: the mcts player deciding as many of the log's positions, one process
            bot = MctsBot(seed=0, budget=budget)
            started = time.perf_counter()
            for p in judged:
                bot.decide(Decision(game.name, game, p.seat, p.view, p.legal, notation_of(game, p.view, p.legal),
                                    p.kind))
            baseline = time.perf_counter() - started
            step = max(1, len(judged) // max(1, args.sample))
            sample = judged[::step][:args.sample]
            agree = marks = 0
            regret = 0.0
            for p in sample:
                short, short_pref, _ = search_position(game, p, budget, rng_for(0, p))
                long, long_pref, n = search_position(game, p, deep, rng_for(1, p))
                long.focus(short_pref, max(8, n // 10))  # (valued by the long search too)
                agree += short_pref == long_pref
                worth = {a: t.mean()[p.seat] for a, t in long.tallies.items()}
                regret += max(0.0, worth[long_pref] - worth[short_pref])
                short_worth = {a: t.mean()[p.seat] for a, t in short.tallies.items()}
                marks += (mark_of(max(0.0, short_worth[short_pref] - short_worth[p.played]))
                          == mark_of(max(0.0, worth[long_pref] - worth[p.played])))
            k = len(sample)
            lo, hi = wilson(agree, k)
            rows.append((game.title, len(judged), seconds, baseline, agree, k, lo, hi, regret / k, marks))
            measured += 1
            print(f"{game.title}: {len(judged)} decisions, analyse --jobs 2 {seconds:.1f} s, "
                  f"mcts deciding them in one process {baseline:.1f} s (ratio {seconds / baseline:.2f}); "
                  f"preferred move as at 10x: {agree}/{k} [{lo:.0%}, {hi:.0%}], mean regret "
                  f"{100 * regret / k:.1f} points, the same mark {marks}/{k}", flush=True)
    if not measured:
        print("measured nothing", file=sys.stderr)
        return 1
    print()
    print(f"| game | decisions | analyse --jobs 2 (budget {args.budget}) | mcts, 1 process | ratio | "
          f"preferred = at {10 * args.budget} | its regret there | same mark |")
    print("|---|---|---|---|---|---|---|---|")
    for title, n, s, b, a, k, lo, hi, r, m in rows:
        print(f"| {title} | {n} | {s:.1f} s | {b:.1f} s | {s / b:.2f} | {a}/{k} [{lo:.0%}, {hi:.0%}] | "
              f"{100 * r:.1f} points | {m}/{k} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
