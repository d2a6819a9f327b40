"""Durable game logs on disk: one append-only file per game, fsynced before it counts.

The bytes are protocol/logfile.py's format; this module only opens, appends and syncs. An
append may leave its fsync to a helper thread (`sync=False`), so the node checks an entry,
or sends its own, while the disk works; `sync` waits until everything appended is on disk.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from protocol.logfile import frame, header_frame
from protocol.records import Entry, SignedGenesis


def data_dir() -> Path:
    """Where a user's games live: $PEERBOARD_HOME, else $XDG_DATA_HOME/peerboard, else
    ~/.local/share/peerboard."""
    if os.environ.get("PEERBOARD_HOME"):
        return Path(os.environ["PEERBOARD_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "peerboard"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class _Flusher:
    """A thread that fsyncs one file on request. `kick(n)`: bytes up to offset n are
    written, start an fsync; `wait(n)`: return once they are on disk. The fsync releases
    the interpreter, so the node's own work goes on meanwhile."""

    def __init__(self, fd: int):
        self.fd = fd
        self.wanted = 0  # offset asked to be on disk
        self.synced = 0  # offset known to be on disk
        self.error: OSError | None = None
        self.closed = False
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._run, name="fsync", daemon=True)
        self.thread.start()

    def kick(self, offset: int) -> None:
        with self.cond:
            self.wanted = max(self.wanted, offset)
            self.cond.notify_all()

    def wait(self, offset: int) -> None:
        with self.cond:
            if self.error is not None:
                raise self.error
            if self.synced >= offset:
                return
            if self.wanted > self.synced:  # an fsync is under way or asked for: wait for it
                self.wanted = max(self.wanted, offset)
                self.cond.notify_all()
                while self.synced < offset and self.error is None:
                    self.cond.wait()
                if self.error is not None:
                    raise self.error
                return
        os.fsync(self.fd)  # the thread is idle: sooner here than by waking it
        with self.cond:
            self.synced = max(self.synced, offset)

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()
        self.thread.join()

    def _run(self) -> None:
        while True:
            with self.cond:
                while self.wanted <= self.synced and not self.closed:
                    self.cond.wait()
                if self.wanted <= self.synced:
                    return  # closed, nothing left to sync
                target = self.wanted
            try:
                os.fsync(self.fd)
            except OSError as exc:  # the disk failed: every waiter hears of it
                with self.cond:
                    self.error = exc
                    self.cond.notify_all()
                return
            with self.cond:
                self.synced = max(self.synced, target)
                self.cond.notify_all()


class LogFile:
    """An open game log. An `append` is on disk (fsync) when it returns; one with
    `sync=False` is written (it outlives the process, not the machine) and its fsync runs
    in the background until `sync` waits for it."""

    def __init__(self, path: Path, handle):
        self.path = path
        self._handle = handle
        self._size = handle.tell()
        self._flusher: _Flusher | None = None

    @classmethod
    def create(cls, path: str | os.PathLike, genesis: SignedGenesis) -> "LogFile":
        """A new log holding the header and the genesis; never overwrites a file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "x+b")  # read too: `remove_last` checks what it takes back
        log = cls(path, handle)
        log._write(header_frame() + frame(genesis.record()))
        _fsync_dir(path.parent)
        return log

    @classmethod
    def reopen(cls, path: str | os.PathLike, good_bytes: int) -> "LogFile":
        """An existing log opened for appending after its last whole record (a record cut
        short by a crash is dropped: it was never acknowledged)."""
        path = Path(path)
        handle = open(path, "r+b")
        handle.truncate(good_bytes)
        handle.seek(good_bytes)
        return cls(path, handle)

    def append(self, entry: Entry, sync: bool = True) -> None:
        self._write(frame(entry.encoded), sync)

    def append_many(self, entries) -> None:
        """Several entries with one fsync (selfplay writes a finished game at once)."""
        self._write(b"".join(frame(e.encoded) for e in entries))

    def sync(self) -> None:
        """Everything appended is on disk when this returns."""
        if self._flusher is not None:
            self._flusher.wait(self._size)
        else:
            os.fsync(self._handle.fileno())

    def remove_last(self, entry: Entry) -> None:
        """Take back `entry`, the last record appended (one written before it was checked,
        that failed its check, and was never acknowledged)."""
        data = frame(entry.encoded)
        self.sync()
        self._handle.seek(self._size - len(data))
        if self._handle.read(len(data)) != data:
            raise ValueError("the last record of the log is not that entry")
        self._size -= len(data)
        self._handle.truncate(self._size)
        self._handle.seek(self._size)
        os.fsync(self._handle.fileno())

    def _write(self, data: bytes, sync: bool = True) -> None:
        self._handle.write(data)
        self._handle.flush()
        self._size += len(data)
        if sync:
            self.sync()
        else:
            if self._flusher is None:
                self._flusher = _Flusher(self._handle.fileno())
            self._flusher.kick(self._size)

    def close(self) -> None:
        if self._flusher is not None:
            self._flusher.close()
            self._flusher = None
        self._handle.close()

    def __enter__(self) -> "LogFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
