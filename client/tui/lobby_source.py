"""What the lobby screen reads and what it hands back.

The lobby lists the open tables the network announces (refreshed as beacons arrive) and
this machine's unfinished games; the person picks one, or fills in a table to host. The
screen does not start a game itself: it returns a *request* (HostRequest, JoinRequest,
ResumeRequest) to whoever runs the lobby, which starts the node and then the game screen
(`run_game`). `NetworkLobby` listens for beacons on the screen's own loop (a UDP socket
the loop watches: no polling) and ages out tables that fell silent.
"""
from __future__ import annotations

import asyncio
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from peerboard import engines
from peerboard.client.text import printable
from peerboard.client.tui.source import Alert, Changed, SourceEvent

#: a table not heard from for this long leaves the list
SILENT_AFTER = 5.0
#: a table not heard from for this long is shown as silent (for how long)
SHOWN_SILENT_AFTER = 2.0


@dataclass(frozen=True)
class TableLine:
    #: a table is its id and its host's key together: a second host claiming a table's id
    #: is listed beside it, never in its place
    table_id: str       # hex
    game: str
    players: int
    free: int
    host: str           # the host's name, printable
    fingerprint: str
    endpoint: str
    joinable: bool      # False: another protocol version
    #: the host's public key (hex): joining needs it
    key: str = ""
    #: when the last beacon came (time.monotonic())
    heard: float = 0.0
    #: whole seconds without a beacon, once past SHOWN_SILENT_AFTER (else 0)
    silent: int = 0
    #: a joiner must give the table's code (which never travels)
    private: bool = False


@dataclass(frozen=True)
class UnfinishedLine:
    path: Path
    game: str
    seats: str          # the seat names, printable
    entries: int


@dataclass(frozen=True)
class LobbySnapshot:
    tables: tuple[TableLine, ...] = ()
    unfinished: tuple[UnfinishedLine, ...] = ()
    #: where the lobby listens, or why it cannot
    status: str = ""


@dataclass(frozen=True)
class HostRequest:
    game: str
    players: int
    bots: int
    options: dict = field(default_factory=dict)
    code: str = ""      # a private table's code ("" for an open table); never in a beacon
    patience: int | None = None  # seconds a seat may be away before the others may claim it
    takeover: str | None = None  # the bot that plays a claimed seat at 3+ seats ("none"); None: the default
    name: str | None = None  # the name the form gave (None: the lobby's --name, else the user's name)
    bind: str | None = None  # where the node listens, as the form chose (None: the lobby's --bind)


@dataclass(frozen=True)
class JoinRequest:
    table: TableLine
    code: str = ""
    name: str | None = None  # as in HostRequest
    bind: str | None = None


@dataclass(frozen=True)
class ResumeRequest:
    path: Path


LobbyRequest = HostRequest | JoinRequest | ResumeRequest


@dataclass(frozen=True)
class CodeAgain:
    """The lobby opened again to ask a private table's code once more: the table, and why
    (the table refused the code given)."""

    table: TableLine
    reason: str


class LobbySource(Protocol):
    def snapshot(self) -> LobbySnapshot: ...

    def subscribe(self, listener: Callable[[SourceEvent], None]) -> None:
        """Call from the screen's running loop."""
        ...

    def close(self) -> None: ...


