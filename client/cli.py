"""The `peerboard` command line. Every user error is one line on stderr and exit status 2;
an invalid log is exit status 1; no traceback reaches a user: a fault of our own is one line
naming the file that holds its details (client/exitcode.py has every exit status)."""
from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path
from typing import Sequence

import engines
from client import colour
from client.exitcode import ExitCode
from client.usage import Parser, UsageError


# -- commands -------------------------------------------------------------------------------


def cmd_selfplay(args: argparse.Namespace) -> ExitCode:
    from client import selfplay

    return selfplay.command(args)


def cmd_replay(args: argparse.Namespace) -> ExitCode:
    from client import export
    from protocol.logfile import LogFileError, read_log
    from protocol.replay import verify_contents, Verdict

    path = Path(args.file)
    if not path.exists():
        raise UsageError(f"no such file: {args.file}")
    if not path.is_file():
        raise UsageError(f"not a file: {args.file}")
    data = path.read_bytes()
    try:
        contents = read_log(data)
    except LogFileError as exc:
        verdict = Verdict(False, 0, None, exc.seq, exc.why)
        print(verdict.summary(), file=sys.stderr if args.export else sys.stdout)
        return ExitCode.INVALID
    verdict = verify_contents(contents)
    if args.export == "text":
        print(export.as_text(contents))
    elif args.export == "json":
        print(export.as_json(contents))
    elif not args.verify:
        print(export.as_text(contents))
        if verdict.chain is not None:
            print()
            print(colour.board(verdict.chain.game, verdict.chain.state, None, sys.stdout))
    stream = sys.stderr if args.export else sys.stdout
    print(verdict.summary(), file=stream)
    return ExitCode.DONE if verdict.ok else ExitCode.INVALID


def cmd_games(args: argparse.Namespace) -> ExitCode:
    for name in engines.names():
        game = engines.get(name)
        span = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}"
        print(f"{name:<10}{game.title:<22}{span:>5} players")
        for opt, spec in sorted(game.options_schema.items()):
            print(f"{'':10}--option {opt}={spec.default!r}: {spec.doc}")
    return ExitCode.DONE


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="peerboard", description="Board games on a LAN with no server.")
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")

    p = sub.add_parser("selfplay", help="bot tournaments: results table with error bars; signed logs")
    from client.selfplay import add_arguments

    add_arguments(p, engines.names())
    p.set_defaults(run=cmd_selfplay)

    p = sub.add_parser("replay", help="check or export a saved game log")
    p.add_argument("file", help="a .pblog file")
    p.add_argument("--verify", action="store_true", help="check everything; exit 0 valid, 1 invalid")
    p.add_argument("--export", choices=("text", "json"), help="print the game in the notation or as JSON")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("games", help="list the games and their options")
    p.set_defaults(run=cmd_games)

    from client import lan  # the LAN commands: host, join, bot, tables, play, resume, key

    lan.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> ExitCode:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
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
        print(f"peerboard: internal error ({type(exc).__name__}); details in {_keep_traceback(exc)}", file=sys.stderr)
        return ExitCode.INTERNAL


def _keep_traceback(exc: Exception) -> str:
    from node.gamefiles import errors_path
    from node.storage import data_dir

    path = errors_path(None, data_dir())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} peerboard {' '.join(sys.argv[1:])}\n")
            f.write("".join(traceback.format_exception(exc)))
    except OSError as err:
        return f"nowhere: {path} could not be written ({err.strerror})"
    return str(path)


if __name__ == "__main__":
    sys.exit(main())
