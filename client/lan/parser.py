"""The LAN commands' sub-parsers (`host`, `join`, `bot`, `tables`, `play`, `resume`, `key`),
each run with its options read once (client/lan/reading.py)."""
from __future__ import annotations

import argparse
from typing import Callable

from peerboard import engines
from peerboard.client.exitcode import ExitCode
from peerboard.client.lan.commands import cmd_host, cmd_join, cmd_key, cmd_play, cmd_tables
from peerboard.client.lan.options import ANY_PORT, DEFAULT_BOT, LanOptions
from peerboard.client.lan.reading import read_options
from peerboard.client.lan.resume import cmd_resume
from peerboard.protocol.log import DEFAULT_PATIENCE


def _lan(command: Callable[[LanOptions], ExitCode]) -> Callable[[argparse.Namespace], ExitCode]:
    """A command run with the options read once from its arguments."""
    return lambda args: command(read_options(args))


def _node_flags(p: argparse.ArgumentParser, bind: str | None) -> None:
    p.add_argument("--name", help="your display name (default: your user name)")
    if bind is not None:
        p.add_argument("--bind", default=bind, help=f"where this node listens (default {bind}; port 0: any free port)")
    p.add_argument("--advertise", metavar="IP", help="the address others reach this node at (default: found)")
    p.add_argument("--headless", action="store_true", help="a built-in random player plays this seat")
    p.add_argument("--plain", action="store_true", help="play at a line prompt instead of the full-screen client")
    p.add_argument("--seed", type=int, help="seed of the random player (--headless)")
    p.add_argument("--think", type=float, default=0.0, metavar="SECONDS", help="the random player's pause per decision")
    p.add_argument("--verbose", action="store_true", help="with --headless: print every move")
    p.add_argument("--rematches", type=int, metavar="N", help="(a bot or --headless) play N more games at this "
                   "table, each a rematch with the first seat moved on, then decline (default: accept every "
                   "rematch offered, offer none)")
    p.add_argument("--spectator", action="append", metavar="KEY", help="admit this key (hex) to watch; repeatable")
    p.add_argument("--spectators-any", action="store_true", help="admit any key to watch the game")
    p.add_argument("--beacon-port", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--max-seconds", type=float, default=None, help="give up after this long (exit 3)")
    p.add_argument("--parent", type=int, default=None, help=argparse.SUPPRESS)


def _patience_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--patience", type=int, metavar="SECONDS", default=None,
                   help=f"how long a seat may be away before the other seat may claim it and win "
                        f"(default {DEFAULT_PATIENCE}; written in the genesis, so every seat agrees)")


def _takeover_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--takeover", metavar="STRATEGY", default=None,
                   help="at three or more seats, the bot that plays a seat claimed gone for good, run by the "
                        "claim's writer: random, greedy or mcts, or none (the claim ends the game, no winner); "
                        "default greedy; written in the genesis")


def _bot_flags(p: argparse.ArgumentParser) -> None:
    """A bot of the SDK at this seat (`bot`; `resume`, for a bot's own game)."""
    p.add_argument("--strategy", metavar="NAME", help="the player: random, greedy, mcts, openspiel:mcts, openspiel:is_mcts (the research "
                   "extra), each optionally @BUDGET: mcts@2000, mcts@0.5s; or mypkg.mybot:MyBot (default: the "
                   "built-in random player)")
    p.add_argument("--exec", metavar="CMD", help="a program speaking spec/bot-protocol.md plays the seat")
    p.add_argument("--on-error", choices=("random", "forfeit"), default="random",
                   help="a bot that fails: its seat plays random moves (default) or forfeits")
    p.add_argument("--time", type=float, metavar="SECONDS",
                   help="the time each decision has (an --exec program that takes longer is dismissed)")
    p.add_argument("--faults", help=argparse.SUPPRESS)


def add_commands(sub) -> None:
    """Add the LAN commands to peerboard.client.cli's sub-parsers."""
    names = ", ".join(engines.names())
    p = sub.add_parser("host", help="open a table on the LAN; the game starts when the seats are full")
    p.add_argument("game", help="one of: " + names)
    p.add_argument("--players", type=int, help="seats (default: the game's minimum)")
    p.add_argument("--bots", metavar="N|LIST", help=f"seats taken by bots, each its own process: a number "
                   f"({DEFAULT_BOT} bots) or one strategy per bot (mcts,greedy; mcts@0.5s; mypkg.mybot:MyBot)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
    p.add_argument("--no-beacon", action="store_true", help="do not announce the table (join by address only)")
    private = p.add_mutually_exclusive_group()
    private.add_argument("--code", help="a private table: a joiner must give this code (it never travels)")
    private.add_argument("--private", action="store_true", help="a private table with a code picked and printed")
    _patience_flag(p)
    _takeover_flag(p)
    _node_flags(p, ANY_PORT)
    p.set_defaults(run=_lan(cmd_host))

    for command, help_ in (("join", "take a seat at a table (or --watch it)"),
                           ("bot", "a bot seat joining a table, headless (random moves unless --strategy or --exec)")):
        p = sub.add_parser(command, help=help_)
        p.add_argument("target", nargs="?", metavar="TABLE|ADDRESS",
                       help="a table id or host fingerprint from `peerboard tables`, or tcp://HOST:PORT")
        p.add_argument("--key", help="the host's public key (hex), with an ADDRESS")
        p.add_argument("--table", help="the table id (hex), with an ADDRESS")
        p.add_argument("--game", help="the table's game, with an ADDRESS")
        p.add_argument("--watch", action="store_true", help="watch as a spectator instead of taking a seat")
        p.add_argument("--code", help="the code of a private table (its host has it)")
        p.add_argument("--wait", type=float, default=3.0, help="seconds to listen for the table (default 3)")
        _node_flags(p, ANY_PORT)
        if command == "bot":
            _bot_flags(p)
        p.set_defaults(run=_lan(cmd_join), headless=command == "bot")

    p = sub.add_parser("tables", help="list the open tables on this network")
    p.add_argument("--wait", type=float, default=2.5, help="seconds to listen (default 2.5)")
    p.add_argument("--beacon-port", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(run=_lan(cmd_tables))

    p = sub.add_parser("play", help="a local game: your node and N bot nodes as processes on loopback")
    p.add_argument("game", help="one of: " + names)
    p.add_argument("--bots", metavar="N|LIST", help=f"how many bots (default 1, {DEFAULT_BOT}), or one strategy "
                   f"per bot: random, greedy, mcts, openspiel:mcts, openspiel:is_mcts (the research extra), each "
                   f"optionally @BUDGET, or mypkg.mybot:MyBot")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
    _patience_flag(p)
    _takeover_flag(p)
    _node_flags(p, None)
    p.set_defaults(run=_lan(cmd_play))

    p = sub.add_parser("resume", help="rejoin an unfinished game from its log file")
    p.add_argument("file", help="the game's .pblog in your data directory")
    p.add_argument("--bind", default=None,
                   help="listen here instead of where the game was played (the other seats are told)")
    _node_flags(p, None)
    _bot_flags(p)
    p.set_defaults(run=_lan(cmd_resume))

    p = sub.add_parser("key", help="show this user's key and fingerprint")
    p.set_defaults(run=_lan(cmd_key))
