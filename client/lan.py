"""LAN play from the command line: `host`, `join`, `tables`, `play`, `bot`, `resume`, `key`.

Each command builds one node (node/loop.py) — this user's identity, a transport bound where
asked, a session — puts a console or a random player at it (client/seat.py) and runs its loop
until the game is over. `play` and `host --bots` start each bot as a separate process
(`peerboard bot`) with its own identity under the data directory's bots/ folder.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import engines
from engines import OptionError
from node import discovery
from node.gamefiles import GameFileError, GameFiles, is_finished, unfinished_games
from node.keys import KeyFileError, curve_public, load_identity, parse_key
from node.loop import SPECTATOR_GRACE, Node
from node.storage import data_dir
from node.transport import Admission, Transport, TransportError
from protocol.identity import Identity, fingerprint
from protocol.schema import MAX_NAME, PROTOCOL_VERSION, TABLE_BYTES
from protocol.secrets import SeatSecrets
from client.usage import UsageError, game_named, options_from
from client.seat import EXIT_DONE, EXIT_REFUSED, ConsoleSeat, RandomSeat, Seat

ROOT = Path(__file__).resolve().parent.parent
EXIT_GAVE_UP = 3
PROBE = "203.0.113.1"  # TEST-NET-3: only asks the routing table which interface is the default


# -- shared pieces --------------------------------------------------------------------------


def _identity() -> Identity:
    try:
        return load_identity()
    except KeyFileError as exc:
        raise UsageError(str(exc)) from None


def _name(args: argparse.Namespace) -> str:
    name = args.name or os.environ.get("USER") or "player"
    if len(name) > MAX_NAME:
        raise UsageError(f"--name must be at most {MAX_NAME} characters")
    return name


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


def _transport(args: argparse.Namespace, identity: Identity, bind: str) -> Transport:
    try:
        watchers = [parse_key(k) for k in args.spectator or ()]
    except ValueError as exc:
        raise UsageError(f"--spectator: {exc}") from None
    admission = Admission(spectator_keys={curve_public(k) for k in watchers},
                          open_to_spectators=args.spectators_any)
    try:
        transport = Transport(identity, bind, admission)
    except TransportError as exc:
        raise UsageError(str(exc)) from None
    for k in watchers:
        transport.know(k)
    return transport


def _seat(args: argparse.Namespace, node: Node) -> Seat:
    if args.headless:
        return RandomSeat(node, seed=args.seed, think=args.think, verbose=args.verbose)
    if not sys.stdin.isatty():
        # nobody to type moves (a script, a pipe, CI): the seat plays itself and says so
        print("no terminal to play at: the built-in random player takes this seat (--headless)", flush=True)
        return RandomSeat(node, seed=args.seed, think=args.think, verbose=True)
    return ConsoleSeat(node)


def _run(node: Node, seat: Seat, args: argparse.Namespace) -> int:
    """The node's loop until the game is over here (or it halts, is refused, or is left)."""
    def stop(signum, frame):
        seat.interrupted = True
        node.stop()

    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    parent = getattr(args, "parent", None)
    if parent:
        def orphaned() -> None:
            if os.getppid() != parent:
                seat.say("the process that started this bot is gone; leaving")
                seat.interrupted = True
                node.stop()
            else:
                node.call_later(1.0, orphaned)
        node.call_later(1.0, orphaned)
    try:
        finished = node.run(node.finished, max_seconds=args.max_seconds)
        if finished and node.session.spectators:
            node.stopped = False  # spectators may still be catching up from this node
            node.run(lambda: False, max_seconds=SPECTATOR_GRACE)
        if seat.interrupted:
            seat.say("leaving the game" + (f" (resume it with: peerboard resume {seat.log_path})" if seat.log_path else ""))
            node.leave()
            return 130 if seat.exit_status is None else seat.exit_status
        if seat.exit_status is not None:
            return seat.exit_status
        if not finished:
            seat.say(f"gave up after {args.max_seconds:g} s (--max-seconds); the game is not over"
                     + (f"; resume it with: peerboard resume {seat.log_path}" if seat.log_path else ""))
            return EXIT_GAVE_UP
        return EXIT_DONE
    finally:
        node.close(linger=1.0)
        for s, handler in old.items():
            signal.signal(s, handler)