class NetworkLobby:
    """The tables this network announces, and the unfinished games in `games` (a folder)."""

    def __init__(self, port: int | None = None, games: Path | None = None):
        from peerboard.node.discovery import beacon_port

        from peerboard.node.discovery import Heard

        self.port = port or beacon_port()
        self.games = games
        #: the tables heard (bounded against floods: node.discovery.Heard) and when each
        #: (table id, host key) was last heard
        self.heard = Heard()
        self.last: dict[tuple[bytes, bytes], float] = {}
        #: the tables the last snapshot showed as silent, and for how long: a change is news
        self.shown_silent: dict[tuple[bytes, bytes], int] = {}
        self.damaged: tuple[str, ...] = ()
        self.unfinished = self._unfinished()
        self.status = ""
        self._listeners: list[Callable[[SourceEvent], None]] = []
        self._sock: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None

    def snapshot(self) -> LobbySnapshot:
        from peerboard.protocol.log import PROTOCOL_VERSION

        self.shown_silent = self._silent()
        tables = tuple(
            TableLine(t.table_id, printable(t.game, 20), t.players, t.free, printable(t.name, 40), t.fingerprint,
                      t.endpoint, t.version == PROTOCOL_VERSION, t.key.hex(), self.last.get((t.table, t.key), 0.0),
                      self.shown_silent.get((t.table, t.key), 0), t.private)
            for t in self.heard.listed()
        )
        status = " ".join((self.status, *self.damaged)).strip()
        if self.heard.ignored:
            from peerboard.node.discovery import MAX_PER_SOURCE, MAX_TABLES

            n = self.heard.ignored
            status += (f" {n} {'announcement' if n == 1 else 'announcements'} of further tables ignored: "
                       f"the lobby lists at most {MAX_TABLES} tables, at most {MAX_PER_SOURCE} from one address.")
        return LobbySnapshot(tables, self.unfinished, status)

    def subscribe(self, listener: Callable[[SourceEvent], None]) -> None:
        self._listeners.append(listener)
        if self._sock is None:
            self._listen(asyncio.get_running_loop())

    def close(self) -> None:
        self._listeners.clear()
        if self._timer is not None:
            self._timer.cancel()
        if self._sock is not None:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(self._sock.fileno())
            self._sock.close()
            self._sock = None

    # -- beacons ------------------------------------------------------------------------------

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        try:
            sock.bind(("", self.port))
        except OSError as exc:
            sock.close()
            self.status = f"Cannot listen for tables on UDP port {self.port}: {exc.strerror or exc}."
            self._tell(Alert(self.status, "warn"))
            return
        sock.setblocking(False)
        self._sock, self._loop = sock, loop
        loop.add_reader(sock.fileno(), self._readable)
        self.status = f"Listening for tables on UDP port {self.port}."
        self._timer = loop.call_later(1.0, self._age)

    def _readable(self) -> None:
        from peerboard.node.discovery import parse_beacon

        changed = False
        for _ in range(64):  # what has arrived; the loop calls again for more
            try:
                data, (source, _) = self._sock.recvfrom(2048)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                break
            table = parse_beacon(data, source)  # (None for anything that is not a sound beacon)
            if table is None:
                continue
            ident = (table.table, table.key)
            old = self.heard.tables.get(ident)
            if self.heard.add(table, source):
                self.last[ident] = time.monotonic()
                changed = changed or old is None or _differs(old, table) or ident in self.shown_silent
        if changed:
            self._tell(Changed())

    def _age(self) -> None:
        """Once a second: tables silent for SILENT_AFTER seconds leave the list."""
        now = time.monotonic()
        stale = [ident for ident, heard in self.last.items() if now - heard > SILENT_AFTER]
        for ident in stale:
            del self.last[ident]
            self.heard.forget(ident)
        if stale or self._silent() != self.shown_silent:
            self._tell(Changed())
        if self._loop is not None and self._sock is not None:
            self._timer = self._loop.call_later(1.0, self._age)

    def _silent(self) -> dict[tuple[bytes, bytes], int]:
        """The tables not heard for SHOWN_SILENT_AFTER seconds, and for how many."""
        now = time.monotonic()
        return {ident: int(now - heard) for ident, heard in self.last.items() if now - heard > SHOWN_SILENT_AFTER}

    def _unfinished(self) -> tuple[UnfinishedLine, ...]:
        from peerboard.node.gamefiles import unfinished_games

        damaged: list[tuple[Path, str]] = []
        try:
            found = unfinished_games(self.games, damaged=damaged)
        except OSError:
            return ()
        # a damaged log is marked, never offered (resuming it would go on from a wrong game)
        self.damaged = tuple(f"Damaged, not offered: {printable(why, 300)}." for _, why in damaged)
        lines = []
        for path, contents in found:
            g = contents.genesis.terms
            names = ", ".join(printable(s.name, 20) for s in g.seats)
            lines.append(UnfinishedLine(path, g.game, names, len(contents.entries)))
        return tuple(lines)

    def _tell(self, event: SourceEvent) -> None:
        for listener in list(self._listeners):
            listener(event)


def _differs(old: Any, new: Any) -> bool:
    """Whether a table's new beacon says something the list shows differently."""
    return ((old.free, old.players, old.name, old.endpoint, old.private)
            != (new.free, new.players, new.name, new.endpoint, new.private))


def option_fields(game_name: str) -> list[tuple[str, Any, str]]:
    """(name, default, what it means) of each option of a game, by name."""
    game = engines.get(game_name)
    return [(name, spec.default, spec.doc) for name, spec in sorted(game.options_schema.items())]
