"""The text board: the mountain in under 80 columns, with everything a player must see,
drawn the same every time (its snapshots: tests/engines/test_snapshots.py), and its styles naming
what each piece is."""
from support.athos_positions import play, position

from peerboard.engines.athos import GAME
from peerboard.engines.styled import plain


def board(state, seat=None):
    text = GAME.render_text(state, seat)
    assert max(len(line) for line in text.splitlines()) <= 80
    return text


def test_every_row_has_its_column_numbers_and_its_colour():
    lines = board(GAME.new_game(2)).splitlines()
    k = lines.index(next(line for line in lines if line.startswith("k ")))
    assert lines[k - 1].split() == ["1", "2", "3", "4", "5", "6", "7", "white"]
    a = lines.index(next(line for line in lines if line.startswith("a ")))
    assert lines[a - 1].split()[-2:] == ["17", "green"]


def test_empty_hexes_blocking_and_open_tiles_have_marks_of_their_own():
    row_a = next(line for line in board(position(blocking=["a1"], open_tiles=["a2"])).splitlines()
                 if line.startswith("a "))
    assert row_a.startswith("a #   =   .   .")


def test_shared_hexes_name_both_monks_and_a_line_says_so():
    text = board(play(position(monks={0: ["e5"], 1: ["e6"]}), "e5-e6"))
    row_e = next(line for line in text.splitlines() if line.startswith("e "))
    assert ". 01" in row_e
    assert "Monks of seats 0 and 1 share e6: they part before the move ends." in text


def test_start_areas_the_summit_and_the_points_left_are_named():
    text = board(play(position(monks={0: ["k1", "B"]}, arrivals=()), "k1-summit"), seat=0)
    assert "summit (every hex of row k leads up)  arrivals in order: 0" in text
    assert "[B 0 0]" in text and "[D 1 1 1]" in text and "[A -]" in text
    assert "Round 1: seat 0 to act, move phase.\n8 points left (3 of them bonus), 1 used this turn." in text
    assert "seat 0 (you)" in text


def test_more_monks_in_a_start_area_than_its_box_shows_are_named_below():
    state = position(4, monks={1: ["A", "A", "A"]})
    text = board(state)
    assert "[A 0 0 0+]" in text
    assert "Start area A holds monks of seats 0 0 0 1 1 1." in text


def test_the_styles_name_tiles_by_side_and_colour_monks_by_seat_and_pieces():
    state = position(monks={1: ["e5"]}, blocking=["a1"], open_tiles=["k7"], fixed=["k7"])
    fragments = GAME.render_styled(state)
    assert plain(fragments) == GAME.render_text(state)
    styles = {style for style, _ in fragments}
    assert {"tile.blocking.green", "tile.open.white", "tile.empty.orange", "piece", "seat.1",
            "summit", "area", "label", "legend"} <= styles
    assert ("seat.1", "1") in fragments


def test_a_moved_tile_keeps_its_colour_in_style_and_is_named():
    state = play(position(phase="athos", pool=0, blocking=["a1"]), "lift a1", "drop k1")
    fragments = GAME.render_styled(state)
    assert ("tile.blocking.green", "#") in fragments  # on a white hex
    assert "Tiles off their colour: k1 green" in GAME.render_text(state)


def test_the_status_line_follows_the_phase():
    state = play(position(monks={0: ["e5"]}), "end move", "place a1")
    assert "Tiles placed 1/8 (at most 2 a colour); the next after a1 (board order)." in board(state)
    over = position(monks={0: ["summit"] * 3}, phase="over", arrivals=(0, 0, 0))
    assert "Game over after round 1. On the board: seat 0 won." in board(over)
