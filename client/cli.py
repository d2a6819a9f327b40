"""The `peerboard` command line. Every user error is one line on stderr and exit status 2;
an invalid log is exit status 1; no traceback reaches a user: a fault of our own is one line
naming the file that holds its details (client/exitcode.py has every exit status)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from peerboard import engines
from peerboard.client import colour
from peerboard.client.exitcode import ExitCode
from peerboard.client.usage import Parser, UsageError


# -- commands -------------------------------------------------------------------------------


def cmd_selfplay(args: argparse.Namespace) -> ExitCode:
    from peerboard.client import selfplay

    return selfplay.command(args)


def cmd_replay(args: argparse.Namespace) -> ExitCode:
    """One log in the full-screen viewer (on a terminal), or as text (`--plain`, or not a
    terminal), or checked (`--verify`, any number of files), or exported (`--export`)."""
    paths = [Path(f) for f in args.file]
    for path, name in zip(paths, args.file):
        if not path.exists():
            raise UsageError(f"no such file: {name}")
        if not path.is_file():
            raise UsageError(f"not a file: {name}")
    if len(paths) > 1 and not args.verify:
        raise UsageError("several files can only be checked together (--verify); view or export one at a time")
    if args.verify and len(paths) > 1:
        return _verify_many(paths)
    if args.view_as is not None:
        _check_seat(paths[0], args.view_as)
    if args.html or args.svg is not None:
        if args.verify or args.export or args.plain:
            raise UsageError("--html and --svg write a picture of the game; check (--verify) or export it apart")
        from peerboard.client.page import command as page_command

        return page_command.write(paths[0], args)
    if args.verify or args.export or args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return _replay_text(paths[0], args)
    from peerboard.client.tui import run_replay

    return run_replay(paths[0], view_as=args.view_as)


def _check_seat(path: Path, seat: int) -> None:
    """`--as SEAT`: UsageError unless the game of the log at `path` has that seat (a log
    that cannot be read is left to the verdict, which says why)."""
    from peerboard.protocol.log import LogFileError, read_log

    try:
        seats = len(read_log(path.read_bytes()).genesis.terms.seats)
    except LogFileError:
        return
    if not 0 <= seat < seats:
        raise UsageError(f"--as {seat}: this game has {seats} seats, numbered 0 to {seats - 1}")


def _replay_text(path: Path, args: argparse.Namespace) -> ExitCode:
    from peerboard.client import export
    from peerboard.protocol.log import LogFileError, read_log
    from peerboard.protocol.log import verify_contents, Verdict

    data = path.read_bytes()
    try:
        contents = read_log(data)
    except LogFileError as exc:
        verdict = Verdict.refused(exc)
        print(verdict.summary(), file=sys.stderr if args.export else sys.stdout)
        return ExitCode.INVALID
    verdict = verify_contents(contents)
    if args.export == "text":
        print(export.as_text(contents))
    elif args.export == "json":
        print(export.as_json(contents))
    elif not args.verify:
        print(export.as_text(contents))
        if verdict.ledger is not None:
            game, state = verdict.ledger.game, verdict.ledger.state
            seat = args.view_as if args.view_as is not None and 0 <= args.view_as < verdict.ledger.seats else None
            print()
            print(colour.board(game, state if seat is None else game.view(state, seat), seat, sys.stdout))
    stream = sys.stderr if args.export else sys.stdout
    print(verdict.summary(), file=stream)
    return ExitCode.DONE if verdict.ok else ExitCode.INVALID


def _verify_many(paths: list[Path]) -> ExitCode:
    """Each file's verdict on a line of its own ("FILE: verdict"); exit 1 if any is invalid.
    A progress bar shows on a terminal (on stderr) while they are checked. Then the files
    that are copies of one game are compared (spec/log-format.md, "Copies of a game"):
    every equivocation and every dispute their signatures prove, named."""
    from peerboard.client.progress import Progress
    from peerboard.protocol.log import Copy, LogFileError, Verdict, read_log, verify_contents

    bad = 0
    lines: list[str] = []
    copies: list[Copy] = []
    with Progress(len(paths), "verify") as progress:
        # on the terminal the bar is drawing on, the verdicts wait until it is gone
        hold = progress.enabled and sys.stdout.isatty()
        for n, path in enumerate(paths, 1):
            try:
                contents = read_log(path.read_bytes())
            except LogFileError as exc:
                verdict = Verdict.refused(exc)
            else:
                verdict = verify_contents(contents)
                copies.append(Copy(str(path), contents, verdict))
            bad += not verdict.ok
            line = f"{path}: {verdict.summary()}"
            if hold:
                lines.append(line)
            else:
                print(line, flush=True)
            progress.update(n)
    for line in lines:
        print(line)
    for line in _compared(copies):
        print(line)
    print(f"{len(paths) - bad} of {len(paths)} valid")
    return ExitCode.DONE if not bad else ExitCode.INVALID


def _compared(copies: list) -> list[str]:
    """Lines for the files that are copies of one game: whether they agree, and what their
    signatures prove where they do not."""
    from peerboard.protocol.log import compare, group, shown

    out = []
    for found in (compare(c) for c in group(copies).values()):
        words = found.words()
        if len(found.copies) < 2 and not words:
            continue
        names = ", ".join(shown(c.name, 200) for c in sorted(found.copies, key=lambda c: c.name))
        out.append(f"copies of one {found.genesis.terms.game} game (genesis {found.genesis.hash.hex()[:16]}): {names}")
        out.extend(f"  {shown(w, 1000)}" for w in words or ["they agree"])
    return out


def cmd_analyse(args: argparse.Namespace) -> ExitCode:
    from peerboard.client.analysis import command

    return command.command(args)


def cmd_ratings(args: argparse.Namespace) -> ExitCode:
    from peerboard.client import ratings

    return ratings.command(args)


def cmd_games(args: argparse.Namespace) -> ExitCode:
    for name in engines.names():
        game = engines.get(name)
        span = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}"
        print(f"{name:<10}{game.title:<22}{span:>5} players")
        for opt, spec in sorted(game.options_schema.items()):
            print(f"{'':10}--option {opt}={spec.text(spec.default)}: {spec.doc}")
    return ExitCode.DONE


def _version() -> str:
    """peerboard's version (the installed distribution's, else pyproject.toml's), with the
    protocol and log format versions it speaks."""
    from peerboard.protocol.log import LOG_VERSION
    from peerboard.protocol.log import PROTOCOL_VERSION

    try:
        from importlib.metadata import PackageNotFoundError, version

        number = version("peerboard")
    except PackageNotFoundError:
        import tomllib

        with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as f:
            number = tomllib.load(f)["project"]["version"]
    return f"peerboard {number} (protocol version {PROTOCOL_VERSION}, log format version {LOG_VERSION})"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="peerboard", description="Board games on a LAN with no server.")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")

    p = sub.add_parser("selfplay", help="bot tournaments: results table with error bars; signed logs")
    from peerboard.client.selfplay import add_arguments

    add_arguments(p, engines.names())
    p.set_defaults(run=cmd_selfplay)

    p = sub.add_parser("replay", help="step through, check or export a saved game log")
    p.add_argument("file", nargs="+", help="a .pblog file (several with --verify)")
    p.add_argument("--verify", action="store_true", help="check everything; exit 0 valid, 1 invalid")
    p.add_argument("--export", choices=("text", "json"), help="print the game in the notation or as JSON")
    p.add_argument("--plain", action="store_true", help="print the game as text instead of the full-screen viewer")
    p.add_argument("--as", dest="view_as", type=int, metavar="SEAT", help="see the game as this seat saw it")
    p.add_argument("--html", metavar="OUT", help="write the whole game as one page that opens in any browser, offline")
    p.add_argument("--svg", type=int, metavar="SEQ", help="write the picture of the position after entry SEQ (0: the start)")
    p.add_argument("-o", "--output", metavar="OUT", help="with --svg: the file to write (- for standard output)")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("analyse", help="judge every move of saved games: mistakes, blunders, the better move")
    from peerboard.client.analysis.command import add_arguments as analyse_arguments

    analyse_arguments(p)
    p.set_defaults(run=cmd_analyse)

    p = sub.add_parser("ratings", help="a ladder per game from the signed logs in the games directory")
    from peerboard.client.ratings import add_arguments as ratings_arguments

    ratings_arguments(p)
    p.set_defaults(run=cmd_ratings)

    p = sub.add_parser("games", help="list the games and their options")
    p.set_defaults(run=cmd_games)

    from peerboard.client.lan.parser import add_commands  # host, join, bot, tables, play, resume, key

    add_commands(sub)
    from peerboard.client import lobby_command

    lobby_command.add_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> ExitCode:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            if sys.stdin.isatty() and sys.stdout.isatty():  # a person at a terminal: the lobby
                args = parser.parse_args(["lobby"])
            else:
                parser.print_help()
                return ExitCode.USAGE
        return ExitCode(args.run(args))
    except UsageError as exc:
        print(f"peerboard: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    except KeyboardInterrupt:
        print("peerboard: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.DONE
    except Exception as exc:  # our own bug: the details in a file, one line on the screen
        from peerboard.node import faults
        from peerboard.node.dirs import data_dir

        kept = faults.keep(f"peerboard {' '.join(sys.argv[1:])}", faults.details_of(exc), directory=data_dir())
        print(f"peerboard: internal error ({type(exc).__name__}); {kept.where}", file=sys.stderr)
        return ExitCode.INTERNAL


if __name__ == "__main__":
    sys.exit(main())
