"""Boards in colour on a terminal, plain text everywhere else (client/colour.py)."""
import os
import pty
import subprocess
import sys

import pytest

from peerboard.client.colour import paint, wants_colour

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ESC = "\x1b["


class Stream:
    def __init__(self, tty):
        self.tty = tty

    def isatty(self):
        return self.tty


def test_colour_only_on_a_terminal_and_never_with_no_color_set():
    assert wants_colour(Stream(True), {})
    assert not wants_colour(Stream(False), {})
    assert not wants_colour(Stream(True), {"NO_COLOR": "1"})
    assert wants_colour(Stream(True), {"NO_COLOR": ""})  # no-color.org: empty means unset


def test_painting_keeps_the_text_and_colours_each_style_by_its_longest_known_prefix():
    fragments = [("tile.blocking.green", "#"), ("", " "), ("seat.1", "1"), ("nothing.known", "x\ny")]
    assert paint(fragments, False) == "# 1x\ny"
    painted = paint(fragments, True)
    assert painted.startswith(f"{ESC}1;30;42m#{ESC}0m {ESC}1;34m1{ESC}0m")
    assert painted.endswith("x\ny")  # an unknown style stays plain


def _replay(*env_extra, tty):
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.update(dict(env_extra))
    args = [sys.executable, "-m", "peerboard.client.cli", "replay", os.path.join(ROOT, "spec", "vectors", "asterix.pblog")]
    if not tty:
        return subprocess.run(args, env=env, capture_output=True, text=True, timeout=120).stdout
    leader, follower = pty.openpty()
    proc = subprocess.Popen(args, env=env, stdout=follower, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode()


@pytest.mark.processes
def test_the_replayed_board_is_coloured_on_a_terminal_and_plain_in_a_pipe():
    assert ESC in _replay(tty=True)
    assert ESC not in _replay(tty=False)
    assert ESC not in _replay(("NO_COLOR", "1"), tty=True)
