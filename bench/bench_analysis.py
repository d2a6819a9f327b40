"""How far `peerboard analyse` can be trusted, and what it costs (issue 40), this tree and
another code side by side in one run.

    python bench/bench_analysis.py --against main                      # every game, the default sizes
    python bench/bench_analysis.py --only aton:2 --games 12 --budget 300 --against main
    python bench/bench_analysis.py --logs athos:2=games/athos-2p       # logs played before
    python bench/bench_analysis.py --games 24 --no-decide --jobs 2     # two game and seat counts at once
    python bench/bench_analysis.py --games 48 --only aton:2=96 athos:2  # 96 games of Aton, 48 of Athos

Per game and seat count: `--games` games (`GAME:SEATS=N` in `--only`: N) between MCTS players (`mcts@100` at every seat,
this tree's, seeds of their own: games the evaluation was not fitted to), or the logs of
`--logs`; then each code analyses them (its own `peerboard analyse`, a child process,
`--jobs 1`, the same budget and seed) and this bench reads the analysis files:

* **the chance**: the mover's chance before each judged move as printed (`before[seat]`,
  calibrated: client/analysis/calibrate.py, fitted to games of seeds
  `calibration-fit:...`, never these) against what it got at the end, and the search's own
  (`search_before[seat]`, before the calibration) beside it: the Brier score, how much better it is than always saying the seat's
  share (with a 95 % interval, the games drawn again), and the calibration table (said ->
  happened by tenths; a bin's 95 % interval counts games, for a game's decisions share one
  outcome: the games drawn again, never narrower than Wilson's over its decisions, and where
  every decision of the bin went the same way, Wilson's at its effective number of games:
  bench/calibration.py); the goal is 20 % better and every bin within
  0.10 of its interval (how far the bins lie outside the games' bootstrap alone and outside
  the decisions' Wilson intervals is printed too). Also, at `--to-end` judged decisions, the chance as a search of
  the same budget puts it when its playouts run to the end of the game (no estimate, the
  playout policy's moves to the end, at most 400 actions) — the mean distance between the two;
* **the marks**: every move either code marks (mistake or blunder), and `--sample`
  judged moves drawn at random, are judged again by a search `--deep` times stronger
  (this tree's judging search, its own seed, the moves the analyses preferred among its
  root actions, the played and its preferred action topped up to at least 150 playouts
  each, its chances through the same calibration as the marks are judged): a mark is confirmed when that search puts the played move at least the mistake
  threshold below its best; of the drawn moves a code did not mark,
  the clear mistakes it missed are those the strong search is 97.5 % sure of;
* **the cost**: each code's CPU seconds per judged move (the analysing child's own CPU
  time), beside the CPU seconds per decision of that code's mcts player deciding the same
  positions at the same budget (another child); the goal is at most 1.5x (`--no-decide`
  leaves that child out, for a run about the chances and marks).

How loaded the machine was is printed (the load average before and after); the figures
are CPU time and ratios. Exits 1 when it measured nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import against  # (bench/against.py)
import calibration  # (bench/calibration.py)
from calibration import Said

BUDGET = 300
CONFIGS = ("aton:2", "athos:2", "athos:3", "asterix:2", "asterix:4")
MISTAKE = 0.10
Z = 1.96


# -- children: each runs with one code's `peerboard` -----------------------------------------------

def child_decide(folder: str, budget: int) -> None:
    """The mcts player deciding every judged position of the logs in `folder` (its own
    code's positions: judged where it has the word, else not forced): CPU per decision."""
    from peerboard.client.analysis.positions import positions
    from peerboard.client.bots.mcts import MctsBot
    from peerboard.client.bots.sdk import Budget, Decision, notation_of
    from peerboard.logs import read_log

    cpu = 0.0
    decisions = 0
    for path in sorted(Path(folder).glob("*.pblog")):
        game, found = positions(read_log(path.read_bytes()))
        bot = MctsBot(seed=path.name, budget=Budget(playouts=budget))
        for p in found:
            if not getattr(p, "judged", not p.forced):
                continue
            decision = Decision(game.name, game, p.seat, p.view, p.legal, notation_of(game, p.view, p.legal), p.kind)
            started = time.process_time()
            bot.decide(decision)
            cpu += time.process_time() - started
            decisions += 1
    print(json.dumps({"cpu": cpu, "decisions": decisions}))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_analyse(folder: Path, budget: int, code) -> float:
    """`peerboard analyse` of every log in `folder` by the code at `code`: its CPU seconds."""
    files = sorted(str(p) for p in folder.glob("*.pblog"))
    before = _children_cpu()
    out = subprocess.run([sys.executable, "-c", "import sys; from peerboard.client.cli import main; sys.exit(main())",
                          "analyse", *files, "--budget", str(budget), "--seed", "0", "--jobs", "1"],
                         env=against.env(code), capture_output=True, text=True, timeout=24 * 3600)
    if out.returncode != 0:
        raise SystemExit(f"analyse failed ({code or 'this tree'}):\n{out.stderr[-2000:]}")
    return _children_cpu() - before


def run_decide(folder: Path, budget: int, code) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child-decide", str(folder), "--budget", str(budget)],
                         env=against.env(code), capture_output=True, text=True, timeout=24 * 3600)
    if out.returncode != 0:
        raise SystemExit(f"the decisions child failed ({code or 'this tree'}):\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- the games ---------------------------------------------------------------------------------------

def play(game_name: str, seats: int, games: int, seed: int, folder: Path) -> None:
    """`games` games between this tree's mcts players (100 playouts a decision), as logs."""
    from peerboard import engines
    from peerboard.client.bots.mcts import MctsBot
    from peerboard.client.bots.sdk import Budget
    from peerboard.client.bots.table import play_game
    from peerboard.client.selfplay import write_log

    game = engines.get(game_name)
    for n in range(games):
        tag = f"bench-analysis:{seed}:{game_name}:{seats}:{n}"
        bots = [MctsBot(seed=f"{tag}:{s}", budget=Budget(playouts=100)) for s in range(seats)]
        played = play_game(game, {}, bots, [f"mcts{s}" for s in range(seats)], random.Random(tag))
        write_log(folder / f"{game_name}-{seats}p-{n:03d}.pblog", played.genesis, played.entries)


# -- the referee ---------------------------------------------------------------------------------------

def referee(game, position, budget: int, deep: int, seed: int, also: tuple = ()) -> tuple[float, float]:
    """(the drop of the played move below the best, its standard error) by a search `deep`
    times the budget, the played and the preferred action topped up to at least 150 each;
    as the marks are judged, on the printed chance's scale where the game has a calibration.
    `also`: the actions the analyses preferred, searched too (a game whose search looks at
    a few root actions only, Asterix's three, could otherwise leave out the very move a
    mark says was better, and find the played one best among the rest)."""
    from peerboard.client.analysis.calibrate import calibration_for, printed, situation
    from peerboard.client.analysis.command import rng_for
    from peerboard.client.analysis.judge import search_position
    from peerboard.client.bots.knowledge import knowledge_for
    from peerboard.client.bots.sdk import Budget

    search, best, n = search_position(game, position, Budget(playouts=deep * budget), rng_for(seed, position), also=also)
    least = max(150, n // 10)
    search.focus(position.played, least)
    search.focus(best, least)
    if best == position.played:
        return 0.0, 0.0
    drop, error = search.difference(best, position.played)
    # on the scale the marks are judged on: the printed chance (client/analysis/calibrate.py)
    cal = calibration_for(game.name, search.seats)
    if cal is None:
        return drop, error
    s = situation(game, knowledge_for(game), position.view, search.tallies[best].mean(), position.seat, position.seq,
                  cal.features)
    before, after, error = printed(cal, s, search.tallies[position.played].mean(), error)
    return before[position.seat] - after[position.seat], error


#: how many actions a playout "to the end" may take: a playout policy can stand still (Athos's
#: race, its monks each before a blocking tile, waits for ever), so one still going after these
#: is scored by the estimate where it stopped, as a cut-off playout is
TO_THE_END = 400


def to_the_end(game, position, budget: int, seed: int) -> float:
    """The mover's chance by the preferred action as a search of `budget` playouts puts it
    when its playouts run to the end of the game (the playout policy's moves, no estimate;
    at most TO_THE_END actions)."""
    from peerboard.client.analysis.command import rng_for
    from peerboard.client.analysis.judge import JudgingSearch
    from peerboard.client.bots.knowledge import knowledge_for
    from peerboard.client.bots.mcts import spend
    from peerboard.client.bots.sdk import Budget, Decision, notation_of

    know = knowledge_for(game)
    know.cutoff, know.playout_turns, know.others_plan, know.finish_turn = TO_THE_END, None, False, "policy"
    decision = Decision(game.name, game, position.seat, position.view, position.legal,
                        notation_of(game, position.view, position.legal), position.kind)
    search = JudgingSearch(decision, know, rng_for(seed, position), position.played, len(game.scores(position.view)))
    spend(search, Budget(playouts=budget))
    return search.tallies[search.best()].mean()[position.seat]


# -- one game and seat count ---------------------------------------------------------------------------

def measure(config: str, args, codes: list[tuple[str, object]], work: Path) -> bool:
    from peerboard import engines
    from peerboard.client.analysis.positions import positions
    from peerboard.client.bots.stats import wilson
    from peerboard.logs import read_log

    config, _, count = config.partition("=")
    games = int(count) if count else args.games
    game_name, _, seats_text = config.partition(":")
    seats = int(seats_text or 2)
    game = engines.get(game_name)
    source = work / f"{game_name}-{seats}p"
    source.mkdir()
    given = dict(item.split("=", 1) for item in args.logs)
    if config in given:
        for path in sorted(Path(given[config]).glob("*.pblog"))[:games]:
            shutil.copy(path, source / path.name)
    else:
        started = time.process_time()
        play(game_name, seats, games, args.seed, source)
        print(f"  {games} games of mcts@100 at {seats} seats played ({time.process_time() - started:.0f} s CPU)",
              flush=True)
    logs = sorted(source.glob("*.pblog"))
    contents = {p.name: read_log(p.read_bytes()) for p in logs}
    got = {name: calibration.shares(c, seats) for name, c in contents.items()}
    walked = {name: positions(c)[1] for name, c in contents.items()}
    if not logs:
        print(f"  {config}: no logs")
        return False
    found: dict[str, dict] = {}
    for label, code in codes:
        folder = work / f"{label}-{game_name}-{seats}p"
        shutil.copytree(source, folder)
        cpu = run_analyse(folder, args.budget, code)
        decided = None if args.no_decide else run_decide(source, args.budget, code)
        docs = {p.name: json.loads((folder / (p.stem + ".analysis.json")).read_text()) for p in logs}
        moves = [(name, m) for name, doc in docs.items() for m in doc["moves"]]
        found[label] = {"cpu": cpu, "decide": decided, "docs": docs, "moves": moves}
    rng = random.Random(f"{args.seed}:{config}")
    judged = [(name, p) for name, ps in walked.items() for p in ps if p.judged]
    drawn = rng.sample(judged, min(args.sample, len(judged)))
    by_key = {(name, p.seq, p.index): p for name, p in judged}
    for label, code in codes:
        f = found[label]
        rows = [Said(m["before"][m["seat"]], got[name][m["seat"]], 1 / seats, i)
                for i, name in enumerate(sorted(f["docs"])) for m in f["docs"][name]["moves"] if got[name]]
        f["rows"] = rows
        f["raw"] = [Said(m["search_before"][m["seat"]], got[name][m["seat"]], 1 / seats, i)
                    for i, name in enumerate(sorted(f["docs"])) for m in f["docs"][name]["moves"]
                    if got[name] and m.get("search_before")]
        f["marked"] = {(name, m["seq"], m["index"]) for name, m in f["moves"] if m["mark"] in ("mistake", "blunder")}
        f["said"] = {(name, m["seq"], m["index"]): m["before"][m["seat"]] for name, m in f["moves"]}
        f["preferred"] = {(name, m["seq"], m["index"]): m["preferred"] for name, m in f["moves"]}
    # the referee: every marked move of either code, and the drawn ones
    verdicts: dict[tuple, tuple[float, float]] = {}
    wanted = set().union(*(found[label]["marked"] for label, _ in codes)) | {(n, p.seq, p.index) for n, p in drawn}
    started = time.process_time()
    for key in sorted(wanted):
        p = by_key.get(key)
        if p is not None:
            preferred = {f["preferred"][key] for f in found.values() if key in f["preferred"]}
            also = tuple(a for a in p.legal if game.format_action(p.view, a) in preferred)
            verdicts[key] = referee(game, p, args.budget, args.deep, 1000 + args.seed, also)
    referee_cpu = time.process_time() - started
    # the chance by playouts to the end, at a few drawn decisions
    ends = {}
    started = time.process_time()
    for name, p in drawn[: args.to_end]:
        ends[(name, p.seq, p.index)] = to_the_end(game, p, args.budget, 2000 + args.seed)
    end_cpu = time.process_time() - started
    print(f"  {len(logs)} games, {len(judged)} judged decisions (this tree's count); the strong search judged "
          f"{len(verdicts)} moves ({referee_cpu:.0f} s CPU), playouts to the end at {len(ends)} ({end_cpu:.0f} s CPU)")
    for label, code in codes:
        f = found[label]
        rows = f["rows"]
        if not rows:
            continue
        b, base = calibration.brier(rows), calibration.share_brier(rows)
        lo, hi = calibration.bootstrap(rows)
        per_move = f["cpu"] / max(1, len(f["moves"]))
        marked = sorted(f["marked"] & verdicts.keys())
        confirmed = sum(verdicts[k][0] >= MISTAKE for k in marked)
        clo, chi = wilson(confirmed, len(marked))
        unmarked = [(n, p) for n, p in drawn if (n, p.seq, p.index) not in f["marked"]]
        clear = sum(verdicts[(n, p.seq, p.index)][0] - Z * verdicts[(n, p.seq, p.index)][1] >= MISTAKE
                    for n, p in unmarked)
        mlo, mhi = wilson(clear, len(unmarked))
        distance = [abs(f["said"][k] - v) for k, v in ends.items() if k in f["said"]]
        drops = [verdicts[k][0] for k in marked]
        print(f"  {label}:")
        print(f"    the chance before each move: Brier {b:.4f} against the share's {base:.4f}: "
              f"{100 * (1 - b / base):.0f}% better [{100 * lo:.0f}%, {100 * hi:.0f}%] over {len(rows)} moves "
              f"(goal 20%); the farthest bin {calibration.worst_off(rows, by_games=True):.2f} outside its interval "
              f"(its games'; goal 0.10), {calibration.worst_off(rows, by_games=True, kish=False):.2f} outside the games' "
              f"bootstrap alone, {calibration.worst_off(rows):.2f} outside the decisions' Wilson interval")
        print("\n".join(calibration.table(rows, "      ", by_games=True)))
        if f["raw"]:
            raw, rlo, rhi = calibration.brier(f["raw"]), *calibration.bootstrap(f["raw"])
            print(f"    the search's own chance (before the calibration): Brier {raw:.4f}: "
                  f"{100 * (1 - raw / calibration.share_brier(f['raw'])):.0f}% better than the share "
                  f"[{100 * rlo:.0f}%, {100 * rhi:.0f}%]; the farthest bin {calibration.worst_off(f['raw'], by_games=True):.2f}")
        if distance:
            print(f"    against playouts to the end ({len(distance)} decisions): off by {statistics.mean(distance):.2f} "
                  f"on average")
        print(f"    marks confirmed by the {args.deep}x search: {confirmed}/{len(marked)} [{100 * clo:.0f}%, {100 * chi:.0f}%]"
              + (f", its drop for them: median {statistics.median(drops):.3f}" if drops else "")
              + f"; of {len(unmarked)} drawn moves not marked, clear mistakes missed: {clear} [{100 * mlo:.0f}%, {100 * mhi:.0f}%]")
        if args.verbose:
            for k in marked:
                m = next(m for n, m in f["moves"] if (n, m["seq"], m["index"]) == k)
                print(f"      {k[0]} seq {k[1]}.{k[2]}: {m['mark']} drop {m['drop']:.3f} ±{Z * m.get('error', 0):.3f} "
                      f"({m['played_playouts']} / {m['preferred_playouts']} playouts) -> strong search "
                      f"{verdicts[k][0]:.3f} ±{Z * verdicts[k][1]:.3f}")
        if f["decide"] is None:
            print(f"    CPU per judged move {per_move:.2f} s ({len(f['moves'])} moves); the mcts player's decisions "
                  f"not measured (--no-decide)")
            continue
        per_decision = f["decide"]["cpu"] / max(1, f["decide"]["decisions"])
        print(f"    CPU per judged move {per_move:.2f} s ({len(f['moves'])} moves); the mcts player's decision at the same "
              f"budget {per_decision:.2f} s: ratio {per_move / per_decision:.2f} (goal 1.5)")
    return True


def in_parallel(args: argparse.Namespace) -> int:
    """Each of --only measured by a run of this bench of its own (the same arguments), --jobs
    at a time; their outputs printed whole, in the order of --only."""
    rest: list[str] = []
    skip = False
    for a in sys.argv[1:]:  # the arguments without --only's and --jobs' values
        if skip and not a.startswith("--"):
            continue
        skip = a in ("--only", "--jobs")
        if not skip and not a.startswith(("--only=", "--jobs=")):
            rest.append(a)

    def one(config: str) -> tuple[int, str]:
        done = subprocess.run([sys.executable, __file__, *rest, "--only", config],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return done.returncode, done.stdout

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:  # (the threads only wait on the processes)
        outputs = dict(zip(args.only, pool.map(one, args.only)))
    for config in args.only:
        print(outputs[config][1], end="", flush=True)
    return 1 if all(code for code, _ in outputs.values()) else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="*", default=list(CONFIGS),
                    help="GAME:SEATS, or GAME:SEATS=N for N games of that one instead of --games (default: "
                         + " ".join(CONFIGS) + ")")
    ap.add_argument("--games", type=int, default=12, help="games per game and seat count (default 12)")
    ap.add_argument("--logs", action="append", default=[], metavar="GAME:SEATS=DIR",
                    help="use the logs in DIR instead of playing (the first --games of them)")
    ap.add_argument("--budget", type=int, default=BUDGET, help=f"playouts per decision (default {BUDGET}, the analysis's)")
    ap.add_argument("--deep", type=int, default=10, help="the strong search's budget, in budgets (default 10)")
    ap.add_argument("--sample", type=int, default=24, help="judged moves drawn per game and seat count for the strong search")
    ap.add_argument("--to-end", type=int, default=8, help="of those, how many are searched with playouts to the end")
    ap.add_argument("--against", metavar="REV|DIR", help="also analyse with the code there (e.g. main)")
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--no-decide", action="store_true",
                    help="leave out the mcts player's decisions (the cost's baseline): the chances and marks only")
    ap.add_argument("--verbose", action="store_true", help="also each mark beside the strong search's drop")
    ap.add_argument("--jobs", type=int, default=1,
                    help="game and seat counts measured at once, each in a process of its own (default 1); the "
                         "figures are each process's own CPU time, printed in the order of --only")
    ap.add_argument("--child-decide", metavar="DIR", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_decide:
        child_decide(args.child_decide, args.budget)
        return 0
    if args.jobs > 1 and len(args.only) > 1:
        return in_parallel(args)
    measured = 0
    load = os.getloadavg()
    print(f"bench_analysis: budget {args.budget}, strong search {args.deep}x, seed {args.seed}; "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")
    with against.code(args.against) as other, tempfile.TemporaryDirectory(prefix="bench-analysis-") as tmp:
        codes = ([(f"against {against.describe(args.against)}", other)] if other is not None else []) + [("this tree", None)]
        for config in args.only:
            print(f"{config.partition('=')[0]}:", flush=True)
            measured += measure(config, args, codes, Path(tmp))
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    if not measured:
        print("measured nothing", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
