"""The text board: the mountain in under 80 columns, with everything a player must see."""
from test_athos_movement import play
from test_athos_positions import position

from engines.athos import GAME


def test_the_board_fits_80_columns_and_shows_tiles_monks_pieces_areas_and_summit():
    state = position(
        monks={0: ["e5", "summit"], 1: ["k1", "D", "D"]},
        blocking=["e6"], open_tiles=["e5", "a1"], fixed=["a1"], arrivals=(0,),
    )
    text = GAME.render_text(state, seat=0)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0] == "summit (arrivals in order): 0"
    assert lines[1].startswith("k                     w1 ")  # seat 1's monk on k1
    row_e = next(line for line in lines if line.startswith("e "))
    assert "O0 " in row_e and "O# " in row_e  # monk on a passable tile, a blocking tile
    row_a = next(line for line in lines if line.startswith("a "))
    assert row_a.startswith("a G.*")  # a passable green tile under an Athos piece
    assert "[B:0]" in text and "[D:11]" in text and "[A:-]" in text
    assert "seat 0 (you)" in text
    assert "Round 1, seat 0 to act, move phase, 6 points left." in text
    assert "Supply G15 Y16 O14 B16 W16" in text


def test_the_status_line_follows_the_phase():
    state = play(position(monks={0: ["e5"]}), "end move", "skip athos", "place a1")
    assert "placement phase, tiles placed 1/8 (max 2 a colour)" in GAME.render_text(state)
    over = position(monks={0: ["summit"] * 3}, phase="over", arrivals=(0, 0, 0))
    assert "Game over after round 1. Winners: seats [0]." in GAME.render_text(over)
