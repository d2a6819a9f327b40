"""The board picture: a1 bottom left, pawns that cannot be read as a count, crowded squares
named in full, drawn the same every time (its snapshots: tests/engines/test_snapshots.py), with
styles for the client."""

from peerboard.engines.styled import plain
from support.asterix_positions import GAME, position


def test_pawns_on_a_square_are_listed_in_brackets_never_as_a_number():
    board = """
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . # # . . .
. . . # # . . .
. . . . . . . .
. . . . . . . .
M . . . . . . .
"""
    text = GAME.render_text(position(board, pawns=("d4", "a1", "a1"), dice=(2,)))
    rank1 = next(line for line in text.splitlines() if line.startswith(" 1 "))
    assert rank1.split()[1] == "M(1,2)"
    assert "M12" not in text


def test_more_than_three_pawns_on_a_square_are_named_in_full_below_the_board():
    text = GAME.render_text(position(pawns=("d4",) * 5 + ("e5",), dice=(2,)))
    assert "#(0,1+)" in text
    assert "d4 holds the pawns of seats 0, 1, 2, 3, 4." in text


def test_the_styles_name_tile_kinds_and_pawns_by_seat():
    state = position(pawns=("c3", "e5"), dice=(2,))
    fragments = GAME.render_styled(state, 1)
    assert plain(fragments) == GAME.render_text(state, 1)
    styles = {style for style, _ in fragments}
    assert {"tile.mistletoe", "tile.empty", "tile.village", "seat.0", "seat.1", "label", "you"} <= styles
    assert ("seat.1", "1") in fragments
