"""`peerboard analyse FILE...`: every move of each log judged, a report on stdout and an
analysis file beside each log.

The decisions of all the logs are shared out one at a time to the executor (`--jobs`
processes, or a Dask cluster with `--scheduler`, as `selfplay` does); each is searched
with a generator seeded by the seed and the decision's place in the log, so the analysis is the same however the work is shared out and in whatever order it
comes back.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import sys
import threading
import time
from concurrent.futures import Future, as_completed
from pathlib import Path
from typing import Callable, TextIO

from peerboard.client.analysis import document
from peerboard.client.analysis.judge import DEFAULT_BUDGET, Judgement, judge
from peerboard.client.analysis.positions import Position, Unjudgeable, positions
from peerboard.client.bots import tournament
from peerboard.client.bots.sdk import Budget
from peerboard.client.exitcode import ExitCode
from peerboard.client.progress import Progress
from peerboard.client.usage import UsageError
from peerboard.engines import Game
from peerboard.protocol.log import LogContents, read_log, verify_log


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="+", help="a .pblog file (any number)")
    p.add_argument("--budget", metavar="B",
                   help=f"search per decision: playouts (2000, reproducible) or seconds (0.5s); default {DEFAULT_BUDGET}")
    p.add_argument("--seed", type=int, default=0, help="seed of the searches (default 0: the same analysis every run)")
    p.add_argument("--jobs", type=int, default=1, help="decisions searched at once, in as many processes (default 1)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="search on a Dask distributed cluster (needs the `cluster` extra)")


def rng_for(seed: int, position: Position) -> random.Random:
    """The search's generator for one decision: by the seed and the decision's place in
    the log, never by the state (which holds cards the seat did not see)."""
    return random.Random(f"peerboard-analyse:{seed}:{position.seq}:{position.index}")


_walked: tuple[bytes, Game, list[Position]] | None = None


def _positions_of(data: bytes) -> tuple[Game, list[Position]]:
    """The decisions of a log, walked once per process (the last log walked is kept)."""
    global _walked
    digest = hashlib.sha256(data).digest()
    if _walked is None or _walked[0] != digest:
        game, found = positions(read_log(data))
        _walked = (digest, game, found)
    return _walked[1], _walked[2]


def judge_in_log(data: bytes, number: int, budget: Budget, seed: int) -> Judgement | None:
    """The judgement of decision `number` of the log `data` (a task for an executor:
    its arguments are bytes and numbers, which any process or cluster can take)."""
    game, found = _positions_of(data)
    return judge(game, found[number], budget, rng_for(seed, found[number]))


def analyse_here(contents: LogContents, file_name: str, budget: Budget | None = None, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None,
                 stop: threading.Event | None = None) -> dict | None:
    """The analysis document of a verified log, searched in this process (the replay
    viewer's F7): `progress(done, total)` after each decision; None when `stop` was set
    (checked between decisions). Unjudgeable when its seats' knowledge cannot be rebuilt."""
    budget = budget or DEFAULT_BUDGET
    game, found = positions(contents)
    total = sum(p.judged for p in found)
    judged: list[Judgement | None] = []
    done = 0
    for p in found:
        if stop is not None and stop.is_set():
            return None
        if not p.judged:
            judged.append(None)
            continue
        judged.append(judge(game, p, budget, rng_for(seed, p)))
        done += 1
        if progress is not None:
            progress(done, total)
    return document.document(contents, file_name, judged, found, str(budget), seed, game.version)


def analyse(paths: list[Path], budget: Budget, seed: int, executor, out: TextIO = sys.stdout,
            err: TextIO = sys.stderr) -> ExitCode:
    jobs: list[tuple[Path, bytes, LogContents, Game, list[Position]]] = []
    bad = 0
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as exc:
            print(f"{path}: not analysed: cannot be read ({exc.strerror})", file=err)
            bad += 1
            continue
        verdict = verify_log(data)
        if not verdict.ok:
            print(f"{path}: not analysed: {verdict.summary()}", file=err)
            bad += 1
            continue
        contents = read_log(data)
        try:
            game, found = positions(contents)
        except Unjudgeable as exc:
            print(f"{path}: not analysed: {exc}", file=err)
            bad += 1
            continue
        jobs.append((path, data, contents, game, found))
    tasks = [(j, n) for j, (_, _, _, _, found) in enumerate(jobs) for n, p in enumerate(found) if p.judged]
    results: dict[tuple[int, int], Judgement | None] = {}
    lines = Lines(len(tasks), out)
    with Progress(len(tasks), "analyse") as progress:
        futures: dict[Future, tuple[int, int]] = {}
        if isinstance(executor, tournament.InProcess):
            for done, (j, n) in enumerate(tasks, 1):
                results[(j, n)] = judge_in_log(jobs[j][1], n, budget, seed)
                progress.update(done)
                lines.update(done)
        else:
            for j, n in tasks:
                futures[executor.submit(judge_in_log, jobs[j][1], n, budget, seed)] = (j, n)
            for done, future in enumerate(as_completed(futures), 1):
                results[futures[future]] = future.result()
                progress.update(done)
                lines.update(done)
    for j, (path, data, contents, game, found) in enumerate(jobs):
        judged = [results.get((j, n)) for n in range(len(found))]
        doc = document.document(contents, path.name, judged, found, str(budget), seed, game.version)
        target = document.path_for(path)
        try:
            document.write(target, doc)
            where = f"analysis: {target}"
        except OSError as exc:
            where = f"analysis not written ({target}: {exc.strerror})"
            bad += 1
        print(document.report(doc, _boards(game, found, judged)), file=out)
        print(where, file=out)
        print(file=out)
    return ExitCode.DONE if not bad else ExitCode.INVALID


class Lines:
    """Without a terminal (where no progress bar shows), a progress line on `out` every
    PROGRESS_SECONDS, as `selfplay` writes: a long analysis is not silent."""

    def __init__(self, total: int, out: TextIO):
        self.total = total
        self.out = out
        self.on = total > 1 and not _isatty(out) and not _isatty(sys.stderr)
        self.started = self.said = time.monotonic()

    def update(self, done: int) -> None:
        now = time.monotonic()
        if self.on and now - self.said >= PROGRESS_SECONDS and done < self.total:
            self.said = now
            print(f"analyse: {done} of {self.total} decisions judged, {now - self.started:.0f} s", file=self.out,
                  flush=True)


#: without a terminal, a progress line this often
PROGRESS_SECONDS = 10.0


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _boards(game: Game, found: list[Position], judged: list[Judgement | None]) -> dict[tuple[int, int], str]:
    """The position of each seat's costliest marked move, as that seat saw it."""
    worst: dict[int, tuple[float, Position]] = {}
    for p, j in zip(found, judged):
        if j is not None and j.mark in ("mistake", "blunder") and (p.seat not in worst or j.drop > worst[p.seat][0]):
            worst[p.seat] = (j.drop, p)
    # (the engine's own picture: no text from the log's writers is in it)
    return {(p.seq, p.index): game.render_text(p.view, p.seat) for _, p in worst.values()}


def command(args: argparse.Namespace) -> ExitCode:
    from peerboard.client.selfplay import executor_for

    paths = [Path(f) for f in args.file]
    for path, name in zip(paths, args.file):
        if not path.is_file():
            raise UsageError(f"no such file: {name}" if not path.exists() else f"not a file: {name}")
    try:
        budget = Budget.parse(args.budget) if args.budget else DEFAULT_BUDGET
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    executor = executor_for(args)
    try:
        return analyse(paths, budget, args.seed, executor)
    finally:
        executor.shutdown(wait=True)
