"""Durable game logs on disk: one append-only file per game, fsynced before it counts.

The bytes are protocol/log/logfile.py's format; this module only opens, appends and syncs. An
append with `sync=False` is only written (it outlives the process, not the machine) until
`sync`: the node sends its own entry in between, so its peers work while its disk does.

Nothing here ever cuts a log but `set_aside`, and that only the torn tail a crash left
(protocol/log/logfile.py's `torn_tail`), after keeping it in a file of its own. An append that
fails (a full disk) takes back the part of it that was written, so the log stays whole.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path

from peerboard.node import dirs
from peerboard.protocol.log import Entry, SignedGenesis, frame, header_frame


data_dir = dirs.data_dir  # where a user's games live (node/dirs.py works it out, with the identity's)


#: the errors that mean there is no room left to write
DISK_FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
TORN_SUFFIX = ".torn"
CLAIMED_SUFFIX = ".claimed"


def is_disk_full(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in DISK_FULL_ERRNOS


DISK_FULL = "the disk is full"  # how disk_full_text begins: no fault of ours, said as it is


def disk_full_text(log_path: Path | None) -> str:
    """The one line a node that ran out of disk says (README, "When the disk is full")."""
    if log_path is None:
        return "the disk is full: the game could not start here, nothing was stored; free space, then start it again"
    return f"the disk is full: the game is paused, nothing is lost; free space, then `peerboard resume {log_path}`"


def torn_path(log_path: Path, offset: int) -> Path:
    """Where the torn tail that began at byte `offset` of a log is kept."""
    return log_path.with_name(f"{log_path.stem}.{offset}{TORN_SUFFIX}")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class LogFile:
    """An open game log. An `append` is on disk (fsync) when it returns; one with
    `sync=False` is written, and on disk once `sync` returns."""

    def __init__(self, path: Path, handle):
        self.path = path
        self._handle = handle
        self._size = handle.tell()

    @classmethod
    def create(cls, path: str | os.PathLike, genesis: SignedGenesis) -> "LogFile":
        """A new log holding the header and the genesis; never overwrites a file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # unbuffered, and read too: no bytes wait in a buffer to be written at `close` (a
        # full disk would fail there again), and `remove_last` checks what it takes back
        handle = open(path, "x+b", buffering=0)
        try:
            log = cls(path, handle)
            log._write(header_frame() + frame(genesis.record()))
            _fsync_dir(path.parent)
        except BaseException:
            handle.close()
            path.unlink(missing_ok=True)  # (a log without its whole genesis holds no game)
            raise
        return log

    @classmethod
    def reopen(cls, path: str | os.PathLike, size: int) -> "LogFile":
        """An existing log opened for appending at its end, which must be at `size` bytes
        (what its reader read: a tail is never cut here, only by `set_aside`)."""
        path = Path(path)
        handle = open(path, "r+b", buffering=0)
        end = handle.seek(0, os.SEEK_END)
        if end != size:
            handle.close()
            raise ValueError(f"{path} is {end} bytes long, not the {size} bytes read from it: it changed meanwhile")
        return cls(path, handle)

    @staticmethod
    def set_aside(path: str | os.PathLike, offset: int, tail: bytes) -> Path:
        """Keep `tail`, the torn tail at `offset`, in a file beside the log (fsynced), then
        cut it from the log. Returns where it is kept."""
        path = Path(path)
        aside = torn_path(path, offset)
        n = 1
        while aside.exists() and aside.read_bytes() != tail:  # (another crash, at the same place)
            n += 1
            aside = path.with_name(f"{path.stem}.{offset}-{n}{TORN_SUFFIX}")
        with open(aside, "wb") as f:
            f.write(tail)
            f.flush()
            os.fsync(f.fileno())
        _fsync_dir(path.parent)
        with open(path, "r+b", buffering=0) as f:
            if f.seek(0, os.SEEK_END) != offset + len(tail):
                raise ValueError(f"{path} changed while its torn tail was being kept aside")
            f.truncate(offset)
            os.fsync(f.fileno())
        return aside

    def append(self, entry: Entry, sync: bool = True) -> None:
        self._write(frame(entry.encoded), sync)

    def append_many(self, entries) -> None:
        """Several entries with one fsync (selfplay writes a finished game at once)."""
        self._write(b"".join(frame(e.encoded) for e in entries))

    def sync(self) -> None:
        """Everything appended is on disk when this returns."""
        os.fsync(self._handle.fileno())

    def remove_last(self, entry: Entry) -> None:
        """Take back `entry`, the last record appended (written before it was checked,
        refused by the check, never acknowledged)."""
        data = frame(entry.encoded)
        self._handle.seek(max(0, self._size - len(data)))
        tail = self._handle.read(len(data))
        self._handle.seek(self._size)
        if tail != data:
            raise ValueError("the last record of the log is not that entry")
        self._size -= len(data)
        self._handle.truncate(self._size)
        self._handle.seek(self._size)
        os.fsync(self._handle.fileno())

    def set_aside_last(self, entries) -> Path:
        """Take back `entries`, the last records of the log — this seat's own, never accepted
        by any other seat, replaced by the claim of this seat (spec/protocol.md, "Endings") —
        after keeping them, framed, in `<log name>.<offset>.claimed` beside it (fsynced).
        Returns where they are kept."""
        data = b"".join(frame(e.encoded) for e in entries)
        offset = self._size - len(data)
        self._handle.seek(max(0, offset))
        tail = self._handle.read(len(data))
        self._handle.seek(self._size)
        if offset < 0 or tail != data:
            raise ValueError("the last records of the log are not those entries")
        aside = self.path.with_name(f"{self.path.stem}.{offset}{CLAIMED_SUFFIX}")
        n = 1
        while aside.exists() and aside.read_bytes() != data:
            n += 1
            aside = self.path.with_name(f"{self.path.stem}.{offset}-{n}{CLAIMED_SUFFIX}")
        with open(aside, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        _fsync_dir(self.path.parent)
        self._size = offset
        self._handle.truncate(offset)
        self._handle.seek(offset)
        os.fsync(self._handle.fileno())
        return aside

    def _write(self, data: bytes, sync: bool = True) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[self._handle.write(view):]
        except BaseException:
            # (a full disk, typically) what was written of this record is taken back, so the
            # log ends with its last whole record; if even that fails, the part left is a
            # torn tail, which resume keeps aside
            try:
                self._handle.truncate(self._size)
                self._handle.seek(self._size)
            except OSError:
                pass
            raise
        self._size += len(data)
        if sync:
            self.sync()

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> "LogFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
