"""`peerboard ratings [DIR...]`: a ladder per game from signed logs (docs/ratings.md).

Every `*.pblog` in the games directory and the directories given is verified; an invalid
one is listed and left out of the standings (what its good entries prove still counts as
evidence). A game is its genesis: every copy of it found — each seat's, each spectator's,
a forged one — is compared with the others (protocol/log/copies.py), and what their
signatures prove together decides the game (client/ladder.py): never a file's name or the
order the files are found in. Players are their keys (shown by fingerprint, with the name
they last used, or the roster's); the ratings are Weng-Lin (openskill's Plackett-Luce
model, any number of seats), updated game by game in the order their logs were written.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from peerboard.client.exitcode import ExitCode
from peerboard.client.ladder import Game, Standing, decide, ladders
from peerboard.client.roster import Roster
from peerboard.client.text import printable
from peerboard.client.usage import UsageError
from peerboard.protocol.log import LogFileError, read_log, verify_contents
from peerboard.protocol.log import Copy, compare, group


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dirs", nargs="*", metavar="DIR", help="more directories of .pblog files (the games directory is always read)")
    p.add_argument("--json", action="store_true", help="the ladders and every game's result as JSON, for scripts")
    p.add_argument("--rate-claims", action="store_true",
                   help="rate a game ended by a claim as a win for the seats that claimed (not rated otherwise)")
    p.add_argument("--roster", metavar="FILE",
                   help="rate only games whose every seat's key is in this file (a key or fingerprint and a name a line)")


@dataclass
class Gathered:
    games: list[Game] = field(default_factory=list)
    invalid: list[tuple[Path, str]] = field(default_factory=list)
    files: int = 0

    @property
    def unfinished(self) -> list[Game]:
        return [g for g in self.games if g.kind == "unfinished"]

    @property
    def decided(self) -> list[Game]:
        """Every game but the unfinished: rated or not, each with its kind."""
        return [g for g in self.games if g.kind != "unfinished"]


def gather(dirs: list[Path], *, rate_claims: bool = False, roster: Roster | None = None) -> Gathered:
    """Every log under `dirs`, verified; the copies of each game compared; each game once."""
    out = Gathered()
    seen: set[Path] = set()
    copies: list[Copy] = []
    written: dict[str, int] = {}
    for d in dirs:
        for path in sorted(d.glob("*.pblog")):
            real = path.resolve()
            if real in seen or not path.is_file():
                continue
            seen.add(real)
            out.files += 1
            try:
                data = path.read_bytes()
                written[str(path)] = path.stat().st_mtime_ns
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
            copies.append(Copy(str(path), contents, verdict))
    for key, found in sorted(group(copies).items()):
        if not any(c.verdict.ok for c in found):
            continue  # (only invalid copies: listed as such, no game)
        when = min(written[c.name] for c in found)
        out.games.append(decide(compare(found), when, rate_claims=rate_claims, roster=roster))
    return out


def command(args: argparse.Namespace, out: TextIO = sys.stdout) -> ExitCode:
    from peerboard.client import roster as rosters
    from peerboard.node.gamefiles import games_dir

    dirs = [games_dir()]
    for name in args.dirs:
        d = Path(name)
        if not d.is_dir():
            raise UsageError(f"not a directory: {name}")
        dirs.append(d)
    roster = rosters.read(args.roster) if getattr(args, "roster", None) else None
    gathered = gather([d for d in dirs if d.is_dir()], rate_claims=getattr(args, "rate_claims", False), roster=roster)
    table = ladders(gathered.games)
    if args.json:
        print(json.dumps(_document(gathered, table), indent=1, sort_keys=True), file=out)
        return ExitCode.DONE
    _print(gathered, table, roster, out)
    return ExitCode.DONE


def _document(gathered: Gathered, table: dict[str, list[Standing]]) -> dict:
    decided = gathered.decided
    return {
        "ladders": {name: [s.row() for s in rows] for name, rows in table.items()},
        "games": len(decided), "rated": sum(g.rated for g in decided), "files": gathered.files,
        "results": [g.row() for g in _in_order(decided)],
        "equivocations": [_finding(g, e, e.seat, e.at) for g in decided for e in _found(g, "equivocations")],
        "disputes": [_finding(g, d, d.gone, d.seq) for g in decided for d in _found(g, "disputes")],
        "invalid": [{"file": str(p), "why": why} for p, why in gathered.invalid],
        "unfinished": sorted(name for g in gathered.unfinished for name in g.copies),
    }


def _found(g: Game, what: str) -> tuple:
    return () if g.comparison is None else getattr(g.comparison, what)


def _finding(g: Game, finding, seat: int, seq: int) -> dict:
    """An equivocation (`seat` equivocated about entry `seq`) or a dispute (the claim of
    `seat` at entry `seq`) for scripts."""
    return {"genesis": g.genesis.hex(), "game": g.game, "seat": seat, "seq": seq,
            "fingerprint": g.seats[seat].fingerprint, "why": g.comparison.said(finding), "copies": list(g.copies)}


def _in_order(games: list[Game]) -> list[Game]:
    return sorted(games, key=lambda g: (g.game, g.written, g.genesis))


def _print(gathered: Gathered, table: dict[str, list[Standing]], roster: Roster | None, out: TextIO) -> None:
    decided = gathered.decided
    rated = sum(g.rated for g in decided)
    print(f"{gathered.files} log file(s): {len(decided)} game(s) counted once each ({rated} rated, "
          f"{len(decided) - rated} not), {len(gathered.unfinished)} unfinished, {len(gathered.invalid)} invalid",
          file=out)
    if roster is not None:
        print(f"rated only between the {len(roster)} keys of the roster", file=out)
    for path, why in gathered.invalid:
        print(f"left out: {printable(str(path), 200)}: {why}", file=out)
    for name in sorted({g.game for g in decided}):
        print(file=out)
        print(f"{name}", file=out)
        rows = table.get(name, [])
        if rows:
            print(f"  {'#':>2}  {'player':<32}{'games':>6}{'W':>5}{'D':>5}{'L':>5}{'rating':>9}{'μ ± 2σ':>15}", file=out)
            for n, s in enumerate(rows, 1):
                who = f"{s.fingerprint} {printable(s.name, 20)}" + (" (bot)" if s.bot else "")
                spread = f"{s.rating.mu:.1f} ± {2 * s.rating.sigma:.1f}"
                print(f"  {n:>2}  {who:<32}{s.games:>6}{s.wins:>5}{s.draws:>5}{s.losses:>5}{s.ordinal:>9.1f}{spread:>15}",
                      file=out)
        print("  results", file=out)
        for g in _in_order([g for g in decided if g.game == name]):
            outcome = printable(g.outcome(), 60)
            rated = "" if g.rated else f", not rated: {g.why}"
            print(f"    {g.genesis.hex()[:8]}  {outcome}  [{g.kind}{rated}]", file=out)
            for words in g.findings:
                print(f"      {words}", file=out)
    if not table:
        print("no finished game to rate", file=out)
