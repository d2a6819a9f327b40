"""`peerboard lobby` (and `peerboard` alone on a terminal): the full-screen lobby, then the
game the person chose in it.

The lobby (client/tui, `run_lobby`) lists the open tables this network announces, the
unfinished games on this machine and a form to host a table; it hands back a request.
That request is then run as the matching command line — `host`, `join` or `resume`, read
by the same parser and run by the same code (client/lan.py) as if it had been typed — so
the game screen, the exit status and every message are those of the commands.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from peerboard.client.exitcode import ExitCode
from peerboard.client.usage import UsageError


def command_line(request, args: argparse.Namespace) -> list[str]:
    """The `peerboard` arguments that do what the lobby's request asks."""
    from peerboard.client.tui.lobby_source import HostRequest, JoinRequest, ResumeRequest

    common: list[str] = []
    if args.name:
        common += ["--name", args.name]
    if isinstance(request, ResumeRequest):
        return ["resume", str(request.path)]
    if args.bind:
        common += ["--bind", args.bind]
    code = ["--code", request.code] if request.code else []
    if isinstance(request, HostRequest):
        argv = ["host", request.game, "--players", str(request.players), "--bots", str(request.bots)]
        for name, value in sorted(request.options.items()):
            argv += ["--option", f"{name}={json.dumps(value)}"]
        return argv + code + common
    if isinstance(request, JoinRequest):
        t = request.table
        named = [t.endpoint, "--key", t.key, "--table", t.table_id, "--game", t.game] if t.key else [t.table_id]
        return ["join", *named] + code + common
    raise TypeError(f"{request!r} is no lobby request")


def cmd_lobby(args: argparse.Namespace) -> ExitCode:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("the lobby needs a terminal; without one use: peerboard tables, host, join or resume")
    from peerboard.client import cli, lan
    from peerboard.client.tui import run_lobby
    from peerboard.client.tui.lobby_source import NetworkLobby

    request = run_lobby(NetworkLobby())
    if request is None:
        return ExitCode.DONE
    argv = command_line(request, args)
    chosen = cli.build_parser().parse_args(argv)
    opts = lan.LanOptions.parse(chosen)
    # the lobby listed the unfinished games already: no second offer to resume one
    opts = dataclasses.replace(opts, offer_resume=False)
    command = {"host": lan.cmd_host, "join": lan.cmd_join, "resume": lan.cmd_resume}[opts.command]
    return command(opts)


def add_command(sub) -> None:
    """`peerboard lobby` among peerboard.client.cli's sub-commands."""
    p = sub.add_parser("lobby", help="the full-screen lobby: open tables, unfinished games, host a table "
                                     "(also `peerboard` alone on a terminal)")
    p.add_argument("--name", help="your display name (default: your user name)")
    p.add_argument("--bind", help="where the node you host or join with listens (default tcp://0.0.0.0:0)")
    p.set_defaults(run=cmd_lobby)
