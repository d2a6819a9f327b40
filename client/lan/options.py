"""What a LAN command was asked, as one checked value: `LanOptions`, and the ways a table to
join can be named.

The command line is read into it once (client/lan/reading.py); the lobby builds it directly
from what the person chose (client/lobby_command.py). Either way a command gets a value
whose every field has been checked, and `for_game` is the one place a table's game, its
options and its number of seats are checked together.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from peerboard import engines
from peerboard.client.usage import UsageError
from peerboard.engines import OptionError

DEFAULT_BOT = "greedy"  # the strategy of `--bots N`
DEFAULT_TAKEOVER = "greedy"  # the bot of `--takeover` when not given
ANY_PORT = "tcp://0.0.0.0:0"  # where a hosting or joining node listens unless told (port 0: any free one)


@dataclass(frozen=True)
class ByAddress:
    """A table named by its host's address; with the host's key, table id and game when the
    user gave them (the line the host prints), else they are learnt from its beacon."""

    endpoint: str
    key: bytes | None = None
    table: bytes | None = None
    game: str | None = None


@dataclass(frozen=True)
class ByName:
    """A table named by (the start of) its id, or its host's fingerprint, from `peerboard
    tables`; `ID@FINGERPRINT` names both (two hosts may announce one table id)."""

    text: str
    host: str | None = None  # the host's fingerprint, when both are given


@dataclass(frozen=True)
class OnlyTable:
    """No table named: the one open table on this network."""


TableName = ByAddress | ByName | OnlyTable


@dataclass(frozen=True)
class LanOptions:
    """Everything a LAN command was asked, checked."""

    command: str
    name: str = "player"
    #: whether --name gave it (else a program bot at the seat is named by its hello)
    named: bool = False
    bind: str | None = None
    advertise: str | None = None
    headless: bool = False
    plain: bool = False  # the line prompt instead of the full-screen client
    offer_resume: bool = True  # False from the lobby, which lists the unfinished games itself
    seed: int | None = None
    think: float = 0.0
    verbose: bool = False
    spectators: tuple[bytes, ...] = ()  # keys admitted to watch
    spectators_any: bool = False
    beacon_port: int | None = None
    max_seconds: float | None = None
    parent: int | None = None  # a bot's parent process: the bot leaves when it is gone
    #: (a bot or --headless) rematches to play, then decline; None: accept any offered, offer none
    rematches: int | None = None
    # host, play
    game: engines.Game | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    players: int = 0
    bots: int = 0
    bot_players: tuple[str, ...] = ()  # each bot's strategy (`--bots mcts,greedy`), one per bot
    beacon: bool = True
    # bot (and a bot's resume): the player of the SDK at this seat (client/bots)
    strategy: str | None = None
    exec: str | None = None
    on_error: str = "random"
    time: float | None = None
    faults: str | None = None  # where a bot started by a host notes its faults for it
    # join, bot
    table: TableName = OnlyTable()
    watch: bool = False
    wait: float = 3.0
    # resume
    file: Path | None = None
    # host (a private table), join, bot
    code: str | None = None
    # host, play: seconds a seat may be away before the others may claim it (None: the default)
    patience: int | None = None
    # host, play: the bot that plays a claimed seat at three or more seats ("none": none)
    takeover: str = DEFAULT_TAKEOVER

    def for_game(self, game: engines.Game, options: Mapping[str, Any], players: int | None) -> "LanOptions":
        """These options for a table of `game` (host, play): the seats are the bots and this
        node for `play`, else `players` or the game's minimum; UsageError when the game
        cannot be played so."""
        players = (self.bots + 1 if self.command == "play" else players) or game.min_players
        try:
            game.new_game(players, options)
        except OptionError as exc:
            raise UsageError(str(exc)) from None
        return replace(self, game=game, options=options, players=players)
