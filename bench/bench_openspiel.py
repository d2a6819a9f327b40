"""Our MCTS against OpenSpiel's, at equal playouts per decision, and each one's playouts per
second, in one run (issue 42; docs/research.md).

    python bench/bench_openspiel.py                      # every game, the default sizes
    python bench/bench_openspiel.py --games 6 --playouts 30 --only aton

Per game, two seats, seats rotated (ours in seat 0 in even games, seat 1 in odd ones), every
game played to its end at a table of bots (client/bots/table.py, the signed log and all):
peerboard's `mcts` against OpenSpiel's own search in a peerboard seat — `openspiel:is_mcts`
for Aton (hands and cartouches hidden: information-set MCTS), `openspiel:mcts` for Asterix and
Athos — each with the same playouts per decision (OpenSpiel's simulations). Printed: our
wins, draws and losses, our win rate with its 95% Wilson interval, and each side's playouts
per second of the CPU time its decisions took (process time, this one process), with the
ratio of the two, measured in the same games.

What each side is: ours as it plays at a table (its game knowledge: evaluation, playout
policy, cut-offs; client/bots/mcts.py); OpenSpiel's with its random rollouts (client/bots/
openspiel_bots.py: at most 200 actions, a rollout cut short valued by the engine's scores),
so a playout of theirs runs far deeper than one of ours. Two concessions to finish in
minutes, printed beside the figures: Asterix is played with max_rounds=10 (a whole default
game at these budgets takes OpenSpiel's side minutes of CPU), and OpenSpiel's bot plays Athos
with the no-rollout evaluator (a random Athos rollout runs over a thousand actions: its
leaves are valued as they stand). Exits 1 when a bot failed or nothing was measured.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from peerboard import engines
from peerboard.client.bots import Bot, Budget, make_bot
from peerboard.client.bots.stats import wilson
from peerboard.client.bots.table import play_game


@dataclass(frozen=True)
class Match:
    game: str
    theirs: str
    options: dict
    #: OpenSpiel's rollout length (None: the bot's own default)
    rollout: int | None
    #: what the output says of the variant
    note: str


MATCHES = (
    Match("aton", "openspiel:is_mcts", {}, None, "the whole game"),
    Match("asterix", "openspiel:mcts", {"max_rounds": 10}, None, "short variant: max_rounds=10"),
    Match("athos", "openspiel:mcts", {}, 0, "the whole game; OpenSpiel's side without rollouts"),
)


class Clock:
    """The CPU time a bot's decisions take (wraps its `decide`)."""

    def __init__(self, bot: Bot) -> None:
        self.cpu = 0.0
        inner = bot.decide

        def decide(decision: Any) -> Any:
            started = time.process_time()
            try:
                return inner(decision)
            finally:
                self.cpu += time.process_time() - started

        bot.decide = decide  # type: ignore[method-assign]


def pit(match: Match, games: int, playouts: int, seed: int) -> bool:
    game = engines.get(match.game)
    won = drawn = lost = moves = 0
    ours_playouts = theirs_playouts = 0
    ours_cpu = theirs_cpu = 0.0
    faults: list[str] = []
    for n in range(games):
        ours = make_bot("mcts", seed=f"{seed}:{n}:ours", budget=Budget(playouts=playouts))
        theirs = make_bot(match.theirs, seed=f"{seed}:{n}:theirs", budget=Budget(playouts=playouts))
        if match.rollout is not None:
            theirs.rollout = match.rollout  # type: ignore[attr-defined]
        clocks = Clock(ours), Clock(theirs)
        seat = n % 2  # ours
        bots = [ours, theirs] if seat == 0 else [theirs, ours]
        labels = ["mcts", match.theirs] if seat == 0 else [match.theirs, "mcts"]
        played = play_game(game, match.options, bots, labels, random.Random(f"{seed}:{match.game}:{n}"))
        faults += played.faults
        moves += played.moves
        if not played.winners or len(played.winners) == 2:  # (nobody won, or both: a draw)
            result, drawn = "drawn", drawn + 1
        elif seat in played.winners:
            result, won = "won", won + 1
        else:
            result, lost = "lost", lost + 1
        ours_playouts += ours.playouts  # type: ignore[attr-defined]
        theirs_playouts += theirs.playouts  # type: ignore[attr-defined]
        ours_cpu += clocks[0].cpu
        theirs_cpu += clocks[1].cpu
        print(f"    game {n + 1}/{games}: ours in seat {seat}, {result}, {played.moves} moves", flush=True)
    low, high = wilson(won + 0.5 * drawn, games)
    ours_rate = ours_playouts / ours_cpu if ours_cpu else 0.0
    theirs_rate = theirs_playouts / theirs_cpu if theirs_cpu else 0.0
    print(f"  {match.game} ({match.note}), ours mcts vs {match.theirs}, {playouts} playouts per decision each:")
    print(f"    ours: {won} won, {drawn} drawn, {lost} lost of {games}: "
          f"{(won + 0.5 * drawn) / games:.1%} [{low:.1%}, {high:.1%}] (95%, draws half), "
          f"{moves / games:.0f} moves a game")
    print(f"    playouts per CPU second: ours {ours_rate:,.0f} ({ours_playouts} in {ours_cpu:.1f} s), "
          f"OpenSpiel's {theirs_rate:,.0f} ({theirs_playouts} in {theirs_cpu:.1f} s): "
          f"ours {ours_rate / theirs_rate if theirs_rate else float('inf'):.1f} x theirs")
    for line in faults:
        print(f"    fault: {line}")
    return not faults and ours_playouts > 0 and theirs_playouts > 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="games per game (seats rotated; default 20)")
    ap.add_argument("--playouts", type=int, default=50, help="playouts per decision, both sides (default 50)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--only", nargs="*", default=[m.game for m in MATCHES])
    args = ap.parse_args()
    try:
        import peerboard.client.bots.openspiel_bots  # noqa: F401  (the research extra)
    except ImportError as exc:
        print(f"bench_openspiel needs the research extra ({exc}): pip install 'peerboard[research]'")
        return 1
    print(f"our MCTS against OpenSpiel's, {args.playouts} playouts per decision each, {args.games} games per game, "
          f"seed {args.seed}")
    ok = True
    for match in MATCHES:
        if match.game in args.only:
            ok = pit(match, args.games, args.playouts, args.seed) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
