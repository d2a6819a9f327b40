"""Whole turns played in a real terminal (tmux) by the mouse alone, inputs counted
(bench/bench_turn_inputs.py plays them): one click per decision and one send, never a
confirmation the screen did not announce. Athos: a monk's move and the most tiles a turn
allows, clicked in a random order, all sent (in board order); Aton and Asterix: every
decision of the seat's turns clicked, then "F3 Send"."""
import os
import random
import sys

import pytest

from support.tui_harness import HAVE_TMUX, ROOT

sys.path.insert(0, os.path.join(ROOT, "bench"))
import bench_turn_inputs as inputs  # noqa: E402

pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed: the real-terminal tests need it")]


@pytest.fixture
def table(tmp_path):
    made = []

    def make(game: str) -> inputs.Table:
        made.append(inputs.Table(game, tmp_path / f"home{len(made)}"))
        return made[-1]

    yield make
    for t in made:
        t.close()


def test_an_athos_turn_by_mouse_takes_one_click_a_decision_and_one_send_and_every_tile_counts(table):
    t = table("athos")
    rng = random.Random(5)
    for _ in range(2):  # (athos_turn checks that every tile clicked was sent)
        clicks, decisions = inputs.athos_turn(t, "mouse", rng)
        assert clicks == decisions + 1 and decisions >= 6


def test_an_athos_turn_typed_needs_no_phase_ends_typed(table):
    t = table("athos")
    keys, decisions = inputs.athos_turn(t, "keyboard", random.Random(6))
    assert keys < 40 and decisions >= 6  # (before: 86 keys for one move and 8 tiles)


@pytest.mark.parametrize("game", ["aton", "asterix"])
def test_turns_by_mouse_take_one_click_a_decision_and_one_send(table, game):
    t = table(game)
    rng = random.Random(7)
    for _ in range(3):
        got = inputs.turn(t, "mouse", rng)
        assert got is not None
        clicks, decisions = got
        assert clicks == decisions + 1
