"""The command line of a LAN command, read once into a `LanOptions` (client/lan/options.py):
every flag checked, the table to join parsed into how it is named. What cannot be used is
one UsageError, said before anything starts."""
from __future__ import annotations

import argparse
import getpass
import ipaddress
import math
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

from peerboard.client.lan.addresses import _host_of
from peerboard.client.lan.options import DEFAULT_BOT, DEFAULT_TAKEOVER, ByAddress, ByName, LanOptions, OnlyTable, TableName
from peerboard.client.text import printable
from peerboard.client.usage import UsageError, game_named, options_from
from peerboard.node.keys import parse_key
from peerboard.protocol.log import MAX_NAME, MAX_PATIENCE, NO_TAKEOVER, TABLE_BYTES, name_problem
from peerboard.protocol.session import code_problem, host_code_problem, pick_code

TABLE_ID = re.compile(r"^[0-9a-f]{1,32}$")  # (the start of) a table id, as `peerboard tables` shows it
FINGERPRINT = re.compile(r"^[a-z2-7]{4}-[a-z2-7]{4}$")
ENDPOINT = re.compile(r"^tcp://(\*|[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})$")


def read_options(args: argparse.Namespace) -> LanOptions:
    """The options of `args` (as parsed by the sub-commands of client/lan/parser.py);
    UsageError for a value that cannot be used."""
    given = vars(args)
    name = player_name(given.get("name"))
    try:
        spectators = tuple(parse_key(k) for k in given.get("spectator") or ())
    except ValueError as exc:
        raise UsageError(f"--spectator: {exc}") from None
    code = table_code(given.get("code"), hosting=args.command == "host")
    if given.get("private"):
        code = pick_code(os.urandom)
    opts = LanOptions(
        command=args.command, name=name, named=given.get("name") is not None, bind=_endpoint(given.get("bind"), "--bind"),
        advertise=_ip(given.get("advertise")),
        headless=given.get("headless", False), plain=given.get("plain", False), seed=given.get("seed"),
        think=_seconds(given.get("think", 0.0), "--think"),
        verbose=given.get("verbose", False), spectators=spectators,
        spectators_any=given.get("spectators_any", False), beacon_port=given.get("beacon_port"),
        max_seconds=_seconds(given.get("max_seconds"), "--max-seconds", above_zero=True),
        parent=given.get("parent"), rematches=_rematches(given.get("rematches")),
        beacon=not given.get("no_beacon", False),
        watch=given.get("watch", False), wait=_seconds(given.get("wait", 3.0), "--wait"),
        file=Path(given["file"]) if given.get("file") else None, code=code,
        patience=table_patience(given.get("patience")), takeover=takeover_strategy(given.get("takeover")),
    )
    if args.command in ("host", "play"):
        bot_players = _bot_players(given.get("bots"), 1 if args.command == "play" else 0)
        opts = replace(opts, bots=len(bot_players), bot_players=bot_players)
        game = game_named(args.game)
        return opts.for_game(game, options_from(given.get("option"), game), given.get("players"))
    if args.command in ("join", "bot"):
        opts = replace(opts, table=table_name(args.target, given.get("key"), given.get("table"), given.get("game")))
    if args.command in ("bot", "resume"):
        opts = _with_bot(opts, given)
    return opts


def _rematches(given: int | None) -> int | None:
    if given is not None and given < 0:
        raise UsageError(f"--rematches must be 0 or more, not {given}")
    return given


def player_name(given: str | None) -> str:
    """The name this node shows: `--name`, else the user's name; UsageError for one that
    cannot be a player's."""
    name = given or user_name() or "player"
    problem = name_problem(name, MAX_NAME)
    if problem is not None:
        if given:
            raise UsageError(f"--name: {problem}")
        raise UsageError(f"your user name cannot be a player's name ({problem}): give one with --name")
    return name


def table_code(text: str | None, hosting: bool = False) -> str | None:
    """`--code`: a private table's code, checked — `hosting`, also long enough to resist
    guessing (None: an open table)."""
    problem = None if text is None else host_code_problem(text) if hosting else code_problem(text)
    if problem:
        raise UsageError(f"--code: {problem}")
    return text


def takeover_strategy(value: str | None) -> str:
    """`--takeover`: the built-in bot that plays a claimed seat at three or more seats, or
    "none"; checked (only a built-in that needs no extra: the name goes to every other node
    in the genesis, and any of them may have to play it)."""
    from peerboard.client.bots.registry import BUILT_IN, EXTRA
    if value is None:
        return DEFAULT_TAKEOVER
    everywhere = sorted(name for name in BUILT_IN if name not in EXTRA)
    if value != NO_TAKEOVER and value not in everywhere:
        raise UsageError(f"--takeover takes one of {', '.join(everywhere)} or none, not {printable(value, 100)!r}")
    return value


def table_patience(value: int | None) -> int | None:
    """`--patience`: the seconds a seat may be away before the others may claim it, checked."""
    if value is not None and not 1 <= value <= MAX_PATIENCE:
        raise UsageError(f"--patience takes a whole number of seconds from 1 to {MAX_PATIENCE}, not {value}")
    return value


def bind_endpoint(text: str | None) -> str | None:
    """`--bind`: a `tcp://HOST:PORT` to listen on, checked."""
    return _endpoint(text, "--bind")


