"""A game's files in the user's data directory: the log (node/storage.py, fsynced before any
ack) and beside it the seat file, mode 0600, holding what this node needs to resume that
game after a crash — its identity, its seat's master secret, where it and its peers listen,
and a committed secret choice not yet revealed. While a node has a game's files open it
holds the log's lock (node/lock.py): one process per log.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import msgpack

from peerboard.node.keys import write_private
from peerboard.protocol.log import (
    Entry, Identity, LogContents, LogFileError, SeatSecrets, SignedGenesis, finished_in, read_log,
)
from peerboard.node.lock import LogInUse, LogLock, holder
from peerboard.node.resume_check import DamagedLog, check_for_resume, damage_of
from peerboard.node.storage import LogFile, data_dir

SEAT_SUFFIX = ".seat"
ERRORS_SUFFIX = ".errors.txt"
SEAT_FORMAT = "peerboard-seat/v1"


class GameFileError(ValueError):
    """A game's files that cannot be used to resume it; the text says why, in one line."""


class GameOpenElsewhere(GameFileError):
    """Another process has the game open (node/lock.py); `pid` is that process."""

    def __init__(self, text: str, pid: int | None):
        super().__init__(text)
        self.pid = pid


class GameDamaged(GameFileError):
    """The log does not check out (node/resume_check.py); it is left as it is."""


def games_dir() -> Path:
    return data_dir() / "games"


@dataclass(frozen=True)
class SeatFile:
    """Everything besides the log that resuming a game needs."""

    identity: bytes  # the Ed25519 seed
    master: bytes | None  # the seat's master secret (None: a spectator)
    name: str
    addr: str  # where this node listens (peers know it from the genesis)
    addrs: tuple[str, ...]  # where each seat listens
    choice: tuple | None = None  # (actions, nonce) committed and not yet revealed
    extra: dict = field(default_factory=dict)  # e.g. the bot homes of a `play` game
    #: the claim statement this seat signed last, (gone, seq, prev): it must outlive a crash
    #: (protocol/session/claims.py); absent in the files of older versions
    claim: tuple | None = None

    def to_bytes(self) -> bytes:
        return msgpack.packb({
            "format": SEAT_FORMAT, "identity": self.identity, "master": self.master, "name": self.name,
            "addr": self.addr, "addrs": list(self.addrs),
            "choice": None if self.choice is None else [list(self.choice[0]), self.choice[1]],
            "extra": self.extra,
            **({} if self.claim is None else {"claim": list(self.claim)}),
        }, use_bin_type=True)

    @classmethod
    def from_bytes(cls, data: bytes) -> "SeatFile":
        m = msgpack.unpackb(data, raw=False, use_list=False)
        if not isinstance(m, dict) or m.get("format") != SEAT_FORMAT:
            raise GameFileError("not a peerboard seat file")
        choice = None if m["choice"] is None else (tuple(tuple(a) for a in m["choice"][0]), m["choice"][1])
        claim = m.get("claim")
        return cls(m["identity"], m["master"], m["name"], m["addr"], tuple(m["addrs"]), choice, dict(m["extra"]),
                   None if claim is None else tuple(claim))


def seat_path(log_path: Path) -> Path:
    return log_path.with_suffix(SEAT_SUFFIX)


def errors_path(log_path: Path | None, directory: Path | None = None) -> Path:
    """Where a node writes the details of its own faults: beside the game's log, or, before
    the game has one, in the games directory."""
    if log_path is not None:
        return log_path.with_suffix(ERRORS_SUFFIX)
    return (directory or games_dir()) / f"errors-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}{ERRORS_SUFFIX}"


def new_log_path(genesis: SignedGenesis, identity: Identity, directory: Path | None = None) -> Path:
    g = genesis.terms
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return (directory or games_dir()) / f"{g.game}-{stamp}-{g.table[:4].hex()}-{identity.fingerprint}.pblog"


