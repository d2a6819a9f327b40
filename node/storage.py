"""Durable game logs on disk: one append-only file per game, fsynced before it counts.

The bytes are protocol/logfile.py's format; this module only opens, appends and syncs.
"""
from __future__ import annotations

import os
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


class LogFile:
    """An open game log. Every `append` is on disk (fsync) when it returns."""

    def __init__(self, path: Path, handle):
        self.path = path
        self._handle = handle

    @classmethod
    def create(cls, path: str | os.PathLike, genesis: SignedGenesis) -> "LogFile":
        """A new log holding the header and the genesis; never overwrites a file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "xb")
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

    def append(self, entry: Entry) -> None:
        self._write(frame(entry.encoded))

    def append_many(self, entries) -> None:
        """Several entries with one fsync (selfplay writes a finished game at once)."""
        self._write(b"".join(frame(e.encoded) for e in entries))

    def _write(self, data: bytes) -> None:
        self._handle.write(data)
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> "LogFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
