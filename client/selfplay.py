"""`peerboard selfplay`: a tournament of bots, in this process or many, with a progress
bar, a results table and (with --save) every game's signed log."""
from __future__ import annotations

import argparse
import os
import random
import shlex
import sys
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, TextIO

from peerboard.client import colour
from peerboard.client.bots import tournament
from peerboard.client.bots.guard import ON_ERROR
from peerboard.client.bots.players import RandomBot
from peerboard.client.bots.sdk import BotError, Budget
from peerboard.client.bots.table import play_game
from peerboard.client.exitcode import ExitCode
from peerboard.client.usage import UsageError, game_named, options_from
from peerboard.engines import Game, OptionError
from peerboard.node.storage import LogFile


@dataclass
class GameRecord:
    winners: list[int]
    scores: list[int]
    moves: int  # actions taken by the seats (chance outcomes not counted)
    state: Any
    log_path: Path | None = None


def play_one(game: Game, players: int, options: Mapping[str, Any], rng: random.Random,
             save_to: Path | None) -> GameRecord:
    """One game between random players as a signed log, saved to `save_to` if given."""
    bots = [RandomBot(seed=rng.random()) for _ in range(players)]
    played = play_game(game, options, bots, [f"random-{i}" for i in range(players)], rng)
    if save_to is not None:
        write_log(save_to, played.genesis, played.entries)
    return GameRecord(list(played.winners), list(played.scores), played.moves, played.state, save_to)


def write_log(path: Path, genesis, entries) -> None:
    with LogFile.create(path, genesis) as f:
        f.append_many(entries)


def free_path(folder: Path, stem: str) -> Path:
    """folder/stem.pblog, or stem-2.pblog, -3 ... when that name is taken: never overwrite."""
    path = folder / f"{stem}.pblog"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.pblog"
        n += 1
    return path


def add_arguments(p: argparse.ArgumentParser, game_names: list[str]) -> None:
    p.add_argument("game", help="one of: " + ", ".join(game_names))
    p.add_argument("--players", metavar="LIST|N",
                   help="one player per seat, comma-separated: random, greedy, mcts, openspiel:mcts, openspiel:is_mcts "
                        "(the research extra), module.path:Class or exec, "
                        "each optionally @BUDGET (mcts@0.5s); or a number of random players "
                        "(default: the game's minimum, random)")
    p.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="games played at once, in as many processes (default 1)")
    p.add_argument("--budget", metavar="B", help="search per decision: playouts (2000) or seconds (0.5s)")
    p.add_argument("--time", type=float, metavar="SECONDS",
                   help="the time each decision has: an exec program that takes longer is dismissed (default 10)")
    p.add_argument("--exec", action="append", default=[], metavar="CMD", dest="commands",
                   help="a program speaking spec/bot-protocol.md; plays for each `exec` in --players (repeatable)")
    p.add_argument("--on-error", choices=ON_ERROR, default="random",
                   help="a bot that fails: its seat plays random moves (default) or forfeits the game")
    p.add_argument("--seed", type=int, help="seed for the players and chance (default: random, printed)")
    p.add_argument("--max-moves", type=int, default=tournament.DEFAULT_MAX_MOVES, metavar="N",
                   help="a game still going after N moves stops unfinished, a draw nobody won "
                        f"(default {tournament.DEFAULT_MAX_MOVES}; 0: no limit)")
    p.add_argument("--save", metavar="DIR", help="write one signed log per game into DIR, and DIR/selfplay.log")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="play on a Dask distributed cluster (needs the `cluster` extra)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")


def executor_for(args: argparse.Namespace) -> Executor:
    if args.scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise UsageError("--scheduler needs Dask: pip install 'peerboard[cluster]'") from None
        try:
            client = Client(args.scheduler, timeout=10)
        except (OSError, TimeoutError, ValueError) as exc:
            raise UsageError(f"--scheduler {args.scheduler}: cannot reach it ({exc})") from None
        return client.get_executor()
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    return tournament.InProcess() if args.jobs == 1 else ProcessPoolExecutor(max_workers=args.jobs)


def command(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    # (the streams of the moment, not of the import: a caller may have redirected them since)
    out, err = out or sys.stdout, err or sys.stderr
    game = game_named(args.game)
    options = options_from(args.option, game)
    try:
        budget = Budget.parse(args.budget) if args.budget else None
        players = tournament.parse_players(args.players, game.min_players, args.commands, budget)
    except (BotError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    for cmd in args.commands:
        if not shlex.split(cmd):
            raise UsageError("--exec needs a command")
    try:
        options = game.resolve_options(len(players), options)
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.time is not None and args.time <= 0:
        raise UsageError("--time must be more than 0 seconds")
    if args.max_moves < 0:
        raise UsageError("--max-moves must be 0 (no limit) or more")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    save_dir = Path(args.save) if args.save else None
    if save_dir is not None:
        if save_dir.exists() and not save_dir.is_dir():
            raise UsageError(f"--save {args.save}: not a directory")
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
            (save_dir / "selfplay.log").open("a").close()
        except OSError as exc:
            raise UsageError(f"--save {args.save}: cannot write there ({exc.strerror})") from None
    seats = len(players)
    if args.games % seats and len({p.kind for p in players}) > 1:
        print(f"note: {args.games} games over {seats} seats: every player gets every seat equally often "
              f"only when the number of games is a multiple of {seats}", file=err)
    matches = tournament.schedule(game.name, options, players, args.games, seed, args.time, args.on_error,
                                  args.max_moves or None)
    journal = (save_dir / "selfplay.log").open("a") if save_dir is not None else None
    paths: dict[int, Path] = {}

    def done(outcome: tournament.Outcome) -> None:
        for line in outcome.faults:
            print(f"game {outcome.index + 1}: {line}", file=err, flush=True)
        if not outcome.finished:
            print(f"game {outcome.index + 1}: stopped unfinished after {outcome.moves} moves (--max-moves)",
                  file=err, flush=True)
        if save_dir is None:
            return
        path = free_path(save_dir, f"{game.name}-seed{seed}-game{outcome.index + 1}")
        write_log(path, outcome.genesis, outcome.entries)
        paths[outcome.index] = path
        who = ", ".join(f"{s}:{players[p].label}" for s, p in enumerate(outcome.seating))
        won = outcome.result_words()
        journal.write(f"game {outcome.index + 1} {path.name}: seats {who}; won by {won}; scores "
                      f"{'-'.join(map(str, outcome.scores))}; {outcome.moves} moves\n")
        for line in outcome.faults:
            journal.write(f"game {outcome.index + 1}: {line}\n")
        journal.flush()

    executor = executor_for(args)
    try:
        outcomes = tournament.run(matches, executor, done, label=f"{game.title} selfplay")
    finally:
        executor.shutdown(wait=True)
        if journal is not None:
            journal.close()
    results = tournament.results_of(players, seats, outcomes)
    if args.games == 1:
        print(colour.board(game, outcomes[0].state, None, out), file=out)
        print(file=out)
    print(f"{game.title}: {args.games} game(s), {seats} players, seed {seed}", file=out)
    print(results.table(), file=out)
    failed = results.failed_players()
    if save_dir is not None:
        first = paths[0]
        where = first if args.games == 1 else f"{save_dir}/ ({args.games} files, journal {save_dir / 'selfplay.log'})"
        print(f"log: {where}", file=out)
        print(f"check it: peerboard replay {first} --verify", file=out)
    if failed:
        print(f"{', '.join(s.player.label for s in failed)}: never chose a move in any game (see the lines above); "
              f"the results are not its own", file=err)
        return ExitCode.PLAYER_FAILED
    return 0
