"""The pieces every LAN command builds its node from: this user's identity, a transport
bound where asked (admitting the spectators asked for), and who sits at the node — the
full-screen client, the line prompt, the built-in random player, or a bot of the SDK."""
from __future__ import annotations

import os
import sys

from peerboard.client.lan.options import LanOptions
from peerboard.client.line_prompt import LinePrompt
from peerboard.client.player import Player
from peerboard.client.random_player import RandomPlayer
from peerboard.client.strategy_player import StrategyPlayer
from peerboard.client.usage import UsageError
from peerboard.node.keys import KeyFileError, curve_public, load_identity
from peerboard.node.loop import Node
from peerboard.node.transport import Admission, Transport, TransportError
from peerboard.protocol.log import Identity


def _identity() -> Identity:
    try:
        return load_identity()
    except KeyFileError as exc:
        raise UsageError(str(exc)) from None



def _transport(opts: LanOptions, identity: Identity, bind: str) -> Transport:
    admission = Admission(spectator_keys={curve_public(k) for k in opts.spectators},
                          open_to_spectators=opts.spectators_any)
    try:
        transport = Transport(identity, bind, admission)
    except TransportError as exc:
        raise UsageError(str(exc)) from None
    for k in opts.spectators:
        transport.know(k)
    return transport


def _player(opts: LanOptions, node: Node) -> Player:
    node.rematches = opts.rematches  # (a person answers for themself: the line prompt and the screen say so)
    if opts.strategy or opts.exec:
        return _strategy_player(opts, node)
    if not (opts.headless or opts.plain) and sys.stdin.isatty() and sys.stdout.isatty():
        from peerboard.client.tui.screen_player import ScreenPlayer  # the full-screen client (client/tui)

        return ScreenPlayer(node)
    if opts.headless:
        return RandomPlayer(node, seed=opts.seed, think=opts.think, verbose=opts.verbose)
    if not sys.stdin.isatty():
        # nobody to type moves (a script, a pipe, CI): the seat plays itself and says so
        print("no terminal to play at: the built-in random player takes this seat (--headless)", flush=True)
        return RandomPlayer(node, seed=opts.seed, think=opts.think, verbose=True)
    return LinePrompt(node)


def _strategy_player(opts: LanOptions, node: Node) -> Player:
    from peerboard.client.bots.tournament import parse_players

    (player,) = parse_players("exec" if opts.exec else opts.strategy, 1, [opts.exec] if opts.exec else [])
    seed = str(opts.seed if opts.seed is not None else int.from_bytes(os.urandom(4), "big"))
    bot = player.make(seed)
    if opts.exec and not opts.named:
        _name_by_hello(node, bot)
    return StrategyPlayer(node, bot, player.label, seed, opts.on_error, opts.time, opts.faults,
                        remake=lambda: player.make(seed), verbose=opts.verbose)


def _name_by_hello(node: Node, bot: object) -> None:
    """Without --name, a program's seat is called what its hello calls it: the handshake
    happens now, before the table is joined (a program that fails it is reported when the
    game starts, as any fault of a bot)."""
    from peerboard.client.bots.guard import BotFault
    from peerboard.protocol.log import MAX_NAME
    from peerboard.protocol.log import name_problem

    try:
        name = bot.introduce()  # type: ignore[attr-defined]
    except BotFault:
        return
    if name and name_problem(name, MAX_NAME) is None:
        node.name = name
