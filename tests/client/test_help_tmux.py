"""F1 in a real terminal (tmux), with NO_COLOR: Athos's rows still tell their colour on the
full-screen board (`a G`, `k W`), and the help teaches the board and scrolls to its end."""
import sys
import time

import pytest

from support.tui_harness import HAVE_TMUX, Tmux

pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed: the real-terminal tests need it")]
PEERBOARD = f"{sys.executable} -m peerboard.client.cli"


def test_no_color_athos_rows_read_by_their_letters_and_f1_teaches_the_board_to_its_end(tmp_path):
    t = Tmux(f"{PEERBOARD} play athos --bots 1 --name ann", 120, 40,
             {"PEERBOARD_HOME": str(tmp_path / "home"), "NO_COLOR": "1", "PEERBOARD_BELL": "off"})
    try:
        screen = t.wait_for("Your turn:")
        rows = [line.split() for line in screen.split("\n")]
        labels = {words[0]: words[1] for words in rows if len(words) > 2 and len(words[0]) == 1
                  and words[0] in "abcdefghijk" and words[1] in "GYOBW"}
        assert labels == {"a": "G", "b": "G", "c": "Y", "d": "Y", "e": "O", "f": "O", "g": "B", "h": "B",
                          "i": "W", "j": "W", "k": "W"}
        t.keys("F1")
        screen = t.wait_for("Reading the board.")
        assert "G green (rows a-b)" in screen
        for _ in range(10):  # PgDn until the help's end is in view
            if "Esc, F1 or ? closes this help." in t.screen():
                break
            t.keys("PageDown")
            time.sleep(0.3)
        screen = t.wait_for("Esc, F1 or ? closes this help.", 10)
        assert "the fewest points used in the last turn wins" in screen  # the rules' last line
        t.keys("F1")
        t.keys("F10")
        t.wait_for("EXIT=")
    finally:
        t.close()
