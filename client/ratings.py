"""`peerboard ratings [DIR...]`: a ladder per game from signed logs.

Every `*.pblog` in the games directory and the directories given is verified; an invalid
one is listed and left out. A game is its genesis: the copies every seat (and spectator)
keeps of one game count once, from a copy that holds its signed result. Players are their
keys (shown by fingerprint, with the name they last used); the ratings are Weng-Lin
(openskill's Plackett-Luce model, any number of seats), updated game by game in the order
their logs were last written. What the ladder guarantees and what it does not: README,
"peerboard ratings".
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from peerboard.client.exitcode import ExitCode
from peerboard.client.text import printable
from peerboard.client.usage import UsageError
from peerboard.protocol.log import (
    Ledger, LogContents, LogFileError, fingerprint, read_log, result_in, verify_contents,
)

#: the names peerboard gives the bots it starts: `bot-N` at a table, a strategy in
#: selfplay (`mcts`, `greedy#2`, `random-0`, `exec:prog`). A name is the seat's own claim:
#: "bot" says what it called itself, not what it is.
BOT_NAME = re.compile(r"(bot-\d+|random|greedy|mcts|exec:.*)([#@-].*)?")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dirs", nargs="*", metavar="DIR", help="more directories of .pblog files (the games directory is always read)")
    p.add_argument("--json", action="store_true", help="the ladders as JSON, for scripts")


def result_of(contents: LogContents, ledger: Ledger) -> tuple[int, ...] | None:
    """The winners as the log's signed result says (() for a draw), None when the game has
    no result every seat signed (`chain`: the log, verified). The one place a result is
    read: every kind of ending the log records comes through here."""
    if not ledger.finished:
        return None
    for entry in reversed(contents.entries):
        result = result_in(entry)  # (a `result`, or the `results` of an end together)
        if result is not None:
            return tuple(result["winners"])
    return None


@dataclass
class Game:
    genesis: bytes
    game: str
    path: Path
    written: int
    seats: tuple[tuple[str, str], ...]  # (fingerprint, name)
    winners: tuple[int, ...]
    copies: int = 1


@dataclass
class Standing:
    fingerprint: str
    name: str
    bot: bool
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rating: Any = None

    def row(self) -> dict[str, Any]:
        return {"fingerprint": self.fingerprint, "name": self.name, "bot": self.bot, "games": self.games,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "mu": round(self.rating.mu, 3), "sigma": round(self.rating.sigma, 3),
                "ordinal": round(self.rating.ordinal(), 3)}


@dataclass
class Gathered:
    games: dict[bytes, Game] = field(default_factory=dict)
    invalid: list[tuple[Path, str]] = field(default_factory=list)
    unfinished: list[Path] = field(default_factory=list)
    files: int = 0


def gather(dirs: list[Path]) -> Gathered:
    """Every log under `dirs`, verified; each game once (by its genesis)."""
    out = Gathered()
    seen: set[Path] = set()
    for d in dirs:
        for path in sorted(d.glob("*.pblog")):
            real = path.resolve()
            if real in seen or not path.is_file():
                continue
            seen.add(real)
            out.files += 1
            try:
                data = path.read_bytes()
                written = path.stat().st_mtime_ns
                contents = read_log(data)
            except OSError as exc:
                out.invalid.append((path, f"cannot be read ({exc.strerror})"))
                continue
            except LogFileError as exc:
                out.invalid.append((path, f"invalid at header [{exc.failure}]: {printable(exc.why, 200)}"))
                continue
            verdict = verify_contents(contents)
            if not verdict.ok:
                out.invalid.append((path, verdict.summary()))
                continue
            winners = result_of(contents, verdict.ledger)
            if winners is None:
                out.unfinished.append(path)
                continue
            key = contents.genesis.hash
            known = out.games.get(key)
            if known is not None:
                known.copies += 1
                continue
            g = contents.genesis.terms
            out.games[key] = Game(key, g.game, path, written,
                                  tuple((fingerprint(s.key), s.name) for s in g.seats), winners)
    return out


def ladders(games: dict[bytes, Game]) -> dict[str, list[Standing]]:
    """Per game, its players best first (by the rating less three times its uncertainty,
    the level a player is nearly sure to be above)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    out: dict[str, dict[str, Standing]] = {}
    for g in sorted(games.values(), key=lambda g: (g.written, g.genesis)):
        table = out.setdefault(g.game, {})
        players = []
        for fp, name in g.seats:
            s = table.get(fp)
            if s is None:
                s = table[fp] = Standing(fp, name, False, rating=model.rating(name=fp))
            s.name = name  # the name last used
            s.bot = bool(BOT_NAME.fullmatch(name))
            players.append(s)
        # one team per seat (Athos's teams share a result: their seats are all winners)
        ranks = [1 if not g.winners or i in g.winners else 2 for i in range(len(players))]
        # a key at two seats of one game (allowed at a table of one's own) is rated once
        once = {id(s): (s, r) for s, r in zip(players, ranks)}
        if len(once) < 2:
            continue
        rated = model.rate([[s.rating] for s, _ in once.values()], ranks=[r for _, r in once.values()])
        for (s, r), (new,) in zip(once.values(), rated):
            s.rating = new
            s.games += 1
            if not g.winners:
                s.draws += 1
            elif r == 1:
                s.wins += 1
            else:
                s.losses += 1
    return {name: sorted(t.values(), key=lambda s: (-s.rating.ordinal(), s.fingerprint))
            for name, t in sorted(out.items())}


def command(args: argparse.Namespace, out: TextIO = sys.stdout) -> ExitCode:
    from peerboard.node.gamefiles import games_dir

    dirs = [games_dir()]
    for name in args.dirs:
        d = Path(name)
        if not d.is_dir():
            raise UsageError(f"not a directory: {name}")
        dirs.append(d)
    gathered = gather([d for d in dirs if d.is_dir()])
    table = ladders(gathered.games)
    if args.json:
        doc = {
            "ladders": {name: [s.row() for s in rows] for name, rows in table.items()},
            "games": len(gathered.games), "files": gathered.files,
            "invalid": [{"file": str(p), "why": why} for p, why in gathered.invalid],
            "unfinished": [str(p) for p in gathered.unfinished],
        }
        print(json.dumps(doc, indent=1, sort_keys=True), file=out)
        return ExitCode.DONE
    print(f"{gathered.files} log file(s): {len(gathered.games)} finished game(s) counted once each, "
          f"{len(gathered.unfinished)} unfinished, {len(gathered.invalid)} invalid", file=out)
    for path, why in gathered.invalid:
        print(f"left out: {printable(str(path), 200)}: {why}", file=out)
    for name, rows in table.items():
        print(file=out)
        print(f"{name}", file=out)
        print(f"  {'#':>2}  {'player':<32}{'games':>6}{'W':>5}{'D':>5}{'L':>5}{'rating ± 2σ':>16}", file=out)
        for n, s in enumerate(rows, 1):
            who = f"{s.fingerprint} {printable(s.name, 20)}" + (" (bot)" if s.bot else "")
            rating = f"{s.rating.mu:.1f} ± {2 * s.rating.sigma:.1f}"
            print(f"  {n:>2}  {who:<32}{s.games:>6}{s.wins:>5}{s.draws:>5}{s.losses:>5}{rating:>16}", file=out)
    if not table:
        print("no finished game to rate", file=out)
    return ExitCode.DONE
