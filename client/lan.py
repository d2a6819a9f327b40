"""LAN play from the command line: `host`, `join`, `tables`, `play`, `bot`, `resume`, `key`.

The command line is read once into a `LanOptions` value (every flag checked, the table to
join parsed into how it is named). Each command then builds one node (node/loop.py) — this
user's identity, a transport bound where asked, a session — puts a console or a random player
at it (client/seat.py) and runs its loop until the game is over. `play` and `host --bots`
start each bot as a separate process (`peerboard bot`) with its own identity under the data
directory's bots/ folder.
"""
from __future__ import annotations

import argparse
import ipaddress
import math
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from peerboard import engines
from peerboard.client.exitcode import ExitCode
from peerboard.client.seat import FORMING_HELP, ConsoleSeat, RandomSeat, Seat, StrategySeat
from peerboard.client.text import printable
from peerboard.client.usage import UsageError, game_named, options_from
from peerboard.engines import OptionError
from peerboard.node import discovery
from peerboard.node.gamefiles import GameFileError, GameFiles, is_finished, unfinished_games
from peerboard.node.keys import KeyFileError, curve_public, load_identity, parse_key
from peerboard.node.loop import SPECTATOR_GRACE, Node, Notice
from peerboard.node.dirs import data_dir
from peerboard.node.transport import Admission, Transport, TransportError
from peerboard.protocol.chain import ChainError
from peerboard.protocol.identity import Identity, fingerprint
from peerboard.protocol.names import name_problem
from peerboard.protocol.schema import MAX_NAME, PROTOCOL_VERSION, TABLE_BYTES
from peerboard.protocol.secrets import SeatSecrets
from peerboard.protocol.session import Phase
from peerboard.protocol.tablecode import code_problem, pick_code

PROBE = "203.0.113.1"  # TEST-NET-3: only asks the routing table which interface is the default
TABLE_ID = re.compile(r"^[0-9a-f]{1,32}$")  # (the start of) a table id, as `peerboard tables` shows it
FINGERPRINT = re.compile(r"^[a-z2-7]{4}-[a-z2-7]{4}$")
ENDPOINT = re.compile(r"^tcp://(\*|[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})$")
TABLES_NAMED_AT_MOST = 8  # tables one "several tables" error lists
GAMES_OFFERED_AT_MOST = 5  # unfinished games offered at start-up


# -- the command line, read once ------------------------------------------------------------


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

    @classmethod
    def parse(cls, args: argparse.Namespace) -> "LanOptions":
        """The options of `args` (as parsed by the sub-commands of `add_commands`); UsageError
        for a value that cannot be used."""
        given = vars(args)
        name = given.get("name") or os.environ.get("USER") or "player"
        problem = name_problem(name, MAX_NAME)
        if problem is not None:
            if given.get("name"):
                raise UsageError(f"--name: {problem}")
            raise UsageError(f"your user name cannot be a player's name ({problem}): give one with --name")
        try:
            spectators = tuple(parse_key(k) for k in given.get("spectator") or ())
        except ValueError as exc:
            raise UsageError(f"--spectator: {exc}") from None
        code = given.get("code")
        if code is not None and code_problem(code):
            raise UsageError(f"--code: {code_problem(code)}")
        if given.get("private"):
            code = pick_code(os.urandom)
        opts = cls(
            command=args.command, name=name, bind=_endpoint(given.get("bind"), "--bind"),
            advertise=_ip(given.get("advertise")),
            headless=given.get("headless", False), plain=given.get("plain", False), seed=given.get("seed"),
            think=_seconds(given.get("think", 0.0), "--think"),
            verbose=given.get("verbose", False), spectators=spectators,
            spectators_any=given.get("spectators_any", False), beacon_port=given.get("beacon_port"),
            max_seconds=_seconds(given.get("max_seconds"), "--max-seconds", above_zero=True),
            parent=given.get("parent"),
            beacon=not given.get("no_beacon", False),
            watch=given.get("watch", False), wait=_seconds(given.get("wait", 3.0), "--wait"),
            file=Path(given["file"]) if given.get("file") else None, code=code,
        )
        if args.command in ("host", "play"):
            bot_players = _bot_players(given.get("bots"), 1 if args.command == "play" else 0)
            opts = _replace(opts, bots=len(bot_players), bot_players=bot_players)
            return opts._with_game(args.game, given.get("option"), given.get("players"))
        if args.command in ("join", "bot"):
            opts = _replace(opts, table=_table_name(args.target, given.get("key"), given.get("table"), given.get("game")))
        if args.command in ("bot", "resume"):
            opts = _with_bot(opts, given)
        return opts

    def _with_game(self, name: str, pairs: list[str] | None, players: int | None) -> "LanOptions":
        game = game_named(name)
        options = options_from(pairs, game)
        players = (self.bots + 1 if self.command == "play" else players) or game.min_players
        try:
            game.new_game(players, options)
        except OptionError as exc:
            raise UsageError(str(exc)) from None
        return _replace(self, game=game, options=options, players=players)