def _spawn(argv: list[str], home: Path, out: Path) -> subprocess.Popen:
    """A `peerboard` child process with its own home (identity and games)."""
    home.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PEERBOARD_HOME=str(home))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    with open(out, "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "client.cli", *argv], env=env, stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT)


def _bot_homes(count: int) -> list[Path]:
    return [data_dir() / "bots" / f"bot-{i + 1}" for i in range(count)]


def _start_bots(homes: list[Path], endpoint: str, key: bytes, table: bytes, game: str, bind_host: str, advertise: str,
                seed: int | None, think: float) -> list[subprocess.Popen]:
    procs = []
    for i, home in enumerate(homes):
        argv = ["bot", endpoint, "--key", key.hex(), "--table", table.hex(), "--game", game, "--name", f"bot-{i + 1}",
                "--bind", f"tcp://{bind_host}:0", "--advertise", advertise, "--parent", str(os.getpid()),
                "--think", str(think)]
        if seed is not None:
            argv += ["--seed", str(seed + i + 1)]
        procs.append(_spawn(argv, home, home / "bot.out"))
    return procs


def _reap(procs: list[subprocess.Popen], wait: float = 10.0) -> None:
    deadline = time.monotonic() + wait
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def _offer_resume(args: argparse.Namespace) -> int | None:
    """Say which unfinished games could be resumed; on a terminal, offer to resume one now."""
    if args.headless:
        return None
    games = unfinished_games()
    if not games:
        return None
    for path, contents in games:
        g = contents.genesis.genesis
        print(f"unfinished game: {g.game}, {len(contents.entries)} entries, {path}; resume it with: peerboard resume {path}")
    if not sys.stdin.isatty():
        return None
    path = games[-1][0]
    answer = input(f"Resume {path.name} now? [y/N] ").strip().lower()
    if answer not in ("y", "yes"):
        return None
    return _resume(path, args)


def _game_and_options(args: argparse.Namespace, players: int | None):
    game = game_named(args.game)
    options = options_from(args.option, game)
    players = players or game.min_players
    try:
        game.new_game(players, options)
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    return game, options, players


# -- commands ---------------------------------------------------------------------------------


def cmd_host(args: argparse.Namespace) -> int:
    game, options, players = _game_and_options(args, args.players)
    if not 0 <= args.bots < players:
        raise UsageError(f"--bots must be from 0 to {players - 1} (the other seats of {players})")
    resumed = _offer_resume(args)
    if resumed is not None:
        return resumed
    return _host(args, game, options, players, args.bots, args.bind, beacon=not args.no_beacon)


def _host(args, game, options, players: int, bots: int, bind: str, beacon: bool) -> int:
    identity = _identity()
    transport = _transport(args, identity, bind)
    bind_host, port = _host_of(transport.endpoint)
    addr = _advertised(transport.endpoint, None, args.advertise)
    node = Node(identity, _name(args), transport, addr, on_event=lambda e: None)
    seat = _seat(args, node)
    homes = _bot_homes(bots) if bots else []
    node.seat_extra = {"bind": transport.endpoint, "bots": [str(h) for h in homes]}
    table = node.host(SeatSecrets.from_master(os.urandom(32)), game.name, players, options,
                      discovery.Beacon(bind_host, args.beacon_port) if beacon else None)
    seat.say(f"table {table.hex()[:8]} open: {game.title}, {players} seats; you are seat 0 "
             f"({identity.fingerprint}), listening on {addr}")
    if players - 1 - bots > 0:
        seat.say(f"join it from this network with: peerboard join {table.hex()[:8]}")
        seat.say(f"or from anywhere: peerboard join {addr} --key {identity.public_key.hex()} "
                 f"--table {table.hex()} --game {game.name}")
    local = f"tcp://{'127.0.0.1' if bind_host in ('0.0.0.0', '*') else bind_host}:{port}"
    procs = _start_bots(homes, local, identity.public_key, table, game.name, bind_host, _host_of(addr)[0],
                        None if args.seed is None else args.seed, args.think) if bots else []
    try:
        return _run(node, seat, args)
    finally:
        _reap(procs)


def _find_table(args: argparse.Namespace) -> tuple[str, bytes, bytes, str]:
    """(endpoint, host key, table id, game) of the table the user named."""
    target = args.target
    address = target is not None and (target.startswith("tcp://") or ":" in target)
    if address:
        endpoint = target if target.startswith("tcp://") else f"tcp://{target}"
        try:
            _host_of(endpoint)
        except ValueError:
            raise UsageError(f"{target!r} is not an address like tcp://192.168.1.5:41234") from None
        if args.key and args.table and args.game:
            try:
                key, table = parse_key(args.key), bytes.fromhex(args.table)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            if len(table) != TABLE_BYTES:
                raise UsageError(f"--table takes the {2 * TABLE_BYTES} hex digits the host prints")
            return endpoint, key, table, args.game
        match = lambda t: t.endpoint == endpoint
        what = f"at {endpoint}"
    elif target:
        want = target.lower()
        match = lambda t: t.table_id.startswith(want) or t.fingerprint == want
        what = f"{target!r}"
    else:
        match = None
        what = ""
    heard = discovery.listen(args.wait, args.beacon_port,
                             until=(lambda ts: any(match(t) for t in ts)) if match else None)
    found = [t for t in heard if match(t)] if match else heard
    if not found:
        if address:
            raise UsageError(f"no table announced {what} within {args.wait:g} s; give its --key, --table and "
                         f"--game (the host prints them)")
        if target:
            raise UsageError(f"no open table {what} heard on this network within {args.wait:g} s (see: peerboard tables)")
        raise UsageError(f"no open table heard on this network within {args.wait:g} s")
    if len(found) > 1:
        ids = ", ".join(f"{t.table_id[:8]} ({t.game}, {t.name})" for t in found)
        raise UsageError(f"several tables are open ({ids}); name one: peerboard join ID")
    t = found[0]
    if t.version != PROTOCOL_VERSION:
        raise UsageError(f"the table {t.table_id[:8]} speaks protocol version {t.version}; this peerboard speaks "
                     f"version {PROTOCOL_VERSION}")
    if t.free <= 0 and not args.watch:
        raise UsageError(f"the table {t.table_id[:8]} is full ({t.players} seats)")
    try:
        engines.get(t.game)
    except OptionError:
        raise UsageError(f"the table {t.table_id[:8]} plays {t.game!r}, a game this peerboard does not have") from None
    return t.endpoint, t.key, t.table, t.game


def cmd_join(args: argparse.Namespace) -> int:
    resumed = None if args.command == "bot" else _offer_resume(args)
    if resumed is not None:
        return resumed
    endpoint, key, table, game = _find_table(args)
    identity = _identity()
    if key == identity.public_key:
        raise UsageError("that table is your own (the host's key is yours)")
    transport = _transport(args, identity, args.bind)
    addr = _advertised(transport.endpoint, _host_of(endpoint)[0], args.advertise)
    node = Node(identity, _name(args), transport, addr, on_event=lambda e: None)
    seat = _seat(args, node)
    node.seat_extra = {"bind": transport.endpoint}
    secrets = None if args.watch else SeatSecrets.from_master(os.urandom(32))
    seat.say(f"joining {endpoint} (host {fingerprint(key)}) as {identity.fingerprint}"
             + (" to watch" if args.watch else ""))
    node.join(secrets, key, endpoint, table, game)

    def no_answer() -> None:
        if node.session.chain is None and node.session.seat is None and not node.session.forming.players:
            seat.say(f"no answer from the table at {endpoint} within {args.wait:g} s "
                     f"(is it still open, and is the key right?)")
            seat.finish(EXIT_REFUSED)

    node.call_later(max(args.wait, 1.0), no_answer)
    return _run(node, seat, args)


def cmd_play(args: argparse.Namespace) -> int:
    game, options, players = _game_and_options(args, args.bots + 1)
    if args.bots < 1:
        raise UsageError("--bots must be at least 1")
    resumed = _offer_resume(args)
    if resumed is not None:
        return resumed
    return _host(args, game, options, players, args.bots, "tcp://127.0.0.1:0", beacon=False)


def cmd_resume(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"no such file: {args.file}")
    return _resume(path, args)


def _resume(path: Path, args: argparse.Namespace) -> int:
    try:
        files, contents = GameFiles.reopen(path)
    except (GameFileError, OSError) as exc:
        raise UsageError(str(exc)) from None
    if is_finished(contents):
        files.close()
        print(f"that game is over; check it with: peerboard replay {path} --verify")
        return EXIT_DONE
    s = files.seat
    identity = Identity.from_seed(s.identity)
    bind = s.extra.get("bind") or s.addr
    try:
        transport = _transport(args, identity, bind)
    except BaseException:
        files.close()
        raise
    node = Node(identity, s.name, transport, s.addr, on_event=lambda e: None)
    seat = _seat(args, node)
    procs = []
    table = contents.genesis.genesis.table
    for home in map(Path, s.extra.get("bots", ())):
        logs = [p for p in sorted((home / "games").glob("*.pblog")) if f"-{table[:4].hex()}-" in p.name]
        if logs:
            procs.append(_spawn(["resume", str(logs[-1]), "--headless", "--parent", str(os.getpid())],
                                home, home / "bot.out"))
    seat.say(f"resuming {path.name} at entry {len(contents.entries)}")
    node.resume(files, contents)
    try:
        return _run(node, seat, args)
    finally:
        _reap(procs)


def cmd_tables(args: argparse.Namespace) -> int:
    tables = discovery.listen(args.wait, args.beacon_port)
    if not tables:
        print(f"no open tables heard on this network in {args.wait:g} s")
        return 0
    for t in tables:
        note = "" if t.version == PROTOCOL_VERSION else f"  (protocol v{t.version}: cannot join)"
        print(f"{t.table_id[:8]}  {t.game:<8} {t.players - t.free}/{t.players} seated  host {t.name} "
              f"({t.fingerprint})  {t.endpoint}{note}")
    return 0


def cmd_key(args: argparse.Namespace) -> int:
    identity = _identity()
    print(f"fingerprint {identity.fingerprint}")
    print(f"public key  {identity.public_key.hex()}")
    return 0


# -- the parser hook ------------------------------------------------------------------------------


def _node_flags(p: argparse.ArgumentParser, bind: str | None) -> None:
    p.add_argument("--name", help="your display name (default: your user name)")
    if bind is not None:
        p.add_argument("--bind", default=bind, help=f"where this node listens (default {bind}; port 0: any free port)")
    p.add_argument("--advertise", metavar="IP", help="the address others reach this node at (default: found)")
    p.add_argument("--headless", action="store_true", help="a built-in random player plays this seat")
    p.add_argument("--seed", type=int, help="seed of the random player (--headless)")
    p.add_argument("--think", type=float, default=0.0, metavar="SECONDS", help="the random player's pause per decision")
    p.add_argument("--verbose", action="store_true", help="with --headless: print every move")
    p.add_argument("--spectator", action="append", metavar="KEY", help="admit this key (hex) to watch; repeatable")
    p.add_argument("--spectators-any", action="store_true", help="admit any key to watch the game")
    p.add_argument("--beacon-port", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--max-seconds", type=float, default=None, help="give up after this long (exit 3)")
    p.add_argument("--parent", type=int, default=None, help=argparse.SUPPRESS)


def add_commands(sub) -> None:
    """Add the LAN commands to client.cli's sub-parsers."""
    names = ", ".join(engines.names())
    p = sub.add_parser("host", help="open a table on the LAN; the game starts when the seats are full")
    p.add_argument("game", help="one of: " + names)
    p.add_argument("--players", type=int, help="seats (default: the game's minimum)")
    p.add_argument("--bots", type=int, default=0, help="seats taken by random bots (separate processes)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
    p.add_argument("--no-beacon", action="store_true", help="do not announce the table (join by address only)")
    _node_flags(p, "tcp://0.0.0.0:0")
    p.set_defaults(run=cmd_host)

    for command, help_ in (("join", "take a seat at a table (or --watch it)"),
                           ("bot", "a headless random seat joining a table")):
        p = sub.add_parser(command, help=help_)
        p.add_argument("target", nargs="?", metavar="TABLE|ADDRESS",
                       help="a table id or host fingerprint from `peerboard tables`, or tcp://HOST:PORT")
        p.add_argument("--key", help="the host's public key (hex), with an ADDRESS")
        p.add_argument("--table", help="the table id (hex), with an ADDRESS")
        p.add_argument("--game", help="the table's game, with an ADDRESS")
        p.add_argument("--watch", action="store_true", help="watch as a spectator instead of taking a seat")
        p.add_argument("--wait", type=float, default=3.0, help="seconds to listen for the table (default 3)")
        _node_flags(p, "tcp://0.0.0.0:0")
        p.set_defaults(run=cmd_join, headless=command == "bot")
        if command == "bot":
            p.set_defaults(headless=True)

    p = sub.add_parser("tables", help="list the open tables on this network")
    p.add_argument("--wait", type=float, default=2.5, help="seconds to listen (default 2.5)")
    p.add_argument("--beacon-port", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(run=cmd_tables)

    p = sub.add_parser("play", help="a local game: your node and N bot nodes as processes on loopback")
    p.add_argument("game", help="one of: " + names)
    p.add_argument("--bots", type=int, default=1, help="how many bots (default 1)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
    _node_flags(p, None)
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("resume", help="rejoin an unfinished game from its log file")
    p.add_argument("file", help="the game's .pblog in your data directory")
    _node_flags(p, None)
    p.set_defaults(run=cmd_resume)

    p = sub.add_parser("key", help="show this user's key and fingerprint")
    p.set_defaults(run=cmd_key)
