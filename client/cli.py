"""The `peerboard` command line. Every user error is one line on stderr and exit status 2;
an invalid log is exit status 1; no traceback reaches a user: a fault of our own is one line
naming the file that holds its details (client/exitcode.py has every exit status)."""
from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Sequence

import engines
from client.exitcode import ExitCode
from client.usage import Parser, UsageError, game_named, options_from
from engines import OptionError


# -- commands -------------------------------------------------------------------------------


def cmd_selfplay(args: argparse.Namespace) -> ExitCode:
    from client import selfplay

    game = game_named(args.game)
    options = options_from(args.option, game)
    players = args.players or game.min_players
    try:
        game.new_game(players, options)
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    save_dir = Path(args.save) if args.save else None
    if save_dir is not None and save_dir.exists() and not save_dir.is_dir():
        raise UsageError(f"--save {args.save}: not a directory")
    tally, records = selfplay.run(game, players, options, args.games, seed, save_dir)
    if args.games == 1:
        record = records[0]
        print(game.render_text(record.state))
        print()
    print(f"{game.title}: {args.games} game(s), {players} players, seed {seed}")
    print(tally.table())
    if save_dir is not None:
        where = records[0].log_path if args.games == 1 else f"{save_dir}/ ({args.games} files)"
        print(f"log: {where}")
        print(f"check it: peerboard replay {records[0].log_path} --verify")
    return ExitCode.DONE


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
            print(verdict.chain.game.render_text(verdict.chain.state))
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

    p = sub.add_parser("selfplay", help="random players in one process; results table; signed logs")
    p.add_argument("game", help="one of: " + ", ".join(engines.names()))
    p.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    p.add_argument("--players", type=int, help="seats (default: the game's minimum)")
    p.add_argument("--seed", type=int, help="seed for the random players and chance (default: random, printed)")
    p.add_argument("--save", metavar="DIR", help="write one signed log per game into DIR")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
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
