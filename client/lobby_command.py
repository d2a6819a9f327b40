"""`peerboard lobby` (and `peerboard` alone on a terminal): the full-screen lobby, then the
game the person chose in it.

The lobby (client/tui, `run_lobby`) lists the open tables this network announces, the
unfinished games on this machine and a form to host a table; it hands back a request.
`options_for` turns that request into the same checked `LanOptions` value the command line
is read into (client/lan/options.py), and the matching command — `host`, `join` or `resume`
(client/lan) — runs it, so the game screen, the exit status and every message are those
of the commands.
"""
from __future__ import annotations

import argparse
import sys

from peerboard.client.exitcode import ExitCode
from peerboard.client.lan.commands import cmd_host, cmd_join
from peerboard.client.lan.options import ANY_PORT, DEFAULT_BOT, DEFAULT_TAKEOVER, LanOptions
from peerboard.client.lan.reading import bind_endpoint, player_name, table_code, table_name
from peerboard.client.lan.resume import cmd_resume
from peerboard.client.tui.lobby_source import CodeAgain, HostRequest, JoinRequest, LobbyRequest, ResumeRequest
from peerboard.client.usage import UsageError, game_named
from peerboard.protocol.session import WRONG_CODE


def options_for(request: LobbyRequest, name: str | None = None, bind: str | None = None) -> LanOptions:
    """The options of the command that does what the lobby's request asks, with the lobby's
    own `--name` and `--bind` (UsageError for one that cannot be used). The lobby listed the
    unfinished games already, so no command offers to resume one again."""
    if isinstance(request, ResumeRequest):
        # (a resumed game plays under the name and where it was played)
        return LanOptions(command="resume", name=player_name(name), file=request.path, offer_resume=False)
    hosting = isinstance(request, HostRequest)
    name = request.name or name  # (the form's, when the person changed it there)
    bind = request.bind or bind
    common = dict(name=player_name(name), named=name is not None, bind=bind_endpoint(bind) or ANY_PORT, code=table_code(request.code or None, hosting),
                  offer_resume=False)
    if isinstance(request, HostRequest):
        opts = LanOptions(command="host", bots=request.bots, bot_players=(DEFAULT_BOT,) * request.bots,
                          patience=request.patience, takeover=request.takeover or DEFAULT_TAKEOVER, **common)
        return opts.for_game(game_named(request.game), dict(request.options), request.players)
    if isinstance(request, JoinRequest):
        t = request.table
        # by its address when the beacon gave the host's key (nothing left to hear), else by its id
        table = table_name(t.endpoint, t.key, t.table_id, t.game) if t.key else table_name(t.table_id, None, None, None)
        return LanOptions(command="join", table=table, **common)
    raise TypeError(f"{request!r} is no lobby request")


def run_request(request: LobbyRequest, args: argparse.Namespace, refusals: list[str] | None = None) -> ExitCode:
    """The game the lobby's request asks for, run by its command (a join adds the reasons
    the table refused it for to `refusals`)."""
    opts = options_for(request, args.name, args.bind)
    if opts.command == "join":
        return cmd_join(opts, refusals)
    command = {"host": cmd_host, "resume": cmd_resume}[opts.command]
    return command(opts)


def cmd_lobby(args: argparse.Namespace) -> ExitCode:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("the lobby needs a terminal; without one use: peerboard tables, host, join or resume")
    from peerboard.client.tui import run_lobby
    from peerboard.client.tui.lobby_source import NetworkLobby

    from peerboard.client.lan.reading import user_name

    shown = args.name or user_name() or ""
    request = run_lobby(NetworkLobby(), name=shown)
    while request is not None:
        refusals: list[str] = []
        status = run_request(request, args, refusals)
        if not (isinstance(request, JoinRequest) and request.code and WRONG_CODE in refusals):
            return status
        # a mistyped code is asked again, at the lobby, for the same table
        request = run_lobby(NetworkLobby(), name=shown,
                            code_again=CodeAgain(request.table, f"{WRONG_CODE[0].upper()}{WRONG_CODE[1:]}."))
    return ExitCode.DONE


def add_command(sub) -> None:
    """`peerboard lobby` among peerboard.client.cli's sub-commands."""
    p = sub.add_parser("lobby", help="the full-screen lobby: open tables, unfinished games, host a table "
                                     "(also `peerboard` alone on a terminal)")
    p.add_argument("--name", help="your display name (default: your user name)")
    p.add_argument("--bind", help=f"where the node you host or join with listens (default {ANY_PORT})")
    p.set_defaults(run=cmd_lobby)
