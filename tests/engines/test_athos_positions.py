"""The Athos position builder (tests/support/athos_positions.py) checked itself, so the rule
tests built on it can be trusted."""
from peerboard.engines.athos.board import NODE_NAMES
from support.athos_positions import arrived, node, position


def test_position_puts_monks_and_tiles_where_told():
    state = position(monks={0: ["e5", "summit"]}, blocking=["e6"], open_tiles=["e7"], fixed=["e7"])
    assert [NODE_NAMES[n] for n in state.monks[0]] == ["e5", "B", "summit"]
    assert state.tiles[node("e6")] == "O" and state.tiles[node("e7")] == "o"
    assert state.fixed == (node("e7"),)
    assert arrived(state, 0) == 1
