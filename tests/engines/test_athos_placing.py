"""Placing tiles: blocking side up, on a free hex of the tile's colour, within the limits."""
import pytest
from support.athos_positions import node, play, position, refused

from peerboard.engines.athos import GAME
from peerboard.engines.athos.board import COLOURS, HEX_COLOUR, HEX_COUNT, NODE_NAMES
from peerboard.engines.athos.state import PLACE


def placing(players=2, **kw):
    return position(players, phase=PLACE, pool=0, **kw)


def colours_offered(state):
    return {COLOURS[HEX_COLOUR[node(a[1])]] for a in GAME.legal_actions(state) if a[0] == "place"}


def test_a_tile_is_placed_blocking_side_up_on_a_hex_of_its_colour():
    state = play(placing(), "place c3")
    assert state.tiles[node("c3")] == "Y" and state.placed == (0, 1, 0, 0, 0)


@pytest.mark.parametrize(
    "players, per_turn, per_colour", [(2, 8, 2), (3, 5, 2), (4, 4, 1)]
)
def test_tiles_per_turn_and_per_colour_by_player_count(players, per_turn, per_colour):
    green_full = placing(players, placed=(per_colour, 0, 0, 0, 0))
    assert colours_offered(green_full) == {"yellow", "orange", "brown", "white"}
    assert f"placed {per_colour} green" in refused(green_full, "place a1")
    spread = [min(per_colour, per_turn - per_colour * i) for i in range(5)]
    spread = [max(0, n) for n in spread]
    assert sum(spread) == per_turn
    done = placing(players, placed=tuple(spread))
    assert GAME.legal_actions(done) == [("end_turn",)]
    assert f"has placed its {per_turn} tiles" in refused(done, "place k1")


def test_fewer_tiles_are_allowed():
    state = play(placing(), "place a1", "end turn")
    assert state.actor == 1 and state.placed == (0, 0, 0, 0, 0)


def test_a_turns_tiles_go_down_in_board_order_so_each_set_is_offered_once():
    state = play(placing(), "place c3")
    offered = [a[1] for a in GAME.legal_actions(state) if a[0] == "place"]
    assert offered[0] == "c4" and "a1" not in offered and "c2" not in offered
    assert "after c3 only a later hex may take one, not a1" in refused(state, "place a1")
    state = play(state, "place k7")  # the last hex: nothing can follow, so the turn ends
    assert (state.actor, state.phase, state.last_placed) == (1, "move", -1)


def test_the_client_sends_planned_placements_in_board_order():
    state = placing()
    planned = [("place", "e5"), ("place", "a2"), ("place", "c3")]
    assert GAME.plan_order(state, planned) == [("place", "a2"), ("place", "c3"), ("place", "e5")]
    for action in GAME.plan_order(state, planned):
        state = GAME.apply(state, action)
    assert state.placed == (1, 1, 1, 0, 0)


def test_a_placement_phase_with_no_tile_left_to_place_passes_by_itself():
    all_out = [  # 16 tiles of each colour, open side up, on hexes of their colour
        NODE_NAMES[h] for c in range(5) for h in [x for x in range(HEX_COUNT) if HEX_COLOUR[x] == c][-16:]
    ]
    state = position(monks={0: ["a1"]}, open_tiles=all_out, pieces=(0, 2))
    state = play(state, "end move")
    assert (state.actor, state.phase) == (1, "move")
    assert state.last_spent == (0, 0)


def test_a_colour_whose_16_tiles_are_out_cannot_be_placed():
    whites = [NODE_NAMES[h] for h in range(HEX_COUNT) if COLOURS[HEX_COLOUR[h]] == "white"][:16]
    state = placing(open_tiles=whites)
    assert "white" not in colours_offered(state)
    assert "All 16 white tiles are on the board" in refused(state, "place k7")


def test_no_tile_goes_on_a_hex_with_a_monk_or_a_tile_or_off_the_hexes():
    state = placing(monks={0: ["e5"]}, blocking=["e6"])
    assert "a monk stands on e5" in refused(state, "place e5")
    assert "e6 already has a tile" in refused(state, "place e6")
    assert "needs a hex" in refused(state, "place A")


def test_a_placement_that_cuts_a_monk_off_is_refused_and_says_so():
    blocking = [f"f{i}" for i in range(1, 13) if i != 5]
    state = placing(monks={0: ["e5"]}, blocking=blocking)
    assert ("place", "f5") not in GAME.legal_actions(state)
    assert "would cut monk on e5 off from the summit" in refused(state, "place f5")


def test_the_way_up_may_run_through_a_start_area():
    # a2 is walled in by a1 a3 b1 b2, but start area A links it to a4, its only way up
    state = placing(monks={0: ["a2"]}, blocking=["a1", "a3", "b1", "b2"])
    assert ("place", "a5") in GAME.legal_actions(state)
    assert ("place", "a4") not in GAME.legal_actions(state)
    assert "would cut monk on a2 off from the summit" in refused(state, "place a4")