def _replace(opts: LanOptions, **changes: Any) -> LanOptions:
    return LanOptions(**{**vars(opts), **changes})


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


DEFAULT_BOT = "greedy"  # the strategy of `--bots N`


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
    return _replace(opts, strategy=strategy, exec=command, on_error=on_error, time=limit,
                    faults=given.get("faults"))


def _table_name(target: str | None, key: str | None, table: str | None, game: str | None) -> TableName:
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


# -- shared pieces --------------------------------------------------------------------------


def _identity() -> Identity:
    try:
        return load_identity()
    except KeyFileError as exc:
        raise UsageError(str(exc)) from None


def _host_of(endpoint: str) -> tuple[str, int]:
    host, _, port = endpoint.removeprefix("tcp://").rpartition(":")
    return host.strip("[]"), int(port)


def _local_ip_toward(ip: str) -> str | None:
    """This machine's address on the way to `ip` (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((ip, 9))
            return s.getsockname()[0]
    except OSError:
        return None


def _advertised(endpoint: str, toward: str | None, advertise: str | None) -> str:
    """Where peers should connect: the bound address, with a wildcard made concrete."""
    host, port = _host_of(endpoint)
    if advertise:
        return f"tcp://{advertise}:{port}"
    if host not in ("0.0.0.0", "*"):
        return endpoint
    ip = _local_ip_toward(toward or PROBE)
    if ip is None:
        print("no network: only this machine can reach this node (listening on loopback)", flush=True)
        ip = "127.0.0.1"
    return f"tcp://{ip}:{port}"


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


def _seat(opts: LanOptions, node: Node) -> Seat:
    if opts.strategy or opts.exec:
        return _strategy_seat(opts, node)
    if not (opts.headless or opts.plain) and sys.stdin.isatty() and sys.stdout.isatty():
        from peerboard.client.tui.live import ScreenSeat  # the full-screen client (client/tui)

        return ScreenSeat(node)
    if opts.headless:
        return RandomSeat(node, seed=opts.seed, think=opts.think, verbose=opts.verbose)
    if not sys.stdin.isatty():
        # nobody to type moves (a script, a pipe, CI): the seat plays itself and says so
        print("no terminal to play at: the built-in random player takes this seat (--headless)", flush=True)
        return RandomSeat(node, seed=opts.seed, think=opts.think, verbose=True)
    return ConsoleSeat(node)


def _strategy_seat(opts: LanOptions, node: Node) -> Seat:
    from peerboard.client.bots.tournament import parse_players

    (player,) = parse_players("exec" if opts.exec else opts.strategy, 1, [opts.exec] if opts.exec else [])
    seed = str(opts.seed if opts.seed is not None else int.from_bytes(os.urandom(4), "big"))
    return StrategySeat(node, player.make(seed), player.label, seed, opts.on_error, opts.time, opts.faults,
                        verbose=opts.verbose)


def _run(node: Node, seat: Seat, opts: LanOptions) -> ExitCode:
    """The node's loop until the game is over here (or it halts, is refused, or is left)."""
    if hasattr(seat, "run"):  # the full-screen client runs the node's loop itself (client/tui/live.py)
        try:
            return seat.run(opts.max_seconds)
        finally:
            node.close(linger=1.0)
    def stop(signum, frame):
        seat.interrupted = True
        node.stop()

    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    if opts.parent:
        def orphaned() -> None:
            if os.getppid() != opts.parent:
                seat.say("the process that started this bot is gone; leaving")
                seat.interrupted = True
                node.stop()
            else:
                node.call_later(1.0, orphaned)
        node.call_later(1.0, orphaned)
    try:
        finished = node.run(node.finished, max_seconds=opts.max_seconds)
        if finished:
            node.linger(SPECTATOR_GRACE)  # spectators may still be catching up from this node
        if node.session is not None and node.session.halt is None:
            # whatever ends this node's run, the others are told at once (a halted node is
            # shown away instead: it comes back with `resume`)
            if seat.interrupted:
                seat.say(seat.leaving())
            node.leave()
        if seat.interrupted:
            return ExitCode.INTERRUPTED if seat.exit_status is None else seat.exit_status
        if seat.exit_status is not None:
            return seat.exit_status
        if not finished:
            seat.say(f"gave up after {opts.max_seconds:g} s (--max-seconds); the game is not over"
                     + (f"; resume it with: peerboard resume {seat.log_path}" if seat.log_path else ""))
            return ExitCode.GAVE_UP
        if seat.log_path is not None:
            seat.say(f"the game's log: {seat.log_path} (check it with: peerboard replay {seat.log_path} --verify)")
        return ExitCode.DONE
    finally:
        node.close(linger=1.0)
        for s, handler in old.items():
            signal.signal(s, handler)


