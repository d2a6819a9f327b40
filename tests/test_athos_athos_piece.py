"""The Athos piece: move one tile, then fix one tile for good; one a turn, two a game."""
from test_athos_movement import play, refused
from test_athos_positions import node, position

from engines.athos import GAME
from engines.athos.state import ATHOS, FIX, PLACE


def athos_phase(**kw):
    return position(phase=ATHOS, pool=0, **kw)


def test_a_tile_moves_same_side_up_to_a_free_hex_of_any_colour_then_the_piece_is_fixed():
    state = athos_phase(monks={0: ["e5"]}, blocking=["a1"])
    state = play(state, "tile a1-k7")
    assert state.phase == FIX
    assert state.tiles[node("a1")] == "." and state.tiles[node("k7")] == "G"  # still green
    state = play(state, "fix k7")
    assert state.fixed == (node("k7"),) and state.pieces == (1, 2) and state.phase == PLACE


def test_the_piece_may_go_on_another_tile_even_one_with_a_monk():
    state = athos_phase(monks={0: ["e5"]}, blocking=["a1"], open_tiles=["e5"])
    state = play(state, "tile a1-a2", "fix e5")
    assert state.fixed == (node("e5"),)


def test_a_fixed_tile_can_never_be_moved_again():
    state = athos_phase(monks={0: ["e5"]}, blocking=["a1"], fixed=["a1"])
    assert GAME.legal_actions(state) == [("skip_athos",)]
    assert "carries an Athos piece" in refused(state, "tile a1-a2")


def test_a_tile_with_a_monk_on_it_cannot_be_moved():
    state = athos_phase(monks={0: ["e5"]}, open_tiles=["e5"])
    assert "A monk stands on e5" in refused(state, "tile e5-e6")


def test_a_tile_moves_only_to_a_hex_without_tile_or_monk():
    state = athos_phase(monks={0: ["e5"]}, blocking=["a1", "a2"])
    assert "a2 already has a tile" in refused(state, "tile a1-a2")
    assert "a monk stands on e5" in refused(state, "tile a1-e5")


def test_moving_a_tile_that_would_cut_a_monk_off_is_refused():
    blocking = [f"f{i}" for i in range(1, 13) if i != 5] + ["a1"]
    state = athos_phase(monks={0: ["e5"]}, blocking=blocking)
    assert ("move_tile", "a1", "f5") not in GAME.legal_actions(state)
    assert "would cut monk on e5 off from the summit" in refused(state, "tile a1-f5")
    # moving a tile out of the wall and into the gap keeps a way open
    assert ("move_tile", "f4", "f5") in GAME.legal_actions(state)


def test_without_a_tile_to_move_no_piece_can_be_placed():
    assert GAME.legal_actions(athos_phase(monks={0: ["e5"]})) == [("skip_athos",)]


def test_one_piece_a_turn_and_two_a_game():
    state = athos_phase(blocking=["a1"], pieces=(1, 2))
    state = play(state, "tile a1-a2", "fix a2")
    assert state.phase == PLACE and state.pieces == (0, 2)
    state = play(state, "end turn", "end move", "skip athos", "end turn", "end move")
    assert state.seat == 0 and state.phase == PLACE  # no Athos phase without pieces


def test_athos_on_empty_lets_the_piece_fix_an_empty_hex_where_no_tile_may_go():
    options = {"athos_on_empty": True}
    plain = play(athos_phase(blocking=["a1"]), "tile a1-a2")
    assert ("fix", "c3") not in GAME.legal_actions(plain)
    assert "has no tile" in refused(plain, "fix c3")
    state = play(position(2, options, phase=ATHOS, blocking=["a1"]), "tile a1-a2", "fix c3")
    assert state.fixed == (node("c3"),)
    assert ("place", "c3") not in GAME.legal_actions(state)
    assert "c3 carries an Athos piece, so no tile may ever go there" in refused(state, "place c3")
