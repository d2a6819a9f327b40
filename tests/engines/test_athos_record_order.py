"""The Athos record lists the hexes carrying an Athos piece in board order (a1, a2, …, k7),
whatever order the pieces went down in (spec/games/athos.md, "The public record", field
13): two games that reach one position by different turns have one state hash."""
from support.athos_positions import node, play, position

from peerboard.engines.athos import GAME
from peerboard.engines.athos.state import ATHOS

FIXED_FIELD = 13


def test_a_piece_fixed_before_an_earlier_hexs_piece_is_listed_in_board_order():
    # g7 already carries seat 1's piece; seat 0 now fixes one on e5, earlier on the board
    state = position(phase=ATHOS, pool=0, monks={0: ["a9"]}, blocking=["a1", "g7"],
                     open_tiles=["e5"], fixed=["g7"], pieces=(2, 1))
    state = play(state, "lift a1", "drop a2", "fix e5")
    assert state.fixed == (node("e5"), node("g7"))
    assert GAME.public_record(state)[FIXED_FIELD] == ("e5", "g7")