def _spawn(argv: list[str], home: Path, out: Path) -> subprocess.Popen:
    """A `peerboard` child process with its own home (identity and games)."""
    home.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PEERBOARD_HOME=str(home))
    with open(out, "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "peerboard.client.cli", *argv], env=env, stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT)


def _bot_homes(count: int) -> list[Path]:
    return [data_dir() / "bots" / f"bot-{i + 1}" for i in range(count)]


def _start_bots(opts: LanOptions, homes: list[Path], endpoint: str, key: bytes, table: bytes, bind_host: str,
                advertise: str) -> list[subprocess.Popen]:
    """One `peerboard bot` process per bot seat. Every node of the table admits the
    spectators the table admits, so each bot is given the same --spectator keys and
    --spectators-any (spec/transport.md, "Spectators")."""
    procs = []
    watchers = [a for k in opts.spectators for a in ("--spectator", k.hex())]
    if opts.spectators_any:
        watchers.append("--spectators-any")
    for i, (home, strategy) in enumerate(zip(homes, opts.bot_players)):
        argv = ["bot", endpoint, "--key", key.hex(), "--table", table.hex(), "--game", opts.game.name,
                "--name", f"bot-{i + 1}", "--bind", f"tcp://{bind_host}:0", "--advertise", advertise,
                "--parent", str(os.getpid()), "--think", str(opts.think), "--strategy", strategy,
                "--faults", str(_faults_file(home)), *watchers]
        if opts.seed is not None:
            argv += ["--seed", str(opts.seed + i + 1)]
        if opts.code is not None:
            argv += ["--code", opts.code]
        procs.append(_spawn(argv, home, home / "bot.out"))
    return procs


def _faults_file(home: Path) -> Path:
    return home / "faults.txt"


def _show_bot_faults(node: Node, homes: list[Path]) -> None:
    """Pass on, as notices, the fault lines the host's own bots write (a bot that failed is
    played by the random player, or forfeits): the table's output shows them."""
    seen = {home: 0 for home in homes}
    for home in homes:
        try:
            _faults_file(home).unlink()
        except OSError:
            pass  # (none from an earlier game)

    def look() -> None:
        for i, home in enumerate(homes):
            try:
                with open(_faults_file(home), "rb") as f:
                    f.seek(seen[home])
                    data = f.read(64 * 1024)
            except OSError:
                continue
            complete = data[: data.rfind(b"\n") + 1]
            seen[home] += len(complete)
            for line in complete.decode("utf-8", "replace").splitlines():
                node.on_event(Notice(f"bot-{i + 1}: {printable(line, 300)}"))
        node.call_later(0.5, look)

    node.call_later(0.5, look)


def _reap(procs: list[subprocess.Popen], leave: bool = False, wait: float = 10.0) -> None:
    """Wait for the bot processes to end; `leave`: the game goes on without this node, so
    they are told to leave now (SIGTERM: a bot leaves cleanly on it)."""
    if leave:
        for p in procs:
            if p.poll() is None:
                p.terminate()
    deadline = time.monotonic() + wait
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def _offer_resume(opts: LanOptions) -> ExitCode | None:
    """Say which unfinished games of the game asked for (any game, joining a table not
    named by its game) could be resumed, the most recent first; on a terminal, offer to
    resume one now."""
    if opts.headless or not opts.offer_resume:
        return None
    game = opts.game.name if opts.game is not None else getattr(opts.table, "game", None)
    games = unfinished_games(game=game)
    if not games:
        return None
    offered = games[:GAMES_OFFERED_AT_MOST]
    print(f"unfinished {game + ' ' if game else ''}games, the most recent first "
          f"(resume one with: peerboard resume FILE):")
    for n, (path, contents) in enumerate(offered, 1):
        g = contents.genesis.genesis
        print(f"  {n}. {g.game}, {len(contents.entries)} entries: {path}")
    if len(games) > len(offered):
        print(f"  … and {len(games) - len(offered)} older ones in {offered[0][0].parent}")
    if not sys.stdin.isatty():
        return None
    choices = "1" if len(offered) == 1 else f"1-{len(offered)}"
    try:
        answer = input(f"Resume one now? [{choices}, or Enter for a new game] ").strip().lower()
    except EOFError:
        return None
    if answer in ("y", "yes"):
        answer = "1"
    if not answer.isdigit() or not 1 <= int(answer) <= len(offered):
        if answer not in ("", "n", "no"):
            print(f"{printable(answer, 20)!r} is not one of {choices}: a new game, then")
        return None
    # (where the game was played: the flags were about a new table's node)
    return _resume(offered[int(answer) - 1][0], _replace(opts, bind=None))


# -- finding the table to join, by how it is named ----------------------------------------------


@dataclass(frozen=True)
class TableAt:
    """Everything joining a table needs."""

    endpoint: str
    key: bytes
    table: bytes
    game: str


def find_table(opts: LanOptions) -> TableAt:
    match opts.table:
        case ByAddress(endpoint, key, table, game) if key is not None:
            return TableAt(endpoint, key, table, game)
        case ByAddress(endpoint):
            return _heard_table(opts, lambda t: t.endpoint == endpoint, f"at {endpoint}",
                                f"; give its --key, --table and --game (the host prints them)")
        case ByName(text, host):
            named = f"{text}@{host}" if host else text
            return _heard_table(opts, lambda t: ((t.table_id.startswith(text) or t.fingerprint == text)
                                                 and host in (None, t.fingerprint)), repr(named),
                                " (see: peerboard tables)")
        case OnlyTable():
            return _heard_table(opts, None, "", "")
    raise TypeError(f"{opts.table!r} names no table")


def _heard_table(opts: LanOptions, match: Callable[[discovery.Table], bool] | None, what: str,
                 hint: str) -> TableAt:
    """The one announced table `match` picks (any, without one), heard within --wait. It
    stops listening at the first match only when the host is pinned (by its address, or
    ID@FINGERPRINT): otherwise a second host announcing the same id must have its chance
    to be heard, and to be named beside the first."""
    pinned = isinstance(opts.table, ByAddress) or (isinstance(opts.table, ByName) and opts.table.host is not None)
    heard = discovery.listen(opts.wait, opts.beacon_port,
                             until=(lambda ts: any(match(t) for t in ts)) if match and pinned else None)
    found = [t for t in heard if match(t)] if match else heard
    if not found:
        where = f"{what} " if what else ""
        if isinstance(opts.table, ByAddress):
            raise UsageError(f"no table announced {where}within {opts.wait:g} s{hint}")
        raise UsageError(f"no open table {where}heard on this network within {opts.wait:g} s{hint}")
    if len(found) > 1:
        listed = "; ".join(f"{t.table_id[:8]}@{t.fingerprint} ({printable(t.game, 12)}, host "
                           f"{printable(t.name, 20)}{', private' if t.private else ''})"
                           for t in found[:TABLES_NAMED_AT_MOST])
        more = f"; and {len(found) - TABLES_NAMED_AT_MOST} more" if len(found) > TABLES_NAMED_AT_MOST else ""
        raise UsageError(f"{len(found)} tables fit: {listed}{more}; name one: peerboard join ID@FINGERPRINT "
                         f"(compare the fingerprint with its host's)")
    return _joinable(found[0], opts.watch, opts.code)


def _joinable(t: discovery.Table, watch: bool, code: str | None = None) -> TableAt:
    """The table a beacon announced, if this node can join it."""
    if t.version != PROTOCOL_VERSION:
        raise UsageError(f"the table {t.table_id[:8]} speaks protocol version {t.version}; this peerboard speaks "
                         f"version {PROTOCOL_VERSION}")
    if t.free <= 0 and not watch:
        raise UsageError(f"the table {t.table_id[:8]} is full ({t.players} seats)")
    try:
        engines.get(t.game)
    except OptionError:
        raise UsageError(f"the table {t.table_id[:8]} plays {printable(t.game)!r}, a game this peerboard "
                         f"does not have") from None
    if t.private and code is None:
        raise UsageError(f"the table {t.table_id[:8]} is private: give its code with --code (ask its host)")
    return TableAt(t.endpoint, t.key, t.table, t.game)


# -- commands ---------------------------------------------------------------------------------


def cmd_host(opts: LanOptions) -> ExitCode:
    if not 0 <= opts.bots < opts.players:
        raise UsageError(f"--bots must be from 0 to {opts.players - 1} (the other seats of {opts.players})")
    resumed = _offer_resume(opts)
    if resumed is not None:
        return resumed
    return _host(opts, opts.bind)


def cmd_play(opts: LanOptions) -> ExitCode:
    if opts.bots < 1:
        raise UsageError("--bots must be at least 1")
    resumed = _offer_resume(opts)
    if resumed is not None:
        return resumed
    return _host(_replace(opts, beacon=False), "tcp://127.0.0.1:0")


def _host(opts: LanOptions, bind: str) -> ExitCode:
    game = opts.game
    identity = _identity()
    transport = _transport(opts, identity, bind)
    bind_host, port = _host_of(transport.endpoint)
    addr = _advertised(transport.endpoint, None, opts.advertise)
    node = Node(identity, opts.name, transport, addr, on_event=lambda e: None)
    seat = _seat(opts, node)
    homes = _bot_homes(opts.bots) if opts.bots else []
    node.seat_extra = {"bind": transport.endpoint, "bots": [str(h) for h in homes], "bot_players": list(opts.bot_players)}
    table = node.host(SeatSecrets.from_master(os.urandom(32)), game.name, opts.players, dict(opts.options),
                      discovery.Beacon(bind_host, opts.beacon_port) if opts.beacon else None, code=opts.code)
    seat.say(f"table {table.hex()[:8]} open: {game.title}, {opts.players} seats; you are seat 0 "
             f"({identity.fingerprint}), listening on {addr}")
    code = f" --code {opts.code}" if opts.code else ""
    if opts.code:
        seat.say(f"a private table: its code is {opts.code} (tell it to the players you invite; it never goes "
                 f"out on the network)")
    # the whole join line, in every mode: it is also how a spectator or another bot finds the table
    seat.say(f"join it from anywhere: peerboard join {addr} --key {identity.public_key.hex()} "
             f"--table {table.hex()} --game {game.name}{code}")
    if opts.players - 1 - opts.bots > 0:
        if opts.beacon:
            seat.say(f"or from this network: peerboard join {table.hex()[:8]}@{identity.fingerprint}{code}")
        if isinstance(seat, ConsoleSeat):
            seat.say(FORMING_HELP)
    local = f"tcp://{'127.0.0.1' if bind_host in ('0.0.0.0', '*') else bind_host}:{port}"
    procs = _start_bots(opts, homes, local, identity.public_key, table, bind_host, _host_of(addr)[0]) if opts.bots else []
    if homes:
        _show_bot_faults(node, homes)
    return _run_with_bots(node, seat, opts, procs)


def _run_with_bots(node: Node, seat: Seat, opts: LanOptions, procs: list[subprocess.Popen]) -> ExitCode:
    """`_run`, then the bot processes end: by themselves once the game is over, or told to
    leave when this node leaves before."""
    over = False
    try:
        status = _run(node, seat, opts)
        over = node.finished()
        if procs and not over:
            seat.say("your bots leave the table too" + ("; resuming the game restarts them" if seat.log_path else ""))
        return status
    finally:
        _reap(procs, leave=not over)


def cmd_join(opts: LanOptions) -> ExitCode:
    resumed = None if opts.command == "bot" else _offer_resume(opts)
    if resumed is not None:
        return resumed
    at = find_table(opts)
    identity = _identity()
    if at.key == identity.public_key:
        raise UsageError("that table is your own (the host's key is yours)")
    transport = _transport(opts, identity, opts.bind)
    addr = _advertised(transport.endpoint, _host_of(at.endpoint)[0], opts.advertise)
    node = Node(identity, opts.name, transport, addr, on_event=lambda e: None)
    seat = _seat(opts, node)
    node.seat_extra = {"bind": transport.endpoint}
    secrets = None if opts.watch else SeatSecrets.from_master(os.urandom(32))
    seat.say(f"joining {at.endpoint} (host {fingerprint(at.key)}) as {identity.fingerprint}"
             + (" to watch" if opts.watch else ""))
    node.join(secrets, at.key, at.endpoint, at.table, at.game, code=opts.code)

    def no_answer() -> None:
        s = node.session
        if s.phase is Phase.FORMING and s.players == 0:  # not even welcomed
            seat.say(f"no answer from the table at {at.endpoint} within {opts.wait:g} s "
                     f"(is it still open, and is the key right?)")
            seat.finish(ExitCode.REFUSED)

    node.call_later(max(opts.wait, 1.0), no_answer)
    return _run(node, seat, opts)


def cmd_resume(opts: LanOptions) -> ExitCode:
    if not opts.file.is_file():
        raise UsageError(f"no such file: {opts.file}")
    return _resume(opts.file, opts)


def _resume(path: Path, opts: LanOptions) -> ExitCode:
    try:
        files, contents = GameFiles.reopen(path)
    except (GameFileError, OSError) as exc:
        raise UsageError(str(exc)) from None
    if is_finished(contents):
        files.close()
        print(f"that game is over; check it with: peerboard replay {path} --verify")
        return ExitCode.DONE
    s = files.seat
    identity = Identity.from_seed(s.identity)
    bind = opts.bind or s.extra.get("bind") or s.addr
    try:
        transport = _transport(opts, identity, bind)
        addr = s.addr
        if opts.bind is not None or opts.advertise is not None:
            # it listens somewhere else now: its hello tells the others when it resumes
            addr = _advertised(transport.endpoint, None, opts.advertise)
            files.update_seat(addr=addr, extra={**s.extra, "bind": transport.endpoint})
    except BaseException:
        files.close()
        raise
    node = Node(identity, s.name, transport, addr, on_event=lambda e: None)
    seat = _seat(opts, node)
    procs = []
    table = contents.genesis.genesis.table
    homes = [Path(h) for h in s.extra.get("bots", ())]
    strategies = list(s.extra.get("bot_players", ())) + ["random"] * len(homes)  # (logs from before strategies)
    for home, strategy in zip(homes, strategies):
        logs = GameFiles.logs_of_table(home / "games", table)
        if logs:
            procs.append(_spawn(["resume", str(logs[-1]), "--headless", "--strategy", strategy,
                                 "--faults", str(_faults_file(home)), "--parent", str(os.getpid())],
                                home, home / "bot.out"))
    if homes:
        _show_bot_faults(node, homes)
    seat.say(f"resuming {path.name} at entry {len(contents.entries)}"
             + (f", listening on {addr}" if addr != s.addr else ""))
    try:
        node.resume(files, contents)
    except BaseException as exc:
        node.close(linger=0)
        _reap(procs, leave=True)
        if isinstance(exc, ChainError):
            raise UsageError(f"{path} does not check out at seq {exc.seq} ({exc.why}): it cannot be resumed") from None
        raise
    return _run_with_bots(node, seat, opts, procs)


def cmd_tables(opts: LanOptions) -> ExitCode:
    """The open tables heard, one line each (at most `discovery.MAX_TABLES`), two hosts
    announcing one table id as two lines, and what the bounds and checks left out."""
    heard = discovery.Heard()
    tables = discovery.listen(opts.wait, opts.beacon_port, heard=heard)
    if not tables:
        print(f"no open tables heard on this network in {opts.wait:g} s")
    for t in tables:
        note = "" if t.version == PROTOCOL_VERSION else f"  (protocol v{t.version}: cannot join)"
        private = "  private" if t.private else ""
        print(f"{t.table_id[:8]}  {printable(t.game, 32):<8} {t.players - t.free}/{t.players} seated  "
              f"host {printable(t.name, 40)} ({t.fingerprint})  {t.endpoint}{private}{note}")
    ids = [t.table_id for t in tables]
    for table_id in sorted({i for i in ids if ids.count(i) > 1}):
        print(f"{ids.count(table_id)} hosts announce table {table_id[:8]}: compare the fingerprint with its host's, "
              f"then join with: peerboard join {table_id[:8]}@FINGERPRINT")
    if heard.ignored:
        print(f"{heard.ignored} announcements of further tables were ignored (at most {discovery.MAX_TABLES} tables "
              f"are kept, {discovery.MAX_PER_SOURCE} from one address)")
    if heard.malformed:
        print(f"{heard.malformed} datagrams on the beacon port were not valid beacons (ignored)")
    return ExitCode.DONE


def cmd_key(opts: LanOptions) -> ExitCode:
    identity = _identity()
    print(f"fingerprint {identity.fingerprint}")
    print(f"public key  {identity.public_key.hex()}")
    return ExitCode.DONE


# -- the parser hook ------------------------------------------------------------------------------


def _lan(command: Callable[[LanOptions], ExitCode]) -> Callable[[argparse.Namespace], ExitCode]:
    """A command run with the options read once from its arguments."""
    return lambda args: command(LanOptions.parse(args))


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
    p.add_argument("--spectator", action="append", metavar="KEY", help="admit this key (hex) to watch; repeatable")
    p.add_argument("--spectators-any", action="store_true", help="admit any key to watch the game")
    p.add_argument("--beacon-port", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--max-seconds", type=float, default=None, help="give up after this long (exit 3)")
    p.add_argument("--parent", type=int, default=None, help=argparse.SUPPRESS)


def _bot_flags(p: argparse.ArgumentParser) -> None:
    """A bot of the SDK at this seat (`bot`; `resume`, for a bot's own game)."""
    p.add_argument("--strategy", metavar="NAME", help="the player: random, greedy, mcts (each optionally @BUDGET: "
                   "mcts@2000, mcts@0.5s) or mypkg.mybot:MyBot (default: the built-in random player)")
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
    _node_flags(p, "tcp://0.0.0.0:0")
    p.set_defaults(run=_lan(cmd_host))

    for command, help_ in (("join", "take a seat at a table (or --watch it)"),
                           ("bot", "a headless random seat joining a table")):
        p = sub.add_parser(command, help=help_)
        p.add_argument("target", nargs="?", metavar="TABLE|ADDRESS",
                       help="a table id or host fingerprint from `peerboard tables`, or tcp://HOST:PORT")
        p.add_argument("--key", help="the host's public key (hex), with an ADDRESS")
        p.add_argument("--table", help="the table id (hex), with an ADDRESS")
        p.add_argument("--game", help="the table's game, with an ADDRESS")
        p.add_argument("--watch", action="store_true", help="watch as a spectator instead of taking a seat")
        p.add_argument("--code", help="the code of a private table (its host has it)")
        p.add_argument("--wait", type=float, default=3.0, help="seconds to listen for the table (default 3)")
        _node_flags(p, "tcp://0.0.0.0:0")
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
                   f"per bot: random, greedy, mcts, each optionally @BUDGET, or mypkg.mybot:MyBot")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
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
