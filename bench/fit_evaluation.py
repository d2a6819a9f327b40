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

The logs are split by game into three folds, each tested with the weights fitted to the
other two; printed, over the decisions of all three as tested: the Brier score (against
always saying a seat's share) and the calibration table (said -> happened by tenths,
with 95 % Wilson intervals) of the mover's mean estimate over the search's playouts
through the move played, by the knowledge's evaluation before, by the fitted weights, and
by them tempered (`tempered`). Then the weights are fitted to all the logs, tempered, and,
with `--write`, written. Exits 1 when no example was gathered.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from peerboard import engines
from peerboard.client.analysis.positions import positions
from peerboard.client.analysis.judge import JudgingSearch, search_position
from peerboard.client.bots.knowledge import knowledge_for
from peerboard.client.bots.knowledge.fitted import Example, chances, fit, scores_of
from peerboard.client.bots.sdk import Budget
from peerboard.logs import read_log

from calibration import Said, brier, share_brier, shares, table  # (bench/calibration.py)

ROOT = Path(__file__).resolve().parent.parent


class _Recording(JudgingSearch):
    """The analysis's search of a decision, keeping the positions its playouts through the
    played action ended at: the features of those cut off (a finished game's result is kept
    too, without features: the search's mean holds it), and every seat's result. Only the
    played action's: the game went on from that one, so what happened is its outcome, not
    a hypothetical move's."""

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.played = args[3]
        self.seen: list[tuple[list[list[float]] | None, list[float]]] = []

    def observe(self, action: Any, state: Any, rewards: list[float]) -> None:
        if action == self.played:
            live = not self.game.is_terminal(state)
            self.seen.append((self.scoring.features(state) if live else None, list(rewards)))


@contextmanager
def _settings(game, settings: dict) -> Iterator[None]:
    """The game's knowledge class with `settings` for a while (--set, to try one)."""
    cls = type(knowledge_for(game))
    kept = {key: cls.__dict__[key] for key in settings if key in cls.__dict__}
    for key, value in settings.items():
        setattr(cls, key, value)
    try:
        yield
    finally:
        for key in settings:
            if key in kept:
                setattr(cls, key, kept[key])
            else:
                delattr(cls, key)


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
            with _settings(game, settings):
                search, _, _ = search_position(game, p, Budget(playouts=budget), rng, _Recording)
            seen = search.seen  # type: ignore[attr-defined]
            if not seen:
                continue
            live = [row for row in seen if row[0] is not None]
            kept = live if len(live) <= keep else rng.sample(live, keep)
            examples += [(features, got) for features, _ in kept]
            decisions.append((p.seat, got, [f for f, _ in seen], [v for _, v in seen]))
        per_log.append((path, examples, decisions))
        print(f"  {path.name}: {len(examples)} examples from {len(judged)} decisions", flush=True)
    return per_log


def decision_rows(weights, decisions) -> list[Said]:
    """The mover's chance averaged over the search's cut-off positions (by `weights`, or
    the knowledge's own evaluation for None), and what it got."""
    out = []
    for game, (seat, got, features, before) in decisions:
        if weights is None:
            said = sum(v[seat] for v in before) / len(before)
        else:
            said = sum(v[seat] if f is None else chances(scores_of(weights, f))[seat]
                       for f, v in zip(features, before)) / len(features)
        out.append(Said(said, got[seat], 1 / len(got), game))
    return out


def tempered(weights, decisions) -> tuple[tuple[float, ...], float]:
    """`weights` times the factor that makes the decisions' mean estimates (what the search
    averages over its playouts, as the analysis prints it) fit what happened best (the
    least log loss, a golden-section search over 0.25 to 6): a playout's cut-off position
    is a noisy copy of where the game would be, so weights fitted to cut-off positions say
    less than they know once averaged over many of them. (the weights, the factor)"""
    import math

    def loss(factor: float) -> float:
        w = [factor * x for x in weights]
        total = 0.0
        for _, (seat, got, features, before) in decisions:
            said = sum(v[seat] if f is None else chances(scores_of(w, f))[seat]
                       for f, v in zip(features, before)) / len(features)
            total -= got[seat] * math.log(max(said, 1e-9)) + (1 - got[seat]) * math.log(max(1 - said, 1e-9))
        return total

    low, high = 0.25, 6.0
    ratio = (5 ** 0.5 - 1) / 2
    for _ in range(40):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if loss(a) <= loss(b):
            high = b
        else:
            low = a
    factor = (low + high) / 2
    return tuple(factor * x for x in weights), factor


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
    # three folds by game: each third tested with weights fitted to the other two
    out_of_fold: dict[str, list[Said]] = {"before (the knowledge's own)": [], "fitted": [], "fitted and tempered": []}
    for fold in range(3):
        train = [x for i, x in enumerate(per_log) if i % 3 != fold]
        test = [(i, d) for i, (_, _, ds) in enumerate(per_log) if i % 3 == fold for d in ds]
        if not test:
            continue
        fitted = fit([e for _, ex, _ in train for e in ex], len(names))
        weights, factor = tempered(fitted.weights, [(i, d) for i, (_, _, ds) in enumerate(train) for d in ds])
        print(f"  fold {fold}: weights {[round(w, 3) for w in fitted.weights]}, tempered by {factor:.2f}")
        for label, w in zip(out_of_fold, (None, fitted.weights, weights)):
            out_of_fold[label] += decision_rows(w, test)
    for label, rows in out_of_fold.items():
        b, base = brier(rows), share_brier(rows)
        print(f"  out of fold, {label}: the mover's mean estimate over the playouts through the move played, "
              f"Brier {b:.4f} (the seat's share: {base:.4f}: {100 * (1 - b / base):.0f}% better) over {len(rows)} "
              f"decisions")
        print("\n".join(table(rows)))
    final = fit(everything, len(names))
    shipped, factor = tempered(final.weights, [(i, d) for i, (_, _, ds) in enumerate(per_log) for d in ds])
    print(f"fitted on all {len(everything)} examples: weights {[round(w, 4) for w in final.weights]}, tempered by "
          f"{factor:.2f}: {[round(w, 4) for w in shipped]}; {time.process_time() - started:.0f} s of CPU")
    if args.write:
        provenance = [f"Fitted to {len(everything)} cut-off positions of the searches at {sum(len(d) for *_, d in per_log)}",
                      f"decisions (budget {args.budget}, every {args.every}th judged decision) of {len(per_log)} self-play",
                      f"games ({', '.join(sorted({str(Path(f).name) for f in args.logs}))}); log loss {final.log_loss:.4f},",
                      f"Brier per seat {final.brier:.4f} on them."]
        provenance.append(f"Then tempered by {factor:.3f} (the factor that fits the decisions' mean estimates best).")
        print(f"wrote {write(args.game, names, shipped, provenance)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
