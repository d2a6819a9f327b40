"""Table chat between real node processes on loopback, typed at the line prompt in real
terminals (tmux): a line said at one node is shown at the other, escaped, and kept in the
chat file beside both logs, never in the logs themselves."""
from __future__ import annotations

import shutil
import sys

import pytest

from lanhelp import LOOPBACK, ROOT, Tmux, logs, wait_until
from peerboard.node.chatfile import chat_path, read_chat_file
from peerboard.protocol.logfile import read_log

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
