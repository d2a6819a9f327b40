"""Fit a game's evaluation to who won self-play games, and write the weights into the package
(client/games/NAME/fitted.py), the data the search players and `peerboard analyse` use.

    python bench/fit_evaluation.py aton --logs games/aton-2p [--logs ...] [--budget 100] [--write]

The logs are games between strong players (`peerboard selfplay aton --players
mcts@100,mcts@100 --games 80 --save DIR`, every seat count the game has). At a sample of
each log's judged decisions (every `--every`-th, every seat), the search the analysis runs
(client/analysis/judge.py: the mcts player's, from the seat's view, the played action
among those searched) runs `--budget` playouts, and `--keep` of the positions its playouts
through the played action were cut off at (where the game's knowledge estimates, not a
finished game) are kept with their features (Knowledge.features) and what each seat got in
the real game at the end (that game went on from the played action: a hypothetical one's
playouts would be labelled with another move's outcome). Fitted to those,
the estimate is what the search averages: the chance of winning as strong players go on
from a position like the one a playout reached.

The logs are split by game, two thirds to fit and a third to test; printed: the log loss
and the Brier score (per seat, against always saying a seat's share) of the fitted weights
and of the knowledge's evaluation before, on both parts, and the test part's calibration
(said -> happened by tenths, with 95 % Wilson intervals). Then the weights are fitted to
all the logs and, with `--write`, written. Exits 1 when no example was gathered.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

from peerboard import engines
from peerboard.client.analysis.positions import positions
from peerboard.client.bots.knowledge import Knowledge, knowledge_for
from peerboard.client.bots.knowledge.fitted import Example, chances, fit, losses, scores_of
from peerboard.client.bots.mcts import Search, spend
from peerboard.client.bots.sdk import Budget, Decision, notation_of
from peerboard.client.bots.stats import wilson
from peerboard.logs import read_log

from calibration import Said, brier, share_brier, shares, table  # (bench/calibration.py)

ROOT = Path(__file__).resolve().parent.parent


class _Recording:
    """The game's knowledge, keeping the features of the live positions it evaluates in
    playouts through the action the seat played (the game went on from that one: what
    happened is its outcome, not a hypothetical move's)."""

    def __init__(self, know: Knowledge, played: Any):
        self._know = know
        self.played = played
        self.search: Search | None = None
        self.seen: list[tuple[list[list[float]], list[float]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._know, name)

    def evaluate(self, state: Any) -> list[float]:
        values = self._know.evaluate(state)
        if self.search is not None and self.search.taken == self.played and not self._know.game.is_terminal(state):
            self.seen.append((self._know.features(state), values))
        return values


def gather(game, paths: list[Path], budget: int, every: int, keep: int, seed: int, settings: dict):
    """Per log: (its examples, per judged decision (the mover, its seats' mean estimate))."""
    per_log = []
    for n, path in enumerate(paths):
        contents = read_log(path.read_bytes())
        seats = len(contents.genesis.terms.seats)
        got = shares(contents, seats)
        if got is None:
            continue
        _, found = positions(contents)
        judged = [p for p in found if p.judged][::every]
        examples: list[Example] = []
        decisions = []
        for k, p in enumerate(judged):
            rng = random.Random(f"fit:{seed}:{path.name}:{k}")
            base = knowledge_for(game)
            for key, value in settings.items():
                setattr(base, key, value)
            know = _Recording(base, p.played)
            decision = Decision(game.name, game, p.seat, p.view, p.legal, notation_of(game, p.view, p.legal), p.kind)
            search = Search(decision, know, rng, know.exploration)  # type: ignore[arg-type]
            if p.played not in search.candidates:
                search.candidates = tuple(search.candidates) + (p.played,)
            know.search = search
            spend(search, Budget(playouts=budget))
            if not know.seen:
                continue
            kept = know.seen if len(know.seen) <= keep else rng.sample(know.seen, keep)
            examples += [(features, got) for features, _ in kept]
            decisions.append((p.seat, got, [f for f, _ in know.seen], [v for _, v in know.seen]))
        per_log.append((path, examples, decisions))
        print(f"  {path.name}: {len(examples)} examples from {len(judged)} decisions", flush=True)
    return per_log


def report(name: str, weights, examples: list[Example]) -> None:
    loss, brier = losses(weights, examples)
    share = sum(sum((1 / len(ys) - y) ** 2 for y in ys) for _, ys in examples) / sum(len(ys) for _, ys in examples)
    print(f"  {name}: log loss {loss:.4f}, Brier per seat {brier:.4f} (always the seat's share: {share:.4f}; "
          f"{100 * (1 - brier / share):.0f}% better)")


def decision_rows(weights, decisions) -> list[Said]:
    """The mover's chance averaged over the search's cut-off positions (by `weights`, or
    the knowledge's own evaluation for None), and what it got."""
    out = []
    for game, (seat, got, features, before) in decisions:
        if weights is None:
            said = sum(v[seat] for v in before) / len(before)
        else:
            said = sum(chances(scores_of(weights, f))[seat] for f in features) / len(features)
        out.append(Said(said, got[seat], 1 / len(got), game))
    return out


def write(game_name: str, names: tuple[str, ...], weights, provenance: list[str]) -> Path:
    target = ROOT / "client" / "games" / game_name / "fitted.py"
    lines = [f'"""{game_name}: the fitted evaluation\'s weights (client/bots/knowledge/fitted.py), written by',
             "bench/fit_evaluation.py; do not edit by hand: fit again.", ""]
    lines += provenance
    lines += ['"""', "", f"FEATURES = {names!r}", "WEIGHTS = ("]
    lines += [f"    {w!r},  # {n}" for n, w in zip(names, weights)]
    lines += [")", ""]
    target.write_text("\n".join(lines))
    return target


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--logs", action="append", required=True, help="a folder of self-play logs (repeatable)")
    ap.add_argument("--budget", type=int, default=100, help="playouts per decision searched (default 100)")
    ap.add_argument("--every", type=int, default=3, help="search every N-th judged decision of a log (default 3)")
    ap.add_argument("--keep", type=int, default=6, help="cut-off positions kept per decision (default 6)")
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--write", action="store_true", help="write client/games/GAME/fitted.py")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a knowledge setting for this fit's searches, e.g. cutoff=20 (repeatable; to try one)")
    args = ap.parse_args()
    game = engines.get(args.game)
    names = knowledge_for(game).FEATURES
    paths = sorted(p for folder in args.logs for p in Path(folder).glob("*.pblog"))
    started = time.process_time()
    print(f"{args.game}: {len(paths)} logs, budget {args.budget}, every {args.every}th decision, features {names}")
    settings = {}
    for item in args.set:
        key, _, value = item.partition("=")
        settings[key] = None if value == "None" else int(value) if value.lstrip("-").isdigit() else value
    if settings:
        print(f"knowledge settings: {settings}")
    per_log = gather(game, paths, args.budget, args.every, args.keep, args.seed, settings)
    everything = [e for _, examples, _ in per_log for e in examples]
    if not everything:
        print("no example gathered", file=sys.stderr)
        return 1
    train = [x for i, x in enumerate(per_log) if i % 3 != 2]
    test = [x for i, x in enumerate(per_log) if i % 3 == 2]
    fitted = fit([e for _, ex, _ in train for e in ex], len(names))
    print(f"fitted on {sum(len(ex) for _, ex, _ in train)} examples of {len(train)} games "
          f"({fitted.iterations} Newton steps): weights {[round(w, 3) for w in fitted.weights]}")
    for part, logs in (("fit", train), ("test", test)):
        examples = [e for _, ex, _ in logs for e in ex]
        decisions = [(i, d) for i, (_, _, ds) in enumerate(logs) for d in ds]
        if not examples:
            continue
        report(f"{part} positions, fitted", fitted.weights, examples)
        for label, weights in (("before (the knowledge's own)", None), ("fitted", fitted.weights)):
            rows = decision_rows(weights, decisions)
            b, base = brier(rows), share_brier(rows)
            print(f"  {part} decisions, {label}: the mover's mean estimate, Brier {b:.4f} (the seat's share: "
                  f"{base:.4f}: {100 * (1 - b / base):.0f}% better) over {len(rows)} decisions")
            if part == "test":
                print("\n".join(table(rows)))
    final = fit(everything, len(names))
    print(f"fitted on all {len(everything)} examples: weights {[round(w, 4) for w in final.weights]}; "
          f"{time.process_time() - started:.0f} s of CPU")
    if args.write:
        provenance = [f"Fitted to {len(everything)} cut-off positions of the searches at {sum(len(d) for *_, d in per_log)}",
                      f"decisions (budget {args.budget}, every {args.every}th judged decision) of {len(per_log)} self-play",
                      f"games ({', '.join(sorted({str(Path(f).name) for f in args.logs}))}); log loss {final.log_loss:.4f},",
                      f"Brier per seat {final.brier:.4f} on them."]
        print(f"wrote {write(args.game, names, final.weights, provenance)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
