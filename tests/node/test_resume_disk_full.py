"""A full disk (issue 22, point 8): the node says "the disk is full: the game is paused,
nothing is lost; free space, then `peerboard resume FILE`", exits with the halted-game status,
leaves no empty errors file — and once there is room again, resume finishes the game. An
append that fails takes back the part of its record it wrote, so the log stays whole."""
from __future__ import annotations

import errno
import io
import subprocess

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, join_args, logs, verify, wait_until
from support.stored_games import build
from peerboard.client.exitcode import ExitCode
from peerboard.node.storage import LogFile
from peerboard.protocol.log.logfile import read_log


class FillsUp(io.RawIOBase):
    """A log file on a disk with `room` bytes left: a write takes what fits, the next one
    fails with ENOSPC, as a real file system's does."""

    def __init__(self, handle, room: int):
        self.handle, self.room = handle, room

    def write(self, data) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        n = self.handle.write(bytes(data[:self.room]))
        self.room -= n
        return n

    def __getattr__(self, name):
        return getattr(self.handle, name)

    def truncate(self, size=None):
        return self.handle.truncate(size)

    def seek(self, pos, whence=0):
        return self.handle.seek(pos, whence)

    def tell(self):
        return self.handle.tell()

    def fileno(self):
        return self.handle.fileno()


def test_an_append_the_disk_has_no_room_for_is_taken_back_and_the_log_stays_whole(tmp_path):
    game = build("aton", seed=6, entries=30)
    path = tmp_path / "g.pblog"
    with LogFile.create(path, game.ledger.genesis) as log:
        for entry in game.entries[:20]:
            log.append(entry)
    whole = path.read_bytes()
    log = LogFile.reopen(path, len(whole))
    log._handle = FillsUp(log._handle, room=37)  # (37 bytes of the next record fit)
    with pytest.raises(OSError) as full:
        log.append(game.entries[20])
    log.close()
    assert full.value.errno == errno.ENOSPC
    assert path.read_bytes() == whole and read_log(whole).error is None


def _mount_small_disk(where, size: str) -> None:
    where.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                              capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"cannot mount a small tmpfs to fill up ({exc}): the fake full disk above stands in")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs to fill up ({done.stderr.strip() or done.returncode}): "
                    f"the fake full disk above stands in")


@pytest.mark.processes
def test_a_node_whose_disk_fills_up_pauses_the_game_in_one_line_and_resume_finishes_it_once_there_is_room(tmp_path):
    home = tmp_path / "seat1"  # seat 1's data directory: its identity, its seat file, its log
    _mount_small_disk(home, "28k")
    procs = Procs(tmp_path)
    flags = ["--headless", "--think", "0.01"]
    try:
        host = procs.start("seat0", "host", "aton", "--players", "2", "--no-beacon", "--bind", LOOPBACK, *flags)
        seat1 = procs.start("seat1", "join", *join_args(host), "--bind", LOOPBACK, *flags)
        said = seat1.wait_for(r"the disk is full: the game is paused, nothing is lost; free space, then "
                              r"`peerboard resume (\S+)`", 120)
        assert seat1.wait(30) == ExitCode.HALTED, seat1.text()[-2000:]
        path = wait_until(lambda: logs(home) and logs(home)[0], 5, "seat 1's log")
        assert said.group(1) == str(path)
        assert "Traceback" not in seat1.text() and "details in" not in seat1.text()
        assert not list(home.rglob("*.errors.txt")), "an errors file on a full disk"
        stored = read_log(path.read_bytes())
        assert stored.error is None and stored.entries  # whole records only, every one kept
        assert host.popen.poll() is None  # the game waits for seat 1

        subprocess.run(["mount", "-o", "remount,size=4m", str(home)], check=True, timeout=20)  # room again
        resumed = procs.start("seat1", "resume", str(path), *flags)
        assert resumed.wait(120) == 0, resumed.text()[-2000:]
        assert host.wait(60) == 0, host.text()[-2000:]
        assert read_log(path.read_bytes()).entries[:len(stored.entries)] == stored.entries
        assert_same_logs([path, logs(host.home)[0]])
        assert "valid:" in verify(path)
    finally:
        procs.close()
        subprocess.run(["umount", "-l", str(home)], capture_output=True, timeout=20)
