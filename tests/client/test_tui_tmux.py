"""The replay viewer in a real terminal (tmux): `peerboard replay FILE` opens full screen,
arrow keys step, a number jumps, help opens and closes, a resize from too small to large
enough redraws, F10 leaves with exit status 0; `replay --verify` of several files.

Each test has its own tmux server (`tmux -L <unique socket>`) and polls the captured
screen for what it waits for, bounded in time."""
import sys
import time

import pytest
from support.tui_harness import HAVE_TMUX, Tmux

pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed")]


@pytest.fixture
def tmux_of():
    made = []

    def make(command: str, columns: int = 120, rows: int = 32) -> Tmux:
        made.append(Tmux(command, columns, rows))
        return made[-1]

    yield make
    for t in made:
        t.close()


def test_the_replay_viewer_steps_jumps_helps_and_leaves_in_a_real_terminal(tmux_of):
    t = tmux_of(f"{sys.executable} -m peerboard.client.cli replay spec/vectors/aton.pblog")
    t.wait_for("0/74 · everything · Aton · aton.pblog")
    t.wait_for("valid: aton, seats 0:seat-0, 1:seat-1, 74 entries")  # the check, once it is in
    t.keys("Right", "Right", "Right")
    t.wait_for("│ 3/74 ·")
    t.keys("4", "2", "Enter")
    screen = t.wait_for("│ 42/74 ·")
    assert "Temple 1" in screen and "Kingdom of the Dead" in screen
    t.keys("?")
    t.wait_for("Aton, 2 players: red (seat 0) and blue (seat 1)")
    t.keys("F1")
    deadline = time.monotonic() + 10
    while "Aton, 2 players" in t.screen() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "Aton, 2 players" not in t.screen()
    t.keys("End")
    t.wait_for("│ 74/74 ·")
    t.keys("F10")
    screen = t.wait_for("EXIT=")
    assert "EXIT=0" in screen and "Traceback" not in screen


@pytest.mark.parametrize("columns", [120, 170])
def test_the_header_shows_the_entry_and_whose_view_f6_shows(tmux_of, tmp_path, columns):
    """(issue 24, 9: the header was cut to the panel's width before the entry number.)"""
    from pathlib import Path

    log = tmp_path / "asterix-20261201-134502-3fa9c2d1-qkvy-yhgc.pblog"
    log.write_bytes((Path(__file__).resolve().parents[2] / "spec" / "vectors" / "asterix.pblog").read_bytes())
    t = tmux_of(f"{sys.executable} -m peerboard.client.cli replay {log}", columns, 32)
    t.wait_for("│ 0/52 · everything")
    t.keys("PageDown", "F6")
    t.wait_for("│ 10/52 · as seat 0")
    t.keys("F6", "F6", "F6")
    t.wait_for("│ 10/52 · everything")
    t.keys("F10")
    assert "EXIT=0" in t.wait_for("EXIT=")


def test_a_terminal_too_small_gets_one_message_and_growing_it_redraws_the_board(tmux_of):
    t = tmux_of(f"{sys.executable} -m peerboard.client.cli replay spec/vectors/athos.pblog", 70, 20)
    t.wait_for("Athos needs a terminal of at least")
    t.resize(120, 30)
    screen = t.wait_for("summit, arrivals")
    assert "needs a terminal" not in screen
    t.keys("F10")
    assert "EXIT=0" in t.wait_for("EXIT=")


def test_verifying_several_files_in_a_terminal_ends_with_every_verdict(tmux_of):
    files = " ".join(f"spec/vectors/{g}.pblog" for g in ("aton", "asterix", "athos"))
    t = tmux_of(f"{sys.executable} -m peerboard.client.cli replay --verify {files}")
    screen = t.wait_for("EXIT=", seconds=60)
    assert "3 of 3 valid" in screen and "EXIT=0" in screen and "Traceback" not in screen
    assert "spec/vectors/athos.pblog: valid: athos" in screen