class GameFiles:
    """The open files of one game at this node."""

    def __init__(self, log: LogFile, seat: SeatFile, lock: LogLock | None = None):
        self.log = log
        self.seat = seat
        self.lock = lock
        #: where `reopen` kept what it took off the log's end (None: nothing), and what it was
        self.set_aside: Path | None = None
        self.set_aside_why = ""

    @property
    def path(self) -> Path:
        return self.log.path

    @classmethod
    def create(cls, path: Path, genesis: SignedGenesis, seat: SeatFile) -> "GameFiles":
        """The seat file first (a log without it could not be resumed), then the log."""
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = _lock(path)
        try:
            write_private(seat_path(path), seat.to_bytes())
            return cls(LogFile.create(path, genesis), seat, lock)
        except BaseException:
            lock.release()
            raise

    def append(self, entry: Entry, sync: bool = True) -> None:
        self.log.append(entry, sync)

    def sync(self) -> None:
        self.log.sync()

    def remove_last(self, entry: Entry) -> None:
        self.log.remove_last(entry)

    def set_aside_last(self, entries) -> Path:
        return self.log.set_aside_last(entries)

    def store_choice(self, actions: tuple, nonce: bytes) -> None:
        self.update_seat(choice=(tuple(actions), nonce))

    def update_seat(self, **changes) -> None:
        """Rewrite the seat file with these fields changed (atomically, fsynced): a choice
        committed, or where this node or a peer listens now."""
        self.seat = replace(self.seat, **changes)
        write_private(seat_path(self.path), self.seat.to_bytes(), replace=True)

    def close(self) -> None:
        self.log.close()
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    @staticmethod
    def logs_of_table(directory: Path, table: bytes) -> list[Path]:
        """The logs in `directory` of the game at table `table`, oldest first (a node that
        played there: a bot's home, for one)."""
        found = []
        for path in sorted(directory.glob("*.pblog")):
            if f"-{table[:4].hex()}-" not in path.name:
                continue  # (the name carries the table id's first bytes: most files are not read)
            try:
                if read_log(path.read_bytes()).genesis.terms.table == table:
                    found.append(path)
            except (OSError, LogFileError):
                continue
        return found

    @classmethod
    def reopen(cls, path: Path, wait: float = 0.0) -> tuple["GameFiles", LogContents]:
        """A stored game opened to resume it: its files (its lock held) and what its log
        holds, every entry checked as `replay --verify` checks it. GameOpenElsewhere if
        another process has it open (after `wait` seconds), GameDamaged if it does not check
        out (the file untouched), GameFileError for any other reason it cannot be resumed.
        Only a torn tail (or this seat's own refused last entry) is taken off the log, and
        it is kept in a file beside it first (`set_aside`)."""
        lock = _lock(path, wait)
        try:
            data, seat = _read(path)
            own = Identity.from_seed(seat.identity).public_key
            try:
                checked = check_for_resume(path, data, own)
            except LogFileError as exc:
                raise GameFileError(f"{path} is not a readable game log ({exc})") from None
            except DamagedLog as exc:
                raise GameDamaged(str(exc)) from None
            aside = None
            if checked.tail:
                aside = LogFile.set_aside(path, checked.offset, checked.tail)
            files = cls(LogFile.reopen(path, checked.offset), seat, lock)
        except BaseException:
            lock.release()
            raise
        files.set_aside, files.set_aside_why = aside, checked.why
        return files, checked.contents


def _lock(path: Path, wait: float = 0.0) -> LogLock:
    try:
        return LogLock.acquire(path, wait)
    except LogInUse as exc:
        raise GameOpenElsewhere(str(exc), exc.pid) from None
    except OSError as exc:
        raise GameFileError(f"cannot lock {path} (for one process at a time): {exc.strerror}") from None


def seat_open_elsewhere(directory: Path, table: bytes, identity: Identity) -> str | None:
    """The one line to stop with when this identity's seat at `table` is being played by
    another process of this machine (a second `join` would sign that seat's entries twice),
    else None."""
    for path in sorted(directory.glob(f"*-{table[:4].hex()}-{identity.fingerprint}.pblog")):
        pid = holder(path)
        if pid is not False:
            who = f"process {pid}" if pid is not None else "another process"
            return f"your seat at this table is already open in {who} (its log: {path}): play on there"
    return None


def _read(path: Path) -> tuple[bytes, SeatFile]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GameFileError(f"cannot read {path}: {exc.strerror}") from None
    return data, _seat_file(path)


def load(path: Path) -> tuple[LogContents, SeatFile]:
    """What a stored game holds, read without checking signatures or moves (GameFileError
    if it cannot be read; GameDamaged if a record other than a torn tail does not read)."""
    data, seat = _read(path)
    try:
        contents = read_log(data)
    except LogFileError as exc:
        raise GameFileError(f"{path} is not a readable game log ({exc})") from None
    damage = damage_of(data, contents)
    if damage is not None:
        raise GameDamaged(f"{path} is damaged: {damage}")
    return contents, seat


def _seat_file(path: Path) -> SeatFile:
    try:
        seat = SeatFile.from_bytes(seat_path(path).read_bytes())
    except OSError:
        raise GameFileError(f"{path} has no seat file beside it ({seat_path(path).name}): only the node that played it can resume it") from None
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise GameFileError(f"{seat_path(path)} is damaged ({exc})") from None
    return seat


def secrets_of(seat: SeatFile) -> SeatSecrets | None:
    return None if seat.master is None else SeatSecrets.from_master(seat.master)


def is_finished(contents: LogContents) -> bool:
    """Every seat still playing has signed the result (a seat claimed, gone for good, signs none)."""
    return finished_in(contents.entries, len(contents.genesis.terms.seats))  # (either form of the end)


def unfinished_games(directory: Path | None = None, game: str | None = None,
                     damaged: list[tuple[Path, str]] | None = None) -> list[tuple[Path, LogContents]]:
    """The games in `directory` (default: the data directory's games/) that can be resumed
    — only those of `game`, if given — the most recently played first (by when their log
    was last written). A damaged log is never among them: with `damaged`, each is added
    to it with the line saying what is wrong."""
    found = []
    for path in (directory or games_dir()).glob("*.pblog" if game is None else f"{game}-*.pblog"):
        if not seat_path(path).exists():
            continue
        try:
            contents, _ = load(path)
            played = path.stat().st_mtime_ns
        except GameDamaged as exc:
            if damaged is not None:
                damaged.append((path, str(exc)))
            continue
        except (GameFileError, OSError):
            continue
        if not is_finished(contents) and (game is None or contents.genesis.terms.game == game):
            found.append((played, path.name, path, contents))
    found.sort(key=lambda f: (-f[0], f[1]))
    if damaged:
        damaged.sort()
    return [(path, contents) for _, _, path, contents in found]
