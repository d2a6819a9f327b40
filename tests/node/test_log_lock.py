"""One process per log (issue 22, point 2): while a node has a game's log open it holds an OS
lock on it. A second `resume` of that log, or a `join` taking that seat again, says in one
line which process has the game open and stops — before it binds a port or sends a thing —
and the game goes on at the first one to its end."""
from __future__ import annotations

import os

import pytest

from support.lanhelp import LOOPBACK, Procs, assert_same_logs, join_args, logs, verify, wait_until
from support.stored_games import build, store
from peerboard.node.gamefiles import GameFiles, GameOpenElsewhere
from peerboard.node.lock import holder, lock_path


def test_a_log_open_here_cannot_be_opened_again_until_it_is_closed(tmp_path):
    path = store(tmp_path, build("aton", seed=5, entries=20))
    files, _ = GameFiles.reopen(path)
    assert holder(path) == os.getpid() and lock_path(path).read_text().strip() == str(os.getpid())
    with pytest.raises(GameOpenElsewhere, match=f"already open in process {os.getpid()}") as second:
        GameFiles.reopen(path)
    assert second.value.pid == os.getpid()
    files.close()
    assert holder(path) is False and not lock_path(path).exists()
    again, _ = GameFiles.reopen(path)  # (a lock file left by a killed process means nothing either)
    again.close()


def one_line_refusal(proc, says: str) -> str:
    assert proc.wait(30) == 2, proc.text()
    text = proc.text()
    assert text.count("\n") == 1 and says in text and "Traceback" not in text, text
    assert "--bind" not in text  # (the port advice is for a port another program holds)
    return text


@pytest.mark.processes
def test_a_second_resume_and_a_second_join_of_a_running_seat_stop_and_the_first_plays_on_to_the_end(tmp_path):
    procs = Procs(tmp_path)
    flags = ["--headless", "--think", "0.05"]
    try:
        host = procs.start("seat0", "host", "aton", "--players", "2", "--no-beacon", "--bind", LOOPBACK, *flags)
        joined = join_args(host)
        seat1 = procs.start("seat1", "join", *joined, "--bind", LOOPBACK, *flags)
        path = wait_until(lambda: logs(seat1.home) and logs(seat1.home)[0], 30, "seat 1's log")
        wait_until(lambda: path.stat().st_size > 3_000, 60, "the game to get going")
        seat1.kill9()
        first = procs.start("seat1", "resume", str(path), *flags)
        first.wait_for("resuming", 30)

        second = procs.start("seat1", "resume", str(path), *flags)
        one_line_refusal(second, f"already open in process {first.popen.pid}")
        again = procs.start("seat1", "join", *joined, "--bind", LOOPBACK, *flags)
        one_line_refusal(again, f"your seat at this table is already open in process {first.popen.pid}")
        assert first.popen.poll() is None, "the game ended before the second resume was tried: slow it down"

        assert first.wait(120) == 0, first.text()[-2000:]
        assert host.wait(60) == 0, host.text()[-2000:]
        assert "two different entries" not in first.text() + host.text()
        assert_same_logs([path, logs(host.home)[0]])
        assert "valid:" in verify(path)
    finally:
        procs.close()