def _endpoint(text: str | None, flag: str) -> str | None:
    """A `tcp://HOST:PORT` to listen on, checked (ZeroMQ would quietly take a port past
    65535 modulo 65536)."""
    if text is None:
        return None
    m = ENDPOINT.match(text)
    if m is None or int(m.group(2)) > 65535:
        raise UsageError(f"{flag} takes tcp://IP:PORT with a port from 0 to 65535 (0: any free port), "
                         f"not {printable(text, 80)!r}")
    return text


def _ip(text: str | None) -> str | None:
    """`--advertise`: an IPv4 address (what others will connect to: a word here would
    reach them as a broken address)."""
    if text is None:
        return None
    try:
        return str(ipaddress.IPv4Address(text))
    except ValueError:
        raise UsageError(f"--advertise takes the IPv4 address others reach this machine at "
                         f"(like 192.168.1.5), not {printable(text, 80)!r}") from None


def _seconds(value: float | None, flag: str, above_zero: bool = False) -> float | None:
    if value is None:
        return None
    if not math.isfinite(value) or value < 0 or (above_zero and value == 0):
        least = "more than 0" if above_zero else "0 or more"
        raise UsageError(f"{flag} takes a number of seconds, {least}, not {value:g}")
    return value



def _bot_players(text: str | None, default: int) -> tuple[str, ...]:
    """`--bots`: a count of bots playing DEFAULT_BOT, or one strategy per bot, comma-separated
    (a built-in name or module.path:Class, each optionally @BUDGET), checked here."""
    from peerboard.client.bots.sdk import BotError
    from peerboard.client.bots.tournament import parse_players

    if text is None:
        return (DEFAULT_BOT,) * default
    text = text.strip()
    if text.isdigit():
        return (DEFAULT_BOT,) * int(text)
    if text.startswith("-") and text[1:].isdigit():
        raise UsageError(f"--bots must be a number of bots or a list of strategies, not {text}")
    entries = tuple(e.strip() for e in text.split(","))
    if "exec" in (e.partition("@")[0] for e in entries):
        raise UsageError("--bots takes built-in or importable bots; a program joins with: peerboard bot TABLE --exec CMD")
    try:
        parse_players(text, len(entries))
    except BotError as exc:
        raise UsageError(f"--bots: {exc}") from None
    return entries


def _with_bot(opts: LanOptions, given: Mapping[str, Any]) -> LanOptions:
    """`peerboard bot`: the SDK player that takes the seat, checked before anything starts."""
    from peerboard.client.bots.guard import ON_ERROR
    from peerboard.client.bots.sdk import BotError
    from peerboard.client.bots.tournament import parse_players

    strategy, command = given.get("strategy"), given.get("exec")
    if strategy and command:
        raise UsageError("a bot is either --strategy NAME or --exec CMD, not both")
    if command is not None and not command.strip():
        raise UsageError("--exec needs a command")
    limit = given.get("time")
    if limit is not None and not limit > 0:
        raise UsageError("--time must be more than 0 seconds")
    on_error = given.get("on_error") or "random"
    if on_error not in ON_ERROR:
        raise UsageError(f"--on-error is one of {', '.join(ON_ERROR)}")
    if strategy or command:
        try:
            parse_players("exec" if command else strategy, 1, [command] if command else [])
        except BotError as exc:
            raise UsageError(str(exc)) from None
    return replace(opts, strategy=strategy, exec=command, on_error=on_error, time=limit,
                    faults=given.get("faults"))


def table_name(target: str | None, key: str | None, table: str | None, game: str | None) -> TableName:
    """How the table to join is named: TABLE|ADDRESS as given, with `--key`, `--table` and
    `--game` (hex, as the host prints them) beside an address."""
    if target is None:
        return OnlyTable()
    if not (target.startswith("tcp://") or ":" in target):
        text = target.lower()
        table_id, at, host = text.partition("@")
        if at and TABLE_ID.match(table_id) and FINGERPRINT.match(host):
            return ByName(table_id, host)
        if not at and (TABLE_ID.match(text) or FINGERPRINT.match(text)):
            return ByName(text)
        raise UsageError(f"{printable(target, 80)!r} names no table: give a table id from `peerboard tables` "
                         f"(like 3fa9c2d1), a host's fingerprint (like abcd-efgh), ID@FINGERPRINT when two "
                         f"hosts announce one id, or tcp://HOST:PORT")
    endpoint = target if target.startswith("tcp://") else f"tcp://{target}"
    try:
        _host_of(endpoint)
        _endpoint(endpoint, "join")
    except (ValueError, UsageError):
        raise UsageError(f"{printable(target, 80)!r} is not an address like tcp://192.168.1.5:41234") from None
    if not (key and table and game):
        return ByAddress(endpoint)
    try:
        host_key, table_id = parse_key(key), bytes.fromhex(table)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if len(table_id) != TABLE_BYTES:
        raise UsageError(f"--table takes the {2 * TABLE_BYTES} hex digits the host prints")
    return ByAddress(endpoint, host_key, table_id, game)


def user_name() -> str | None:
    """The user's login name: $LOGNAME/$USER when set, else the account's own name (a shell
    started by tmux, cron or a service may carry no $USER), None when there is none."""
    try:
        return getpass.getuser() or None
    except (OSError, KeyError):  # (no variable and no entry in the password database)
        return None
