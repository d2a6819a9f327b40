"""The Asterix position builder and walk oracle (tests/support/asterix_positions.py) checked
themselves, so the rule tests built on them can be trusted."""
from dataclasses import replace

from peerboard.engines.asterix.state import MOVE
from support.asterix_positions import GAME, oracle_landings, position, sq


def test_a_position_puts_the_pawns_where_the_diagram_says():
    state = position(pawns=("a1", "h8"), phase=MOVE, dice=(1,))
    assert state.pawns == (0, 63)
    assert GAME.render_text(state).count("#") >= 4


def test_the_oracle_walks_one_step_to_the_eight_neighbours():
    state = replace(position(), pawns=(sq("b2"), sq("e4")))
    assert oracle_landings(state.tiles, sq("b2"), 1, 3) == {"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"}
