"""The Athos piece in three small decisions: lift a tile, drop it on another hex, fix a
tile for good; one a turn, two a game."""
from support.athos_positions import node, play, position, refused

from peerboard.engines.athos import GAME
from peerboard.engines.athos.state import ATHOS, DROP, FIX, MOVE, PLACE


def athos_phase(**kw):
    return position(phase=ATHOS, pool=0, **kw)


def test_a_tile_is_lifted_dropped_same_side_up_on_any_colour_then_the_piece_is_fixed():
    state = play(athos_phase(monks={0: ["e5"]}, blocking=["a1"]), "lift a1")
    assert state.phase == DROP and state.lifted == node("a1")
    state = play(state, "drop k7")
    assert state.phase == FIX
    assert state.tiles[node("a1")] == "." and state.tiles[node("k7")] == "G"  # still green
    state = play(state, "fix k7")
    assert state.fixed == (node("k7"),) and state.pieces == (1, 2) and state.phase == PLACE


def test_the_athos_phase_offers_each_tile_to_lift_then_each_hex_to_drop_it_on():
    state = athos_phase(monks={0: ["e5"]}, blocking=["a1", "a3"])
    assert GAME.legal_actions(state) == [("lift", "a1"), ("lift", "a3"), ("skip_athos",)]
    drops = GAME.legal_actions(play(state, "lift a1"))
    assert len(drops) == 132 - 3  # every hex without a tile or a monk
    assert ("drop", "a1") not in drops and all(kind == "drop" for kind, _ in drops)


def test_the_lifted_tile_must_go_to_another_hex():
    state = play(athos_phase(monks={0: ["e5"]}, blocking=["a1"]), "lift a1")
    assert "must go to another hex than a1" in refused(state, "drop a1")


def test_the_piece_may_go_on_another_tile_even_one_with_a_monk():
    state = athos_phase(monks={0: ["e5"]}, blocking=["a1"], open_tiles=["e5"])
    state = play(state, "lift a1", "drop a2", "fix e5")
    assert state.fixed == (node("e5"),)


def test_a_fixed_tile_can_never_be_lifted_again():
    state = athos_phase(monks={0: ["e5"]}, blocking=["a1", "a2"], fixed=["a1"])
    assert GAME.legal_actions(state) == [("lift", "a2"), ("skip_athos",)]
    assert "carries an Athos piece" in refused(state, "lift a1")


def test_a_tile_with_a_monk_on_it_cannot_be_lifted():
    state = athos_phase(monks={0: ["e5"]}, open_tiles=["e5", "a1"])
    assert "A monk stands on e5" in refused(state, "lift e5")


def test_a_tile_drops_only_on_a_hex_without_tile_or_monk():
    state = play(athos_phase(monks={0: ["e5"]}, blocking=["a1", "a2"]), "lift a1")
    assert "a2 already has a tile" in refused(state, "drop a2")
    assert "a monk stands on e5" in refused(state, "drop e5")


def test_dropping_a_tile_where_it_would_cut_a_monk_off_is_refused():
    blocking = [f"f{i}" for i in range(1, 13) if i != 5] + ["a1"]
    state = play(athos_phase(monks={0: ["e5"]}, blocking=blocking), "lift a1")
    assert ("drop", "f5") not in GAME.legal_actions(state)
    assert "would cut monk on e5 off from the summit" in refused(state, "drop f5")
    # lifting a tile out of the wall and dropping it into the gap keeps a way open
    state = play(athos_phase(monks={0: ["e5"]}, blocking=blocking), "lift f4")
    assert ("drop", "f5") in GAME.legal_actions(state)


def test_a_tile_with_nowhere_to_go_cannot_be_lifted():
    # The monk on e5 is walled in but for e6; every other hex holds a tile, so the
    # blocking tile lifted from a1 could only go to e6, which would shut the monk in.
    wall = ["e4", "d5", "d6", "f4", "f5"]
    free_hexes_but_gap = [h for h in _hex_names() if h not in wall + ["e5", "e6", "a1"]]
    state = athos_phase(monks={0: ["e5"]}, blocking=wall + ["a1"], open_tiles=free_hexes_but_gap)
    assert ("lift", "a1") not in GAME.legal_actions(state)
    assert "has no hex to go to" in refused(state, "lift a1")


def _hex_names():
    from peerboard.engines.athos.board import HEX_COUNT, NODE_NAMES

    return [NODE_NAMES[h] for h in range(HEX_COUNT)]


def test_without_a_tile_to_lift_the_athos_phase_passes_by_itself():
    state = play(position(monks={0: ["e5"]}), "end move")
    assert state.phase == PLACE  # no tile on the board: no piece can be placed


def test_one_piece_a_turn_and_two_a_game():
    state = athos_phase(blocking=["a1", "b1"], pieces=(1, 2))
    state = play(state, "lift a1", "drop a2", "fix a2")
    assert state.phase == PLACE and state.pieces == (0, 2)
    state = play(state, "end turn", "end move", "skip athos", "end turn", "end move")
    assert state.actor == 0 and state.phase == PLACE  # no Athos phase without pieces


def test_athos_on_empty_lets_the_piece_fix_an_empty_hex_where_no_tile_may_go():
    options = {"athos_on_empty": True}
    plain = play(athos_phase(blocking=["a1"]), "lift a1", "drop a2")
    assert ("fix", "c3") not in GAME.legal_actions(plain)
    assert "has no tile" in refused(plain, "fix c3")
    state = play(position(2, options, phase=ATHOS, blocking=["a1"]), "lift a1", "drop a2", "fix c3")
    assert state.fixed == (node("c3"),)
    assert ("place", "c3") not in GAME.legal_actions(state)
    assert "c3 carries an Athos piece, so no tile may ever go there" in refused(state, "place c3")


def test_the_phases_of_the_piece_take_only_their_own_actions():
    state = play(athos_phase(blocking=["a1"]), "lift a1")
    assert "where fix is not possible (possible: drop)" in refused(state, "fix a1")
    assert "where go is not possible" in refused(athos_phase(blocking=["a1"]), "B-a5")
    assert play(position(blocking=["a1"]), "end move").phase == ATHOS != MOVE
