"""One process per game log: an OS lock (fcntl.flock) on a lock file beside the log, held for
as long as a node has the log open, the holder's PID written in it (spec/log-format.md,
"One process per log").

Two nodes playing one seat sign two different entries for one seq, and the other seats halt
with an equivocation proof. The lock makes a second `resume` of a running game, a lobby
resume of it, or a `join` taking that seat again stop before anything is sent, with the PID
of the process that has the game open. The kernel drops the lock when its process dies, so a
node killed with kill -9 never leaves its game locked; the file itself may stay behind and
means nothing on its own.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # (not a POSIX system: no lock, as before)
    fcntl = None  # type: ignore[assignment]

LOCK_SUFFIX = ".lock"
#: how often a waiting `acquire` tries again, and how long it tries at least
RETRY_EVERY = 0.05
MOMENT = 0.5


class LogInUse(Exception):
    """Another process has this log open; `pid` is that process (None: it did not say yet)."""

    def __init__(self, path: Path, pid: int | None):
        who = f"process {pid}" if pid is not None else "another process"
        super().__init__(f"the game {path.name} is already open in {who}: play on there (or end that "
                         f"process first)")
        self.path = path
        self.pid = pid


def lock_path(log_path: Path) -> Path:
    return log_path.with_suffix(LOCK_SUFFIX)


class LogLock:
    """The held lock of one log; `release` (or the process's end) lets it go."""

    def __init__(self, path: Path, fd: int | None):
        self.path = path
        self._fd = fd

    @classmethod
    def acquire(cls, log_path: Path, wait: float = 0.0) -> "LogLock":
        """The lock of `log_path`; LogInUse if another process holds it (after trying for
        `wait` seconds: a bot restarted by its host may find its old process still leaving)."""
        log_path = Path(log_path)
        path = lock_path(log_path)
        if fcntl is None:
            return cls(path, None)
        # a lock held for a moment only — `holder` looking, from another process — must not
        # refuse: a held lock is tried for a little while in any case
        deadline = time.monotonic() + max(wait, MOMENT)
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pid = _pid_in(fd)
                os.close(fd)
                if time.monotonic() >= deadline:
                    raise LogInUse(log_path, pid) from None
                time.sleep(RETRY_EVERY)
                continue
            except BaseException:
                os.close(fd)
                raise
            # the holder before us may have removed the file between our open and our lock:
            # then we hold the lock of a name nobody sees, and try again
            try:
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            return cls(path, fd)

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.unlink(self.path)  # (while still held: the next holder never locks a removed name)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None


def holder(log_path: Path) -> int | None | bool:
    """Who has `log_path` open: its PID, None when a process holds it without having said
    its PID yet, False when nobody does."""
    path = lock_path(Path(log_path))
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _pid_in(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def _pid_in(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
        return int(text) if text else None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
