"""Durable game logs on disk: one append-only file per game, fsynced before it counts.

The bytes are protocol/logfile.py's format; this module only opens, appends and syncs. An
append with `sync=False` is only written (it outlives the process, not the machine) until
`sync`: the node sends its own entry in between, so its peers work while its disk does.
"""
from __future__ import annotations

import os
from pathlib import Path

from peerboard.node import dirs
from peerboard.protocol.logfile import frame, header_frame
from peerboard.protocol.records import Entry, SignedGenesis


data_dir = dirs.data_dir  # where a user's games live (node/dirs.py works it out, with the identity's)


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

    def _write(self, data: bytes, sync: bool = True) -> None:
        self._handle.write(data)
        self._handle.flush()
        self._size += len(data)
        if sync:
            self.sync()

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> "LogFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
