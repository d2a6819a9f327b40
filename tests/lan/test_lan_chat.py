"""Table chat between real node processes on loopback, typed at the line prompt in real
terminals (tmux): a line said at one node is shown at the other, escaped, and kept in the
chat file beside both logs, never in the logs themselves; a spectator's line reaches every
seat."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from support.lanhelp import LOOPBACK, ROOT, Procs, Tmux, join_args, logs, wait_until
from peerboard.node.chatfile import chat_path, read_chat_file
from peerboard.protocol.log.logfile import read_log

pytestmark = pytest.mark.tmux

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _prompt(home, *args: str) -> str:
    return (f"cd {ROOT} && PEERBOARD_HOME={home} {sys.executable} -m peerboard.client.cli "
            + " ".join(args) + " --plain; echo EXIT=$?; sleep 60")


def _chat_of(home):
    """The lines of the chat file beside the one log under `home` (its own table's)."""
    [log] = logs(home)
    table = read_log(log.read_bytes()).genesis.terms.table
    return [line.text for line in read_chat_file(chat_path(log), table)[0]]


@needs_tmux
def test_a_line_said_at_one_prompt_is_shown_at_the_other_and_kept_beside_both_logs(tmp_path):
    ann_home, bob_home = tmp_path / "ann", tmp_path / "bob"
    ann = Tmux("chat-ann", _prompt(ann_home, "host", "aton", "--bind", LOOPBACK, "--no-beacon", "--name", "ann"))
    bob = None
    try:
        m = ann.wait_for(r"from anywhere: peerboard join (\S+) --key (\S+) --table (\S+) --game (\S+)")
        bob = Tmux("chat-bob", _prompt(bob_home, "join", m.group(1), "--key", m.group(2), "--table", m.group(3),
                                       "--game", m.group(4), "--bind", LOOPBACK, "--name", "bob"))
        ann.wait_for("The game has started")
        bob.wait_for("The game has started")
        bob.type("say hi")  # (before the game ends nothing is in the way: chat is beside it)
        ann.wait_for(r"seat 1 \(bob\) says: hi")
        ann.type("say good luck, bob \x1b[31m")  # (a real escape: it reaches bob, shown escaped)
        bob.wait_for(r"seat 0 \(ann\) says: good luck, bob \\x1b\[31m")
        bob.wait_for(r"You said: hi")
        ann.type("say " + "x" * 201)
        ann.wait_for("A line to the table holds at most 200 characters")
        ann.type("say")
        ann.wait_for(r"Say what\? `say TEXT` says TEXT to the table")
        said = ["hi", "good luck, bob \x1b[31m"]
        for home in (ann_home, bob_home):
            wait_until(lambda: _chat_of(home) == said, 10, f"the chat file in {home}")
            [log] = logs(home)
            assert b"good luck" not in log.read_bytes()  # beside the log, never in it
        for term in (ann, bob):
            term.type("quit")
            screen = term.wait_for("EXIT=", 20).string
            assert "Traceback" not in screen
    finally:
        ann.close()
        if bob is not None:
            bob.close()


@needs_tmux
def test_a_spectator_says_something_and_both_seats_hear_it(tmp_path):
    watcher_home = tmp_path / "eve"
    key = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "key"], capture_output=True, text=True,
                         timeout=60, cwd=str(ROOT), env={**os.environ, "PEERBOARD_HOME": str(watcher_home)})
    public = key.stdout.split("public key")[1].split()[0]
    procs = Procs(tmp_path)
    slow = ["--headless", "--think", "0.5", "--spectator", public, "--max-seconds", "90"]
    eve = None
    try:
        host = procs.start("ann", "host", "aton", "--bind", LOOPBACK, "--no-beacon", "--name", "ann", *slow)
        args = join_args(host)
        bob = procs.start("bob", "join", *args, "--bind", LOOPBACK, "--name", "bob", *slow)
        host.wait_for("The game has started", 30)
        eve = Tmux("chat-eve", _prompt(watcher_home, "join", *args, "--watch", "--bind", LOOPBACK, "--name", "eve"))
        eve.wait_for("you are watching", 30)
        eve.type("say hello, seats")
        eve.wait_for(r"You said: hello, seats")
        for seat, home in ((host, tmp_path / "ann"), (bob, tmp_path / "bob")):
            seat.wait_for(r"spectator \S+ says: hello, seats", 20)
            wait_until(lambda: _chat_of(home) == ["hello, seats"], 10, f"the chat file in {home}")
        assert "Traceback" not in host.text() + bob.text()
    finally:
        if eve is not None:
            eve.close()
        procs.close()
