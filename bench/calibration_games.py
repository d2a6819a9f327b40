"""Gather what the printed chance of `peerboard analyse` is fitted to: self-play games between
MCTS players, and at their judged decisions what the analysis's search says, beside who won.

    python bench/calibration_games.py aton:2 athos:2 athos:3 asterix:2 asterix:4 --games 24 --every 3
    python bench/calibration_games.py athos:3 --games 48 --more     # the 24 games kept, 24 more

Per game and seat count, `--games` games between this tree's `mcts@100` players (seeds of
their own, `calibration-fit:SEED:GAME:SEATS:N`: never the games bench/bench_analysis.py
plays, whose seeds are `bench-analysis:...`), and at every `--every`-th judged decision of
each (every seat) the analysis's own search at `--budget` playouts with the analysis's
own generator (client/analysis/judge.py, `search_position` and `gather`, seeded as
`peerboard analyse --seed 0` seeds it): every seat's chance by the preferred and by the
played action as the search puts them (before any calibration), the position's numbers the
calibration may use (client/analysis/calibrate.py: the log entry, the seat, the game's
scores, the knowledge's features), and what each seat got at the end of the game.

One JSON object a line, into bench/data/calibration-GAME-Np.jsonl (a line per judged
decision searched, then a closing line per game with its length and result), so that
bench/fit_calibration.py fits again without searching anything.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import calibration  # (bench/calibration.py)

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def data_path(game_name: str, seats: int) -> Path:
    return DATA / f"calibration-{game_name}-{seats}p.jsonl"


def gather(game_name: str, seats: int, games: int, every: int, budget: int, seed: int, out, first: int = 0) -> None:
    from peerboard import engines
    from peerboard.client.analysis.command import rng_for
    from peerboard.client.analysis.judge import gather as more, search_position
    from peerboard.client.bots.knowledge import knowledge_for
    from peerboard.client.bots.mcts import MctsBot, collector_paused
    from peerboard.client.bots.sdk import Budget
    from peerboard.client.bots.table import play_game
    from peerboard.client.analysis.positions import positions
    from peerboard.client.selfplay import write_log
    from peerboard.logs import read_log
    import tempfile

    game = engines.get(game_name)
    know = knowledge_for(game)
    for n in range(first, games):
        started = time.process_time()
        tag = f"calibration-fit:{seed}:{game_name}:{seats}:{n}"
        bots = [MctsBot(seed=f"{tag}:{s}", budget=Budget(playouts=100)) for s in range(seats)]
        played = play_game(game, {}, bots, [f"mcts{s}" for s in range(seats)], random.Random(tag))
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "game.pblog"
            write_log(path, played.genesis, played.entries)
            contents = read_log(path.read_bytes())
        got = calibration.shares(contents, seats)
        if got is None:
            print(f"  {tag}: no result, left out", flush=True)
            continue
        _, found = positions(contents)
        judged = [p for p in found if p.judged]
        searched = 0
        for p in judged[n % every::every]:
            search, preferred, spent = search_position(game, p, Budget(playouts=budget), rng_for(0, p))
            with collector_paused():
                more(search, preferred, p.played, spent)
            try:
                features = know.features(p.view)
            except Exception:  # (a knowledge without features, or none for a view)
                features = None
            row = {"tag": tag, "seq": p.seq, "index": p.index, "seat": p.seat, "kind": p.kind,
                   "before": [round(v, 4) for v in search.tallies[preferred].mean()],
                   "after": [round(v, 4) for v in search.tallies[p.played].mean()],
                   "same": preferred == p.played,
                   "scores": list(game.scores(p.view)), "features": features, "got": got}
            out.write(json.dumps(row) + "\n")
            searched += 1
        out.write(json.dumps({"tag": tag, "end": True, "entries": len(contents.entries), "got": got,
                              "judged": len(judged)}) + "\n")
        out.flush()
        print(f"  {tag}: {len(contents.entries)} entries, {searched} of {len(judged)} judged decisions searched "
              f"({time.process_time() - started:.1f} s CPU)", flush=True)


def _kept(target: Path, head: dict) -> list[str]:
    """The lines of the games `target` holds, for --more: only of a run with the same seed,
    every and budget (else its games would not be these games' first ones), and only whole
    games (lines after the last game's closing line are of a game cut short: played again)."""
    if not target.exists():
        return []
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
    old = json.loads(lines[0])
    if any(old.get(k) != head[k] for k in ("every", "budget", "seed", "players", "config")):
        raise SystemExit(f"{target}: gathered with other settings ({lines[0].strip()}): --more cannot add to it")
    ends = [i for i, line in enumerate(lines) if json.loads(line).get("end")]
    return lines[1 : ends[-1] + 1] if ends else []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("configs", nargs="+", metavar="GAME:SEATS")
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--every", type=int, default=3, help="search every N-th judged decision (default 3)")
    ap.add_argument("--budget", type=int, default=300, help="the analysis's budget (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--more", action="store_true",
                    help="keep the games the file holds (of the same seed, every and budget) and add the rest up to --games")
    args = ap.parse_args()
    DATA.mkdir(exist_ok=True)
    for config in args.configs:
        name, _, seats = config.partition(":")
        target = data_path(name, int(seats or 2))
        started = time.process_time()
        head = {"games": args.games, "every": args.every, "budget": args.budget, "seed": args.seed,
                "players": "mcts@100", "config": config}
        kept = _kept(target, head) if args.more else []
        first = sum(1 for line in kept if json.loads(line).get("end"))
        print(f"{config}: games {first} to {args.games - 1}, every {args.every}th judged decision at {args.budget} "
              f"playouts -> {target.relative_to(HERE.parent)}", flush=True)
        with open(target, "w", encoding="utf-8") as out:
            out.write(json.dumps(head) + "\n")
            out.writelines(kept)
            gather(name, int(seats or 2), args.games, args.every, args.budget, args.seed, out, first)
        print(f"{config}: {time.process_time() - started:.0f} s CPU", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
