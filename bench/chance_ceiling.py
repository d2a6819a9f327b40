"""How good can a printed chance of winning be? The Brier score of the best chance there is,
beside always saying the seat's share: the ceiling the analysis's chance (bench/bench_analysis.py)
is measured under.

    python bench/chance_ceiling.py aton:2 --games 10 --every 6 --continuations 8 --jobs 2
    python bench/chance_ceiling.py aton:2 --from-view        # what the mover could know

Games between `mcts@100` players (seeds `chance-ceiling:SEED:GAME:SEATS:N`, played by the
engine, no log); at every `--every`-th decision of more than one legal action, the
position is played on `--continuations` times by fresh `mcts@100` players (and fresh chance)
to the end. The best chance there is at a position is p*, the mover's expected result as
such players go on; a chance that said p* would score p*'s own spread, E[Var(result |
position)], and each position's continuations estimate that without bias (their sample
variance, over K - 1). With `--from-view` each continuation starts from the mover's view
with the hidden part drawn again (`game.determinize`): the best a chance from what the
mover knew could do. Printed: that Brier score against always saying the share, as the
share's Brier score on the positions' real outcomes, the improvement with a 95 % interval
(the games drawn again, 400 times), and the CPU spent.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

#: a continuation that has not ended after this many engine steps is cut short (never met: a
#: bound, as every loop has one)
MOST_STEPS = 20_000


def _play(game, state, tag: str, seats: int, every: int = 0, record: list | None = None) -> list[float]:
    """Play on from `state` with mcts@100 at every seat (seeded by `tag`); each seat's result
    (1 shared among the winners). With `record`, every `every`-th decision's (state, mover)."""
    from peerboard.client.bots.mcts import MctsBot
    from peerboard.client.bots.sdk import Budget, Decision, notation_of
    from peerboard.engines.contract import CHANCE

    rng = random.Random(tag)
    bots = [MctsBot(seed=f"{tag}:{s}", budget=Budget(playouts=100)) for s in range(seats)]
    decisions = 0
    for _ in range(MOST_STEPS):
        if game.is_terminal(state):
            break
        who = game.current(state)
        if who == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng.randbytes(32)))
            continue
        # a simultaneous secret choice (Aton's cartouches): every seat of it decides from the
        # same position, none seeing another's, then the engine takes them in its order (as
        # client/bots/simulate.py's play_choice and the log's commit and reveal do)
        group = game.secret_choice(state) or (who,)
        chosen = {}
        for seat in group:
            legal = tuple(game.choices_for(state, seat)) if len(group) > 1 else tuple(game.legal_actions(state))
            if record is not None and len(legal) > 1:
                decisions += 1
                if decisions % every == 0:
                    record.append((state, seat))
            view = game.view(state, seat)
            decision = Decision(game.name, game, seat, view, legal, notation_of(game, view, legal), "move", None)
            chosen[seat] = bots[seat].decide(decision)
        for seat in group:
            state = game.apply(state, chosen[seat])
    else:
        return [1.0 / seats] * seats
    winners = game.winners(state)
    if not winners:
        return [1.0 / seats] * seats
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(seats)]


def one_game(job: tuple[str, int, int, int, int, int, bool]) -> tuple[int, float, float, float]:
    """(positions, the sum of their continuations' variances, the share's squared errors,
    CPU seconds) of one game."""
    from peerboard import engines

    game_name, seats, n, seed, every, k, from_view = job
    started = time.process_time()
    game = engines.get(game_name)
    tag = f"chance-ceiling:{seed}:{game_name}:{seats}:{n}"
    record: list = []
    got = _play(game, game.new_game(seats), tag, seats, every, record)
    spread = share = 0.0
    for i, (state, mover) in enumerate(record):
        starts = [state] * k
        if from_view:
            view = game.view(state, mover)
            starts = [game.determinize(view, mover, random.Random(f"{tag}:{i}:{c}:view").randbytes(32)) for c in range(k)]
        results = [_play(game, starts[c], f"{tag}:{i}:{c}", seats)[mover] for c in range(k)]
        mean = sum(results) / k
        spread += sum((r - mean) ** 2 for r in results) / (k - 1)
        share += (got[mover] - 1.0 / seats) ** 2
    return len(record), spread, share, time.process_time() - started


def interval(games: list[tuple[int, float, float, float]], rounds: int = 400, seed: int = 0) -> tuple[float, float]:
    """The improvement's 95 % interval, the games drawn again."""
    rng = random.Random(seed)
    found = []
    for _ in range(rounds):
        drawn = [games[rng.randrange(len(games))] for _ in games]
        base = sum(g[2] for g in drawn)
        if base > 0:
            found.append(1 - sum(g[1] for g in drawn) / base)
    found.sort()
    if not found:
        return 0.0, 0.0
    return found[int(0.025 * len(found))], found[min(len(found) - 1, int(0.975 * len(found)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("configs", nargs="*", default=["aton:2"], metavar="GAME:SEATS")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--every", type=int, default=6, help="every N-th decision is played on (default 6)")
    ap.add_argument("--continuations", type=int, default=8, help="continuations per position (default 8)")
    ap.add_argument("--from-view", action="store_true", help="continue from the mover's view, the hidden part drawn again")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="games played at once, each in a process (default 1)")
    args = ap.parse_args()
    if args.continuations < 2:
        ap.error("--continuations: at least 2 (their spread is the measure)")
    load = os.getloadavg()
    print(f"chance_ceiling: mcts@100 players, {args.continuations} continuations every {args.every}th decision, "
          f"{'from the mover' + chr(39) + 's view' if args.from_view else 'from the full position'}, seed {args.seed}; "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores", flush=True)
    measured = 0
    for config in args.configs:
        name, _, seats_text = config.partition(":")
        seats = int(seats_text or 2)
        jobs = [(name, seats, n, args.seed, args.every, args.continuations, args.from_view) for n in range(args.games)]
        with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            games = [g for g in pool.map(one_game, jobs) if g[0]]
        if not games:
            print(f"{config}: no position played on")
            continue
        positions = sum(g[0] for g in games)
        best, share = sum(g[1] for g in games) / positions, sum(g[2] for g in games) / positions
        lo, hi = interval(games)
        print(f"{config}: {len(games)} games, {positions} positions, {positions * args.continuations} continuations "
              f"({sum(g[3] for g in games):.0f} s CPU)")
        print(f"  the best chance there is: Brier {best:.4f} against the share's {share:.4f}: "
              f"{100 * (1 - best / share):.0f}% better [{100 * lo:.0f}%, {100 * hi:.0f}%]")
        measured += 1
    return 0 if measured else 1


if __name__ == "__main__":
    sys.exit(main())
