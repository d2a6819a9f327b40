"""Coming back to an unfinished game: `peerboard resume FILE`, and the offer, at start-up,
of the unfinished games of the game asked for. A resumed `play` or `host --bots` game
restarts its bots from their own logs of that table."""
from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

from peerboard.client import takeover
from peerboard.client.exitcode import ExitCode
from peerboard.client.invocation import command
from peerboard.client.lan.addresses import _advertised
from peerboard.client.lan.bot_processes import _faults_file, _reap, _run_with_bots, _show_bot_faults, _spawn
from peerboard.client.lan.node_parts import _seat, _transport
from peerboard.client.lan.options import LanOptions
from peerboard.client.text import plural, printable
from peerboard.client.usage import UsageError
from peerboard.node.gamefiles import GameFileError, GameFiles, is_finished, unfinished_games
from peerboard.node.loop import Node
from peerboard.node.storage import disk_full_text, is_disk_full
from peerboard.protocol.log import Identity, LedgerError

GAMES_OFFERED_AT_MOST = 5  # unfinished games offered at start-up


def cmd_resume(opts: LanOptions) -> ExitCode:
    if not opts.file.is_file():
        raise UsageError(f"no such file: {opts.file}")
    return _resume(opts.file, opts)


def _resume(path: Path, opts: LanOptions) -> ExitCode:
    try:  # (a bot restarted by its host may find its old process still leaving: it waits)
        files, contents = GameFiles.reopen(path, wait=10.0 if opts.parent else 0.0)
    except (GameFileError, OSError) as exc:
        raise UsageError(str(exc)) from None
    if files.set_aside is not None:
        print(f"kept aside in {files.set_aside}: {files.set_aside_why}")
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
    takeover.install(node)
    procs = []
    table = contents.genesis.terms.table
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
        if isinstance(exc, LedgerError):
            raise UsageError(f"{path} does not check out at seq {exc.seq} ({exc.why}): it cannot be resumed") from None
        if is_disk_full(exc):
            print(disk_full_text(path))
            return ExitCode.HALTED
        raise
    return _run_with_bots(node, seat, opts, procs)


def _offer_resume(opts: LanOptions) -> ExitCode | None:
    """Say which unfinished games of the game asked for (any game, joining a table not
    named by its game) could be resumed, the most recent first; on a terminal, offer to
    resume one now."""
    if opts.headless or not opts.offer_resume:
        return None
    game = opts.game.name if opts.game is not None else getattr(opts.table, "game", None)
    damaged: list[tuple[Path, str]] = []
    games = unfinished_games(game=game, damaged=damaged)
    for _, why in damaged:  # (never offered: resuming one would go on from a wrong game)
        print(f"not offered: {why}")
    if not games:
        return None
    offered = games[:GAMES_OFFERED_AT_MOST]
    print(f"unfinished {game + ' ' if game else ''}games, the most recent first "
          f"(resume one with: {command()} resume FILE):")
    for n, (path, contents) in enumerate(offered, 1):
        g = contents.genesis.terms
        print(f"  {n}. {g.game}, {plural(len(contents.entries), 'entry', 'entries')}: {path}")
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
    return _resume(offered[int(answer) - 1][0], replace(opts, bind=None))
