"""The LAN commands: `host`, `play`, `join` (and `bot`), `tables`, `key`. Each builds one
node (node/loop.py) — this user's identity, a transport bound where asked, a session —
puts someone at it (client/lan/node_parts.py) and runs its loop until the game is over
(client/lan/running.py); `resume` is client/lan/resume.py."""
from __future__ import annotations

import os
from dataclasses import replace

from peerboard.client import takeover
from peerboard.client.exitcode import ExitCode
from peerboard.client.lan.addresses import _advertised, _host_of
from peerboard.client.lan.bot_processes import _bot_homes, _run_with_bots, _show_bot_faults, _start_bots
from peerboard.client.lan.finding import find_table
from peerboard.client.lan.node_parts import _identity, _player, _transport
from peerboard.client.lan.options import LanOptions
from peerboard.client.lan.resume import _offer_resume
from peerboard.client.lan.running import _run
from peerboard.client.line_prompt import FORMING_HELP, LinePrompt
from peerboard.client.text import printable
from peerboard.client.usage import UsageError
from peerboard.node import discovery
from peerboard.node.gamefiles import games_dir, seat_open_elsewhere
from peerboard.node.loop import Node
from peerboard.protocol.log import PROTOCOL_VERSION, SeatSecrets, fingerprint
from peerboard.protocol.session import Phase, Refused


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
    return _host(replace(opts, beacon=False), "tcp://127.0.0.1:0")


def _host(opts: LanOptions, bind: str) -> ExitCode:
    game = opts.game
    identity = _identity()
    transport = _transport(opts, identity, bind)
    bind_host, port = _host_of(transport.endpoint)
    addr = _advertised(transport.endpoint, None, opts.advertise)
    node = Node(identity, opts.name, transport, addr, on_event=lambda e: None)
    player = _player(opts, node)
    takeover.install(node)
    homes = _bot_homes(opts.bots) if opts.bots else []
    node.seat_extra = {"bind": transport.endpoint, "bots": [str(h) for h in homes], "bot_players": list(opts.bot_players)}
    table = node.host(SeatSecrets.from_master(os.urandom(32)), game.name, opts.players, dict(opts.options),
                      discovery.Beacon(bind_host, opts.beacon_port) if opts.beacon else None, code=opts.code,
                      patience=opts.patience, takeover=opts.takeover)
    player.say(f"table {table.hex()[:8]} open: {game.title}, {opts.players} seats; you are seat 0 "
             f"({identity.fingerprint}), listening on {addr}")
    code = f" --code {opts.code}" if opts.code else ""
    if opts.code:
        player.say(f"a private table: its code is {opts.code} (tell it to the players you invite; it never goes "
                 f"out on the network)")
    # the whole join line, in every mode: it is also how a spectator or another bot finds the table
    player.say(f"join it from anywhere: peerboard join {addr} --key {identity.public_key.hex()} "
             f"--table {table.hex()} --game {game.name}{code}")
    if opts.players - 1 - opts.bots > 0:
        if opts.beacon:
            player.say(f"or from this network: peerboard join {table.hex()[:8]}@{identity.fingerprint}{code}")
        if isinstance(player, LinePrompt):
            player.say(FORMING_HELP)
    local = f"tcp://{'127.0.0.1' if bind_host in ('0.0.0.0', '*') else bind_host}:{port}"
    procs = _start_bots(opts, homes, local, identity.public_key, table, bind_host, _host_of(addr)[0]) if opts.bots else []
    if homes:
        _show_bot_faults(node, homes)
    return _run_with_bots(node, player, opts, procs)


def cmd_join(opts: LanOptions, refusals: list[str] | None = None) -> ExitCode:
    """Join (or watch) a table; each reason the table gives for refusing this node is
    added to `refusals` when given (the lobby asks a private table's code again when it
    was wrong)."""
    resumed = None if opts.command == "bot" else _offer_resume(opts)
    if resumed is not None:
        return resumed
    at = find_table(opts)
    identity = _identity()
    if at.key == identity.public_key:
        raise UsageError("that table is your own (the host's key is yours)")
    if busy := seat_open_elsewhere(games_dir(), at.table, identity):  # (two nodes at one seat sign twice)
        raise UsageError(busy)
    transport = _transport(opts, identity, opts.bind)
    addr = _advertised(transport.endpoint, _host_of(at.endpoint)[0], opts.advertise)
    node = Node(identity, opts.name, transport, addr, on_event=lambda e: None)
    player = _player(opts, node)
    takeover.install(node)
    if refusals is not None:
        told = node.on_event

        def on_event(event) -> None:
            if isinstance(event, Refused):
                refusals.append(event.reason)
            told(event)

        node.on_event = on_event
    node.seat_extra = {"bind": transport.endpoint}
    secrets = None if opts.watch else SeatSecrets.from_master(os.urandom(32))
    player.say(f"joining {at.endpoint} (host {fingerprint(at.key)}) as {identity.fingerprint}"
             + (" to watch" if opts.watch else ""))
    node.join(secrets, at.key, at.endpoint, at.table, at.game, code=opts.code)

    def no_answer() -> None:
        s = node.session
        if s.refused_for_now is not None:  # answered, and asking again (the session bounds it)
            node.call_later(1.0, no_answer)
        elif s.phase is Phase.FORMING and s.players == 0:  # not even welcomed
            player.say(f"no answer from the table at {at.endpoint} within {opts.wait:g} s "
                     f"(is it still open, and is the key right?)")
            player.finish(ExitCode.REFUSED)

    node.call_later(max(opts.wait, 1.0), no_answer)
    return _run(node, player, opts)


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
    if heard.forged:
        print(f"{heard.forged} beacons were not signed by the key they name (forged: ignored)")
    return ExitCode.DONE


def cmd_key(opts: LanOptions) -> ExitCode:
    identity = _identity()
    print(f"fingerprint {identity.fingerprint}")
    print(f"public key  {identity.public_key.hex()}")
    return ExitCode.DONE

